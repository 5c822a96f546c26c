package io.aqueduct.engine.queue;

import java.util.Comparator;
import io.aqueduct.api.SortOrder;

/**
 * A message that can be dequeued, as the in-memory ready index of its queue knows it: enough to
 * order, select and claim it without touching the database.
 */
public final class ReadyEntry {
    public final String msgid;
    public final int priority;
    public final long orderMs;
    public final long groupSeq;
    public final long seq;
    public final String correlation;
    /** Epoch ms at which the message expires; Long.MAX_VALUE when never. */
    public final long expiresAt;
    /** The consumer (key) whose part of the message this is on a multi-consumer queue; null otherwise. */
    public final String consumer;

    /** Who holds the message now (a session's transaction, the time manager), or null. */
    Object claimant;
    Claim claim;

    public enum Claim {
        LOCKED, REMOVE, TIME_MANAGER
    }

    public ReadyEntry(String msgid, int priority, long orderMs, long groupSeq, long seq, String correlation, long expiresAt) {
        this(msgid, priority, orderMs, groupSeq, seq, correlation, expiresAt, null);
    }

    public ReadyEntry(String msgid, int priority, long orderMs, long groupSeq, long seq, String correlation, long expiresAt,
            String consumer) {
        this.consumer = consumer;
        this.msgid = msgid;
        this.priority = priority;
        this.orderMs = orderMs;
        this.groupSeq = groupSeq;
        this.seq = seq;
        this.correlation = correlation;
        this.expiresAt = expiresAt;
    }

    /** The same message for another consumer, or in another queue (never expiring there). */
    public ReadyEntry forConsumer(String otherConsumer, long otherExpiresAt) {
        return new ReadyEntry(msgid, priority, orderMs, groupSeq, seq, correlation, otherExpiresAt, otherConsumer);
    }

    /** The dequeue order of a sort order; group members sit together behind their head. */
    public static Comparator<ReadyEntry> order(SortOrder sortOrder) {
        Comparator<ReadyEntry> byPriority = Comparator.comparingInt(e -> e.priority);
        Comparator<ReadyEntry> byTime = Comparator.comparingLong(e -> e.orderMs);
        Comparator<ReadyEntry> head = switch (sortOrder) {
            case ENQ_TIME -> byTime;
            case PRIORITY_ENQ_TIME -> byPriority.thenComparing(byTime);
            case ENQ_TIME_PRIORITY -> byTime.thenComparing(byPriority);
        };
        return head.thenComparingLong(e -> e.groupSeq).thenComparingLong(e -> e.seq);
    }

    @Override
    public String toString() {
        return msgid + (consumer == null ? "" : "/" + consumer) + "[p=" + priority + ", seq=" + seq + ", group=" + groupSeq + "]";
    }
}
