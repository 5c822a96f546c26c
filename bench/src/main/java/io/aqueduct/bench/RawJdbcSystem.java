package io.aqueduct.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline: the plainest correct JDBC queue on the same embedded, durable Derby. One table,
 * one ordered index; enqueue = INSERT + commit; dequeue = ordered FETCH FIRST 1 probe, read the
 * payload, close the cursor, DELETE ... WHERE ID = ? AND STATE = 0, commit; 0 rows deleted = another
 * consumer won, try again. READ_COMMITTED; any 40xxx (lock timeout, deadlock) rolls back and retries
 * the transaction. Keys come from an AtomicLong (no identity contention).
 */
public final class RawJdbcSystem implements QueueSystem {
    static final String QUEUE = "BENCH_Q";
    private static final int MAX_RETRIES = 1000;

    private final AtomicLong ids = new AtomicLong();
    private String url;

    @Override
    public String name() {
        return "raw-jdbc";
    }

    @Override
    public void open(Path dir) throws SQLException {
        url = "jdbc:derby:" + dir.toAbsolutePath().resolve("db");
        try (Connection c = DriverManager.getConnection(url + ";create=true"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE RAW_QUEUE (ID BIGINT NOT NULL PRIMARY KEY, Q_NAME VARCHAR(30) NOT NULL,"
                    + " PRIORITY INT NOT NULL, STATE INT NOT NULL, ENQ_TIME TIMESTAMP NOT NULL, SEQ BIGINT NOT NULL,"
                    + " PAYLOAD BLOB)");
            s.execute("CREATE INDEX RAW_QUEUE_DEQ ON RAW_QUEUE (Q_NAME, STATE, PRIORITY, ENQ_TIME, SEQ)");
        }
    }

    private Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url);
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        return c;
    }

    static boolean retryable(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("40");
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the original failure is what matters
        }
    }

    @Override
    public Producer producer() throws SQLException {
        return new RawProducer(connect());
    }

    @Override
    public Consumer consumer() throws SQLException {
        return new RawConsumer(connect());
    }

    @Override
    public void close() {
        if (url == null) {
            return;
        }
        try {
            DriverManager.getConnection(url + ";shutdown=true").close();
        } catch (SQLException e) {
            if (!"08006".equals(e.getSQLState())) { // 08006 = database shut down, the expected answer
                System.err.println("# raw-jdbc: shutdown of " + url + " said " + e);
            }
        }
        url = null;
    }

    private final class RawProducer implements Producer {
        private final Connection c;
        private final PreparedStatement insert;

        RawProducer(Connection c) throws SQLException {
            this.c = c;
            this.insert = c.prepareStatement("INSERT INTO RAW_QUEUE (ID, Q_NAME, PRIORITY, STATE, ENQ_TIME, SEQ, PAYLOAD)"
                    + " VALUES (?, ?, 1, 0, ?, ?, ?)");
        }

        private void insert(byte[] payload) throws SQLException {
            long id = ids.incrementAndGet();
            insert.setLong(1, id);
            insert.setString(2, QUEUE);
            insert.setTimestamp(3, new Timestamp(System.currentTimeMillis()));
            insert.setLong(4, id);
            insert.setBytes(5, payload);
            insert.executeUpdate();
        }

        @Override
        public void enqueueCommit(byte[] payload) throws SQLException {
            enqueueBatchCommit(List.of(payload));
        }

        @Override
        public void enqueueBatchCommit(List<byte[]> payloads) throws SQLException {
            for (int attempt = 0;; attempt++) {
                try {
                    for (byte[] p : payloads) {
                        insert(p);
                    }
                    c.commit();
                    return;
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    if (!retryable(e) || attempt >= MAX_RETRIES) {
                        throw e;
                    }
                }
            }
        }

        @Override
        public void close() throws SQLException {
            rollbackQuietly(c);
            c.close();
        }
    }

    private static final class RawConsumer implements Consumer {
        private final Connection c;
        private final PreparedStatement select;
        private final PreparedStatement delete;
        private long conflicts;

        RawConsumer(Connection c) throws SQLException {
            this.c = c;
            this.select = c.prepareStatement("SELECT ID, PAYLOAD FROM RAW_QUEUE WHERE Q_NAME = ? AND STATE = 0"
                    + " ORDER BY PRIORITY, ENQ_TIME, SEQ FETCH FIRST 1 ROWS ONLY");
            this.select.setString(1, QUEUE);
            this.delete = c.prepareStatement("DELETE FROM RAW_QUEUE WHERE ID = ? AND STATE = 0");
        }

        /** Takes the first ready message inside the current transaction; null when there is none. */
        private byte[] takeOne() throws SQLException {
            while (true) {
                long id;
                byte[] payload;
                try (ResultSet rs = select.executeQuery()) {
                    if (!rs.next()) {
                        return null;
                    }
                    id = rs.getLong(1);
                    payload = rs.getBytes(2);
                } // cursor closed before the DELETE: deleting under its shared lock deadlocks two consumers
                delete.setLong(1, id);
                if (delete.executeUpdate() == 1) {
                    return payload;
                }
                conflicts++; // another consumer deleted it first
            }
        }

        @Override
        public byte[] dequeueCommit() throws SQLException {
            List<byte[]> got = dequeueBatchCommit(1);
            return got.isEmpty() ? null : got.get(0);
        }

        @Override
        public byte[] dequeueWaitCommit() throws SQLException, InterruptedException {
            long deadline = System.nanoTime() + 1_000_000_000L;
            while (true) {
                byte[] p = dequeueCommit();
                if (p != null || System.nanoTime() > deadline) {
                    return p;
                }
                Thread.sleep(1); // polling: plain JDBC has no wake-up on enqueue
            }
        }

        @Override
        public List<byte[]> dequeueBatchCommit(int max) throws SQLException {
            for (int attempt = 0;; attempt++) {
                List<byte[]> got = new ArrayList<>(max);
                try {
                    while (got.size() < max) {
                        byte[] p = takeOne();
                        if (p == null) {
                            break;
                        }
                        got.add(p);
                    }
                    c.commit();
                    return got;
                } catch (SQLException e) {
                    rollbackQuietly(c);
                    if (!retryable(e) || attempt >= MAX_RETRIES) {
                        throw e;
                    }
                    conflicts++;
                }
            }
        }

        @Override
        public long conflicts() {
            return conflicts;
        }

        @Override
        public void close() throws SQLException {
            rollbackQuietly(c);
            c.close();
        }
    }
}
