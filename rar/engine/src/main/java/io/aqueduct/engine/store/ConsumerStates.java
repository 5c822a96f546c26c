package io.aqueduct.engine.store;

/** The states of one consumer's part of a message (AQ_MESSAGE_CONSUMER.STATE). */
public final class ConsumerStates {
    private ConsumerStates() {
    }

    public static final int READY = 0;
    /** Waiting for the retry delay after a failed attempt. */
    public static final int WAITING = 1;
    public static final int PROCESSED = 2;
    /** Past max_retries, or the message expired before this consumer took it. */
    public static final int EXPIRED = 3;
    /** The subscriber was removed before it took the message. */
    public static final int UNDELIVERABLE = 4;
}
