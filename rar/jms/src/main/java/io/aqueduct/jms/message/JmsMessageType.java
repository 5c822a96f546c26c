package io.aqueduct.jms.message;

/**
 * The six kinds of JMS message, with the stable one-byte code {@link JmsMessageCodec} stores.
 * Codes are part of the stored format: never renumber them.
 */
public enum JmsMessageType {
    MESSAGE(0), TEXT(1), BYTES(2), MAP(3), OBJECT(4), STREAM(5);

    private final int code;

    JmsMessageType(int code) {
        this.code = code;
    }

    /** The stored code. */
    public int code() {
        return code;
    }

    /** The type with this code, or null when there is none. */
    static JmsMessageType ofCode(int code) {
        for (JmsMessageType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
