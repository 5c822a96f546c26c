package io.aqueduct.engine;

/**
 * One queue as JMX shows it ({@code io.aqueduct:type=Queue,store=..,node=..,name=OWNER.QUEUE}, registered
 * by the engine while the queue exists and the engine is open): V$AQ's figures, read from the store (the
 * same as {@code QueueAdmin.queueStatistics}, at most once a second), and what this engine's transactions
 * did to the queue since it started. Names and units: docs/metrics.md.
 */
public interface QueueMXBean {
    String getOwner();

    String getName();

    long getQueueId();

    /** Messages WAITING (delay or retry delay), in the store. */
    long getWaiting();

    /** Messages READY, in the store. */
    long getReady();

    /** Messages EXPIRED (exception queue), in the store. */
    long getExpired();

    /** Seconds the READY messages have waited, summed (V$AQ TOTAL_WAIT). */
    double getTotalWaitSeconds();

    /** TOTAL_WAIT / READY (V$AQ AVERAGE_WAIT), seconds. */
    double getAverageWaitSeconds();

    /** How long the READY message that has waited longest has waited, seconds; 0 without one. */
    double getOldestReadySeconds();

    /** Messages enqueued into the queue by this engine's committed transactions since it started. */
    long getEnqueued();

    /** Messages (consumer parts on a multi-consumer queue) dequeued by REMOVE in committed transactions since start. */
    long getDequeued();

    /** Messages of the queue that reached their expiration since start (moved to the exception queue by this engine). */
    long getExpirations();

    /** Messages this engine moved from the queue to its exception queue since start: expired, or past max_retries. */
    long getMovedToExceptionQueue();

    /** Dequeues rolled back since start: failed attempts, each counted in the message's retry count. */
    long getFailedAttempts();

    /** Of the dequeues since start, the summed time from enqueue to dequeue, milliseconds. */
    long getDequeueLatencyTotalMillis();

    /** The longest time from enqueue to dequeue since start, milliseconds. */
    long getDequeueLatencyMaxMillis();

    /** {@code DequeueLatencyTotalMillis / Dequeued} (those whose enqueue time is known), milliseconds; 0 before the first. */
    double getDequeueLatencyAverageMillis();

    /** Buffered messages of the queue in this engine's memory now, delayed ones included (V$BUFFERED_QUEUES NUM_MSGS). */
    long getBufferedMessages();

    /** The memory those buffered messages are counted for against the engine's limit, bytes. */
    long getBufferedBytes();

    /** Buffered messages enqueued into the queue by this engine since it started (V$BUFFERED_QUEUES CNUM_MSGS). */
    long getBufferedEnqueued();

    /** Buffered messages of the queue discarded at their expiration since start (V$BUFFERED_QUEUES EXPIRED_MSGS). */
    long getBufferedExpired();
}
