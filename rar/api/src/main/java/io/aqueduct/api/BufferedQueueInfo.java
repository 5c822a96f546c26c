package io.aqueduct.api;

import java.util.Map;

/**
 * A queue's buffered messages on this engine, as AQ's V$BUFFERED_QUEUES (and V$BUFFERED_SUBSCRIBERS)
 * shows them: what is in memory now and what went through since the engine started.
 *
 * @param owner the queue's schema (QUEUE_SCHEMA)
 * @param name the queue's name (QUEUE_NAME)
 * @param queueId the queue's id (QUEUE_ID)
 * @param messages buffered messages in memory now, delayed ones included (NUM_MSGS)
 * @param bytes the memory they take, as the engine counts it against its limit
 * @param enqueued buffered messages enqueued since the engine started (CNUM_MSGS)
 * @param expired buffered messages discarded at their expiration since the engine started (EXPIRED_MSGS)
 * @param subscriberMessages on a multi-consumer queue, the messages each consumer has still to dequeue,
 *        by consumer name (V$BUFFERED_SUBSCRIBERS.NUM_MSGS); empty on a single-consumer queue
 */
public record BufferedQueueInfo(String owner, String name, long queueId, long messages, long bytes, long enqueued,
        long expired, Map<String, Long> subscriberMessages) {
    public BufferedQueueInfo {
        subscriberMessages = Map.copyOf(subscriberMessages);
    }
}
