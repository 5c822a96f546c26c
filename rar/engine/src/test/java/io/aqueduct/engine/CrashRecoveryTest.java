package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM running a two-phase-commit loop (dequeue from SRC + enqueue to DST in one XA branch) is
 * killed at random moments and right after prepare; after each kill a new engine opens at once on
 * the same store, the in-doubt branches are finished as the decision log says, and the attempt the
 * dead JVM had in flight is counted. At the end every key is in DST exactly once.
 */
class CrashRecoveryTest {
    private static final int KEYS = 1000; // more than six kills can take: the node is always moving keys when killed
    private static final int ROUNDS = 6;

    @TempDir
    Path dir;
    private String store;
    private Path decisions;
    private Process node;
    private Thread reader;
    /** Why the reader stopped before the end of the node's output, if it did. */
    private volatile IOException readFailure;

    /** An engine on the test's store: a durable Derby directory, or the shared test server. */
    static AqueductEngine engine(String store) {
        // the node works as NODE, the transaction manager's recovery as TM: administrators, as the engine's user is
        AqueductEngine.Builder b = AqueductEngine.builder().user("CRASH").administrators("NODE, TM");
        if (store.startsWith("derby:")) {
            b.derbyDirectory(Path.of(store.substring("derby:".length())));
        } else {
            b.dialect(Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP");
        }
        return b.start();
    }

    @BeforeEach
    void createQueues() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
            store = "shared";
        } else {
            store = "derby:" + dir.resolve("store");
        }
        decisions = dir.resolve("decisions.log");
        Files.createFile(decisions);
        try (AqueductEngine engine = engine(store); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("QT", QueueTableProperties.create().payloadType(io.aqueduct.api.PayloadType.TEXT));
            for (String q : List.of("SRC", "DST")) {
                engine.admin().createQueue(q, "QT", QueueProperties.create().maxRetries(100));
                engine.admin().startQueue(q, true, true);
            }
            for (int k = 0; k < KEYS; k++) {
                s.enqueue("SRC", Message.of("key-" + k));
            }
            s.commit();
        }
    }

    @AfterEach
    void killNode() throws InterruptedException {
        if (node != null && node.isAlive()) {
            node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void every_key_arrives_exactly_once_across_kills_and_recoveries() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        System.out.println("CrashRecoveryTest on " + TestStore.CURRENT.kind + ", seed " + seed);
        int rolledBack = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            boolean afterPrepare = round % 2 == 0;
            int hangAfter = afterPrepare ? 2 + random.nextInt(5) : 0;
            List<String> lines = start(hangAfter);
            awaitLine(lines, "STARTED");
            if (afterPrepare) {
                awaitLine(lines, "HANGING");
            } else {
                Thread.sleep(50 + random.nextInt(600)); // the fault's moment, not a timing assertion
            }
            // SIGKILL through the process handle: Process.destroyForcibly() would also close this end of the
            // node's stdout right after the signal, dropping the lines the reader has not read yet (the node
            // may have printed PREPARED / DECIDED and committed since), and the test would expect the wrong outcome
            node.toHandle().destroyForcibly();
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("round %d: the node died", round).isTrue();
            reader.join(30_000); // it ends at the pipe's end: every line the node wrote before it died is read
            assertThat(reader.isAlive()).as("round %d: the node's output was read to its end", round).isFalse();
            assertThat(readFailure).as("round %d: the node's output was read to its end", round).isNull();
            List<String> said = List.copyOf(lines);
            String last = said.isEmpty() ? "" : said.get(said.size() - 1);
            assertThat(last).as("round %d: the node was killed while moving keys", round).isNotEqualTo("DRAINED");
            long t0 = System.nanoTime();
            try (AqueductEngine engine = engine(store)) {
                long openedMs = (System.nanoTime() - t0) / 1_000_000;
                int[] outcome = resolveInDoubt(engine);
                System.out.printf("round %d (%s): engine open in %d ms beside the dead node's branches; in doubt: %d committed,"
                        + " %d rolled back from the decision log%n", round, afterPrepare ? "after prepare" : "random moment",
                        openedMs, outcome[0], outcome[1]);
                if (afterPrepare) {
                    assertThat(outcome[0] + outcome[1]).as("the hanging node's prepared branch is in doubt").isEqualTo(1);
                }
                // the key in flight at the kill: back in SRC with one more failed attempt, unless its commit was decided
                String inFlight = null;
                int attemptsBefore = 0;
                for (String line : said) {
                    if (line.startsWith("DEQUEUED ")) {
                        String[] parts = line.split(" ");
                        inFlight = parts[1];
                        attemptsBefore = Integer.parseInt(parts[2]);
                    } else if (line.startsWith("COMMITTED ")) {
                        inFlight = null;
                    }
                }
                if (inFlight != null && !last.startsWith("DECIDED ")) {
                    String key = inFlight;
                    int expected = attemptsBefore + 1;
                    int r = round;
                    if (outcome[0] == 1) {
                        assertThat(attempts(engine, "SRC")).as("round %d: %s was committed by the decision log", r, key)
                                .doesNotContainKey(key);
                    } else {
                        // a shared store counts a dead node's attempt once its heartbeat is old: wait for it
                        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(attempts(engine, "SRC").get(key))
                                .as(() -> "round " + r + ": " + key + " comes back with its failed attempt counted (the node's"
                                        + " last lines " + said.subList(Math.max(0, said.size() - 4), said.size()) + "; in DST: "
                                        + browse(engine, "DST").get(key) + "; in the table: " + rows(key) + ")")
                                .isEqualTo(expected));
                        rolledBack++;
                    }
                }
                assertThat(inDoubt(engine)).isEmpty();
            }
        }
        try (AqueductEngine engine = engine(store)) {
            resolveInDoubt(engine);
            try (QueueSession s = engine.openSession()) {
                while (true) {
                    Message m;
                    try {
                        m = s.dequeue("SRC", DequeueOptions.create().navigation(Navigation.FIRST_MESSAGE)
                                .waitSeconds(TestStore.CURRENT.shared() ? 10 : DequeueOptions.NO_WAIT));
                    } catch (AqException e) {
                        assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                        s.rollback();
                        break;
                    }
                    s.enqueue("DST", Message.of(m.text()));
                    s.commit();
                }
            }
            Map<String, Integer> arrived = browse(engine, "DST");
            Set<String> all = new HashSet<>();
            for (int k = 0; k < KEYS; k++) {
                all.add("key-" + k);
            }
            assertThat(arrived.keySet()).as("every key arrives").isEqualTo(all);
            assertThat(arrived.values()).as("no key arrives twice").allMatch(n -> n == 1);
            assertThat(browse(engine, "SRC")).isEmpty();
            assertThat(inDoubt(engine)).isEmpty();
            System.out.println(rolledBack + " of " + ROUNDS + " kills left a key in flight that came back with its attempt counted");
        }
    }

    private List<String> start(int hangAfter) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.add(TwoPhaseNode.class.getName());
        command.addAll(List.of(store, decisions.toString(), String.valueOf(hangAfter)));
        node = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        readFailure = null;
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        Process p = node;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    lines.add(line);
                }
            } catch (IOException e) {
                readFailure = e; // not the node's death (that is the pipe's end): lines would be missing
            }
        });
        reader.setDaemon(true);
        reader.start();
        this.reader = reader;
        return lines;
    }

    private static void awaitLine(List<String> said, String wanted) {
        await("the node says " + wanted).atMost(Duration.ofSeconds(90)).until(() -> said.contains(wanted));
    }

    /** As a transaction manager after a restart: commit what the log decided, roll back the rest. */
    /** Returns {committed, rolled back}. */
    private int[] resolveInDoubt(AqueductEngine engine) throws Exception {
        Set<String> decided = new HashSet<>();
        for (String line : Files.readAllLines(decisions)) {
            if (line.startsWith("COMMIT ")) {
                decided.add(line.substring("COMMIT ".length()));
            }
        }
        List<Xid> ours = inDoubt(engine);
        try (io.aqueduct.engine.session.EngineSession s = engine.openSession("TM")) {
            XAResource xa = s.xaResource();
            int[] outcome = new int[2];
            for (Xid xid : ours) {
                if (decided.contains(HexFormat.of().formatHex(xid.getGlobalTransactionId()))) {
                    xa.commit(xid, false);
                    outcome[0]++;
                } else {
                    xa.rollback(xid);
                    outcome[1]++;
                }
            }
            return outcome;
        }
    }

    private static List<Xid> inDoubt(AqueductEngine engine) throws Exception {
        try (io.aqueduct.engine.session.EngineSession s = engine.openSession("TM")) {
            Xid[] xids = s.xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            List<Xid> out = new ArrayList<>();
            for (Xid x : xids == null ? new Xid[0] : xids) {
                if (x.getFormatId() == TwoPhaseNode.FORMAT_ID) {
                    out.add(x);
                }
            }
            return out;
        }
    }

    /** What a queue holds, browsed as a user would. */
    private static List<Message> browseAll(AqueductEngine engine, String queue) {
        List<Message> out = new ArrayList<>();
        try (QueueSession s = engine.openSession()) {
            DequeueOptions first = DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                    .waitSeconds(DequeueOptions.NO_WAIT);
            DequeueOptions next = first.copy().navigation(Navigation.NEXT_MESSAGE);
            for (DequeueOptions o = first;; o = next) {
                try {
                    out.add(s.dequeue(queue, o));
                } catch (AqException e) {
                    if (e.errorCode() == AqError.NO_MESSAGE) {
                        return out;
                    }
                    throw e;
                }
            }
        }
    }

    /** The table's rows carrying {@code text} (queue, state, retry count), read with SQL: for failure messages. */
    private String rows(String text) {
        try (java.sql.Connection c = TestStore.CURRENT.shared() ? TestStore.CURRENT.connect()
                : java.sql.DriverManager.getConnection("jdbc:" + store); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT QUEUE, MSG_STATE, RETRY_COUNT, USER_DATA FROM \"APP\".\"AQ$QT\"")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                byte[] data = rs.getBytes(4);
                if (data != null && new String(data, StandardCharsets.UTF_8).equals(text)) {
                    out.add(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getInt(3));
                }
            }
            return out.toString();
        } catch (java.sql.SQLException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /** Text → how many messages of the queue carry it. */
    private static Map<String, Integer> browse(AqueductEngine engine, String queue) {
        Map<String, Integer> out = new HashMap<>();
        browseAll(engine, queue).forEach(m -> out.merge(m.text(), 1, Integer::sum));
        return out;
    }

    /** Text → the attempts of the message carrying it. */
    private static Map<String, Integer> attempts(AqueductEngine engine, String queue) {
        Map<String, Integer> out = new HashMap<>();
        browseAll(engine, queue).forEach(m -> out.put(m.text(), m.properties().attempts()));
        return out;
    }
}
