package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fault-test fixture itself: a private server survives stop / start and kill / start with its data
 * (a prepared transaction included, which is what the XA fault tests depend on), refuses connections
 * while down, and ends other connections on request.
 */
class PrivateServerTest {
    @BeforeAll
    static void onceOnly() {
        // The pom runs every *Test again on the shared PostgreSQL and MariaDB; this one uses no shared
        // store, so the Derby run is enough.
        Assumptions.assumeTrue("derby".equalsIgnoreCase(System.getProperty("aqueduct.test.store", "derby").trim()),
                "runs in the Derby run only");
    }

    @Test
    void postgres() throws Exception {
        long t = System.nanoTime();
        try (PrivateServer db = PrivateServer.postgres()) {
            String created = since(t);
            assertThat(query(db, "SHOW max_prepared_transactions")).containsExactly("64");
            assertThat(query(db, "SHOW max_connections")).containsExactly("200");
            exercise(db, created, List.of(
                    "BEGIN", "INSERT INTO survivor VALUES (2)", "PREPARE TRANSACTION 'in-doubt'"),
                    "SELECT gid FROM pg_prepared_xacts", "COMMIT PREPARED 'in-doubt'");
        }
    }

    @Test
    void mariadb() throws Exception {
        long t = System.nanoTime();
        try (PrivateServer db = PrivateServer.mariadb()) {
            String created = since(t);
            assertThat(query(db, "XA RECOVER")).isEmpty(); // root may recover: XA is usable
            // formatID 1, gtrid 'in-doubt', no bqual: XA RECOVER's data column is then just the gtrid
            exercise(db, created, List.of(
                    "XA START 'in-doubt'", "INSERT INTO test.survivor VALUES (2)", "XA END 'in-doubt'", "XA PREPARE 'in-doubt'"),
                    "XA RECOVER", "XA COMMIT 'in-doubt'");
        }
    }

    /**
     * The same story on either kind: a table and a prepared transaction survive a stop and a kill,
     * connections fail while the server is down, and terminated connections fail on their next statement.
     */
    private static void exercise(PrivateServer db, String created, List<String> prepare, String inDoubt, String commit)
            throws Exception {
        String table = db.jdbcUrl().startsWith("jdbc:mariadb") ? "test.survivor" : "survivor";
        if (table.startsWith("test.")) {
            update(db, "CREATE DATABASE test");
        }
        update(db, "CREATE TABLE " + table + " (id INT PRIMARY KEY)");
        update(db, "INSERT INTO " + table + " VALUES (1)");
        try (Connection c = connect(db); Statement s = c.createStatement()) {
            for (String sql : prepare) {
                s.execute(sql);
            }
        }

        long t = System.nanoTime();
        db.stop();
        String stopped = since(t);
        assertThatThrownBy(() -> connect(db).close()).isInstanceOf(SQLException.class);
        db.stop(); // stopping a stopped server does nothing

        t = System.nanoTime();
        db.start();
        String restarted = since(t);
        assertThat(query(db, "SELECT id FROM " + table)).containsExactly("1");
        assertThat(query(db, inDoubt)).anySatisfy(row -> assertThat(row).contains("in-doubt"));

        try (Connection victim = connect(db); Statement s = victim.createStatement()) {
            s.execute("SELECT 1");
            assertThat(db.terminateOtherConnections()).isEqualTo(1);
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLException.class);
        }
        update(db, commit); // new connections are welcome: the in-doubt branch can be resolved
        assertThat(query(db, "SELECT id FROM " + table + " ORDER BY id")).containsExactly("1", "2");

        try (Connection open = connect(db); Statement s = open.createStatement()) { // connected through the crash
            s.execute("SELECT 1");
            t = System.nanoTime();
            db.kill();
            String killed = since(t);
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> connect(db).close()).isInstanceOf(SQLException.class);
            t = System.nanoTime();
            db.start(); // crash recovery
            String recovered = since(t);
            assertThat(query(db, "SELECT id FROM " + table + " ORDER BY id")).containsExactly("1", "2");
            System.out.printf("%s: created in %s, stopped in %s, restarted in %s, killed in %s, recovered in %s%n",
                    db, created, stopped, restarted, killed, recovered);
        }

        t = System.nanoTime();
        db.close();
        System.out.printf("%s: closed in %s%n", db, since(t));
        db.close(); // closing twice does nothing
        assertThatThrownBy(() -> connect(db).close()).isInstanceOf(SQLException.class);
    }

    private static Connection connect(PrivateServer db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    private static void update(PrivateServer db, String sql) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Each row's columns, joined by a space. */
    private static List<String> query(PrivateServer db, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int columns = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(r.getString(i));
                }
                rows.add(String.join(" ", row));
            }
        }
        return rows;
    }

    private static String since(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000 + " ms";
    }
}
