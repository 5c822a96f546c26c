package io.aqueduct.api;

/**
 * One consumer's part of a multi-consumer queue's messages ({@link QueueStatistics#consumers()}), in the
 * state the AQ$&lt;queue_table&gt; view shows for it (the MSG_STATE of its row): a message WAITING for its
 * delay is WAITING for every consumer; a READY one is READY, WAITING (for its retry delay after a failed
 * attempt) or EXPIRED (past max_retries) per consumer; one in the exception queue is EXPIRED for every
 * consumer it was not UNDELIVERABLE to. Messages the consumer has processed, and those UNDELIVERABLE to
 * it (a removed subscriber), are not counted.
 *
 * @param consumer the consumer: a local one has a name and no address, a remote one an address
 * @param waiting its messages WAITING
 * @param ready its messages READY
 * @param expired its messages EXPIRED
 * @param totalWaitSeconds seconds its READY messages have waited, summed (from when each became available)
 * @param averageWaitSeconds {@code totalWaitSeconds / ready}, 0 without READY messages
 * @param oldestReadySeconds how long its READY message that has waited longest has waited, 0 without one
 */
public record ConsumerStatistics(Agent consumer, long waiting, long ready, long expired, double totalWaitSeconds,
        double averageWaitSeconds, double oldestReadySeconds) {
}
