package io.aqueduct.engine.store;

import io.aqueduct.api.Agent;
import io.aqueduct.api.MessageState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * V$AQ's figures counted from the message rows: per queue the messages by state and the summed wait of
 * the READY ones, per consumer of a multi-consumer queue its part in the state the AQ$&lt;queue_table&gt;
 * view shows for it. A wait runs from when the message became available: ORDER_MS (its enqueue, a
 * transaction group member's head's) or the end of its DELAY.
 */
public final class QueueCounts {
    /** One queue's, or one consumer's, figures; waits in milliseconds. */
    public static final class Figures {
        public long waiting;
        public long ready;
        public long expired;
        public long totalWaitMillis;
        /** When the READY message that has waited longest became available (epoch ms); Long.MAX_VALUE without one. */
        public long oldestReadySince = Long.MAX_VALUE;

        void readySince(long epochMillis) {
            oldestReadySince = Math.min(oldestReadySince, epochMillis);
        }

        void add(int state, long count) {
            if (state == MessageState.WAITING.code()) {
                waiting += count;
            } else if (state == MessageState.READY.code()) {
                ready += count;
            } else if (state == MessageState.EXPIRED.code()) {
                expired += count;
            }
        }
    }

    /** Per queue id. */
    public final Map<Long, Figures> queues = new HashMap<>();
    /** Per queue id, per consumer. */
    public final Map<Long, Map<Agent, Figures>> consumers = new HashMap<>();

    private QueueCounts() {
    }

    public Figures queue(long qid) {
        return queues.computeIfAbsent(qid, k -> new Figures());
    }

    public Figures consumer(long qid, Agent consumer) {
        return consumers.computeIfAbsent(qid, k -> new HashMap<>()).computeIfAbsent(consumer, k -> new Figures());
    }

    /** Counts every queue's committed messages at {@code nowMillis}, on the connection (a read-only transaction). */
    public static QueueCounts read(Connection c, Dialect dialect, long nowMillis) throws SQLException {
        QueueCounts counts = new QueueCounts();
        int ready = MessageState.READY.code();
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.messages")); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                counts.queue(rs.getLong(1)).add(rs.getInt(2), rs.getLong(3));
            }
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.readyWait"))) {
            ps.setLong(1, nowMillis);
            ps.setInt(2, ready);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Figures f = counts.queue(rs.getLong(1));
                    f.totalWaitMillis += rs.getLong(3);
                    f.readySince(rs.getLong(4));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.readyDelayed"))) {
            ps.setInt(1, ready);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Figures f = counts.queue(rs.getLong(1));
                    long since = epochMillis(rs.getTimestamp(2));
                    f.totalWaitMillis += rs.getLong(3) * (nowMillis - since);
                    f.readySince(since);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.consumers"))) {
            ps.setLong(1, nowMillis);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int messageState = rs.getInt(5);
                    int consumerState = rs.getInt(6);
                    if (consumerState == ConsumerStates.UNDELIVERABLE) {
                        continue;
                    }
                    int state = viewState(messageState, consumerState);
                    Figures f = counts.consumer(rs.getLong(1), agent(rs));
                    f.add(state, rs.getLong(7));
                    if (state == ready) {
                        f.totalWaitMillis += rs.getLong(8);
                        long since = rs.getLong(9);
                        if (!rs.wasNull()) {
                            f.readySince(since);
                        }
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.consumersDelayed"))) {
            ps.setInt(1, ready);
            ps.setInt(2, ConsumerStates.READY);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Figures f = counts.consumer(rs.getLong(1), agent(rs));
                    long since = epochMillis(rs.getTimestamp(5));
                    f.totalWaitMillis += rs.getLong(6) * (nowMillis - since);
                    f.readySince(since);
                }
            }
        }
        return counts;
    }

    /**
     * The state the AQ$ view shows for a consumer's row (as {@link QueueTableViews}): the message's unless it
     * is READY, then the consumer's own; PROCESSED parts are returned as such (not counted).
     */
    static int viewState(int messageState, int consumerState) {
        if (messageState != MessageState.READY.code()) {
            return messageState;
        }
        return switch (consumerState) {
            case ConsumerStates.READY -> MessageState.READY.code();
            case ConsumerStates.WAITING -> MessageState.WAITING.code();
            case ConsumerStates.PROCESSED -> MessageState.PROCESSED.code();
            default -> MessageState.EXPIRED.code();
        };
    }

    private static Agent agent(ResultSet rs) throws SQLException {
        return new Agent(rs.getString(2), rs.getString(3), rs.getInt(4));
    }

    private static long epochMillis(Timestamp utc) {
        return utc.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
