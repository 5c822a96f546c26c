package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import javax.sql.XADataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.xa.PGXADataSource;

/**
 * PostgreSQL: a store several nodes share. Claims are {@code FOR UPDATE SKIP LOCKED}, the message
 * sequence is a database sequence, and nodes wake each other with LISTEN / NOTIFY (sent after the
 * commit: PostgreSQL refuses NOTIFY in a transaction that is prepared for XA). XA needs
 * {@code max_prepared_transactions > 0} on the server.
 */
public final class PostgresDialect extends SharedSqlDialect {
    private static final String CHANNEL = "aqueduct";
    /** Advisory lock key serializing schema creation between nodes. */
    private static final long SCHEMA_LOCK = 0x41515545L;

    private final PGXADataSource xa = new PGXADataSource();

    public PostgresDialect(JdbcSettings settings) {
        super(settings);
        xa.setUrl(settings.url());
        if (settings.user() != null) {
            xa.setUser(settings.user());
        }
        if (settings.password() != null) {
            xa.setPassword(settings.password());
        }
    }

    @Override
    public String eclipseLinkPlatform() {
        return "PostgreSQL";
    }

    @Override
    public String database() {
        return "postgresql";
    }

    @Override
    public boolean takes() {
        return true;
    }

    @Override
    public boolean takesInOneStatement() {
        return true;
    }

    @Override
    public boolean insertsArraysInOneRoundTrip() {
        return true; // the driver sends a statement's parts together; MariaDB's sends a batch as one bulk command anyway
    }

    @Override
    public boolean rowComparisonRanges() {
        return true;
    }

    @Override
    public XADataSource xaDataSource() {
        return xa;
    }

    @Override
    protected String bytesType() {
        return "BYTEA";
    }

    @Override
    protected String lobType() {
        return "BYTEA";
    }

    @Override
    protected String textType() {
        return "TEXT";
    }

    @Override
    protected String timestampType() {
        return "TIMESTAMP(3)";
    }

    @Override
    protected String utcTimestamp(String epochMs) {
        // TIMESTAMP (without time zone) arithmetic: no session time zone takes part
        return "CAST(TIMESTAMP '1970-01-01 00:00:00' + " + epochMs + " * INTERVAL '1 millisecond' AS TIMESTAMP(3))";
    }

    @Override
    protected String utcTimeOfDay(String epochMs) {
        return "TO_CHAR(" + utcTimestamp(epochMs) + ", 'HH24:MI:SS')";
    }

    @Override
    protected String nowMillis() {
        return "CAST(EXTRACT(EPOCH FROM STATEMENT_TIMESTAMP()) * 1000 AS BIGINT)";
    }

    @Override
    protected String utcMillis(String utcTimestamp) {
        // a TIMESTAMP without time zone: its epoch is its nominal UTC value, no session time zone takes part
        return "CAST(EXTRACT(EPOCH FROM " + utcTimestamp + ") * 1000 AS BIGINT)";
    }

    /**
     * Is an attempt on record (AQ_ATTEMPT) now? VOLATILE, so each call reads with a snapshot of its
     * own instead of the calling statement's: a claim asks it for each row just before it tries the
     * row's lock, and sees an attempt a rollback recorded while the claim's statement ran. PL/pgSQL,
     * which is never inlined into the caller (an inlined SQL function would read with the caller's
     * snapshot again).
     */
    @Override
    protected void createClaimFunctions(Statement s) throws SQLException {
        s.execute("CREATE OR REPLACE FUNCTION AQ_ATTEMPT_ON_RECORD(ATTEMPT_ID VARCHAR) RETURNS BOOLEAN VOLATILE"
                + " LANGUAGE plpgsql AS 'BEGIN RETURN EXISTS (SELECT 1 FROM AQ_ATTEMPT A WHERE A.ID = ATTEMPT_ID); END'");
    }

    @Override
    protected void dropClaimFunctions(Statement s) throws SQLException {
        s.execute("DROP FUNCTION IF EXISTS AQ_ATTEMPT_ON_RECORD(VARCHAR)");
    }

    @Override
    protected String quoteKeyword(String word) {
        return word; // SCHEMA is not reserved here: unquoted, it folds to lower case as the views' other columns do
    }

    @Override
    protected String doubleType() {
        return "DOUBLE PRECISION";
    }

    @Override
    protected String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    protected String table(Connection c, String name) {
        return name; // a view keeps the table it was created on, whatever the search path later
    }

    @Override
    protected String currentSchemaExpression() {
        return "UPPER(CURRENT_SCHEMA)";
    }

    @Override
    protected String createVolatileTable(String nameAndColumns) {
        return "CREATE UNLOGGED TABLE IF NOT EXISTS " + nameAndColumns; // no WAL: a commit of it waits for no disk
    }

    @Override
    protected void boundLockWaits(Statement s) throws SQLException {
        s.execute("SET LOCAL lock_timeout = '10s'"); // this transaction only: the schema's
    }

