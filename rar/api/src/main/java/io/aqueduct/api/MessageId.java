package io.aqueduct.api;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HexFormat;

/** AQ's message identifier: 16 bytes (a RAW(16)), shown as 32 upper-case hex digits. */
public final class MessageId implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final HexFormat HEX = HexFormat.of().withUpperCase();
    private final byte[] bytes;

    private MessageId(byte[] bytes) {
        this.bytes = bytes;
    }

    public static MessageId of(byte[] bytes) {
        if (bytes == null || bytes.length != 16) {
            throw new AqException(AqError.INVALID_VALUE, "A message id has exactly 16 bytes; got "
                    + (bytes == null ? "null" : bytes.length) + ".");
        }
        return new MessageId(bytes.clone());
    }

    /** Parses the 32 hex digits {@link #toString()} prints. */
    public static MessageId parse(String hex) {
        if (hex == null || hex.length() != 32) {
            throw new AqException(AqError.INVALID_VALUE, "A message id is 32 hex digits; got '" + hex + "'.");
        }
        try {
            return new MessageId(HEX.parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new AqException(AqError.INVALID_VALUE, "A message id is 32 hex digits; got '" + hex + "'.");
        }
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageId other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return HEX.formatHex(bytes);
    }
}
