package io.aqueduct.jms.message;

/**
 * What kind of destination a stored JMSReplyTo names; stored as its code by {@link JmsMessageCodec},
 * so never renumber.
 */
public enum DestinationKind {
    QUEUE(1), TOPIC(2), TEMPORARY_QUEUE(3), TEMPORARY_TOPIC(4);

    private final int code;

    DestinationKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    static DestinationKind ofCode(int code) {
        for (DestinationKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
