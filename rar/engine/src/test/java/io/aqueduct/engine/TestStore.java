package io.aqueduct.engine;

import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The database the engine tests run on. Derby (in memory, a database per test) unless the system
 * property {@code aqueduct.test.store} says {@code postgres} or {@code mariadb}; those read their
 * server from {@code aqueduct.test.postgres.url} / {@code aqueduct.test.mariadb.url} (or the
 * environment variables AQUEDUCT_TEST_POSTGRES_URL / AQUEDUCT_TEST_MARIADB_URL, with _USER and
 * _PASSWORD beside them). A store that is asked for but not configured skips its run; one that is
 * configured but unreachable fails it. Each test starts from an empty store in schema APP.
 */
final class TestStore {
    enum Kind {
        DERBY, POSTGRES, MARIADB
    }

    static final TestStore CURRENT = fromSystemProperties();

    final Kind kind;
    private final String serverUrl;
    private final String user;
    private final String password;

    private TestStore(Kind kind, String serverUrl, String user, String password) {
        this.kind = kind;
        this.serverUrl = serverUrl;
        this.user = user;
        this.password = password;
    }

    private static TestStore fromSystemProperties() {
        Kind kind = Kind.valueOf(System.getProperty("aqueduct.test.store", "derby").trim().toUpperCase(Locale.ROOT));
        if (kind == Kind.DERBY) {
            return new TestStore(kind, null, null, null);
        }
        String prefix = kind.name().toLowerCase(Locale.ROOT);
        return new TestStore(kind, setting(prefix, "url"), setting(prefix, "user"), setting(prefix, "password"));
    }

    private static String setting(String store, String what) {
        String value = System.getProperty("aqueduct.test." + store + "." + what);
        if (value == null || value.isBlank()) {
            value = System.getenv("AQUEDUCT_TEST_" + store.toUpperCase(Locale.ROOT) + "_" + what.toUpperCase(Locale.ROOT));
        }
        return value == null || value.isBlank() ? null : value;
    }

    boolean shared() {
        return kind != Kind.DERBY;
    }

    /**
     * Skips the calling test when this store was asked for but no server is configured, or fails it
     * when the run requires the shared stores (AQUEDUCT_TEST_REQUIRE_STORES=1, which .ci/run sets):
     * a CI run must not pass by skipping them.
     */
    void assumeConfigured() {
        if (kind == Kind.DERBY || serverUrl != null) {
            return;
        }
        String missing = "aqueduct.test.store=" + kind + " but no aqueduct.test." + kind.name().toLowerCase(Locale.ROOT)
                + ".url is configured";
        if ("1".equals(System.getenv("AQUEDUCT_TEST_REQUIRE_STORES"))) {
            throw new AssertionError(missing + ", and AQUEDUCT_TEST_REQUIRE_STORES=1 requires it");
        }
        Assumptions.assumeTrue(false, missing);
    }

    /** The JDBC URL of the store's schema APP on the server. */
    String storeUrl() {
        return switch (kind) {
            case DERBY -> throw new IllegalStateException("Derby tests use a database per test");
            case POSTGRES -> serverUrl + (serverUrl.contains("?") ? "&" : "?") + "currentSchema=%22APP%22";
            case MARIADB -> serverUrl.replaceAll("/+$", "") + "/APP";
        };
    }

    JdbcSettings settings() {
        return new JdbcSettings(storeUrl(), user, password);
    }

    /** An empty store: schema APP exists, nothing of Aqueduct's is in it. Returns its dialect. */
    Dialect emptyStore() throws SQLException {
        Dialect dialect = dialectOfEmptiedStore();
        try (Connection c = DriverManager.getConnection(storeUrl(), user, password)) {
            c.setAutoCommit(false);
            dialect.dropStore(c);
        }
        return dialect;
    }

