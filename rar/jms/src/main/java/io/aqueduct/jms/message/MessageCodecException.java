package io.aqueduct.jms.message;

import jakarta.jms.JMSException;

/**
 * {@link JmsMessageCodec} refuses its input: not an encoded message, an unknown format version,
 * truncated, or corrupt (a checksum mismatch or a value that breaks the format). The error code
 * says which: {@link #NOT_A_MESSAGE}, {@link #UNKNOWN_VERSION}, {@link #TRUNCATED}, {@link #CORRUPT}.
 */
public class MessageCodecException extends JMSException {

    private static final long serialVersionUID = 1L;

    public static final String NOT_A_MESSAGE = "AQJMS-NOT-A-MESSAGE";
    public static final String UNKNOWN_VERSION = "AQJMS-UNKNOWN-VERSION";
    public static final String TRUNCATED = "AQJMS-TRUNCATED";
    public static final String CORRUPT = "AQJMS-CORRUPT";

    public MessageCodecException(String reason, String errorCode) {
        super(reason, errorCode);
    }
}
