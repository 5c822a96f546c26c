package io.aqueduct.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The engine's {@link PrivateServer} fixture (package-private there, published in the engine's
 * test-jar) for the tests of the connector and the JMS provider: a PostgreSQL server of the test's own, which the tests may
 * stop, restart and kill connections of. Never the shared server on 5432.
 */
public final class PrivateServers {
    private PrivateServers() {
    }

    /**
     * Is a PostgreSQL server installed here (what {@link #postgres()} runs)? Where the run requires
     * the stores (AQUEDUCT_TEST_REQUIRE_STORES=1, set by .ci/run) a missing one fails instead of skipping.
     */
    public static boolean postgresInstalled() {
        boolean installed = findPostgres();
        if (!installed && "1".equals(System.getenv("AQUEDUCT_TEST_REQUIRE_STORES"))) {
            throw new AssertionError("PostgreSQL is not installed under /usr/lib/postgresql, and AQUEDUCT_TEST_REQUIRE_STORES=1"
                    + " requires the fault tests that run a private server of it");
        }
        return installed;
    }

    private static boolean findPostgres() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return false;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/postgres")) && Files.isExecutable(v.resolve("bin/initdb")));
        } catch (IOException e) {
            return false;
        }
    }

    /** A new PostgreSQL cluster, running, with database {@code test} and max_prepared_transactions = 64. */
    public static Postgres postgres() throws IOException {
        long t0 = System.nanoTime();
        Postgres server = new Postgres(PrivateServer.postgres());
        System.out.printf("[PrivateServers] %s ready in %.1f s%n", server, (System.nanoTime() - t0) / 1e9);
        return server;
    }

    /** A private PostgreSQL server; see {@link PrivateServer}. */
    public static final class Postgres implements AutoCloseable {
        private final PrivateServer server;

        private Postgres(PrivateServer server) {
            this.server = server;
        }

        /** {@code jdbc:postgresql://127.0.0.1:PORT/test}. */
        public String jdbcUrl() {
            return server.jdbcUrl();
        }

        public String user() {
            return server.user();
        }

        public String password() {
            return server.password();
        }

        /** A clean, fast shutdown; the data is kept. */
        public void stop() throws IOException {
            server.stop();
        }

        /** Starts again on the same port and data; returns once it accepts connections. */
        public void start() throws IOException {
            server.start();
        }

        /** SIGKILL, as a crash would; {@link #start()} then runs crash recovery. */
        public void kill() {
            server.kill();
        }

        /** Ends every other connection to database test; returns how many there were. */
        public int terminateOtherConnections() throws IOException {
            return server.terminateOtherConnections();
        }

        /** The backends connected to database test now, each with the last statement it ran (pg_stat_activity). */
        public java.util.Map<Integer, String> connections() throws SQLException {
            java.util.Map<Integer, String> out = new java.util.TreeMap<>();
            try (Connection c = DriverManager.getConnection(jdbcUrl(), user(), password()); Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT pid, query FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND pid <> pg_backend_pid()")) {
                while (r.next()) {
                    out.put(r.getInt(1), r.getString(2));
                }
            }
            return out;
        }

        /** Ends these backends, as an administrator's kill (or an idle-session timeout) would. */
        public void terminate(java.util.Collection<Integer> pids) throws SQLException {
            try (Connection c = DriverManager.getConnection(jdbcUrl(), user(), password()); Statement s = c.createStatement()) {
                for (int pid : pids) {
                    s.execute("SELECT pg_terminate_backend(" + pid + ")");
                }
            }
        }

        /**
         * Database {@code test} dropped and created again, empty: what an earlier test left (its
         * store, its queues, branches it left prepared) is gone. Nothing may be using it.
         */
        public void freshDatabase() throws SQLException {
            try (Connection c = DriverManager.getConnection(jdbcUrl(), user(), password()); Statement s = c.createStatement()) {
                List<String> prepared = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT gid FROM pg_prepared_xacts WHERE database = current_database()")) {
                    while (r.next()) {
                        prepared.add(r.getString(1));
                    }
                }
                for (String gid : prepared) {
                    s.execute("ROLLBACK PREPARED '" + gid.replace("'", "''") + "'");
                }
            }
            String admin = jdbcUrl().replaceAll("/test$", "/postgres");
            try (Connection c = DriverManager.getConnection(admin, user(), password()); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS test WITH (FORCE)");
                s.execute("CREATE DATABASE test");
            }
        }

        /** Stops the server and deletes its data. */
        @Override
        public void close() throws IOException {
            server.close();
        }

        @Override
        public String toString() {
            return server.toString();
        }
    }
}
