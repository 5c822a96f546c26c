package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A propagation schedule on a shared store (PostgreSQL, MariaDB) runs on one node at a time, by a
 * lease of {@code Propagator.LEASE_MS} it renews. Two nodes ({@link PropagationNode} "node", JVMs of
 * their own) propagate in-store while this JVM enqueues; the node running the schedule is killed
 * (twice: a fresh node replaces the dead one each time), and the other takes the schedule over
 * within seconds and goes on propagating. The schedule changes hands only at the kills, and the
 * destination queue receives every message exactly once.
 */
class PropagationTakeoverTest {
    /** The schema (PostgreSQL) or database (MariaDB) of the test's own on the server of the run. */
    private static final String SCHEMA = "PROPTAKEOVER";
    private static final String SRC_Q = SCHEMA + ".SRC_Q";
    private static final String DST_Q = SCHEMA + ".DST_Q";
    /** Messages enqueued at least; the producer goes on until the last kill (a kill must find work in progress). */
    private static final int TOTAL = 3000;
    /** The most enqueued and not yet propagated: on a slow machine the kills still happen while messages are moving. */
    private static final int BACKLOG = 400;
    private static final int PER_COMMIT = 10;
    private static final int KILLS = 2;

    private AqueductEngine engine;
    private final List<Process> nodes = new ArrayList<>();
    private final ScheduledExecutorService background = Executors.newScheduledThreadPool(2);

