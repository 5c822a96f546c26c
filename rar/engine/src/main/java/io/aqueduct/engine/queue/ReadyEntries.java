package io.aqueduct.engine.queue;

import io.aqueduct.api.MessageState;

/** The one projection of a message row that makes a ready-index entry, shared by start-up and the time manager. */
public final class ReadyEntries {
    private ReadyEntries() {
    }

    public static final String SELECT = "SELECT m.msgid, m.queueId, m.priority, m.orderMs, m.groupSeq, m.seq,"
            + " m.correlation, m.state, m.expiration, m.timeManagerInfo FROM MessageEntity m";

    // the SQL statements that read ready entries (time.dueMessages, readyIndex.messages... in the store's
    // statements.properties) select the same columns in this order: MSGID, QID, PRIORITY, ORDER_MS,
    // GROUP_SEQ, SEQ, CORRID, STATE, EXPIRATION, TIME_MANAGER_INFO

    public static long queueId(Object[] row) {
        return ((Number) row[1]).longValue();
    }

    public static String msgid(Object[] row) {
        return ((String) row[0]).trim();
    }

    public static int state(Object[] row) {
        return ((Number) row[7]).intValue();
    }

    public static long expiration(Object[] row) {
        return ((Number) row[8]).longValue();
    }

    public static Long timeManagerInfo(Object[] row) {
        return row[9] == null ? null : ((Number) row[9]).longValue();
    }

    /** The entry of a READY (or EXPIRED, in an exception queue) message row. */
    public static ReadyEntry entry(Object[] row) {
        Long tm = timeManagerInfo(row);
        long expiresAt = state(row) == MessageState.READY.code() && tm != null ? tm : Long.MAX_VALUE;
        return entry(row, expiresAt);
    }

    public static ReadyEntry entry(Object[] row, long expiresAt) {
        return new ReadyEntry(msgid(row), ((Number) row[2]).intValue(), ((Number) row[3]).longValue(),
                ((Number) row[4]).longValue(), ((Number) row[5]).longValue(), (String) row[6], expiresAt);
    }
}
