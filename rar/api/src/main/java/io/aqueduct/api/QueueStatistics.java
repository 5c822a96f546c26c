package io.aqueduct.api;

import java.util.List;

/**
 * A queue's persistent messages by state, as AQ's V$AQ shows them (buffered messages are not in it:
 * {@link QueueAdmin#bufferedQueues()}). The figures are the store's, the same on every node of a shared
 * store: committed messages on PostgreSQL and MariaDB; on Derby the rows as they are, so while
 * transactions are open they may include their uncommitted work (a count there waits for no lock).
 *
 * <p>A message's wait is counted from the moment it became available: its enqueue time (a transaction
 * group member's is its head's), or the end of its delay when it had one (the DELAY of the AQ$ view: on a
 * single-consumer queue a retry delay too).
 *
 * @param owner the queue's schema
 * @param name the queue's name
 * @param queueId the queue's id (QID, as {@link QueueInfo#qid()})
 * @param waiting messages WAITING: delayed, or waiting for the retry delay after a failed attempt (WAITING)
 * @param ready messages READY (READY)
 * @param expired messages EXPIRED: in an exception queue (EXPIRED)
 * @param totalWaitSeconds seconds the READY messages have waited, summed (TOTAL_WAIT)
 * @param averageWaitSeconds {@code totalWaitSeconds / ready}, 0 without READY messages (AVERAGE_WAIT)
 * @param oldestReadySeconds how long the READY message that has waited longest has waited, 0 without READY messages
 * @param consumers on a multi-consumer queue (and its exception queue), the same figures per consumer, by
 *        consumer name and address (its subscribers, also those with nothing pending, and the recipients
 *        named by recipient lists); empty on a single-consumer queue
 */
public record QueueStatistics(String owner, String name, long queueId, long waiting, long ready, long expired,
        double totalWaitSeconds, double averageWaitSeconds, double oldestReadySeconds, List<ConsumerStatistics> consumers) {
    public QueueStatistics {
        consumers = List.copyOf(consumers);
    }

    /** {@code owner.name}. */
    public String qualifiedName() {
        return owner + "." + name;
    }

}