    /** An engine of a node on the test's store; {@code propagating}: its loops (time manager, propagation) run. */
    static AqueductEngine engine(boolean propagating) {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(TestStore.CURRENT.privateStoreSettings(SCHEMA)))
                .defaultSchema(SCHEMA).user("NODE").timeManager(propagating).start();
    }

    @BeforeEach
    void createQueues() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.privateStore(SCHEMA);
        engine = engine(false); // this JVM enqueues and watches; the nodes propagate
        var admin = engine.admin();
        admin.createQueueTable("SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.createQueue(SRC_Q, "SRC_QT", QueueProperties.create().retention(86_400)); // kept: the test reads the parts
        admin.startQueue(SRC_Q, true, true);
        admin.createQueueTable("DST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue(DST_Q, "DST_QT", QueueProperties.create());
        admin.startQueue(DST_Q, true, true);
        admin.addSubscriber(SRC_Q, new Agent("X", DST_Q, 0), null);
        admin.schedulePropagation(SRC_Q, null, null, null, null, 0);
    }

    @AfterEach
    void stop() throws InterruptedException {
        background.shutdownNow();
        for (Process p : nodes) {
            p.toHandle().destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void the_other_node_takes_over_a_schedule_whose_node_died_and_nothing_is_lost_or_delivered_twice() throws Exception {
        long t0 = System.nanoTime();
        Map<String, Process> live = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            Node n = node();
            live.put(n.tag, n.process);
        }
        // who holds the schedule, every change with its time
        List<String> owners = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<String> owner = new AtomicReference<>();
        background.scheduleWithFixedDelay(() -> {
            try {
                String now = admin().propagationSchedule(SRC_Q, null).processName();
                if (now != null && !now.equals(owner.getAndSet(now))) {
                    owners.add(now);
                }
            } catch (RuntimeException e) {
                owners.add("unreadable: " + e); // fails the test's last assertion, with what happened
            }
        }, 0, 100, TimeUnit.MILLISECONDS);
        // this JVM enqueues PER_COMMIT messages every 50 ms (keeping at most BACKLOG unpropagated) while the
        // nodes propagate and die, and stops once it has enqueued TOTAL and the last kill is over
        AtomicInteger enqueued = new AtomicInteger();
        AtomicBoolean killsDone = new AtomicBoolean();
        QueueSession producer = engine.openSession();
        ScheduledFuture<?> producing = background.scheduleAtFixedRate(() -> {
            int from = enqueued.get();
            if (from >= TOTAL && killsDone.get()) {
                throw new IllegalStateException("done"); // ends the schedule
            }
            try {
                if (from - delivered() >= BACKLOG) {
                    return;
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            List<Message> batch = new ArrayList<>();
            for (int i = from; i < from + PER_COMMIT; i++) {
                batch.add(Message.of("m-" + i));
            }
            producer.enqueueArray(SRC_Q, EnqueueOptions.create(), batch);
            producer.commit();
            enqueued.addAndGet(PER_COMMIT);
        }, 0, 50, TimeUnit.MILLISECONDS);

        for (int kill = 1; kill <= KILLS; kill++) {
            int before = delivered();
            await("a node propagates").atMost(Duration.ofSeconds(60))
                    .until(() -> delivered() > before + 50 && live.containsKey(owner.get()));
            String victim = owner.get();
            Process p = live.remove(victim);
            String survivor = live.keySet().iterator().next();
            int atKill = delivered();
            long killedAt = System.nanoTime();
            p.toHandle().destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            await("node " + survivor + " takes the schedule over").atMost(Duration.ofSeconds(30))
                    .until(() -> survivor.equals(owner.get()));
            long takenMs = (System.nanoTime() - killedAt) / 1_000_000;
            await("node " + survivor + " propagates").atMost(Duration.ofSeconds(30)).until(() -> delivered() > atKill);
            long propagatingMs = (System.nanoTime() - killedAt) / 1_000_000;
            System.out.printf("PropagationTakeoverTest %s: kill %d of node %s with %d delivered of %d enqueued; node %s"
                    + " took the schedule over after %d ms, delivered again after %d ms%n", TestStore.CURRENT.kind, kill, victim,
                    atKill, enqueued.get(), survivor, takenMs, propagatingMs);
            // the lease (5 s) runs out, then the survivor's next look (at least every second) takes it
            assertThat(takenMs).as("ms until the schedule was taken over").isLessThan(15_000);
            assertThat(atKill).as("killed while propagating: not all delivered yet").isLessThan(enqueued.get());
            Node fresh = node(); // the next kill has a node to hand over to
            live.put(fresh.tag, fresh.process);
        }
        killsDone.set(true);
        await("every message enqueued").atMost(Duration.ofSeconds(60)).until(producing::isDone);
        int total = enqueued.get();
        assertThat(total).as("enqueued (the producer stops at the total or later, or at an error)").isGreaterThanOrEqualTo(TOTAL);
        await("every message propagated").atMost(Duration.ofSeconds(60)).until(() -> delivered() >= total);
        producer.close();

        Map<String, Integer> arrived = new HashMap<>();
        try (QueueSession s = engine.openSession()) {
            for (Message m; (m = next(s)) != null;) {
                arrived.merge(m.text(), 1, Integer::sum);
                if (arrived.size() % 500 == 0) {
                    s.commit();
                }
            }
            s.commit();
        }
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < total; i++) {
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
        PropagationSchedule schedule = admin().propagationSchedule(SRC_Q, null);
        System.out.printf("PropagationTakeoverTest %s: %d kills, owners in turn %s; %d distinct messages arrived, %d lost,"
                + " %d duplicated; schedule total %d, failures %d; %.1f s%n", TestStore.CURRENT.kind, KILLS, owners,
                arrived.size(), lost.size(), twice.size(), schedule.totalNumber(), schedule.failures(), (System.nanoTime() - t0) / 1e9);
        assertThat(lost.stream().limit(20).toList()).as("lost (%d; the first 20)", lost.size()).isEmpty();
        assertThat(twice.entrySet().stream().limit(20).toList()).as("delivered more than once (%d; the first 20)", twice.size())
                .isEmpty();
        assertThat(arrived.size()).as("distinct messages arrived").isEqualTo(total);
        assertThat(sourceParts()).as("the source parts of consumer X by state").isEqualTo(Map.of("PROCESSED", total));
        assertThat(owners).as("the schedule changed hands at the kills only (no node took it from a live one)")
                .hasSize(KILLS + 1).doesNotHaveDuplicates();
    }

    private io.aqueduct.api.QueueAdmin admin() {
        return engine.admin();
    }

    private record Node(String tag, Process process) {
    }

    /** A node in a JVM of its own; returns once its engine is open. */
    private Node node() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.add(PropagationNode.class.getName());
        command.add("node");
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        nodes.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // killed
            }
            lines.add("EXIT");
        }, "propagation-node-output");
        reader.setDaemon(true);
        reader.start();
        String first = lines.poll(90, TimeUnit.SECONDS);
        assertThat(first).as("the node's first line").isNotNull().startsWith("NODE ");
        return new Node(first.substring("NODE ".length()), p);
    }

    private int delivered() throws SQLException {
        try (Connection c = TestStore.CURRENT.connect(TestStore.CURRENT.privateStoreSettings(SCHEMA));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + SCHEMA + "\".\"AQ$DST_QT\"")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private Map<String, Integer> sourceParts() throws SQLException {
        Map<String, Integer> out = new TreeMap<>();
        try (Connection c = TestStore.CURRENT.connect(TestStore.CURRENT.privateStoreSettings(SCHEMA));
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MSG_STATE, COUNT(*) FROM \""
                        + SCHEMA + "\".\"AQ$SRC_QT\" WHERE CONSUMER_NAME = 'X' GROUP BY MSG_STATE")) {
            while (rs.next()) {
                out.put(rs.getString(1).trim(), rs.getInt(2));
            }
        }
        return out;
    }

    private static Message next(QueueSession s) {
        try {
            return s.dequeue(DST_Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
        } catch (AqException e) {
            assertThat(e.errorCode()).as("the destination drained: %s", e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
            return null;
        }
    }
}
