package io.aqueduct.engine.payload;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message's user properties as the store keeps them ({@code AQ_MESSAGE.USER_PROPS}): a version
 * byte, the number of properties, then per property its name (UTF-8), a type tag and the value
 * (big-endian; strings UTF-8). Compact, typed (an Integer comes back an Integer) and the same on
 * every store; no Java serialization, so nothing in the column can run code when it is read.
 */
public final class UserPropertiesCodec {
    /** The most bytes a message's encoded properties may take: what Derby's row column holds, with room to spare. */
    public static final int MAX_BYTES = 32_000;
    private static final byte VERSION = 1;

    private UserPropertiesCodec() {
    }

    /** The encoded properties; null when there are none. Over {@link #MAX_BYTES}: 24097, before anything is written. */
    public static byte[] encode(Map<String, Object> properties) {
        if (properties == null || properties.isEmpty()) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(properties.size());
            for (Map.Entry<String, Object> e : properties.entrySet()) {
                writeText(out, e.getKey());
                Object v = e.getValue();
                if (v instanceof String s) {
                    out.writeByte('T');
                    writeText(out, s);
                } else if (v instanceof Boolean b) {
                    out.writeByte('Z');
                    out.writeBoolean(b);
                } else if (v instanceof Byte b) {
                    out.writeByte('B');
                    out.writeByte(b);
                } else if (v instanceof Short s) {
                    out.writeByte('S');
                    out.writeShort(s);
                } else if (v instanceof Integer i) {
                    out.writeByte('I');
                    out.writeInt(i);
                } else if (v instanceof Long l) {
                    out.writeByte('J');
                    out.writeLong(l);
                } else if (v instanceof Float f) {
                    out.writeByte('F');
                    out.writeFloat(f);
                } else if (v instanceof Double d) {
                    out.writeByte('D');
                    out.writeDouble(d);
                } else {
                    // MessageProperties refuses other types; this guards callers inside the engine
                    throw new AqException(AqError.INVALID_VALUE, "User property '" + e.getKey() + "' cannot hold a "
                            + (v == null ? "null" : v.getClass().getName()) + ".");
                }
                if (bytes.size() > MAX_BYTES) {
                    throw tooBig(properties);
                }
            }
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
        if (bytes.size() > MAX_BYTES) {
            throw tooBig(properties);
        }
        return bytes.toByteArray();
    }

    private static AqException tooBig(Map<String, Object> properties) {
        return new AqException(AqError.INVALID_VALUE, "The message's " + properties.size() + " user properties take more"
                + " than " + MAX_BYTES + " bytes in the store; put large data in the payload.");
    }

    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** The properties in the order they were set; empty for null. Unreadable bytes: a store failure naming the message. */
    public static Map<String, Object> decode(byte[] encoded, String msgid) {
        if (encoded == null || encoded.length == 0) {
            return Map.of();
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            byte version = in.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("format version " + version + ", this Aqueduct reads " + VERSION);
            }
            int n = in.getInt();
            if (n < 0 || n > encoded.length) {
                throw new IllegalArgumentException("a count of " + n);
            }
            Map<String, Object> out = new LinkedHashMap<>(Math.max(4, n * 2));
            for (int i = 0; i < n; i++) {
                String name = readText(in);
                byte tag = in.get();
                Object value = switch (tag) {
                    case 'T' -> readText(in);
                    case 'Z' -> in.get() != 0;
                    case 'B' -> in.get();
                    case 'S' -> in.getShort();
                    case 'I' -> in.getInt();
                    case 'J' -> in.getLong();
                    case 'F' -> in.getFloat();
                    case 'D' -> in.getDouble();
                    default -> throw new IllegalArgumentException("an unknown type tag " + tag);
                };
                out.put(name, value);
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the last property");
            }
            return Collections.unmodifiableMap(out);
        } catch (BufferUnderflowException | IllegalArgumentException | CharacterCodingException e) {
            throw new AqException(AqError.STORE_FAILURE, "The user properties of message " + msgid + " in the store are"
                    + " unreadable (" + (e.getMessage() == null ? "they end too early" : e.getMessage()) + ").", e);
        }
    }

    private static String readText(ByteBuffer in) throws CharacterCodingException {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a text of " + length + " bytes where " + in.remaining() + " remain");
        }
        ByteBuffer slice = in.slice().limit(length);
        in.position(in.position() + length);
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(slice).toString();
    }
}
