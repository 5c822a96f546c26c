package io.aqueduct.engine.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.XADataSource;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.apache.derby.jdbc.EmbeddedXADataSource;

/** Embedded Derby: the zero-set-up store, one JVM per database. */
public final class DerbyDialect implements Dialect {
    private static final Logger LOG = Logger.getLogger(DerbyDialect.class.getName());
    /** In-memory databases being dropped, by database name: an engine opening that name waits for the drop. */
    private static final Map<String, CompletableFuture<Void>> DROPPING = new ConcurrentHashMap<>();
    private static final ExecutorService DROPPERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "aqueduct-derby-drop");
        t.setDaemon(true); // an in-memory database goes with the JVM anyway
        return t;
    });

    private final String databaseName;
    private final boolean inMemory;
    private final EmbeddedXADataSource xa;
    private final Statements statements = new Statements(this);

    private DerbyDialect(String databaseName, boolean inMemory) {
        this.databaseName = databaseName;
        this.inMemory = inMemory;
        if (System.getProperty("derby.stream.error.file") == null && System.getProperty("derby.stream.error.field") == null) {
            // keep derby.log out of the user's working directory
            System.setProperty("derby.stream.error.file",
                    Path.of(System.getProperty("java.io.tmpdir"), "aqueduct-derby.log").toString());
        }
        xa = new EmbeddedXADataSource();
        xa.setDatabaseName(databaseName);
        xa.setCreateDatabase("create");
    }

    /** A durable database in {@code directory} (created when absent). */
    public static DerbyDialect directory(Path directory) {
        Path dir = directory.toAbsolutePath();
        if (java.nio.file.Files.isDirectory(dir) && !java.nio.file.Files.exists(dir.resolve("service.properties"))) {
            // Derby creates its database only where nothing is: an empty directory made beforehand goes first
            try (java.util.stream.Stream<Path> content = java.nio.file.Files.list(dir)) {
                if (content.findAny().isPresent()) {
                    throw new io.aqueduct.api.AqException(io.aqueduct.api.AqError.STORE_FAILURE, "The store directory " + dir
                            + " holds files but no Derby database: give a new or empty directory for the Aqueduct store.");
                }
                java.nio.file.Files.delete(dir);
            } catch (java.io.IOException e) {
                throw new io.aqueduct.api.AqException(io.aqueduct.api.AqError.STORE_FAILURE, "Cannot use the store directory "
                        + dir + ": " + e.getMessage(), e);
            }
        }
        return new DerbyDialect(dir.toString(), false);
    }

    /** An in-memory database, gone when the engine closes: for tests. */
    public static DerbyDialect inMemory(String name) {
        return new DerbyDialect("memory:" + name, true);
    }

    /** Waits while an engine closed before drops the in-memory database of this name: a new one starts empty. */
    private void awaitDropped() {
        CompletableFuture<Void> dropping = DROPPING.get(databaseName);
        if (dropping != null) {
            dropping.join();
        }
    }

    @Override
    public Path journalFile() {
        // inside the database's directory: it goes wherever the database goes (Derby ignores files it does not know)
        return inMemory ? null : Path.of(databaseName, "aqueduct-attempts.journal");
    }

    @Override
    public String eclipseLinkPlatform() {
        return "Derby";
    }

    @Override
    public String database() {
        return "derby";
    }

    @Override
    public Statements statements() {
        return statements;
    }

    @Override
    public String defaultSchema() {
        return "APP";
    }

    @Override
    public XADataSource xaDataSource() {
        if (inMemory) {
            awaitDropped(); // every connection is opened through here
        }
        return xa;
    }

    @Override
    public String limit(int rows) {
        return " FETCH FIRST " + rows + " ROWS ONLY";
    }

    @Override
    public String dirtyReadSuffix() {
        return " WITH UR";
    }

    @Override
    public int schemaVersion(Connection c) throws SQLException {
        if (!tableExists(c, "APP", "AQ_SCHEMA_VERSION")) {
            return 0;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql("store.schemaVersion"))) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    @Override
    public void migrateSchema(Connection c, int from) throws SQLException {
        // Derby is embedded: one JVM opens the database, so no lock between nodes is needed
        if (from < 1) {
            createSchemaV1(c);
        }
        if (from < 2 && !columnExists(c, "AQ_MESSAGE", "USER_PROPS")) {
            // schema 2: user properties (encoded by UserPropertiesCodec; 32,000 bytes at most fit the column)
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN USER_PROPS VARCHAR(32672) FOR BIT DATA");
            }
        }
        if (from < 3 && !columnExists(c, "AQ_SUBSCRIBER", "RULE_SYNTAX")) {
            // schema 3: the syntax of a subscriber's rule; existing subscribers keep their AQ conditions
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE AQ_SUBSCRIBER ADD COLUMN RULE_SYNTAX VARCHAR(9) DEFAULT 'CONDITION' NOT NULL");
            }
        }
        if (from < 4) {
            createSchemaV4(c);
            if (from >= 1) {
                recreateQueueTableViews(c); // the AQ$ views gain ORIGINAL_MSGID
            }
        }
        if (from < 5) {
            createSchemaV5(c);
        }
        if (from < 6) {
            createSchemaV6(c);
        }
        if (from < 7) {
            // schema 7: where a message moved to an exception queue came from (old rows: NULL, unknown)
            try (Statement s = c.createStatement()) {
                if (!columnExists(c, "AQ_MESSAGE", "ORIGINAL_QSCHEMA")) {
                    s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN ORIGINAL_QSCHEMA VARCHAR(30)");
                }
                if (!columnExists(c, "AQ_MESSAGE", "ORIGINAL_QUEUE")) {
                    s.execute("ALTER TABLE AQ_MESSAGE ADD COLUMN ORIGINAL_QUEUE VARCHAR(30)");
                }
            }
            if (from >= 1) {
                recreateQueueTableViews(c); // the AQ$ views gain ORIGINAL_QUEUE_OWNER / ORIGINAL_QUEUE_NAME
            }
        }
        if (from < 8) {
            createSchemaV8(c);
        }
        // schema 9 has nothing for Derby: its claims need no second look at a ledger (one JVM)
        try (Statement s = c.createStatement()) {
            if (!tableExists(c, "APP", "AQ_SCHEMA_VERSION")) {
                s.execute("CREATE TABLE AQ_SCHEMA_VERSION (VERSION INT NOT NULL)");
            }
        }
        StoreSchema.recordCurrent(this, c);
    }

    /**
     * Schema 4, propagation: schedules, database links, receipts of propagated messages, a remote
     * consumer's destination and the schedules' catalog views (each step runs when what it creates is missing).
     */
    private void createSchemaV4(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!tableExists(c, "APP", "AQ_SCHEDULE")) {
                // a schedule per source queue and destination (a database link's name, or AQ$_LOCAL); instants are
                // epoch ms; the node in NODE_NAME runs it until LEASE_UNTIL
                s.execute("CREATE TABLE AQ_SCHEDULE (QID BIGINT NOT NULL, DESTINATION VARCHAR(128) NOT NULL,"
                        + " START_MS BIGINT NOT NULL, DURATION BIGINT, NEXT_TIME VARCHAR(200), LATENCY BIGINT NOT NULL,"
                        + " DISABLED SMALLINT NOT NULL, FAILURES INT NOT NULL, LAST_ERROR_MS BIGINT, LAST_ERROR_MSG VARCHAR(4000),"
                        + " LAST_RUN_MS BIGINT, CURRENT_START_MS BIGINT, NEXT_RUN_MS BIGINT, TOTAL_TIME_MS BIGINT NOT NULL,"
                        + " TOTAL_NUMBER BIGINT NOT NULL, TOTAL_BYTES BIGINT NOT NULL, MAX_NUMBER BIGINT NOT NULL,"
                        + " MAX_BYTES BIGINT NOT NULL, WINDOWS BIGINT NOT NULL, WINDOW_NUMBER BIGINT NOT NULL,"
                        + " WINDOW_BYTES BIGINT NOT NULL, NODE_NAME VARCHAR(64), NODE_INSTANCE VARCHAR(200), SESSION_ID VARCHAR(64),"
                        + " LEASE_UNTIL BIGINT, PRIMARY KEY (QID, DESTINATION))");
            }
            if (!tableExists(c, "APP", "AQ_DBLINK")) {
                s.execute("CREATE TABLE AQ_DBLINK (NAME VARCHAR(128) NOT NULL PRIMARY KEY, URL VARCHAR(1024) NOT NULL,"
                        + " USERNAME VARCHAR(128), PASSWORD VARCHAR(1024), CREATED_MS BIGINT NOT NULL)");
            }
            if (!tableExists(c, "APP", "AQ_PROPAGATION_RECEIPT")) {
                // what a destination received from a source: a message propagated twice is enqueued once
                s.execute("CREATE TABLE AQ_PROPAGATION_RECEIPT (ID VARCHAR(200) NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                        + " SOURCE VARCHAR(200), CREATED_MS BIGINT NOT NULL)");
            }
            if (!indexExists(c, "AQ_PROPAGATION_RECEIPT_SOURCE")) {
                s.execute("CREATE INDEX AQ_PROPAGATION_RECEIPT_SOURCE ON AQ_PROPAGATION_RECEIPT (SOURCE)");
            }
            if (!columnExists(c, "AQ_MESSAGE_CONSUMER", "DEST")) {
                // a remote consumer's destination (NULL for a local consumer)
                s.execute("ALTER TABLE AQ_MESSAGE_CONSUMER ADD COLUMN DEST VARCHAR(128)");
            }
            if (!indexExists(c, "AQ_MESSAGE_CONSUMER_DEST")) {
                // the propagator's lane: what is pending for a destination
                s.execute("CREATE INDEX AQ_MESSAGE_CONSUMER_DEST ON AQ_MESSAGE_CONSUMER (QID, DEST, STATE)");
            }
            if (!tableExists(c, "APP", QueueScheduleViews.DBA)) {
                s.execute("CREATE VIEW " + QueueScheduleViews.DBA + QueueScheduleViews.dbaColumnsAndSelect(DerbyDialect::quote,
                        DerbyDialect::utcTimestamp, DerbyDialect::utcTimeOfDay, "DOUBLE"));
            }
            if (!tableExists(c, "APP", QueueScheduleViews.USER)) {
                s.execute("CREATE VIEW " + QueueScheduleViews.USER + QueueScheduleViews.userSelect(DerbyDialect::quote,
                        "CURRENT SCHEMA"));
            }
        }
    }

    /** Schema 5, users, agents and privileges: their tables and views (each made when missing). */
    private void createSchemaV5(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String[] t : SecurityViews.tables(x -> x)) {
                if (!tableExists(c, "APP", t[0])) {
                    s.execute("CREATE TABLE " + t[0] + " " + t[1]);
                }
            }
            if (!tableExists(c, "APP", SecurityViews.QUEUE_PRIVILEGES)) {
                s.execute("CREATE VIEW " + SecurityViews.QUEUE_PRIVILEGES + SecurityViews.queuePrivilegesColumnsAndSelect());
            }
            if (!tableExists(c, "APP", SecurityViews.INTERNET_USERS)) {
                s.execute("CREATE VIEW " + quote(SecurityViews.INTERNET_USERS) + SecurityViews.internetUsersColumnsAndSelect());
            }
        }
    }

    /** Schema 6, notifications: registrations, pending RELIABLE notifications, their view (each step when missing). */
    private void createSchemaV6(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!tableExists(c, "APP", "AQ_REGISTRATION")) {
                // instants are epoch ms; QOS is the registration's flags by name, comma-separated
                s.execute("CREATE TABLE AQ_REGISTRATION (REG_ID BIGINT NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                        + " CONSUMER VARCHAR(30), URL VARCHAR(4000) NOT NULL, CONTEXT VARCHAR(2000) FOR BIT DATA,"
                        + " QOS VARCHAR(64) NOT NULL, TIMEOUT_S BIGINT NOT NULL, REG_USER VARCHAR(128), CREATED_MS BIGINT NOT NULL,"
                        + " EXPIRES_MS BIGINT, DELIVERED BIGINT NOT NULL, FAILED BIGINT NOT NULL, LAST_ERROR_MS BIGINT,"
                        + " LAST_ERROR_MSG VARCHAR(4000))");
            }
            if (!tableExists(c, "APP", "AQ_NOTIFICATION")) {
                // a RELIABLE notification waiting for delivery: due at DUE_MS; a node delivering it holds it until LEASE_UNTIL
                s.execute("CREATE TABLE AQ_NOTIFICATION (ID VARCHAR(64) NOT NULL PRIMARY KEY, REG_ID BIGINT NOT NULL,"
                        + " MSGID VARCHAR(32), CONSUMER VARCHAR(30), DUE_MS BIGINT NOT NULL, ATTEMPTS INT NOT NULL,"
                        + " LEASE_UNTIL BIGINT)");
            }
            if (!indexExists(c, "AQ_NOTIFICATION_DUE")) {
                s.execute("CREATE INDEX AQ_NOTIFICATION_DUE ON AQ_NOTIFICATION (DUE_MS)");
            }
            if (!tableExists(c, "APP", RegistrationViews.DBA)) {
                s.execute("CREATE VIEW " + RegistrationViews.DBA + RegistrationViews.columnsAndSelect(DerbyDialect::utcTimestamp));
            }
        }
    }

    /**
     * Schema 8, AQ's statistics views V$AQ and GV$AQ. Derby has no function for the current UTC instant
     * (CURRENT_TIMESTAMP is the JVM's local time): AQ_NOW_MILLIS is the JDK's System.currentTimeMillis,
     * there in every JVM that opens the database (ij too).
     */
    private void createSchemaV8(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (!functionExists(c, "AQ_NOW_MILLIS")) {
                s.execute("CREATE FUNCTION AQ_NOW_MILLIS() RETURNS BIGINT LANGUAGE JAVA PARAMETER STYLE JAVA NO SQL"
                        + " EXTERNAL NAME 'java.lang.System.currentTimeMillis'");
            }
            if (!tableExists(c, "APP", StatisticsViews.V)) {
                s.execute("CREATE VIEW " + quote(StatisticsViews.V) + StatisticsViews.columnsAndSelect("AQ_NOW_MILLIS()",
                        t -> "{fn TIMESTAMPDIFF(SQL_TSI_FRAC_SECOND, TIMESTAMP('1970-01-01 00:00:00'), " + t + ")} / 1000000",
                        "DOUBLE"));
            }
            if (!tableExists(c, "APP", StatisticsViews.GV)) {
                s.execute("CREATE VIEW " + quote(StatisticsViews.GV) + StatisticsViews.globalSelect(quote(StatisticsViews.V)));
            }
        }
    }

    private static boolean functionExists(Connection c, String name) throws SQLException {
        return found(c, "SELECT 1 FROM SYS.SYSALIASES A JOIN SYS.SYSSCHEMAS S"
                + " ON A.SCHEMAID = S.SCHEMAID WHERE S.SCHEMANAME = 'APP' AND A.ALIAS = ?", name);
    }

    /**
     * The UTC TIMESTAMP of an epoch-ms expression (0 or later; NULL stays NULL). Derby has no epoch
     * function, and its TIMESTAMPADD of seconds goes through a calendar in the JVM's time zone (a
     * daylight-saving change would shift it), so the value is built from its fields: DATE(n) is the
     * day n - 1 after 1970-01-01, the time of day comes from its 'HH:MM:SS' text, and the
     * milliseconds are added as nanoseconds within their second (no calendar is involved).
     */
    static String utcTimestamp(String epochMs) {
        return "{fn TIMESTAMPADD(SQL_TSI_FRAC_SECOND, CAST(MOD(" + epochMs + ", 1000) AS INT) * 1000000,"
                + " TIMESTAMP(DATE(" + epochMs + " / 86400000 + 1), TIME(" + utcTimeOfDay(epochMs) + ")))}";
    }

    /** The UTC time of day ('HH:MM:SS') of an epoch-ms expression (0 or later; NULL stays NULL), by arithmetic. */
    static String utcTimeOfDay(String epochMs) {
        return twoDigits("MOD(" + epochMs + ", 86400000) / 3600000") + " || ':' || "
                + twoDigits("MOD(" + epochMs + ", 3600000) / 60000") + " || ':' || "
                + twoDigits("MOD(" + epochMs + ", 60000) / 1000");
    }

    /** A number 0..99 as two digits ('07'). */
    private static String twoDigits(String number) {
        return "SUBSTR(CHAR(100 + " + number + "), 2, 2)";
    }

    private static boolean indexExists(Connection c, String index) throws SQLException {
        return found(c, "SELECT 1 FROM SYS.SYSCONGLOMERATES G JOIN SYS.SYSSCHEMAS S"
                + " ON G.SCHEMAID = S.SCHEMAID WHERE S.SCHEMANAME = 'APP' AND G.ISINDEX AND G.CONGLOMERATENAME = ?", index);
    }

    /** Does the catalog query {@code sql}, given {@code name}, return a row? */
    private static boolean found(Connection c, String sql, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Schema 1, from an empty database or from the unversioned schemas before it (each step runs when what it creates is missing). */
    private void createSchemaV1(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            // a queue store wants short lock waits: a contended row is a lost race, not a minute's stall
            s.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '10')");
            s.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.deadlockTimeout', '2')");
        }
        if (!tableExists(c, "APP", "AQ_QUEUE_TABLE")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE AQ_QUEUE_TABLE (QT_ID BIGINT NOT NULL PRIMARY KEY, OWNER VARCHAR(30) NOT NULL,"
                        + " NAME VARCHAR(30) NOT NULL, PAYLOAD_TYPE VARCHAR(7) NOT NULL, OBJECT_TYPE VARCHAR(256),"
                        + " SORT_ORDER VARCHAR(22) NOT NULL, MULTIPLE_CONSUMERS SMALLINT NOT NULL,"
                        + " MESSAGE_GROUPING VARCHAR(13) NOT NULL, USER_COMMENT VARCHAR(2000),"
                        + " CONSTRAINT AQ_QUEUE_TABLE_NAME UNIQUE (OWNER, NAME))");
                s.execute("CREATE TABLE AQ_QUEUE (QID BIGINT NOT NULL PRIMARY KEY, OWNER VARCHAR(30) NOT NULL,"
                        + " NAME VARCHAR(30) NOT NULL, QT_ID BIGINT NOT NULL REFERENCES AQ_QUEUE_TABLE (QT_ID),"
                        + " QUEUE_TYPE VARCHAR(15) NOT NULL, MAX_RETRIES INT NOT NULL, RETRY_DELAY BIGINT NOT NULL,"
                        + " RETENTION BIGINT NOT NULL, ENQUEUE_ENABLED SMALLINT NOT NULL, DEQUEUE_ENABLED SMALLINT NOT NULL,"
                        + " USER_COMMENT VARCHAR(2000), CONSTRAINT AQ_QUEUE_NAME UNIQUE (OWNER, NAME))");
                s.execute("CREATE TABLE AQ_MESSAGE (MSGID CHAR(32) NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                        + " QT_ID BIGINT NOT NULL, CORRID VARCHAR(128), PRIORITY INT NOT NULL, STATE INT NOT NULL,"
                        + " DELAY TIMESTAMP, EXPIRATION BIGINT NOT NULL, TIME_MANAGER_INFO BIGINT,"
                        + " ENQ_TIME TIMESTAMP NOT NULL, ENQ_UID VARCHAR(128), ENQ_TID VARCHAR(64),"
                        + " DEQ_TIME TIMESTAMP, DEQ_UID VARCHAR(128), DEQ_TID VARCHAR(64), RETRY_COUNT INT NOT NULL,"
                        + " EXCEPTION_QSCHEMA VARCHAR(30), EXCEPTION_QUEUE VARCHAR(30),"
                        + " SENDER_NAME VARCHAR(30), SENDER_ADDRESS VARCHAR(1024), SENDER_PROTOCOL INT,"
                        + " ORIGINAL_MSGID CHAR(32), SEQ BIGINT NOT NULL, GROUP_SEQ BIGINT NOT NULL, ORDER_MS BIGINT NOT NULL,"
                        + " USER_DATA VARCHAR(32672) FOR BIT DATA, USER_DATA_LOB BLOB(2G))");
                // the time manager's next due instant. No dequeue-order index: on Derby (one JVM) the
                // ready index in memory knows the order, and every extra index costs each enqueue and dequeue
                s.execute("CREATE INDEX AQ_MESSAGE_TM ON AQ_MESSAGE (TIME_MANAGER_INFO)");
                s.execute("CREATE VIEW DBA_QUEUE_TABLES (OWNER, QUEUE_TABLE, TYPE, OBJECT_TYPE, SORT_ORDER, RECIPIENTS,"
                        + " MESSAGE_GROUPING, USER_COMMENT) AS SELECT OWNER, NAME,"
                        + " CASE WHEN PAYLOAD_TYPE = 'OBJECT' THEN 'OBJECT' ELSE PAYLOAD_TYPE END, OBJECT_TYPE, SORT_ORDER,"
                        + " CASE WHEN MULTIPLE_CONSUMERS = 1 THEN 'MULTIPLE' ELSE 'SINGLE' END, MESSAGE_GROUPING, USER_COMMENT"
                        + " FROM AQ_QUEUE_TABLE");
                s.execute("CREATE VIEW USER_QUEUE_TABLES AS SELECT QUEUE_TABLE, TYPE, OBJECT_TYPE, SORT_ORDER, RECIPIENTS,"
                        + " MESSAGE_GROUPING, USER_COMMENT FROM DBA_QUEUE_TABLES WHERE OWNER = CURRENT SCHEMA");
                s.execute("CREATE VIEW DBA_QUEUES (OWNER, NAME, QUEUE_TABLE, QID, QUEUE_TYPE, MAX_RETRIES, RETRY_DELAY,"
                        + " ENQUEUE_ENABLED, DEQUEUE_ENABLED, RETENTION, USER_COMMENT) AS SELECT Q.OWNER, Q.NAME, T.NAME,"
                        + " Q.QID, Q.QUEUE_TYPE, Q.MAX_RETRIES, Q.RETRY_DELAY,"
                        + " CASE WHEN Q.ENQUEUE_ENABLED = 1 THEN 'YES' ELSE 'NO' END,"
                        + " CASE WHEN Q.DEQUEUE_ENABLED = 1 THEN 'YES' ELSE 'NO' END,"
                        + " Q.RETENTION, Q.USER_COMMENT"
                        + " FROM AQ_QUEUE Q JOIN AQ_QUEUE_TABLE T ON Q.QT_ID = T.QT_ID");
                s.execute("CREATE VIEW USER_QUEUES AS SELECT NAME, QUEUE_TABLE, QID, QUEUE_TYPE, MAX_RETRIES, RETRY_DELAY,"
                        + " ENQUEUE_ENABLED, DEQUEUE_ENABLED, RETENTION, USER_COMMENT FROM DBA_QUEUES WHERE OWNER = CURRENT SCHEMA");
            }
        }
        upgradeSchema(c);
    }

    /** What unversioned stores gained over time: each step runs once, when what it creates is missing. */
    private void upgradeSchema(Connection c) throws SQLException {
        if (!tableExists(c, "APP", "AQ_SEQUENCE")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE AQ_SEQUENCE (NAME VARCHAR(30) NOT NULL PRIMARY KEY, NEXT_VALUE BIGINT NOT NULL)");
                s.execute("INSERT INTO AQ_SEQUENCE VALUES ('QUEUE_TABLE', (SELECT COALESCE(MAX(QT_ID), 0) FROM AQ_QUEUE_TABLE))");
                s.execute("INSERT INTO AQ_SEQUENCE VALUES ('QUEUE', (SELECT COALESCE(MAX(QID), 0) FROM AQ_QUEUE))");
            }
        }
        if (!tableExists(c, "APP", "AQ_SUBSCRIBER")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE AQ_SUBSCRIBER (SUB_ID BIGINT NOT NULL PRIMARY KEY, QID BIGINT NOT NULL,"
                        + " CONSUMER VARCHAR(128) NOT NULL, NAME VARCHAR(30), ADDRESS VARCHAR(1024), PROTOCOL INT NOT NULL,"
                        + " RULE_TEXT VARCHAR(4000), CONSTRAINT AQ_SUBSCRIBER_AGENT UNIQUE (QID, CONSUMER))");
                // the consumer states of a message; no index on state: the ready index knows what is pending
                s.execute("CREATE TABLE AQ_MESSAGE_CONSUMER (ID VARCHAR(170) NOT NULL PRIMARY KEY, MSGID CHAR(32) NOT NULL,"
                        + " QID BIGINT NOT NULL, CONSUMER VARCHAR(128) NOT NULL, NAME VARCHAR(30), ADDRESS VARCHAR(1024),"
                        + " PROTOCOL INT NOT NULL, STATE INT NOT NULL, RETRY_COUNT INT NOT NULL, TIME_MANAGER_INFO BIGINT,"
                        + " DEQ_TIME TIMESTAMP, DEQ_UID VARCHAR(128), DEQ_TID VARCHAR(64))");
                s.execute("CREATE INDEX AQ_MESSAGE_CONSUMER_MSG ON AQ_MESSAGE_CONSUMER (MSGID)");
                s.execute("CREATE INDEX AQ_MESSAGE_CONSUMER_TM ON AQ_MESSAGE_CONSUMER (TIME_MANAGER_INFO)");
                s.execute("INSERT INTO AQ_SEQUENCE VALUES ('SUBSCRIBER', 0)");
            }
        }
        if (!tableExists(c, "APP", "AQ_TRANSFORMATION")) {
            try (Statement s = c.createStatement()) {
                // DBMS_TRANSFORM's transformations: a function class, or the attribute expressions as a JSON object
                s.execute("CREATE TABLE AQ_TRANSFORMATION (OWNER VARCHAR(30) NOT NULL, NAME VARCHAR(30) NOT NULL,"
                        + " FROM_TYPE VARCHAR(256) NOT NULL, TO_TYPE VARCHAR(256) NOT NULL, FUNCTION_CLASS VARCHAR(256),"
                        + " ATTRIBUTES CLOB(1M), PRIMARY KEY (OWNER, NAME))");
            }
        }
        if (!columnExists(c, "APP", "AQ_SUBSCRIBER", "TRANSFORMATION")) {
            try (Statement s = c.createStatement()) {
                s.execute("ALTER TABLE AQ_SUBSCRIBER ADD COLUMN TRANSFORMATION VARCHAR(61)");
            }
        }
    }

    private static boolean columnExists(Connection c, String schema, String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSCOLUMNS K JOIN SYS.SYSTABLES T"
                + " ON K.REFERENCEID = T.TABLEID JOIN SYS.SYSSCHEMAS S ON T.SCHEMAID = S.SCHEMAID"
                + " WHERE S.SCHEMANAME = ? AND T.TABLENAME = ? AND K.COLUMNNAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void createQueueTableView(Connection c, String owner, String queueTable, long queueTableId,
            boolean multipleConsumers) throws SQLException {
        if (!schemaExists(c, owner)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA " + quote(owner));
            }
        }
        String payload = "CASE WHEN M.USER_DATA_LOB IS NULL THEN CAST(M.USER_DATA AS BLOB(2G)) ELSE M.USER_DATA_LOB END";
        try (Statement s = c.createStatement()) {
            // names were validated as identifiers: nothing user-typed is spliced in raw
            s.execute("CREATE VIEW " + quote(owner) + "." + quote("AQ$" + queueTable)
                    + QueueTableViews.columnsAndSelect(multipleConsumers, queueTableId, "AQ_MESSAGE", "AQ_QUEUE",
                            "AQ_MESSAGE_CONSUMER", payload));
        }
    }

    @Override
    public void dropQueueTableView(Connection c, String owner, String queueTable) throws SQLException {
        if (tableExists(c, owner, "AQ$" + queueTable)) {
            try (Statement s = c.createStatement()) {
                s.execute("DROP VIEW " + quote(owner) + "." + quote("AQ$" + queueTable));
            }
        }
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static boolean tableExists(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSTABLES T JOIN SYS.SYSSCHEMAS S"
                + " ON T.SCHEMAID = S.SCHEMAID WHERE S.SCHEMANAME = ? AND T.TABLENAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static boolean columnExists(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSCOLUMNS C JOIN SYS.SYSTABLES T"
                + " ON C.REFERENCEID = T.TABLEID JOIN SYS.SYSSCHEMAS S ON T.SCHEMAID = S.SCHEMAID"
                + " WHERE S.SCHEMANAME = 'APP' AND T.TABLENAME = ? AND C.COLUMNNAME = ?")) {
            ps.setString(1, table);
            ps.setString(2, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSSCHEMAS WHERE SCHEMANAME = ?")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void shutdown() {
        EmbeddedDataSource ds = new EmbeddedDataSource();
        ds.setDatabaseName(databaseName);
        if (inMemory) {
            // Derby's drop shuts the database down and then sleeps 500 ms before it frees the memory: the engine's
            // close does not wait for that (a test suite closes thousands of engines); an engine opening the name does
            ds.setConnectionAttributes("drop=true");
            CompletableFuture<Void> dropped = new CompletableFuture<>();
            DROPPING.put(databaseName, dropped);
            DROPPERS.execute(() -> {
                try {
                    stop(ds);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "The in-memory Derby database " + databaseName + " was not dropped", e);
                } finally {
                    DROPPING.remove(databaseName, dropped);
                    dropped.complete(null);
                }
            });
        } else {
            ds.setShutdownDatabase("shutdown");
            stop(ds);
        }
    }

    private static void stop(EmbeddedDataSource ds) {
        try {
            ds.getConnection().close();
        } catch (SQLException expected) {
            // Derby reports a successful shutdown / drop as an exception (08006); anything else is a real failure
            if (!"08006".equals(expected.getSQLState()) && !"XJ004".equals(expected.getSQLState())) {
                throw new IllegalStateException("Derby did not shut down cleanly: " + expected.getMessage(), expected);
            }
        }
    }
}
