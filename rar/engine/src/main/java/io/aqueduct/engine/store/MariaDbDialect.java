package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import javax.sql.XADataSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * MariaDB (10.6 or later, InnoDB): a store several nodes share. Claims are {@code FOR UPDATE SKIP
 * LOCKED}; the message sequence is a SEQUENCE object. MariaDB has no LISTEN / NOTIFY, so a node
 * sends its changes straight to the other nodes ({@link DirectSignals}, datagrams) and bumps its
 * queues' counters in a MEMORY table (no disk write) that every node polls: every
 * {@value #DIRECT_POLL_MS} ms while the datagrams of every other node arrive, else every
 * {@value #POLL_MS} ms (direct signals off, a node without them, or a change seen in the table that
 * no datagram announced: then for {@value #SHORT_POLL_AFTER_MISS_MS} ms).
 */
public final class MariaDbDialect extends SharedSqlDialect {
    static final long POLL_MS = 50;
    /** The fallback poll while direct signals arrive from every other node. */
    static final long DIRECT_POLL_MS = 500;
    /** How long the poll stays short after a change came through the database only. */
    static final long SHORT_POLL_AFTER_MISS_MS = 60_000;
    /**
     * A datagram may arrive this long after the poll that sees its change (while datagrams reach every
     * node, the sender bumps the counter up to {@link CoalescingSignals#FALLBACK_MS} after them).
     */
    static final long MISS_SLACK_MS = CoalescingSignals.FALLBACK_MS + 200;
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(MariaDbDialect.class.getName());

    private final MariaDbDataSource xa;

    public MariaDbDialect(JdbcSettings settings) {
        super(settings);
        try {
            xa = new MariaDbDataSource(settings.url());
            if (settings.user() != null) {
                xa.setUser(settings.user());
            }
            if (settings.password() != null) {
                xa.setPassword(settings.password());
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("Not a usable MariaDB URL: " + settings.url() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String eclipseLinkPlatform() {
        return "MySQL";
    }

    @Override
    public String database() {
        return "mariadb";
    }

    @Override
    public XADataSource xaDataSource() {
        return xa;
    }

    @Override
    protected String bytesType() {
        return "BLOB";
    }

    @Override
    protected String lobType() {
        return "LONGBLOB";
    }

    @Override
    protected String textType() {
        return "LONGTEXT";
    }

    @Override
    protected String timestampType() {
        return "DATETIME(3)";
    }

    @Override
    protected String tableOptions() {
        return " ENGINE=InnoDB";
    }

    @Override
    protected String utcTimestamp(String epochMs) {
        // DATETIME arithmetic (FROM_UNIXTIME would read the session's time_zone)
        return "CAST(TIMESTAMP '1970-01-01 00:00:00' + INTERVAL (" + epochMs + " * 1000) MICROSECOND AS DATETIME(3))";
    }

    @Override
    protected String utcTimeOfDay(String epochMs) {
        return "DATE_FORMAT(" + utcTimestamp(epochMs) + ", '%H:%i:%s')";
    }

    @Override
    protected String nowMillis() {
        return utcMillis("UTC_TIMESTAMP(3)");
    }

    @Override
    protected String utcMillis(String utcTimestamp) {
        // DATETIME arithmetic (UNIX_TIMESTAMP would read the session's time_zone)
        return "(TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', " + utcTimestamp + ") DIV 1000)";
    }

    @Override
    protected String doubleType() {
        return "DOUBLE";
    }

    @Override
    protected String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    @Override
    protected String table(Connection c, String name) throws SQLException {
        // a queue table's view lives in its owner's database, the store's tables in the connection's
        return quote(c.getCatalog()) + "." + quote(name);
    }

    @Override
    protected String currentSchemaExpression() {
        return "UPPER(DATABASE())";
    }

    @Override
    public boolean isConnectionLost(SQLException e) {
        // 70100 / 1927: the connection was killed (KILL CONNECTION, server shutdown); 2006 / 2013: server gone
        int code = e.getErrorCode();
        return super.isConnectionLost(e) || "70100".equals(e.getSQLState()) || code == 1927 || code == 2006 || code == 2013
                || code == 1053; // 1053: the server is shutting down
    }

    @Override
    public boolean xaCommandsNeedIdleConnection() {
        return true;
    }

    @Override
    protected String createVolatileTable(String nameAndColumns) {
        return "CREATE TABLE IF NOT EXISTS " + nameAndColumns + " ENGINE=MEMORY"; // no log, no fsync
    }

    @Override
    protected void boundLockWaits(Statement s) throws SQLException {
        // DDL waits for metadata locks (a prepared XA branch holds them on its tables) up to a year by default
        s.execute("SET SESSION lock_wait_timeout = 10");
        s.execute("SET SESSION innodb_lock_wait_timeout = 10");
    }

    @Override
    protected boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    protected void lockSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT GET_LOCK('aqueduct.schema', 60)")) {
            rs.next();
            if (rs.getInt(1) != 1) {
                throw new SQLException("Another node held the Aqueduct schema lock for 60 s");
            }
        }
    }

    @Override
    protected void unlockSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DO RELEASE_LOCK('aqueduct.schema')");
        }
    }

    @Override
    protected void createSequence(Statement s) throws SQLException {
        s.execute("CREATE SEQUENCE IF NOT EXISTS AQ_MESSAGE_SEQ INCREMENT BY " + sequenceBlockSize());
    }

    @Override
    protected void createDialectTables(Statement s) throws SQLException {
        // wake-up counters: in memory (a server restart resets them, which readers see as a change)
        s.execute("CREATE TABLE IF NOT EXISTS AQ_SIGNAL (QID BIGINT NOT NULL PRIMARY KEY, VERSION BIGINT NOT NULL) ENGINE=MEMORY");
        s.execute(createVolatileTable(CoalescingSignals.REGISTRY_COLUMNS));
    }

    @Override
    public long reserveSequenceBlock(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql("store.nextSequenceBlock"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Known after the first take asks: does a lock wait's timeout leave the transaction alone? */
    private volatile Boolean consumesOne;

    @Override
    public boolean consumesOneWithoutWaiting(Connection c) throws SQLException {
        Boolean known = consumesOne;
        if (known == null) {
            // with innodb_rollback_on_timeout a held row would roll the caller's whole transaction back
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql("selection.rollbackOnTimeout"))) {
                known = rs.next() && !rs.getBoolean(1);
            }
            consumesOne = known;
        }
        return known;
    }

    /** ER_LOCK_WAIT_TIMEOUT: selection.consumeOne met a row another transaction holds (it waits 0 s). */
    @Override
    public boolean heldByAnother(SQLException e) {
        return e.getErrorCode() == 1205;
    }

    @Override
    public boolean takes() {
        return true; // by key: selection.claimMessages, selection.consumeClaimed
    }

    @Override
    public NodeSignals signals(NodeIdentity node, DirectSignals.Config config) {
        DirectSignals direct = config.off() ? null : new DirectSignals(node, config, DirectSignals.hostOf(settings.url()));
        return new CoalescingSignals(node, direct) {
            private final Map<Long, Long> seen = new HashMap<>();
            /** When (System.nanoTime) this node last bumped each queue's counter: its own bumps are no misses. */
            private final Map<Long, Long> bumped = new java.util.concurrent.ConcurrentHashMap<>();
            private boolean baseline;
            private long lastPoll;
            /** Until when (System.nanoTime) the poll stays short after a change came without its datagram. */
            private long shortUntil;
            private boolean missLogged;

            @Override
            protected Connection connect() throws SQLException {
                return MariaDbDialect.this.connect();
            }

            @Override
            protected String createRegistryTable() {
                return createVolatileTable(REGISTRY_COLUMNS);
            }

            @Override
            protected String registerSql() {
                return "INSERT INTO AQ_NODE_SIGNAL (NODE_ID, HOST, PORT, SEEN) VALUES (?, ?, ?, ?)"
                        + " ON DUPLICATE KEY UPDATE HOST = VALUES(HOST), PORT = VALUES(PORT), SEEN = VALUES(SEEN)";
            }

            @Override
            protected void send(Connection c, Set<Long> queueIds) throws SQLException {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO AQ_SIGNAL (QID, VERSION) VALUES (?, 1)"
                        + " ON DUPLICATE KEY UPDATE VERSION = VERSION + 1")) {
                    long now = System.nanoTime();
                    for (long id : queueIds) {
                        bumped.put(id, now);
                        ps.setLong(1, id);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }

            @Override
            protected void subscribe(Connection c) {
                baseline = false;
            }

            @Override
            protected void receive(Connection c, long millis, LongConsumer receiver) throws SQLException {
                long now = System.nanoTime();
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT QID, VERSION FROM AQ_SIGNAL")) {
                    while (rs.next()) {
                        long qid = rs.getLong(1);
                        Long before = seen.put(qid, rs.getLong(2));
                        if (baseline && (before == null || before != rs.getLong(2))) {
                            noticeMiss(qid, now);
                            receiver.accept(qid);
                        }
                    }
                }
                baseline = true;
                lastPoll = now;
                try {
                    TimeUnit.MILLISECONDS.sleep(Math.min(millis, pollMillis(now))); // real time: the poll's own pace
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted", e);
                }
            }

            /** {@value #POLL_MS} ms, or {@value #DIRECT_POLL_MS} ms while every other node's datagrams arrive here. */
            private long pollMillis(long now) {
                return allDirect() && now - shortUntil > 0 ? DIRECT_POLL_MS : POLL_MS;
            }

            /**
             * A counter changed that no datagram announced (nor this node's own bump): some node's
             * datagrams do not arrive here (a firewall, a wrong signalAddress): poll shortly for a while.
             */
            private void noticeMiss(long qid, long now) {
                if (direct() == null || !allDirect()) {
                    return;
                }
                long slack = TimeUnit.MILLISECONDS.toNanos(MISS_SLACK_MS);
                long since = lastPoll - slack;
                Long own = bumped.get(qid);
                if (direct().lastReceived(qid) - since > 0 || own != null && own - since > 0) {
                    return;
                }
                shortUntil = now + TimeUnit.MILLISECONDS.toNanos(SHORT_POLL_AFTER_MISS_MS);
                if (!missLogged) {
                    missLogged = true;
                    LOG.warning(() -> "Aqueduct: a change of queue " + qid + " reached this node through AQ_SIGNAL but no"
                            + " direct signal announced it: another node's datagrams do not arrive at " + direct().address()
                            + " (a firewall? the signalAddress it advertises?). Wake-ups keep working through the database;"
                            + " this node polls AQ_SIGNAL every " + POLL_MS + " ms again (said once)");
                } else {
                    LOG.fine(() -> "Aqueduct: queue " + qid + " changed without a direct signal");
                }
            }
        };
    }

    /** A plain connection in auto-commit, outside XA (signals). */
    Connection connect() throws SQLException {
        Properties p = new Properties();
        if (settings.user() != null) {
            p.setProperty("user", settings.user());
        }
        if (settings.password() != null) {
            p.setProperty("password", settings.password());
        }
        Connection c = new org.mariadb.jdbc.Driver().connect(settings.url(), p);
        if (c == null) {
            throw new SQLException("Not a MariaDB URL: " + settings.url());
        }
        c.setAutoCommit(true);
        return c;
    }
}
