package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Writes enqueued messages with plain JDBC, one batch per call: the enqueue's hottest statement,
 * without the persistence provider's unit of work around each row. Columns are bound as the provider
 * binds them (a LocalDateTime as a timestamp in the JVM's zone), so that rows written here read the
 * same through {@link MessageEntity}.
 */
public final class MessageRows {
    private MessageRows() {
    }

    /** The most rows one multi-row INSERT writes (26 parameters each: far below PostgreSQL's 32,767). */
    static final int MAX_ROWS_PER_STATEMENT = 128;

    /**
     * Inserts {@code rows} on {@code c}, inside its transaction, in their order. With {@code atomic},
     * several rows are all or nothing and a failure leaves the rest of the transaction as it was (a
     * savepoint); without it (one row, or an XA branch, where a failure dooms the branch) a failure
     * may leave some of them written.
     */
    public static void insert(Connection c, Dialect dialect, List<MessageEntity> rows, boolean atomic) throws SQLException {
        if (rows.size() > 1 && dialect.insertsArraysInOneRoundTrip()) {
            insertInRoundTrips(c, dialect, rows, atomic);
            return;
        }
        Savepoint sp = atomic ? c.setSavepoint() : null;
        try {
            insertBatch(c, dialect, rows);
        } catch (SQLException | RuntimeException e) {
            if (sp != null) {
                try {
                    c.rollback(sp);
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        if (sp != null) {
            c.releaseSavepoint(sp);
        }
    }

    /** One statement, or one JDBC batch (Derby runs it in process; MariaDB's driver sends it as one bulk command). */
    private static void insertBatch(Connection c, Dialect dialect, List<MessageEntity> rows) throws SQLException {
        int lobNull = lobNull(dialect);
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("message.insert"))) {
            for (MessageEntity m : rows) {
                bind(ps, 1, m, lobNull);
                if (rows.size() == 1) {
                    ps.executeUpdate();
                } else {
                    ps.addBatch();
                }
            }
            if (rows.size() > 1) {
                ps.executeBatch();
            }
        }
    }

    /**
     * Where {@link Dialect#insertsArraysInOneRoundTrip()} (PostgreSQL): multi-row INSERTs, the
     * savepoint set and released in the same statements (the driver sends a statement's parts in
     * one round trip), so that an array of up to
     * {@link #MAX_ROWS_PER_STATEMENT} messages costs one round trip instead of three (savepoint,
     * batch, release) and the server plans one statement instead of one per row. A failed part
     * skips the rest (the release too): the savepoint is then rolled back to and released.
     */
    private static void insertInRoundTrips(Connection c, Dialect dialect, List<MessageEntity> rows, boolean atomic)
            throws SQLException {
        int lobNull = lobNull(dialect);
        String one = dialect.sql("message.insert");
        boolean marked = false;
        try {
            for (int done = 0; done < rows.size();) {
                int count = Math.min(rows.size() - done, MAX_ROWS_PER_STATEMENT);
                String sql = Statements.rows(one, count);
                if (atomic && done == 0) {
                    sql = dialect.sql("message.savepoint") + "; " + sql;
                }
                boolean last = done + count == rows.size();
                if (atomic && last) {
                    sql = sql + "; " + dialect.sql("message.releaseSavepoint");
                }
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    int i = 1;
                    for (int r = done; r < done + count; r++) {
                        i = bind(ps, i, rows.get(r), lobNull);
                    }
                    marked = atomic;
                    ps.execute();
                    marked &= !last; // released: nothing to undo any more
                }
                done += count;
            }
        } catch (SQLException | RuntimeException e) {
            if (marked) {
                try (Statement s = c.createStatement()) {
                    s.execute(dialect.sql("message.undoToSavepoint"));
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static int lobNull(Dialect dialect) {
        return "derby".equals(dialect.database()) ? Types.BLOB : Types.VARBINARY;
    }

    /** Binds the columns of {@code m} from parameter {@code i} on, in message.insert's order; returns the next parameter. */
    private static int bind(PreparedStatement ps, int i, MessageEntity m, int lobNull) throws SQLException {
        ps.setString(i++, m.msgid);
        ps.setLong(i++, m.queueId);
        ps.setLong(i++, m.queueTableId);
        string(ps, i++, m.correlation);
        ps.setInt(i++, m.priority);
        ps.setInt(i++, m.state);
        time(ps, i++, m.delay);
        ps.setLong(i++, m.expiration);
        if (m.timeManagerInfo == null) {
            ps.setNull(i++, Types.BIGINT);
        } else {
            ps.setLong(i++, m.timeManagerInfo);
        }
        time(ps, i++, m.enqueueTime);
        string(ps, i++, m.enqueueUser);
        string(ps, i++, m.enqueueTransaction);
        ps.setInt(i++, m.retryCount);
        string(ps, i++, m.exceptionQueueSchema);
        string(ps, i++, m.exceptionQueue);
        string(ps, i++, m.senderName);
        string(ps, i++, m.senderAddress);
        if (m.senderProtocol == null) {
            ps.setNull(i++, Types.INTEGER);
        } else {
            ps.setInt(i++, m.senderProtocol);
        }
        string(ps, i++, m.originalMsgid);
        ps.setLong(i++, m.seq);
        ps.setLong(i++, m.groupSeq);
        ps.setLong(i++, m.orderMs);
        bytes(ps, i++, m.userData, Types.VARBINARY);
        bytes(ps, i++, m.userDataLob, lobNull);
        bytes(ps, i++, m.userProperties, Types.VARBINARY);
        return i;
    }

    /**
     * The message the columns of {@code rs} hold, in the order of {@code message.find} and
     * {@code selection.take} (the queue id, when {@code message.find} has it, is read by the caller).
     */
    public static MessageEntity read(java.sql.ResultSet rs) throws SQLException {
        MessageEntity m = new MessageEntity();
        m.msgid = rs.getString(1);
        m.priority = rs.getInt(2);
        m.orderMs = rs.getLong(3);
        m.groupSeq = rs.getLong(4);
        m.seq = rs.getLong(5);
        m.correlation = rs.getString(6);
        m.state = rs.getInt(7);
        long tm = rs.getLong(8);
        m.timeManagerInfo = rs.wasNull() ? null : tm;
        m.expiration = rs.getLong(9);
        m.delay = localTime(rs.getTimestamp(10));
        m.enqueueTime = localTime(rs.getTimestamp(11));
        m.retryCount = rs.getInt(12);
        m.exceptionQueueSchema = rs.getString(13);
        m.exceptionQueue = rs.getString(14);
        m.senderName = rs.getString(15);
        m.senderAddress = rs.getString(16);
        int protocol = rs.getInt(17);
        m.senderProtocol = rs.wasNull() ? null : protocol;
        m.originalMsgid = rs.getString(18);
        m.originalQueueSchema = rs.getString(19);
        m.originalQueue = rs.getString(20);
        m.userProperties = rs.getBytes(21);
        m.userData = rs.getBytes(22);
        m.userDataLob = rs.getBytes(23);
        return m;
    }

    /** The message {@code msgid}; null when there is none. */
    public static MessageEntity find(Connection c, Dialect dialect, String msgid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("message.find"))) {
            ps.setString(1, msgid);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                MessageEntity m = read(rs);
                m.queueId = rs.getLong(24);
                return m;
            }
        }
    }

    /** Removes the message if it is still in {@code state}; the rows removed (0 or 1). */
    public static int consume(Connection c, Dialect dialect, String msgid, int state) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("message.consume"))) {
            ps.setString(1, msgid);
            ps.setInt(2, state);
            return ps.executeUpdate();
        }
    }

    /** As the persistence provider reads a LocalDateTime column (the JVM's zone both ways). */
    private static LocalDateTime localTime(Timestamp t) {
        return t == null ? null : t.toLocalDateTime();
    }

    private static void string(PreparedStatement ps, int i, String s) throws SQLException {
        if (s == null) {
            ps.setNull(i, Types.VARCHAR);
        } else {
            ps.setString(i, s);
        }
    }

    private static void time(PreparedStatement ps, int i, LocalDateTime t) throws SQLException {
        if (t == null) {
            ps.setNull(i, Types.TIMESTAMP);
        } else {
            ps.setTimestamp(i, Timestamp.valueOf(t));
        }
    }

    private static void bytes(PreparedStatement ps, int i, byte[] b, int nullType) throws SQLException {
        if (b == null) {
            ps.setNull(i, nullType);
        } else {
            ps.setBytes(i, b);
        }
    }
}
