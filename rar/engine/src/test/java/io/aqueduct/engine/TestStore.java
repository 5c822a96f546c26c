package io.aqueduct.engine;

import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
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
        try (Connection c = DriverManager.getConnection(kind == Kind.MARIADB ? serverUrl : storeUrl(), user, password);
                Statement s = c.createStatement()) {
            s.execute(kind == Kind.MARIADB ? "CREATE DATABASE IF NOT EXISTS APP" : "CREATE SCHEMA IF NOT EXISTS \"APP\"");
        }
        Dialect dialect = Dialects.forJdbc(new JdbcSettings(storeUrl(), user, password));
        rollBackBranchesInDoubt(dialect);
        try (Connection c = DriverManager.getConnection(storeUrl(), user, password)) {
            c.setAutoCommit(false);
            dialect.dropStore(c);
        }
        return dialect;
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
