package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of the schema that PostgreSQL and MariaDB write alike (both know CREATE ... IF NOT
 * EXISTS, CREATE OR REPLACE VIEW, SKIP LOCKED and LIMIT); each subclass supplies its column types,
 * quoting, sequence and schema lock. Several nodes may run this at once on an empty database.
 */
abstract class SharedSqlDialect implements Dialect {
    protected final JdbcSettings settings;
    private final Statements statements = new Statements(this);

    SharedSqlDialect(JdbcSettings settings) {
        this.settings = settings;
    }

    /** Column type of an inline payload (up to 32,672 bytes). */
    protected abstract String bytesType();

    /** Column type of a large payload. */
    protected abstract String lobType();

    /** Column type of a large text. */
    protected abstract String textType();

    /** Column type of a UTC timestamp with milliseconds. */
    protected abstract String timestampType();

    /** Appended to CREATE TABLE (the storage engine). */
    protected String tableOptions() {
        return "";
    }

    protected abstract String quote(String identifier);

    /** A base table of the store as a view in another schema must name it. */
    protected abstract String table(Connection c, String name) throws SQLException;

    /** The schema USER_ views show: the connected user's. */
    protected abstract String currentSchemaExpression();

    /** Serializes schema creation between nodes starting together. */
    protected abstract void lockSchema(Connection c) throws SQLException;

    protected void unlockSchema(Connection c) throws SQLException {
    }

    /** Creates the message sequence (numbers reserved in blocks of {@link #sequenceBlockSize()}) if absent. */
    protected abstract void createSequence(Statement s) throws SQLException;

    /**
     * CREATE TABLE of a table whose rows must outlive a node but not the database server: no disk
     * write per change (PostgreSQL UNLOGGED, MariaDB MEMORY).
     */
    protected abstract String createVolatileTable(String nameAndColumns);

    /** Functions the dialect's claims call (statements.properties, selection.claimMessage); none by default. */
    protected void createClaimFunctions(Statement s) throws SQLException {
    }

    /** Drops what {@link #createClaimFunctions} created. */
    protected void dropClaimFunctions(Statement s) throws SQLException {
    }