    /**
     * A store in schema APP as the engine's migration leaves an empty database: the current schema, and
     * no rows but the ones the migration writes. The first call of a JVM drops the store and migrates it
     * (as an engine's start would); later calls find the store the previous test left and, when its schema
     * is still exactly the migrated one (tables, columns, indexes, views, sequences compared), only empty
     * its rows, drop its queue tables' views and restart its sequence: the migration's DDL is most of a
     * test's set-up on these servers. A store whose schema differs is dropped and migrated again.
     */
    synchronized Dialect migratedStore() throws SQLException {
        Dialect dialect = dialectOfEmptiedStore();
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            dropQueueTableViews(dialect, c);
            if (migrated != null && migrated.schema().equals(schemaOf(c))) {
                restoreRows(c, migrated.rows());
            } else {
                dialect.dropStore(c);
                dialect.migrateSchema(c, 0); // what the engine's start runs on an empty database
                migrated = new Migrated(schemaOf(c), rowsOf(c));
            }
            c.commit();
        }
        return dialect;
    }

    /** The schema a migration from nothing made in this JVM and the rows it wrote; null before the first. */
    private Migrated migrated;

    private record Migrated(List<String> schema, Map<String, List<Map<String, Object>>> rows) {
    }

    /** Schema APP exists, and no XA branch of an earlier test holds its rows; the store's dialect. */
    private Dialect dialectOfEmptiedStore() throws SQLException {
        try (Connection c = DriverManager.getConnection(kind == Kind.MARIADB ? serverUrl : storeUrl(), user, password);
                Statement s = c.createStatement()) {
            s.execute(kind == Kind.MARIADB ? "CREATE DATABASE IF NOT EXISTS APP" : "CREATE SCHEMA IF NOT EXISTS \"APP\"");
        }
        Dialect dialect = Dialects.forJdbc(new JdbcSettings(storeUrl(), user, password));
        rollBackBranchesInDoubt(dialect);
        return dialect;
    }

    /** The AQ$ views of the store's queue tables (in their owners' schemas); a fresh store has none. */
    private static void dropQueueTableViews(Dialect dialect, Connection c) throws SQLException {
        List<String[]> views = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT OWNER, NAME FROM AQ_QUEUE_TABLE")) {
            while (rs.next()) {
                views.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        } catch (SQLException noStore) {
            c.rollback(); // PostgreSQL: the failed statement ended the transaction's use
            return;
        }
        for (String[] v : views) {
            dialect.dropQueueTableView(c, v[0], v[1]);
        }
    }

    /** Everything of schema APP's shape, as lines: tables, views and their definitions, columns, indexes, sequences. */
    private List<String> schemaOf(Connection c) throws SQLException {
        List<String> lines = new ArrayList<>();
        lines.addAll(query(c, "SELECT TABLE_NAME, TABLE_TYPE FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'APP'"));
        lines.addAll(query(c, "SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE, COLUMN_DEFAULT,"
                + " CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'APP'"));
        lines.addAll(query(c, "SELECT TABLE_NAME, VIEW_DEFINITION FROM INFORMATION_SCHEMA.VIEWS WHERE TABLE_SCHEMA = 'APP'"));
        if (kind == Kind.MARIADB) {
            lines.addAll(query(c, "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE"
                    + " FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = 'APP'"));
            lines.addAll(query(c, "SELECT CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME"
                    + " FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = 'APP'"));
            // a test's own check (EnqueueTest adds one) is a difference too
            lines.addAll(query(c, "SELECT CONSTRAINT_NAME, TABLE_NAME, CHECK_CLAUSE FROM INFORMATION_SCHEMA.CHECK_CONSTRAINTS"
                    + " WHERE CONSTRAINT_SCHEMA = 'APP'"));
        } else {
            lines.addAll(query(c, "SELECT TABLENAME, INDEXDEF FROM PG_INDEXES WHERE SCHEMANAME = 'APP'"));
            lines.addAll(query(c, "SELECT CON.CONNAME, PG_GET_CONSTRAINTDEF(CON.OID) FROM PG_CONSTRAINT CON"
                    + " JOIN PG_NAMESPACE N ON N.OID = CON.CONNAMESPACE WHERE N.NSPNAME = 'APP'"));
            lines.addAll(query(c, "SELECT SEQUENCE_NAME, START_VALUE, INCREMENT FROM INFORMATION_SCHEMA.SEQUENCES"
                    + " WHERE SEQUENCE_SCHEMA = 'APP'"));
        }
        java.util.Collections.sort(lines);
        return lines;
    }

    /** The query's rows as lines, each starting with the query's first column name (two queries' rows may look alike). */
    private static List<String> query(Connection c, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            String which = sql.substring(0, sql.indexOf(" FROM "));
            while (rs.next()) {
                StringBuilder line = new StringBuilder(which);
                for (int i = 1; i <= columns; i++) {
                    line.append(" | ").append(rs.getString(i));
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    /** The store's tables (not views, not sequences), as the server names them. */
    private static List<String> tablesOf(Connection c) throws SQLException {
        return names(c, "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'APP' AND TABLE_TYPE = 'BASE TABLE'");
    }

    /** The first column of a query's rows. */
    private static List<String> names(Connection c, String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Every row of every table (the migration writes a few: the schema version, the seeds of AQ_SEQUENCE). */
    private Map<String, List<Map<String, Object>>> rowsOf(Connection c) throws SQLException {
        Map<String, List<Map<String, Object>>> rows = new java.util.TreeMap<>();
        for (String table : tablesOf(c)) {
            List<Map<String, Object>> tableRows = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM \"APP\".\"" + table + "\"")) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    Map<String, Object> row = new java.util.LinkedHashMap<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.put(md.getColumnName(i), rs.getObject(i));
                    }
                    tableRows.add(row);
                }
            }
            rows.put(table, tableRows);
        }
        return rows;
    }

    /** Empties every table, writes the migration's rows again and restarts the message sequence. */
    private void restoreRows(Connection c, Map<String, List<Map<String, Object>>> rows) throws SQLException {
        List<String> tables = tablesOf(c);
        try (Statement s = c.createStatement()) {
            if (kind == Kind.MARIADB) {
                s.execute("SET FOREIGN_KEY_CHECKS = 0"); // the tables empty in any order; all are empty after
                for (String table : tables) {
                    s.execute("DELETE FROM \"APP\".\"" + table + "\"");
                }
                s.execute("SET FOREIGN_KEY_CHECKS = 1");
                for (String sequence : names(c, "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'APP'"
                        + " AND TABLE_TYPE = 'SEQUENCE'")) {
                    s.execute("ALTER SEQUENCE \"APP\".\"" + sequence + "\" RESTART");
                }
            } else {
                s.execute("TRUNCATE " + String.join(", ", tables.stream().map(t -> "\"APP\".\"" + t + "\"").toList()));
                for (String sequence : names(c, "SELECT SEQUENCE_NAME FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = 'APP'")) {
                    s.execute("ALTER SEQUENCE \"APP\".\"" + sequence + "\" RESTART");
                }
            }
        }
        for (Map.Entry<String, List<Map<String, Object>>> table : rows.entrySet()) {
            for (Map<String, Object> row : table.getValue()) {
                String columns = String.join(", ", row.keySet().stream().map(k -> "\"" + k + "\"").toList());
                String marks = String.join(", ", java.util.Collections.nCopies(row.size(), "?"));
                try (java.sql.PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO \"APP\".\"" + table.getKey() + "\" (" + columns + ") VALUES (" + marks + ")")) {
                    int i = 1;
                    for (Object value : row.values()) {
                        ps.setObject(i++, value);
                    }
                    ps.executeUpdate();
                }
            }
        }
    }

    /** XA branches an earlier test left prepared would hold locks the clean-up waits for: roll them back. */
    private static void rollBackBranchesInDoubt(Dialect dialect) throws SQLException {
        javax.sql.XAConnection xa = dialect.xaDataSource().getXAConnection();
        try {
            javax.transaction.xa.XAResource r = xa.getXAResource();
            for (javax.transaction.xa.Xid xid : r.recover(javax.transaction.xa.XAResource.TMSTARTRSCAN
                    | javax.transaction.xa.XAResource.TMENDRSCAN)) {
                r.rollback(xid);
            }
        } catch (javax.transaction.xa.XAException e) {
            throw new SQLException("Could not roll back the XA branches in doubt: " + e, e);
        } finally {
            xa.close();
        }
    }

    /**
     * A store of the calling test's own on the configured server, apart from schema APP (which the
     * other tests empty at will): schema {@code name} (PostgreSQL) or database {@code name} (MariaDB),
     * dropped and created again, empty. Its tables, views and sequence live in it; queues are best
     * named in schema {@code name}, so that their AQ$ views live there too.
     */
    JdbcSettings privateStore(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(serverUrl, user, password); Statement s = c.createStatement()) {
            if (kind == Kind.MARIADB) {
                s.execute("DROP DATABASE IF EXISTS `" + name + "`");
                s.execute("CREATE DATABASE `" + name + "`");
            } else {
                s.execute("DROP SCHEMA IF EXISTS \"" + name + "\" CASCADE");
                s.execute("CREATE SCHEMA \"" + name + "\"");
            }
        }
        return privateStoreSettings(name);
    }

    /** The settings of the store {@link #privateStore} makes (another JVM of the test finds it with them). */
    JdbcSettings privateStoreSettings(String name) {
        String url = switch (kind) {
            case DERBY -> throw new IllegalStateException("Derby tests use a database of their own anyway");
            case POSTGRES -> serverUrl + (serverUrl.contains("?") ? "&" : "?") + "currentSchema=%22" + name + "%22";
            case MARIADB -> serverUrl.replaceAll("/+$", "") + "/" + name;
        };
        return new JdbcSettings(url, user, password);
    }

    /** An administrator's connection to a store of {@link #privateStore}, reading as {@link #connect()}. */
    Connection connect(JdbcSettings store) throws SQLException {
        Connection c = DriverManager.getConnection(store.url(), store.user(), store.password());
        if (kind == Kind.MARIADB) {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT')");
            }
        }
        return c;
    }

    /** An administrator's connection to the store, reading as the tests expect (ANSI quotes on MariaDB). */
    Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(storeUrl(), user, password);
        if (kind == Kind.MARIADB) {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,PIPES_AS_CONCAT')");
            }
        }
        return c;
    }
}
