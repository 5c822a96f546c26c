package io.aqueduct.api;

/** A message's state, with AQ's numeric codes (the STATE column). */
public enum MessageState {
    READY(0),
    WAITING(1),
    PROCESSED(2),
    EXPIRED(3);

    private final int code;

    MessageState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static MessageState ofCode(int code) {
        for (MessageState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("No message state with code " + code);
    }
}
