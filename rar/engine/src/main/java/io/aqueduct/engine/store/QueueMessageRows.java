package io.aqueduct.engine.store;

import io.aqueduct.api.Agent;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.QueueMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An administrator's page of a queue's messages in every state, as AQ$&lt;queue_table&gt; shows them: read by key
 * after a position in enqueue order (GROUP_SEQ, SEQ), so a deep page costs what the first does.
 */
public final class QueueMessageRows {
    private QueueMessageRows() {
    }

    /**
     * The position (GROUP_SEQ, SEQ) of message {@code msgid} in queue {@code qid}; null when the queue has no such
     * message (any more).
     */
    public static long[] position(Connection c, Dialect dialect, long qid, MessageId msgid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("queueMessages.position"))) {
            ps.setString(1, msgid.toString());
            ps.setLong(2, qid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
            }
        }
    }

    /** Up to {@code max} messages of queue {@code qid} after {@code position} (null: from the first), in {@code state} if given. */
    public static List<QueueMessage> page(Connection c, Dialect dialect, long qid, boolean multipleConsumers,
            MessageState state, long[] position, int max) throws SQLException {
        Map<String, Object[]> rows = new LinkedHashMap<>();
        String sql = dialect.sql(state == null ? "queueMessages.page" : "queueMessages.pageInState", max);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, qid);
            long groupSeq = position == null ? Long.MIN_VALUE : position[0];
            ps.setLong(2, groupSeq);
            ps.setLong(3, groupSeq);
            ps.setLong(4, position == null ? Long.MIN_VALUE : position[1]);
            if (state != null) {
                ps.setInt(5, state.code());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String msgid = rs.getString(1).trim();
                    rows.put(msgid, new Object[] {msgid, rs.getInt(2), rs.getInt(3), rs.getString(4), instant(rs.getTimestamp(5)),
                        rs.getString(6), instant(rs.getTimestamp(7)), rs.getLong(8), rs.getInt(9),
                        qualified(rs.getString(10), rs.getString(11)), qualified(rs.getString(12), rs.getString(13)),
                        instant(rs.getTimestamp(14)), rs.getString(15), rs.getString(16)});
                }
            }
        }
        Map<String, List<QueueMessage.ConsumerPart>> parts = new HashMap<>();
        if (multipleConsumers && !rows.isEmpty()) {
            String consumers = Statements.ids(dialect.sql("queueMessages.consumers"), rows.size());
            try (PreparedStatement ps = c.prepareStatement(consumers)) {
                int i = 1;
                for (String msgid : rows.keySet()) {
                    ps.setString(i++, msgid);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int messageState = (Integer) rows.get(rs.getString(1).trim())[1];
                        parts.computeIfAbsent(rs.getString(1).trim(), k -> new ArrayList<>()).add(new QueueMessage.ConsumerPart(
                                new Agent(rs.getString(2), rs.getString(3), rs.getInt(4)), consumerState(messageState, rs.getInt(5)),
                                rs.getInt(6), instant(rs.getTimestamp(7)), rs.getString(8), rs.getString(9)));
                    }
                }
            }
        }
        List<QueueMessage> page = new ArrayList<>(rows.size());
        for (Object[] r : rows.values()) {
            String msgid = (String) r[0];
            page.add(new QueueMessage(MessageId.parse(msgid), MessageState.ofCode((Integer) r[1]), (Integer) r[2], (String) r[3],
                    (Instant) r[4], (String) r[5], (Instant) r[6], (Long) r[7], (Integer) r[8], (String) r[9], (String) r[10],
                    (Instant) r[11], (String) r[12], (String) r[13], List.copyOf(parts.getOrDefault(msgid, List.of()))));
        }
        return page;
    }

    /** A consumer's state as the AQ$ view shows it ({@link QueueTableViews}): the message's unless it is READY. */
    static String consumerState(int messageState, int consumerState) {
        if (consumerState == ConsumerStates.UNDELIVERABLE) {
            return "UNDELIVERABLE";
        }
        return MessageState.ofCode(QueueCounts.viewState(messageState, consumerState)).name();
    }

    private static String qualified(String schema, String name) {
        return name == null ? null : schema.trim() + "." + name.trim();
    }

    private static Instant instant(Timestamp utc) {
        return utc == null ? null : utc.toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
}
