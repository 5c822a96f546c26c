package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Propagation from a Derby store to another store through a database link, in a JVM that is killed
 * again and again while it propagates ({@link PropagationNode} "crash"): at random moments, and at
 * the two moments the receipts are for — after the destination committed a batch but before the
 * source did, and after the source committed but before the destination forgot the batch's
 * receipts (triggers on the stores call into the node, which then waits to be killed). Each time a
 * new JVM opens the same stores, its schedule resumes by itself and its producer goes on where the
 * committed batches end. At the end the destination queue holds every message exactly once, and
 * every source part is PROCESSED.
 *
 * <p>The destination is a second Derby directory (the Derby run), or a schema / database of the
 * test's own on the PostgreSQL / MariaDB server of the run (the source stays Derby).
 */
class PropagationCrashTest {
    static final String SRC_Q = "SRC_Q";
    static final String PROGRESS_Q = "PROGRESS_Q";
    static final String DST_Q = "DST_Q";
    static final int PER_COMMIT = 250;
    static final int BATCHES = 20;
    static final int TOTAL = PER_COMMIT * BATCHES;
    /** The schema / database of the destination on a shared server. */
    private static final String SHARED_SCHEMA = "PROPCRASH";
    /**
     * What each round does: "none" a kill at a random moment once this JVM has propagated something,
     * else the fault point the JVM waits at to be killed, and at which of its batches.
     */
    private static final List<String> ROUNDS = List.of("none", "between:2", "none", "forget:2", "none", "none", "none");
    /** The most parts one propagation batch takes (ScheduleRun.BATCH; no transaction groups here). */
    private static final int PROPAGATION_BATCH = 100;

    @TempDir
    Path dir;
    private Path source;
    /** The destination as the node is told: derby:DIR, or the kind of the shared server. */
    private String destination;
    private Process node;
    private Thread reader;
    private volatile IOException readFailure;