    @Override
    protected boolean tableExists(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            ps.setString(1, table.toLowerCase(java.util.Locale.ROOT)); // unquoted names, in the search path
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    @Override
    protected void lockSchema(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            ps.setLong(1, SCHEMA_LOCK);
            ps.execute(); // held until the schema's transaction commits: DDL is transactional here
        }
    }

    @Override
    protected void createSequence(Statement s) throws SQLException {
        s.execute("CREATE SEQUENCE IF NOT EXISTS AQ_MESSAGE_SEQ INCREMENT BY " + sequenceBlockSize());
    }

    @Override
    public long reserveSequenceBlock(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql("store.nextSequenceBlock"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public boolean isConnectionLost(SQLException e) {
        // 57P01 admin shutdown / pg_terminate_backend, 57P02 crash shutdown, 57P03 cannot connect now (starting up)
        String state = e.getSQLState();
        return super.isConnectionLost(e) || "57P01".equals(state) || "57P02".equals(state) || "57P03".equals(state);
    }

    static final String PREPARED_TRANSACTIONS_OFF = "PostgreSQL's max_prepared_transactions is 0: prepared"
            + " transactions are disabled, so every XA transaction (a container transaction that enlists an Aqueduct"
            + " session) fails at prepare. Set it to at least the number of XA transactions in flight at once over all"
            + " nodes (ALTER SYSTEM SET max_prepared_transactions = 64) and restart PostgreSQL.";

    @Override
    public String xaProblem(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW max_prepared_transactions")) {
            return rs.next() && "0".equals(rs.getString(1).trim()) ? PREPARED_TRANSACTIONS_OFF : null;
        }
    }

    @Override
    public String prepareFailureCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // 55000 object_not_in_prerequisite_state: "prepared transactions are disabled"
            if (t instanceof SQLException e && "55000".equals(e.getSQLState())
                    && String.valueOf(e.getMessage()).contains("prepared transactions are disabled")) {
                return PREPARED_TRANSACTIONS_OFF;
            }
        }
        return null;
    }

    @Override
    public boolean isTransient(String sqlState) {
        // 40001 serialization, 40P01 deadlock, 55P03 lock not available
        return super.isTransient(sqlState) || "55P03".equals(sqlState);
    }

    @Override
    protected void createDialectTables(Statement s) throws SQLException {
        s.execute(createVolatileTable(CoalescingSignals.REGISTRY_COLUMNS)); // where nodes find each other's signal sockets
    }

    @Override
    public NodeSignals signals(NodeIdentity node, DirectSignals.Config config) {
        String nodeTag = node.tag();
        DirectSignals direct = config.off() ? null : new DirectSignals(node, config, DirectSignals.hostOf(settings.url()));
        return new CoalescingSignals(node, direct) {
            @Override
            protected Connection connect() throws SQLException {
                Connection c = PostgresDialect.this.connect();
                try (Statement s = c.createStatement()) {
                    // pg_notify gives its transaction an xid, whose commit would wait for a WAL flush: a wake-up
                    // needs no durability (NOTIFY is still delivered at commit), and that fsync costs every enqueue
                    s.execute("SET synchronous_commit = off");
                }
                return c;
            }

            @Override
            protected String createRegistryTable() {
                return createVolatileTable(REGISTRY_COLUMNS);
            }

            @Override
            protected String registerSql() {
                return "INSERT INTO AQ_NODE_SIGNAL (NODE_ID, HOST, PORT, SEEN) VALUES (?, ?, ?, ?) ON CONFLICT (NODE_ID)"
                        + " DO UPDATE SET HOST = EXCLUDED.HOST, PORT = EXCLUDED.PORT, SEEN = EXCLUDED.SEEN";
            }

            @Override
            protected void send(Connection c, Set<Long> queueIds) throws SQLException {
                String ids = queueIds.stream().map(String::valueOf).collect(Collectors.joining(","));
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
                    ps.setString(1, CHANNEL);
                    ps.setString(2, nodeTag + ":" + ids); // a payload holds 8,000 bytes: plenty of queue ids
                    ps.execute();
                }
            }

            @Override
            protected void subscribe(Connection c) throws SQLException {
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
            }

            @Override
            protected void receive(Connection c, long millis, LongConsumer receiver) throws SQLException {
                PGNotification[] notes = c.unwrap(PGConnection.class).getNotifications((int) millis);
                if (notes == null) {
                    return;
                }
                for (PGNotification n : notes) {
                    String payload = n.getParameter();
                    int colon = payload.indexOf(':');
                    if (colon < 0 || payload.substring(0, colon).equals(nodeTag)) {
                        continue; // our own: local waiters were woken directly
                    }
                    for (String id : payload.substring(colon + 1).split(",")) {
                        if (!id.isEmpty()) {
                            receiver.accept(Long.parseLong(id));
                        }
                    }
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
        Connection c = new org.postgresql.Driver().connect(settings.url(), p);
        if (c == null) {
            throw new SQLException("Not a PostgreSQL URL: " + settings.url());
        }
        c.setAutoCommit(true);
        return c;
    }
}
