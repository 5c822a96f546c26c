package io.aqueduct.bench;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database the benchmark runs on: {@code derby} (embedded, durable, a fresh database in its own
 * directory per run) or a shared server, {@code postgres} / {@code mariadb}, where every run first
 * empties the benchmark's own place on the server (never the engine tests' schema / database APP).
 *
 * <p>The servers are configured by environment variable or system property (the property wins):
 * <pre>
 * BENCH_POSTGRES_URL  bench.postgres.url   jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%22BENCH%22
 * BENCH_POSTGRES_USER bench.postgres.user  postgres
 * BENCH_POSTGRES_PASSWORD                  (none)
 * BENCH_MARIADB_URL   bench.mariadb.url    jdbc:mariadb://127.0.0.1:3306/aqbench
 * BENCH_MARIADB_USER  bench.mariadb.user   root
 * BENCH_MARIADB_PASSWORD                   (empty)
 * </pre>
 * The PostgreSQL schema named by {@code currentSchema} and the MariaDB database of the URL are
 * created when missing. A server that cannot be reached (or that is pointed at APP) is skipped with
 * one {@code BENCH-SKIP <store> ...} line.
 */
public final class BenchStore {
    public enum Kind {
        DERBY, POSTGRES, MARIADB
    }

    /** The schema the engine resolves unqualified queue names in on the servers. */
    public static final String SCHEMA = "BENCH";
    /** The engine tests' place on the servers (they wipe it): never used here. */
    private static final String TESTS_PLACE = "APP";

    private static final Map<String, BenchStore> ALL = new LinkedHashMap<>();

    static {
        for (BenchStore s : List.of(new BenchStore(Kind.DERBY, null, null, null),
                new BenchStore(Kind.POSTGRES,
                        setting("postgres", "url", "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%22BENCH%22"),
                        setting("postgres", "user", "postgres"), setting("postgres", "password", null)),
                new BenchStore(Kind.MARIADB, setting("mariadb", "url", "jdbc:mariadb://127.0.0.1:3306/aqbench"),
                        setting("mariadb", "user", "root"), setting("mariadb", "password", "")))) {
            ALL.put(s.name, s);
        }
    }

    public final Kind kind;
    /** {@code derby}, {@code postgres}, {@code mariadb}: the store part of the BENCH keys. */
    public final String name;
    public final String url;
    public final String user;
    public final String password;
    private Boolean available;
    private String skipReason;

    private BenchStore(Kind kind, String url, String user, String password) {
        this.kind = kind;
        this.name = kind.name().toLowerCase(Locale.ROOT);
        this.url = url;
        this.user = user;
        this.password = password;
    }

    private static String setting(String store, String what, String otherwise) {
        String v = System.getProperty("bench." + store + "." + what);
        if (v == null) {
            v = System.getenv("BENCH_" + store.toUpperCase(Locale.ROOT) + "_" + what.toUpperCase(Locale.ROOT));
        }
        return v == null ? otherwise : v;
    }

    /** derby, postgres, mariadb, in this order. */
    public static List<BenchStore> all() {
        return List.copyOf(ALL.values());
    }

    public static BenchStore named(String name) {
        BenchStore s = ALL.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no store " + name);
        }
        return s;
    }

    /** True for the servers several engines (JVMs) can share. */
    public boolean shared() {
        return kind != Kind.DERBY;
    }

    /** A connection to the benchmark's place on the server (auto-commit on). */
    public Connection connect() throws SQLException {
        return connect(url);
    }

    private Connection connect(String jdbcUrl) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(jdbcUrl, p);
    }

    /**
     * Whether the store can be used: Derby always; a server when it answers and its benchmark place
     * exists or could be created. Probed once; the first failure prints {@code BENCH-SKIP}.
     */
    public synchronized boolean available() {
        if (available == null) {
            try {
                prepare();
                available = true;
            } catch (Exception e) {
                available = false;
                skipReason = String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
                System.out.println("BENCH-SKIP " + name + " url=" + url + " reason=" + skipReason);
                System.out.flush();
            }
        }
        return available;
    }

    /** Where the store is, for the header line. */
    public String describe() {
        return kind == Kind.DERBY ? "derby(embedded, durable)" : name + "(" + url + (user == null ? "" : " as " + user) + ")";
    }

    private void prepare() throws SQLException {
        if (kind == Kind.DERBY) {
            return;
        }
        int before = DriverManager.getLoginTimeout();
        DriverManager.setLoginTimeout(5);
        try {
            if (kind == Kind.POSTGRES) {
                String schema = postgresSchema(url);
                if (schema == null) {
                    throw new SQLException("the URL names no currentSchema; the benchmark empties its schema before each run"
                            + " and needs one of its own (e.g. ?currentSchema=%22BENCH%22)");
                }
                refuseTestsPlace(schema);
                try (Connection c = connect(); Statement s = c.createStatement()) {
                    s.execute("CREATE SCHEMA IF NOT EXISTS \"" + schema.replace("\"", "\"\"") + "\"");
                }
            } else {
                Matcher m = Pattern.compile("^(jdbc:(?:mariadb|mysql)://[^/?]*)/([^/?]+)(.*)$").matcher(url);
                if (!m.matches()) {
                    throw new SQLException("the URL names no database; the benchmark empties its database before each run"
                            + " and needs one of its own (e.g. jdbc:mariadb://127.0.0.1:3306/aqbench)");
                }
                String database = m.group(2);
                refuseTestsPlace(database);
                try (Connection c = connect(m.group(1) + "/" + m.group(3)); Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE IF NOT EXISTS `" + database.replace("`", "``") + "`");
                }
                try (Connection c = connect()) {
                    c.isValid(5);
                }
            }
        } finally {
            DriverManager.setLoginTimeout(before);
        }
    }

    private void refuseTestsPlace(String place) throws SQLException {
        if (place.equalsIgnoreCase(TESTS_PLACE)) {
            throw new SQLException("refusing " + place + ": the engine tests' store (the benchmark empties the place it runs in)");
        }
    }

    /** The schema named by {@code currentSchema=} in a PostgreSQL URL (decoded, quotes removed), or null. */
    static String postgresSchema(String url) {
        Matcher m = Pattern.compile("[?&]currentSchema=([^&]*)").matcher(url);
        if (!m.find()) {
            return null;
        }
        String v = URLDecoder.decode(m.group(1), StandardCharsets.UTF_8).trim();
        if (v.contains(",")) {
            v = v.substring(0, v.indexOf(',')).trim();
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            return v.substring(1, v.length() - 1);
        }
        return v.toLowerCase(Locale.ROOT); // unquoted: PostgreSQL folds it
    }

    @Override
    public String toString() {
        return name;
    }
}
