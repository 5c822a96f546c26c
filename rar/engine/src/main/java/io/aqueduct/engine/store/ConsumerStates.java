package io.aqueduct.engine.session;

import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.ConsumerStateEntity;

/** The states of one consumer's part of a message, and the row that records it. */
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

    static ConsumerStateEntity pending(String msgid, long queueId, Subscriber consumer) {
        ConsumerStateEntity c = new ConsumerStateEntity();
        c.id = ConsumerStateEntity.id(msgid, consumer.key());
        c.msgid = msgid;
        c.queueId = queueId;
        c.consumer = consumer.key();
        c.name = consumer.agent().name();
        c.address = consumer.agent().address();
        c.protocol = consumer.agent().protocol();
        c.state = READY;
        return c;
    }
}