    /** Tables a dialect adds for itself (signals). */
    protected void createDialectTables(Statement s) throws SQLException {
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public Statements statements() {
        return statements;
    }

    @Override
    public boolean isConnectionLost(SQLException e) {
        return Dialect.super.isConnectionLost(e);
    }

    @Override
    public String defaultSchema() {
        return "AQ";
    }

    @Override
    public String dirtyReadSuffix() {
        return ""; // readers never wait for writers here (multi-versioned rows)
    }

    @Override
    public String limit(int rows) {
        return " LIMIT " + rows;
    }

    @Override
    public String lockSkipLockedSuffix() {
        return " FOR UPDATE SKIP LOCKED";
    }

    @Override
    public String timeManagerBatchSuffix() {
        return " FOR UPDATE SKIP LOCKED"; // nodes share the due work: a row one takes the others pass by
    }

    @Override
    public int sequenceBlockSize() {
        return 100;
    }

    @Override
    public long[] reserveSequenceBlocks(Connection c, int blocks) throws SQLException {
        if (blocks == 1) {
            return new long[] {reserveSequenceBlock(c)};
        }
        long[] first = new long[blocks];
        try (PreparedStatement ps = c.prepareStatement(sql("store.nextSequenceBlocks"))) {
            ps.setInt(1, blocks);
            try (ResultSet rs = ps.executeQuery()) {
                for (int i = 0; i < blocks; i++) {
                    if (!rs.next()) {
                        throw new SQLException("The message sequence gave " + i + " of " + blocks + " blocks");
                    }
                    first[i] = rs.getLong(1);
                }
            }
        }
        java.util.Arrays.sort(first);
        return first;
    }

    /** Bounds the waits of the schema's DDL for locks (an in-doubt branch, a long transaction) to a few seconds. */
    protected abstract void boundLockWaits(Statement s) throws SQLException;

    /** Does the table exist in the store's schema? */
    protected abstract boolean tableExists(Connection c, String table) throws SQLException;

    @Override
    public int schemaVersion(Connection c) throws SQLException {
        if (!tableExists(c, "AQ_SCHEMA_VERSION")) {
            return 0;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql("store.schemaVersion"))) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    @Override
    public void migrateSchema(Connection c, int from) throws SQLException {
        lockSchema(c);
        try (Statement s = c.createStatement()) {
            boundLockWaits(s);
            int version = schemaVersion(c); // another node may have migrated while this one waited for the lock
            if (version >= StoreSchema.CURRENT) {
                return;
            }
            if (version < 1) {
                createSchemaV1(s);
            }
            if (version < 2) {
                // schema 2: user properties (encoded by UserPropertiesCodec, at most 32,000 bytes)
                s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN IF NOT EXISTS USER_PROPS " + bytesType());
            }
            if (version < 3) {
                // schema 3: the syntax of a subscriber's rule; existing subscribers keep their AQ conditions
                s.execute("ALTER TABLE AQ_SUBSCRIBER ADD COLUMN IF NOT EXISTS RULE_SYNTAX VARCHAR(9) DEFAULT 'CONDITION' NOT NULL");
            }
            if (version < 4) {
                createSchemaV4(s);
                if (version >= 1) {
                    recreateQueueTableViews(c); // the AQ$ views gain ORIGINAL_MSGID
                }
            }
            if (version < 5) {
                createSchemaV5(s);
            }
            if (version < 6) {
                createSchemaV6(s);
            }
            if (version < 7) {
                // schema 7: where a message moved to an exception queue came from (old rows: NULL, unknown)
                s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN IF NOT EXISTS ORIGINAL_QSCHEMA VARCHAR(30)");
                s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN IF NOT EXISTS ORIGINAL_QUEUE VARCHAR(30)");
                if (version >= 1) {
                    recreateQueueTableViews(c); // the AQ$ views gain ORIGINAL_QUEUE_OWNER / ORIGINAL_QUEUE_NAME
                }
            }
            if (version < 8) {
                // schema 8: AQ's statistics views
                s.execute("CREATE OR REPLACE VIEW " + StatisticsViews.V
                        + StatisticsViews.columnsAndSelect(nowMillis(), this::utcMillis, doubleType()));
                s.execute("CREATE OR REPLACE VIEW " + StatisticsViews.GV + StatisticsViews.globalSelect(StatisticsViews.V));
            }
            if (version < 9) {
                // schema 9: what a claim asks the attempt ledger just before it tries a row's lock (PostgreSQL)
                createClaimFunctions(s);
            }
            s.execute("CREATE TABLE IF NOT EXISTS AQ_SCHEMA_VERSION (VERSION INT NOT NULL)" + tableOptions());
            StoreSchema.recordCurrent(this, c);
            c.commit();
        } finally {
            unlockSchema(c);
        }
    }

    /** Schema 1, from an empty database or the unversioned schema before it (every statement is idempotent). */
    private void createSchemaV1(Statement s) throws SQLException {
        {
            String opts = tableOptions();
            s.execute("CREATE TABLE IF NOT EXISTS AQ_QUEUE_TABLE (QT_ID BIGINT NOT NULL PRIMARY KEY, OWNER VARCHAR(30) NOT NULL,"
                    + " NAME VARCHAR(30) NOT NULL, PAYLOAD_TYPE VARCHAR(7) NOT NULL, OBJECT_TYPE VARCHAR(256),"
                    + " SORT_ORDER VARCHAR(22) NOT NULL, MULTIPLE_CONSUMERS SMALLINT NOT NULL,"
                    + " MESSAGE_GROUPING VARCHAR(13) NOT NULL, USER_COMMENT VARCHAR(2000),"
                    + " CONSTRAINT AQ_QUEUE_TABLE_NAME UNIQUE (OWNER, NAME))" + opts);
            s.execute("CREATE TABLE IF NOT EXISTS AQ_QUEUE (QID BIGINT NOT NULL PRIMARY KEY, OWNER VARCHAR(30) NOT NULL,"
                    + " NAME VARCHAR(30) NOT NULL, QT_ID BIGINT NOT NULL REFERENCES AQ_QUEUE_TABLE (QT_ID),"
                    + " QUEUE_TYPE VARCHAR(15) NOT NULL, MAX_RETRIES INT NOT NULL, RETRY_DELAY BIGINT NOT NULL,"
                    + " RETENTION BIGINT NOT NULL, ENQUEUE_ENABLED SMALLINT NOT NULL, DEQUEUE_ENABLED SMALLINT NOT NULL,"
                    + " USER_COMMENT VARCHAR(2000), CONSTRAINT AQ_QUEUE_NAME UNIQUE (OWNER, NAME))" + opts);
            s.execute("CREATE TABLE IF NOT EXISTS AQ_MESSAGE (MSGID CHAR(32) NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                    + " QT_ID BIGINT NOT NULL, CORRID VARCHAR(128), PRIORITY INT NOT NULL, STATE INT NOT NULL,"
                    + " DELAY " + timestampType() + ", EXPIRATION BIGINT NOT NULL, TIME_MANAGER_INFO BIGINT,"
                    + " ENQ_TIME " + timestampType() + " NOT NULL, ENQ_UID VARCHAR(128), ENQ_TID VARCHAR(64),"
                    + " DEQ_TIME " + timestampType() + ", DEQ_UID VARCHAR(128), DEQ_TID VARCHAR(64), RETRY_COUNT INT NOT NULL,"
                    + " EXCEPTION_QSCHEMA VARCHAR(30), EXCEPTION_QUEUE VARCHAR(30),"
                    + " SENDER_NAME VARCHAR(30), SENDER_ADDRESS VARCHAR(1024), SENDER_PROTOCOL INT,"
                    + " ORIGINAL_MSGID CHAR(32), SEQ BIGINT NOT NULL, GROUP_SEQ BIGINT NOT NULL, ORDER_MS BIGINT NOT NULL,"
                    + " USER_DATA " + bytesType() + ", USER_DATA_LOB " + lobType() + ")" + opts);
            // the time manager's next due instant, and the two dequeue orders: several nodes select in the database
            createIndex(s, "AQ_MESSAGE_TM", "AQ_MESSAGE", "TIME_MANAGER_INFO");
            createIndex(s, "AQ_MESSAGE_PRIORITY_ORDER", "AQ_MESSAGE", "QID, STATE, PRIORITY, ORDER_MS, GROUP_SEQ, SEQ");
            createIndex(s, "AQ_MESSAGE_TIME_ORDER", "AQ_MESSAGE", "QID, STATE, ORDER_MS, GROUP_SEQ, SEQ");
            createIndex(s, "AQ_MESSAGE_GROUP", "AQ_MESSAGE", "QID, GROUP_SEQ");
            s.execute("CREATE TABLE IF NOT EXISTS AQ_SEQUENCE (NAME VARCHAR(30) NOT NULL PRIMARY KEY, NEXT_VALUE BIGINT NOT NULL)"
                    + opts);
            for (String name : List.of("QUEUE_TABLE", "QUEUE", "SUBSCRIBER")) {
                s.execute("INSERT INTO AQ_SEQUENCE (NAME, NEXT_VALUE) SELECT '" + name + "', 0 FROM AQ_SEQUENCE"
                        + " WHERE NAME = '" + name + "' HAVING COUNT(*) = 0");
            }
            s.execute("CREATE TABLE IF NOT EXISTS AQ_SUBSCRIBER (SUB_ID BIGINT NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                    + " CONSUMER VARCHAR(128) NOT NULL, NAME VARCHAR(30), ADDRESS VARCHAR(1024), PROTOCOL INT NOT NULL,"
                    + " RULE_TEXT VARCHAR(4000), TRANSFORMATION VARCHAR(61), CONSTRAINT AQ_SUBSCRIBER_AGENT UNIQUE (QID, CONSUMER))"
                    + opts);
            s.execute("CREATE TABLE IF NOT EXISTS AQ_MESSAGE_CONSUMER (ID VARCHAR(170) NOT NULL PRIMARY KEY, MSGID CHAR(32) NOT NULL,"
                    + " QID BIGINT NOT NULL, CONSUMER VARCHAR(128) NOT NULL, NAME VARCHAR(30), ADDRESS VARCHAR(1024),"
                    + " PROTOCOL INT NOT NULL, STATE INT NOT NULL, RETRY_COUNT INT NOT NULL, TIME_MANAGER_INFO BIGINT,"
                    + " DEQ_TIME " + timestampType() + ", DEQ_UID VARCHAR(128), DEQ_TID VARCHAR(64))" + opts);
            createIndex(s, "AQ_MESSAGE_CONSUMER_MSG", "AQ_MESSAGE_CONSUMER", "MSGID");
            createIndex(s, "AQ_MESSAGE_CONSUMER_TM", "AQ_MESSAGE_CONSUMER", "TIME_MANAGER_INFO");
            createIndex(s, "AQ_MESSAGE_CONSUMER_LANE", "AQ_MESSAGE_CONSUMER", "QID, CONSUMER, STATE, MSGID");
            s.execute("CREATE TABLE IF NOT EXISTS AQ_TRANSFORMATION (OWNER VARCHAR(30) NOT NULL, NAME VARCHAR(30) NOT NULL,"
                    + " FROM_TYPE VARCHAR(256) NOT NULL, TO_TYPE VARCHAR(256) NOT NULL, FUNCTION_CLASS VARCHAR(256),"
                    + " ATTRIBUTES " + textType() + ", PRIMARY KEY (OWNER, NAME))" + opts);
            createSequence(s);
            createDialectTables(s);
            // the attempt ledger: REMOVE attempts in flight, so that a node that dies mid-transaction
            // still has its attempts counted by the others; and the nodes' heartbeats
            s.execute(createVolatileTable("AQ_ATTEMPT (ID VARCHAR(170) NOT NULL PRIMARY KEY, MSGID CHAR(32) NOT NULL,"
                    + " CONSUMER VARCHAR(128), QID BIGINT NOT NULL, NODE_ID VARCHAR(40) NOT NULL)"));
            s.execute(createVolatileTable("AQ_NODE (NODE_ID VARCHAR(40) NOT NULL PRIMARY KEY, HEARTBEAT BIGINT NOT NULL)"));
            s.execute("CREATE OR REPLACE VIEW DBA_QUEUE_TABLES (OWNER, QUEUE_TABLE, TYPE, OBJECT_TYPE, SORT_ORDER, RECIPIENTS,"
                    + " MESSAGE_GROUPING, USER_COMMENT) AS SELECT OWNER, NAME, PAYLOAD_TYPE, OBJECT_TYPE, SORT_ORDER,"
                    + " CASE WHEN MULTIPLE_CONSUMERS = 1 THEN 'MULTIPLE' ELSE 'SINGLE' END, MESSAGE_GROUPING, USER_COMMENT"
                    + " FROM AQ_QUEUE_TABLE");
            s.execute("CREATE OR REPLACE VIEW USER_QUEUE_TABLES AS SELECT QUEUE_TABLE, TYPE, OBJECT_TYPE, SORT_ORDER, RECIPIENTS,"
                    + " MESSAGE_GROUPING, USER_COMMENT FROM DBA_QUEUE_TABLES WHERE OWNER = " + currentSchemaExpression());
            s.execute("CREATE OR REPLACE VIEW DBA_QUEUES (OWNER, NAME, QUEUE_TABLE, QID, QUEUE_TYPE, MAX_RETRIES, RETRY_DELAY,"
                    + " ENQUEUE_ENABLED, DEQUEUE_ENABLED, RETENTION, USER_COMMENT) AS SELECT Q.OWNER, Q.NAME, T.NAME,"
                    + " Q.QID, Q.QUEUE_TYPE, Q.MAX_RETRIES, Q.RETRY_DELAY,"
                    + " CASE WHEN Q.ENQUEUE_ENABLED = 1 THEN 'YES' ELSE 'NO' END,"
                    + " CASE WHEN Q.DEQUEUE_ENABLED = 1 THEN 'YES' ELSE 'NO' END,"
                    + " Q.RETENTION, Q.USER_COMMENT"
                    + " FROM AQ_QUEUE Q JOIN AQ_QUEUE_TABLE T ON Q.QT_ID = T.QT_ID");
            s.execute("CREATE OR REPLACE VIEW USER_QUEUES AS SELECT NAME, QUEUE_TABLE, QID, QUEUE_TYPE, MAX_RETRIES, RETRY_DELAY,"
                    + " ENQUEUE_ENABLED, DEQUEUE_ENABLED, RETENTION, USER_COMMENT FROM DBA_QUEUES WHERE OWNER = "
                    + currentSchemaExpression());
        }
    }

    /**
     * Schema 4, propagation (every statement is idempotent): schedules, database links, receipts of
     * propagated messages, a remote consumer's destination and the schedules' catalog views.
     */
    private void createSchemaV4(Statement s) throws SQLException {
        String opts = tableOptions();
        // a schedule per source queue and destination (a database link's name, or AQ$_LOCAL); instants are epoch ms;
        // the node in NODE_NAME runs it until LEASE_UNTIL
        s.execute("CREATE TABLE IF NOT EXISTS AQ_SCHEDULE (QID BIGINT NOT NULL, DESTINATION VARCHAR(128) NOT NULL,"
                + " START_MS BIGINT NOT NULL, DURATION BIGINT, NEXT_TIME VARCHAR(200), LATENCY BIGINT NOT NULL,"
                + " DISABLED SMALLINT NOT NULL, FAILURES INT NOT NULL, LAST_ERROR_MS BIGINT, LAST_ERROR_MSG VARCHAR(4000),"
                + " LAST_RUN_MS BIGINT, CURRENT_START_MS BIGINT, NEXT_RUN_MS BIGINT, TOTAL_TIME_MS BIGINT NOT NULL,"
                + " TOTAL_NUMBER BIGINT NOT NULL, TOTAL_BYTES BIGINT NOT NULL, MAX_NUMBER BIGINT NOT NULL,"
                + " MAX_BYTES BIGINT NOT NULL, WINDOWS BIGINT NOT NULL, WINDOW_NUMBER BIGINT NOT NULL,"
                + " WINDOW_BYTES BIGINT NOT NULL, NODE_NAME VARCHAR(64), NODE_INSTANCE VARCHAR(200), SESSION_ID VARCHAR(64),"
                + " LEASE_UNTIL BIGINT, PRIMARY KEY (QID, DESTINATION))" + opts);
        s.execute("CREATE TABLE IF NOT EXISTS AQ_DBLINK (NAME VARCHAR(128) NOT NULL PRIMARY KEY, URL VARCHAR(1024) NOT NULL,"
                + " USERNAME VARCHAR(128), PASSWORD VARCHAR(1024), CREATED_MS BIGINT NOT NULL)" + opts);
        // what a destination received from a source: a message propagated twice is enqueued once
        s.execute("CREATE TABLE IF NOT EXISTS AQ_PROPAGATION_RECEIPT (ID VARCHAR(200) NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                + " SOURCE VARCHAR(200), CREATED_MS BIGINT NOT NULL)" + opts);
        createIndex(s, "AQ_PROPAGATION_RECEIPT_SOURCE", "AQ_PROPAGATION_RECEIPT", "SOURCE");
        // a remote consumer's destination (NULL for a local consumer), and the propagator's lane
        s.execute("ALTER TABLE AQ_MESSAGE_CONSUMER ADD COLUMN IF NOT EXISTS DEST VARCHAR(128)");
        createIndex(s, "AQ_MESSAGE_CONSUMER_DEST", "AQ_MESSAGE_CONSUMER", "QID, DEST, STATE");
        s.execute("CREATE OR REPLACE VIEW " + QueueScheduleViews.DBA + QueueScheduleViews.dbaColumnsAndSelect(this::quoteKeyword,
                this::utcTimestamp, this::utcTimeOfDay, doubleType()));
        s.execute("CREATE OR REPLACE VIEW " + QueueScheduleViews.USER
                + QueueScheduleViews.userSelect(this::quoteKeyword, currentSchemaExpression()));
    }

    /** Schema 5, users, agents and privileges (every statement is idempotent): their tables and views. */
    private void createSchemaV5(Statement s) throws SQLException {
        String opts = tableOptions();
        for (String[] t : SecurityViews.tables(x -> x + opts)) {
            s.execute("CREATE TABLE IF NOT EXISTS " + t[0] + " " + t[1]);
        }
        s.execute("CREATE OR REPLACE VIEW " + SecurityViews.QUEUE_PRIVILEGES + SecurityViews.queuePrivilegesColumnsAndSelect());
        s.execute("CREATE OR REPLACE VIEW " + quote(SecurityViews.INTERNET_USERS) + SecurityViews.internetUsersColumnsAndSelect());
    }

    /** Schema 6, notifications (every statement is idempotent): registrations, pending RELIABLE notifications, their view. */
    private void createSchemaV6(Statement s) throws SQLException {
        String opts = tableOptions();
        // instants are epoch ms; QOS is the registration's flags by name, comma-separated
        s.execute("CREATE TABLE IF NOT EXISTS AQ_REGISTRATION (REG_ID BIGINT NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                + " CONSUMER VARCHAR(30), URL VARCHAR(4000) NOT NULL, CONTEXT " + bytesType() + ","
                + " QOS VARCHAR(64) NOT NULL, TIMEOUT_S BIGINT NOT NULL, REG_USER VARCHAR(128), CREATED_MS BIGINT NOT NULL,"
                + " EXPIRES_MS BIGINT, DELIVERED BIGINT NOT NULL, FAILED BIGINT NOT NULL, LAST_ERROR_MS BIGINT,"
                + " LAST_ERROR_MSG VARCHAR(4000))" + opts);
        // a RELIABLE notification waiting for delivery: due at DUE_MS; a node delivering it holds it until LEASE_UNTIL
        s.execute("CREATE TABLE IF NOT EXISTS AQ_NOTIFICATION (ID VARCHAR(64) NOT NULL PRIMARY KEY, REG_ID BIGINT NOT NULL,"
                + " MSGID VARCHAR(32), CONSUMER VARCHAR(30), DUE_MS BIGINT NOT NULL, ATTEMPTS INT NOT NULL,"
                + " LEASE_UNTIL BIGINT)" + opts);
        createIndex(s, "AQ_NOTIFICATION_DUE", "AQ_NOTIFICATION", "DUE_MS");
        s.execute("CREATE OR REPLACE VIEW " + RegistrationViews.DBA + RegistrationViews.columnsAndSelect(this::utcTimestamp));
    }

    /** A column named by a word the database may reserve (SCHEMA), as a view's DDL must write it. */
    protected String quoteKeyword(String word) {
        return quote(word);
    }

    /** The UTC TIMESTAMP of an epoch-ms expression, whatever the session's time zone (NULL stays NULL). */
    protected abstract String utcTimestamp(String epochMs);

    /** The UTC time of day ('HH:MM:SS') of an epoch-ms expression (NULL stays NULL). */
    protected abstract String utcTimeOfDay(String epochMs);

    /** The name of a double-precision number in a CAST. */
    protected abstract String doubleType();

    /** The database's current time in epoch milliseconds, as an SQL expression. */
    protected abstract String nowMillis();

    /** The epoch milliseconds of a UTC TIMESTAMP expression, whatever the session's time zone (NULL stays NULL). */
    protected abstract String utcMillis(String utcTimestamp);

    protected void createIndex(Statement s, String name, String table, String columns) throws SQLException {
        s.execute("CREATE INDEX IF NOT EXISTS " + name + " ON " + table + " (" + columns + ")");
    }

    @Override
    public void createQueueTableView(Connection c, String owner, String queueTable, long queueTableId,
            boolean multipleConsumers) throws SQLException {
        String view = QueueTableViews.columnsAndSelect(multipleConsumers, queueTableId, table(c, "AQ_MESSAGE"),
                table(c, "AQ_QUEUE"), table(c, "AQ_MESSAGE_CONSUMER"), "COALESCE(M.USER_DATA_LOB, M.USER_DATA)");
        try (Statement s = c.createStatement()) {
            // names were validated as identifiers: nothing user-typed is spliced in raw
            s.execute("CREATE SCHEMA IF NOT EXISTS " + quote(owner));
            s.execute("CREATE OR REPLACE VIEW " + quote(owner) + "." + quote("AQ$" + queueTable) + view);
        }
    }

    @Override
    public void dropQueueTableView(Connection c, String owner, String queueTable) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP VIEW IF EXISTS " + quote(owner) + "." + quote("AQ$" + queueTable));
        }
    }

    @Override
    public void dropStore(Connection c) throws SQLException {
        List<String[]> views = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT OWNER, NAME FROM AQ_QUEUE_TABLE");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                views.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        } catch (SQLException noStoreYet) {
            c.rollback(); // PostgreSQL: the failed statement ended the transaction's use
        }
        for (String[] v : views) {
            dropQueueTableView(c, v[0], v[1]);
        }
        try (Statement s = c.createStatement()) {
            s.execute("DROP VIEW IF EXISTS " + quote(SecurityViews.INTERNET_USERS));
            for (String view : List.of(StatisticsViews.GV, StatisticsViews.V, SecurityViews.QUEUE_PRIVILEGES, RegistrationViews.DBA, QueueScheduleViews.USER, QueueScheduleViews.DBA, "USER_QUEUES", "DBA_QUEUES",
                    "USER_QUEUE_TABLES", "DBA_QUEUE_TABLES")) {
                s.execute("DROP VIEW IF EXISTS " + view);
            }
            for (String table : List.of("AQ_MESSAGE_CONSUMER", "AQ_SUBSCRIBER", "AQ_MESSAGE", "AQ_QUEUE", "AQ_QUEUE_TABLE",
                    "AQ_SEQUENCE", "AQ_TRANSFORMATION", "AQ_SIGNAL", "AQ_ATTEMPT", "AQ_NODE", "AQ_SCHEDULE", "AQ_DBLINK",
                    "AQ_PROPAGATION_RECEIPT", "AQ_AGENT", "AQ_AGENT_DB_USER", "AQ_QUEUE_PRIVILEGE", "AQ_SYSTEM_PRIVILEGE", "AQ_REGISTRATION", "AQ_NOTIFICATION",
                    "AQ_SCHEMA_VERSION", "AQ_NODE_SIGNAL")) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
            s.execute("DROP SEQUENCE IF EXISTS AQ_MESSAGE_SEQ");
            dropClaimFunctions(s);
        }
        c.commit();
    }

    @Override
    public void shutdown() {
        // the database server lives on; the XA data source holds no pool of its own
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + settings + "]";
    }
}