    @BeforeEach
    void createStores() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        source = dir.resolve("source");
        String url;
        String user = null;
        String password = null;
        String schema;
        if (TestStore.CURRENT.shared()) {
            JdbcSettings dst = TestStore.CURRENT.privateStore(SHARED_SCHEMA);
            destination = TestStore.CURRENT.kind.name();
            url = dst.url();
            user = dst.user();
            password = dst.password();
            schema = SHARED_SCHEMA;
        } else {
            destination = "derby:" + dir.resolve("destination");
            url = "jdbc:derby:" + dir.resolve("destination");
            schema = "APP";
        }
        try (AqueductEngine dst = destinationEngine(destination)) {
            dst.admin().createQueueTable(schema + ".DST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            dst.admin().createQueue(schema + "." + DST_Q, schema + ".DST_QT", QueueProperties.create());
            dst.admin().startQueue(schema + "." + DST_Q, true, true);
        }
        try (AqueductEngine src = AqueductEngine.builder().derbyDirectory(source).user("NODE").timeManager(false).start()) {
            QueueAdmin admin = src.admin();
            admin.createQueueTable("SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
            // kept a day once processed: the test reads every part's final state
            admin.createQueue(SRC_Q, "SRC_QT", QueueProperties.create().retention(86_400));
            admin.startQueue(SRC_Q, true, true);
            admin.createQueueTable("PROGRESS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            admin.createQueue(PROGRESS_Q, "PROGRESS_QT", QueueProperties.create());
            admin.startQueue(PROGRESS_Q, true, true);
            admin.createDatabaseLink("DEST", url, user, password);
            admin.addSubscriber(SRC_Q, new Agent("X", schema + "." + DST_Q + "@DEST", 0), null);
            admin.schedulePropagation(SRC_Q, "DEST", null, null, null, 0);
        }
        // the fault points: Java procedures the stores call from a trigger, in the statement's thread
        try (Connection c = derby(source); Statement s = c.createStatement()) {
            s.execute("CREATE PROCEDURE APP.PROPAGATION_FAULT(IN POINT VARCHAR(20)) LANGUAGE JAVA PARAMETER STYLE JAVA"
                    + " NO SQL EXTERNAL NAME '" + PropagationNode.class.getName() + ".fault'");
            s.execute("CREATE TRIGGER APP.FAULT_BETWEEN AFTER UPDATE ON APP.AQ_SCHEDULE FOR EACH STATEMENT"
                    + " CALL APP.PROPAGATION_FAULT('between')");
        }
        shutdownDerby(source);
        if (!TestStore.CURRENT.shared()) {
            Path d = dir.resolve("destination");
            try (Connection c = derby(d); Statement s = c.createStatement()) {
                s.execute("CREATE PROCEDURE APP.PROPAGATION_FAULT(IN POINT VARCHAR(20)) LANGUAGE JAVA PARAMETER STYLE JAVA"
                        + " NO SQL EXTERNAL NAME '" + PropagationNode.class.getName() + ".fault'");
                s.execute("CREATE TRIGGER APP.FAULT_FORGET AFTER DELETE ON APP.AQ_PROPAGATION_RECEIPT FOR EACH STATEMENT"
                        + " CALL APP.PROPAGATION_FAULT('forget')");
            }
            shutdownDerby(d);
        }
    }

    @AfterEach
    void killNode() throws InterruptedException {
        if (node != null && node.isAlive()) {
            node.toHandle().destroyForcibly();
            node.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void every_message_arrives_once_across_kills_of_the_propagating_jvm() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long t0 = System.nanoTime();
        System.out.println("PropagationCrashTest Derby -> " + destination.replaceAll(":.*", "") + ", seed " + seed);
        int delivered = 0;
        int round = 0;
        for (String fault : ROUNDS) {
            round++;
            if (fault.startsWith("forget") && TestStore.CURRENT.shared()) {
                fault = "between:" + fault.substring(fault.indexOf(':') + 1); // that trigger is Derby's
            }
            long roundStart = System.nanoTime();
            List<String> lines = start(fault);
            int before = delivered;
            int r = round;
            if (fault.equals("none")) {
                // propagating: the destination committed a batch of this JVM (the node's monitor also sees the
                // rows of the one batch in flight, uncommitted) and a random number more; then a random moment.
                // Counted in messages rather than time, so that a fast machine does not propagate everything in
                // the first rounds
                int target = before + PROPAGATION_BATCH + 1 + random.nextInt(300);
                await("round " + r + ": the node propagates").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(10))
                        .until(() -> lastAt(lines) >= target || lines.contains("EXIT"));
                Thread.sleep(random.nextInt(100)); // the fault's moment, not a timing assertion
            } else {
                String point = fault.substring(0, fault.indexOf(':'));
                await("round " + r + ": the node hangs at " + fault).atMost(Duration.ofSeconds(90))
                        .until(() -> lines.contains("HANGING " + point) || lines.contains("EXIT"));
            }
            assertThat(List.copyOf(lines)).as("round %d: the node runs until it is killed", round).doesNotContain("EXIT");
            kill();
            List<String> said = List.copyOf(lines);
            assertThat(said).as("round %d: what the node said", round).noneMatch(l -> l.startsWith("MONITOR"));
            State state = state();
            delivered = state.delivered;
            System.out.printf("round %d (%s): killed after %d ms with %d of %d messages at the destination, %d enqueued;"
                    + " %d receipts there, %d of them for parts still READY at the source%n", round, fault,
                    (System.nanoTime() - roundStart) / 1_000_000, state.delivered, TOTAL, state.enqueued, state.receipts,
                    state.receiptsOfReadyParts);
            assertThat(state.delivered).as("round %d: killed while propagating: some but not all", round)
                    .isGreaterThan(before).isLessThan(TOTAL);
            if (fault.startsWith("between")) {
                // the destination committed the batch, the source did not: the next batch must find these receipts
                assertThat(state.receiptsOfReadyParts).as("round %d: receipts of a batch the source did not commit", round)
                        .isPositive();
            } else if (fault.startsWith("forget")) {
                assertThat(state.receipts).as("round %d: receipts of a batch the source committed", round).isPositive();
                assertThat(state.receiptsOfReadyParts).as("round %d: their parts are PROCESSED", round).isZero();
            }
        }
        // the last node runs until everything is there
        List<String> lines = start("none");
        await("the last node propagates everything").atMost(Duration.ofSeconds(120))
                .until(() -> lastAt(lines) >= TOTAL && lines.contains("ENQUEUED ALL") || lines.contains("EXIT"));
        try (OutputStream in = node.getOutputStream()) {
            in.write('\n');
        }
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).as("the last node closes").isTrue();
        reader.join(30_000);
        assertThat(lines).as("the last node's output").contains("CLOSED").noneMatch(l -> l.startsWith("MONITOR"));

        try (AqueductEngine dst = destinationEngine(destination);
                AqueductEngine src = AqueductEngine.builder().derbyDirectory(source).user("NODE").timeManager(false).start()) {
            // a run with nothing to move sweeps the receipts a kill left behind (the second, if the first moved something)
            src.propagator().runDue();
            src.propagator().runDue();
            PropagationSchedule schedule = src.admin().propagationSchedule(SRC_Q, "DEST");
            assertThat(schedule.failures()).as("failures of the schedule (last error: %s)", schedule.lastErrorMessage()).isZero();
            assertThat(receipts()).as("receipts left at the destination").isZero();
            Map<String, Integer> arrived = new HashMap<>();
            try (QueueSession s = dst.openSession()) {
                String queue = (TestStore.CURRENT.shared() ? SHARED_SCHEMA : "APP") + "." + DST_Q;
                for (Message m; (m = next(s, queue)) != null;) {
                    arrived.merge(m.text(), 1, Integer::sum);
                    if (arrived.size() % 500 == 0) {
                        s.commit();
                    }
                }
                s.commit();
            }
            List<String> lost = new ArrayList<>();
            for (int i = 0; i < TOTAL; i++) {
                if (!arrived.containsKey("m-" + i)) {
                    lost.add("m-" + i);
                }
            }
            Map<String, Integer> twice = new TreeMap<>();
            arrived.forEach((k, n) -> {
                if (n > 1) {
                    twice.put(k, n);
                }
            });
            System.out.printf("PropagationCrashTest: %d kills, %d distinct messages arrived, %d lost, %d duplicated;"
                    + " schedule total %d; %.1f s%n", ROUNDS.size(), arrived.size(), lost.size(), twice.size(),
                    schedule.totalNumber(), (System.nanoTime() - t0) / 1e9);
            assertThat(lost.stream().limit(20).toList()).as("lost (%d; the first 20)", lost.size()).isEmpty();
            assertThat(twice.entrySet().stream().limit(20).toList()).as("delivered more than once (%d; the first 20)", twice.size())
                    .isEmpty();
            assertThat(arrived.size()).as("distinct messages arrived").isEqualTo(TOTAL);
            assertThat(sourceParts()).as("the source parts of consumer X by state").isEqualTo(Map.of("PROCESSED", TOTAL));
        }
    }

    // ------------------------------------------------------------------ the node

    private List<String> start(String fault) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:TieredStopAtLevel=1"); // a JVM that lives seconds: quick to start, never waits for C2
        command.add("-XX:+UseSerialGC");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.add(PropagationNode.class.getName());
        command.addAll(List.of("crash", source.toString(), destination, fault));
        node = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        readFailure = null;
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Process p = node;
        reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    lines.add(line);
                }
            } catch (IOException e) {
                readFailure = e;
            }
            lines.add("EXIT");
        }, "propagation-node-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** SIGKILL through the process handle (Process.destroyForcibly would close the pipe before its last lines are read). */
    private void kill() throws InterruptedException {
        node.toHandle().destroyForcibly();
        assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("the node died").isTrue();
        reader.join(30_000);
        assertThat(reader.isAlive()).as("the node's output was read to its end").isFalse();
        assertThat(readFailure).as("the node's output was read to its end").isNull();
    }

    private static int lastAt(List<String> lines) {
        synchronized (lines) {
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).startsWith("AT ")) {
                    return Integer.parseInt(lines.get(i).substring(3));
                }
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ the stores, read with SQL

    /** An engine on the destination store, as the node's link opens it. */
    private static AqueductEngine destinationEngine(String destination) {
        AqueductEngine.Builder b = AqueductEngine.builder().user("TS").timeManager(false);
        if (destination.startsWith("derby:")) {
            b.derbyDirectory(Path.of(destination.substring("derby:".length())));
        } else {
            b.dialect(Dialects.forJdbc(sharedDestination())).defaultSchema(SHARED_SCHEMA);
        }
        return b.start();
    }

    private static JdbcSettings sharedDestination() {
        return TestStore.CURRENT.privateStoreSettings(SHARED_SCHEMA);
    }

    /**
     * A plain connection to the destination, reading uncommitted rows (the node's monitor: it never
     * waits for a batch's locks).
     */
    static Connection destinationConnection(String destination) throws SQLException {
        return destinationConnection(destination, Connection.TRANSACTION_READ_UNCOMMITTED);
    }

    private static Connection destinationConnection(String destination, int isolation) throws SQLException {
        Connection c = destination.startsWith("derby:") ? derby(Path.of(destination.substring("derby:".length())))
                : TestStore.CURRENT.connect(sharedDestination());
        c.setTransactionIsolation(isolation);
        c.setAutoCommit(true);
        return c;
    }

    private static String destinationSchema(Connection c) throws SQLException {
        return c.getMetaData().getURL().startsWith("jdbc:derby:") ? "APP" : SHARED_SCHEMA;
    }

    /** The messages in the destination queue. */
    static int delivered(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + destinationSchema(c)
                + "\".\"AQ$DST_QT\"")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Connection derby(Path directory) throws SQLException {
        return DriverManager.getConnection("jdbc:derby:" + directory);
    }

    private static void shutdownDerby(Path directory) {
        try {
            DriverManager.getConnection("jdbc:derby:" + directory + ";shutdown=true").close();
        } catch (SQLException expected) {
            assertThat(expected.getSQLState()).as("Derby shut down: %s", expected.getMessage()).isEqualTo("08006");
        }
    }

    /** What a kill left: at the destination, and the receipts' parts at the source. */
    private record State(int delivered, int enqueued, int receipts, int receiptsOfReadyParts) {
    }

    private State state() throws SQLException {
        List<String> receiptMsgids = new ArrayList<>();
        int delivered;
        // what is committed (a killed node's transaction may still be rolling back on a server)
        try (Connection c = destinationConnection(destination, Connection.TRANSACTION_READ_COMMITTED)) {
            delivered = delivered(c);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT ID FROM AQ_PROPAGATION_RECEIPT")) {
                while (rs.next()) {
                    String id = rs.getString(1).trim();
                    receiptMsgids.add(id.substring(0, id.indexOf('/')));
                }
            }
        } finally {
            if (destination.startsWith("derby:")) {
                shutdownDerby(Path.of(destination.substring("derby:".length())));
            }
        }
        int ready = 0;
        int enqueued;
        try (Connection c = derby(source)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT STATE FROM APP.AQ_MESSAGE_CONSUMER WHERE MSGID = ?")) {
                for (String msgid : receiptMsgids) {
                    ps.setString(1, msgid);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (rs.getInt(1) == 0) {
                                ready++;
                            }
                        }
                    }
                }
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"APP\".\"AQ$SRC_QT\"")) {
                rs.next();
                enqueued = rs.getInt(1);
            }
        } finally {
            shutdownDerby(source);
        }
        return new State(delivered, enqueued, receiptMsgids.size(), ready);
    }

    private int receipts() throws SQLException {
        try (Connection c = destinationConnection(destination, Connection.TRANSACTION_READ_COMMITTED);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM AQ_PROPAGATION_RECEIPT")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** MSG_STATE → parts of consumer X, from the source's AQ$ view. */
    private Map<String, Integer> sourceParts() throws SQLException {
        Map<String, Integer> out = new TreeMap<>();
        try (Connection c = derby(source); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT MSG_STATE, COUNT(*) FROM \"APP\".\"AQ$SRC_QT\" WHERE CONSUMER_NAME = 'X' GROUP BY MSG_STATE")) {
            while (rs.next()) {
                out.put(rs.getString(1).trim(), rs.getInt(2));
            }
        }
        return out;
    }

    private static Message next(QueueSession s, String queue) {
        try {
            return s.dequeue(queue, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
        } catch (AqException e) {
            assertThat(e.errorCode()).as("the destination drained: %s", e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
            return null;
        }
    }
}
