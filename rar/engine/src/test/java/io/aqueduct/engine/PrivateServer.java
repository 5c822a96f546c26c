package io.aqueduct.engine;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A database server of the test's own, for fault tests: tests that stop, restart or kill the server must
 * never do it to the shared servers on 5432 / 3306, which every other test (and developer) is using.
 *
 * <p>Each instance is a fresh PostgreSQL cluster or MariaDB data directory under /tmp, listening on
 * 127.0.0.1 only, on a port of its own, with the server's output in {@code server.log} beside the data
 * so that a failure can show why. Data survives {@link #stop()} / {@link #kill()} and {@link #start()};
 * {@link #close()} throws it away. A JVM that exits without closing kills its servers on the way out.
 *
 * <pre>{@code
 * try (PrivateServer db = PrivateServer.postgres()) {
 *     ... DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password()) ...
 *     db.stop(); db.start();
 * }
 * }</pre>
 */
final class PrivateServer implements AutoCloseable {
    private enum Kind {
        POSTGRES, MARIADB
    }

    /** How long a start, a stop or a set-up command may take before the fixture gives up. */
    private static final long TIMEOUT_SECONDS = 60;

    /** The servers the JVM must not leave running; the shutdown hook below reaps what is left in here. */
    private static final Set<PrivateServer> OPEN = ConcurrentHashMap.newKeySet();

    static {
        // A test JVM that dies early (a failed fork, Ctrl-C, System.exit) would otherwise leave servers
        // running and their data under /tmp; kill rather than stop them, the JVM has no time to wait.
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> OPEN.forEach(PrivateServer::killAndDeleteQuietly), "private-server-reaper"));
    }

    /** PostgreSQL refuses to run as root, so as root its programs are run as the postgres OS user. */
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final Kind kind;
    private final Path dir;
    private final Path data;
    private final Path log;
    /** PostgreSQL: the bin directory of its programs. MariaDB: mariadbd itself. */
    private final Path programs;
    private int port;
    /** Volatile: the shutdown hook reads it without the lock a hung test thread may hold. */
    private volatile Process server;
    private boolean closed;

    private PrivateServer(Kind kind, Path dir, Path programs) {
        this.kind = kind;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.log = dir.resolve("server.log");
        this.programs = programs;
        OPEN.add(this);
    }

    /**
     * A new PostgreSQL cluster, running: trust authentication for superuser postgres, with database
     * {@code test}, max_prepared_transactions = 64 (the XA tests need it; the shared server has 0) and
     * max_connections = 200. Uses the newest version under /usr/lib/postgresql.
     */
    static PrivateServer postgres() throws IOException {
        return postgres(new String[0]);
    }

    /** The same, with more lines for postgresql.conf (they override the ones above: the last setting wins). */
    static PrivateServer postgres(String... settings) throws IOException {
        Path bin = newestPostgres();
        PrivateServer db = new PrivateServer(Kind.POSTGRES, Files.createTempDirectory(Path.of("/tmp"), "aqueduct-pg-"), bin);
        try {
            if (ROOT) {
                db.giveToPostgres();
            }
            // --no-sync: a test cluster need not survive a power cut before it is first used; saves a second.
            // The server itself keeps fsync on, so that crash tests see real durability.
            db.run(db.asPostgres(bin.resolve("initdb").toString(), "-D", db.data.toString(), "-U", "postgres",
                    "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"));
            Files.writeString(db.data.resolve("postgresql.conf"), String.join("\n", "",
                    "# PrivateServer",
                    "listen_addresses = '127.0.0.1'",
                    // its own socket directory: the shared server's lock files are in /var/run/postgresql
                    "unix_socket_directories = '" + db.dir + "'",
                    "max_connections = 200",
                    "max_prepared_transactions = 64",
                    String.join("\n", settings),
                    ""), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            db.startOnFreePort();
            try (Connection c = db.connect(TIMEOUT_SECONDS); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE test");
            } catch (SQLException e) {
                throw new IOException("Could not create database test: " + e, e);
            }
            return db;
        } catch (IOException | RuntimeException | Error e) {
            db.closeAfterFailure(e);
            throw e;
        }
    }

    /**
     * A new MariaDB server, running: user root with an empty password over TCP, all privileges (XA
     * RECOVER included), no databases but the system ones. Its options are given on the command line
     * after --no-defaults: /etc/mysql/my.cnf describes the shared server (its port, datadir, log).
     */
    static PrivateServer mariadb() throws IOException {
        Path mariadbd = executable("mariadbd", "mysqld");
        Path install = executable("mariadb-install-db", "mysql_install_db");
        PrivateServer db = new PrivateServer(Kind.MARIADB, Files.createTempDirectory(Path.of("/tmp"), "aqueduct-mariadb-"), mariadbd);
        try {
            List<String> command = new ArrayList<>(List.of(install.toString(), "--no-defaults",
                    "--datadir=" + db.data,
                    // the default, unix_socket, would let root in through the socket only, never over TCP
                    "--auth-root-authentication-method=normal",
                    "--skip-test-db"));
            command.addAll(db.innodbOptions());
            db.run(command);
            db.startOnFreePort();
            return db;
        } catch (IOException | RuntimeException | Error e) {
            db.closeAfterFailure(e);
            throw e;
        }
    }

    /** PostgreSQL: {@code jdbc:postgresql://127.0.0.1:PORT/test}; MariaDB: {@code jdbc:mariadb://127.0.0.1:PORT}. */
    String jdbcUrl() {
        return kind == Kind.POSTGRES ? "jdbc:postgresql://127.0.0.1:" + port + "/test" : "jdbc:mariadb://127.0.0.1:" + port;
    }

    /** The superuser: postgres / root. */
    String user() {
        return kind == Kind.POSTGRES ? "postgres" : "root";
    }

    /** Always empty: trust authentication on PostgreSQL, an empty root password on MariaDB. */
    String password() {
        return "";
    }

    /** Starts the server again on the same port and data; returns once it accepts connections. No-op if running. */
    synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed: " + dir);
        }
        if (server != null && server.isAlive()) {
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(serverCommand())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()));
        server = builder.start();
        server.getOutputStream().close(); // neither server reads its standard input
        awaitReady();
    }

    /** A clean, fast shutdown (PostgreSQL's fast mode, MariaDB's SIGTERM); the data is kept. No-op if stopped. */
    synchronized void stop() throws IOException {
        Process p = server;
        if (p == null) {
            return;
        }
        if (p.isAlive()) {
            if (kind == Kind.POSTGRES) {
                // The fast mode (SIGINT) rolls back open transactions; Process.destroy() would send SIGTERM,
                // PostgreSQL's "smart" mode, which waits for every client to disconnect first.
                run(asPostgres(programs.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "fast",
                        "-w", "-t", String.valueOf(TIMEOUT_SECONDS)));
            } else {
                p.destroy(); // SIGTERM is mariadbd's normal shutdown
            }
            if (!waitFor(p)) {
                killTree(p);
                server = null;
                throw new IOException(kind + " did not stop within " + TIMEOUT_SECONDS + " s; killed it" + logTail());
            }
        }
        server = null;
    }

    /**
     * Kills the server with SIGKILL, as a crash would (the whole process tree: PostgreSQL's backends too).
     * The data is kept; {@link #start()} then runs the server's crash recovery. No-op if stopped.
     */
    synchronized void kill() {
        if (server != null) {
            killTree(server);
            server = null;
        }
    }

    /**
     * Ends every other client connection, as an administrator's kill would; each one's next statement then
     * fails. PostgreSQL: the connections to database test; MariaDB: every user connection. Returns once they
     * are gone, with how many there were.
     */
    int terminateOtherConnections() throws IOException {
        String others = kind == Kind.POSTGRES
                ? "SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = 'test'"
                // the server's own threads (InnoDB's, the event scheduler) are not connections to end
                : "SELECT id FROM information_schema.processlist WHERE id <> CONNECTION_ID()"
                        + " AND command NOT IN ('Daemon', 'Binlog Dump') AND user NOT IN ('system user', 'event_scheduler')";
        try (Connection c = connect(TIMEOUT_SECONDS); Statement s = c.createStatement()) {
            List<Long> ids = ids(s, others);
            for (long id : ids) {
                try {
                    s.execute(kind == Kind.POSTGRES ? "SELECT pg_terminate_backend(" + id + ")" : "KILL CONNECTION " + id);
                } catch (SQLException e) {
                    if (e.getErrorCode() != 1094) { // MariaDB's "unknown thread": it ended meanwhile
                        throw e;
                    }
                }
            }
            // Both kills are asynchronous: wait until the victims are gone, so that the caller's next
            // statement on one of them certainly fails rather than racing the kill.
            try {
                await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                        .until(() -> ids(s, others).stream().noneMatch(ids::contains));
            } catch (ConditionTimeoutException e) {
                throw new IOException("connections still there " + TIMEOUT_SECONDS + " s after killing them", e);
            }
            return ids.size();
        } catch (SQLException e) {
            throw new IOException("Could not terminate the other connections: " + e, e);
        }
    }

    /** Stops the server (kills it if it will not stop) and deletes its directory. Safe to call again. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } catch (IOException e) {
            kill(); // the data is going anyway; what matters is that no server is left running
        } finally {
            OPEN.remove(this);
            deleteRecursively(dir);
        }
    }

    @Override
    public String toString() {
        return kind + " on port " + port + " in " + dir;
    }

    // ---- start-up ----

    /**
     * Picks a port and starts; tries another port if someone took this one in between. The port is not from
     * the kernel's ephemeral range (what ServerSocket(0) hands out): while the server is stopped, any
     * outgoing connection could take such a port as its local one and make the restart fail.
     */
    private void startOnFreePort() throws IOException {
        for (int attempt = 1;; attempt++) {
            port = freePort();
            long logged = Files.exists(log) ? Files.size(log) : 0;
            try {
                start();
                return;
            } catch (IOException e) {
                if (attempt == 5 || !logSince(logged).contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private List<String> serverCommand() {
        if (kind == Kind.POSTGRES) {
            return asPostgres(programs.resolve("postgres").toString(), "-D", data.toString(), "-p", String.valueOf(port));
        }
        // --no-defaults must come first. Everything the server writes stays in dir; its log goes to stderr.
        List<String> command = new ArrayList<>(List.of(programs.toString(), "--no-defaults",
                "--datadir=" + data,
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"),
                "--tmpdir=" + dir,
                "--skip-name-resolve",
                "--max-connections=200",
                // as on the shared server (/etc/mysql/my.cnf), so that the store behaves the same
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_general_ci"));
        command.addAll(innodbOptions());
        if (ROOT) {
            command.add("--user=root"); // mariadbd refuses to run as root unless told to
        }
        return command;
    }

    /** The same at install and at every start; a smaller redo log makes the install quicker. */
    private List<String> innodbOptions() {
        return List.of("--innodb-log-file-size=16M", "--innodb-buffer-pool-size=64M");
    }

    /**
     * Polls with a JDBC connection until the server accepts one; fails early if the server exits. The
     * connection must find our data directory: whatever else answers on the port is not our server.
     */
    private void awaitReady() throws IOException {
        SQLException[] last = {null};
        boolean[] exited = {false};
        try {
            await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        if (!server.isAlive()) {
                            exited[0] = true;
                            return true; // reported below
                        }
                        try (Connection c = connect(5); Statement s = c.createStatement();
                                ResultSet r = s.executeQuery(kind == Kind.POSTGRES ? "SHOW data_directory" : "SELECT @@datadir")) {
                            r.next();
                            if (Path.of(r.getString(1)).equals(data)) {
                                return true;
                            }
                            // ours will fail to bind and exit, which the next round reports
                            last[0] = new SQLException("port " + port + " is served from " + r.getString(1) + ", not " + data);
                        } catch (SQLException e) {
                            last[0] = e; // refused until it listens; PostgreSQL then says "starting up" until recovery is done
                        }
                        return false;
                    });
        } catch (ConditionTimeoutException e) {
            killTree(server);
            server = null;
            throw new IOException(kind + " did not accept connections within " + TIMEOUT_SECONDS + " s" + logTail(), last[0]);
        }
        if (exited[0]) {
            int code = server.exitValue();
            server = null;
            throw new IOException(kind + " exited with code " + code + " while starting" + logTail(), last[0]);
        }
    }

    /**
     * An administrator's connection: as the superuser, to database postgres (which is always there) on
     * PostgreSQL, to none on MariaDB. Every wait is bounded: a port that accepts but never answers must
     * not hang the test.
     */
    private Connection connect(long timeoutSeconds) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        return DriverManager.getConnection(kind == Kind.POSTGRES
                ? "jdbc:postgresql://127.0.0.1:" + port + "/postgres?connectTimeout=" + timeoutSeconds
                        + "&socketTimeout=" + timeoutSeconds
                : "jdbc:mariadb://127.0.0.1:" + port + "?connectTimeout=" + timeoutSeconds * 1000
                        + "&socketTimeout=" + timeoutSeconds * 1000, p);
    }

    private static int freePort() throws IOException {
        int ephemeralLow = 32768;
        try {
            // readAllLines, not readString: on procfs (size 0) the JDK's readAllBytes returns only the first byte
            ephemeralLow = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux: keep the usual default
        }
        for (int i = 0; i < 100 && ephemeralLow > 20000; i++) {
            int candidate = ThreadLocalRandom.current().nextInt(20000, ephemeralLow);
            try (ServerSocket s = new ServerSocket(candidate, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    // ---- processes ----

    /** The command, as the postgres OS user when we are root. */
    private List<String> asPostgres(String... command) {
        List<String> all = new ArrayList<>();
        if (ROOT) {
            // setpriv, not runuser / su: it execs the command in its place, so the Process we hold is the
            // postmaster itself and a kill reaches it; runuser stays in between as the parent.
            all.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--reset-env"));
        }
        all.addAll(List.of(command));
        return all;
    }

    /** The data directory's parent must belong to postgres, which initdb runs as and creates data in. */
    private void giveToPostgres() throws IOException {
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        view.setOwner(users.lookupPrincipalByName("postgres"));
        GroupPrincipal group = users.lookupPrincipalByGroupName("postgres");
        view.setGroup(group);
    }

    /** Runs a set-up command to its end, its output into the log; fails with the log's tail. */
    private void run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile())).start();
        p.getOutputStream().close();
        if (!waitFor(p)) {
            killTree(p);
            throw new IOException(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s" + logTail());
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed with exit code " + p.exitValue() + logTail());
        }
    }

    private static boolean waitFor(Process p) throws IOException {
        try {
            return p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for " + p);
        }
    }

    /**
     * SIGKILLs the process and every descendant, and waits for them all. The descendants are listed first:
     * once the postmaster is dead its backends are orphans no longer found through it, and a backend left
     * alive would keep the shared memory that makes the next start refuse.
     */
    private static void killTree(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(0, p.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        try {
            await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                    .until(() -> all.stream().allMatch(PrivateServer::dead));
        } catch (ConditionTimeoutException e) {
            // as before: the caller goes on; a survivor shows up as the next start's failure, with the log
        }
    }

    /**
     * Gone, or a zombie: the orphaned backends are reaped by PID 1, which in a container or micro-VM may
     * take a second or more; a zombie holds no memory, port or file, so there is no need to wait for that.
     */
    private static boolean dead(ProcessHandle h) {
        if (!h.isAlive()) {
            return true;
        }
        try {
            String stat = Files.readAllLines(Path.of("/proc", String.valueOf(h.pid()), "stat")).get(0);
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z"); // "pid (comm) S ..."
        } catch (IOException | RuntimeException e) {
            return !h.isAlive(); // no /proc, or it vanished meanwhile
        }
    }

    private void killAndDeleteQuietly() {
        try {
            Process p = server;
            if (p != null) {
                killTree(p);
            }
            deleteRecursively(dir);
        } catch (IOException | RuntimeException e) {
            System.err.println("Could not clean up " + this + ": " + e);
        }
    }

    private void closeAfterFailure(Throwable failure) {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    // ---- files ----

    private static Path newestPostgres() throws IOException {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .filter(v -> Files.isExecutable(v.resolve("bin/postgres")))
                    .max(Comparator.comparingDouble(v -> Double.parseDouble(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"))
                    .orElseThrow(() -> new IOException("No PostgreSQL server under /usr/lib/postgresql"));
        } catch (NoSuchFileException e) {
            throw new IOException("PostgreSQL is not installed: no /usr/lib/postgresql", e);
        }
    }

    /** The first of the names found on the PATH or in the sbin directories (mariadbd is in /usr/sbin). */
    private static Path executable(String... names) throws IOException {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"));
        for (String name : names) {
            for (String d : dirs) {
                Path candidate = Path.of(d.isEmpty() ? "." : d, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IOException("MariaDB is not installed: none of " + List.of(names) + " found");
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "; the end of " + log + ":\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "; no log (" + e + ")";
        }
    }

    private String logSince(long offset) {
        try {
            byte[] all = Files.readAllBytes(log);
            return new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static List<Long> ids(Statement s, String query) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (ResultSet r = s.executeQuery(query)) {
            while (r.next()) {
                ids.add(r.getLong(1));
            }
        }
        return ids;
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
