package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two nodes on one shared store (PostgreSQL, MariaDB): this JVM and a second one started as a
 * process ({@link StoreNode}). Real time: two JVMs cannot share a manual clock, so the tests wait
 * by blocking dequeues, never by sleeping.
 */
class MultiNodeTest {
    private static final String Q = "WORK_Q";
    private static final String QT = "WORK_QT";
    private static final String EXCEPTION_Q = "AQ$_WORK_QT_E";

    private AqueductEngine engine;
    private final List<Process> nodes = new ArrayList<>();

    /** An engine of a node: the shared test store, real clock, names in schema APP. */
    static AqueductEngine engine() {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP")
                .user("NODE").start();
    }

    @BeforeEach
    void startFirstNode() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.emptyStore();
        engine = engine();
        engine.admin().createQueueTable(QT, QueueTableProperties.create().payloadType(io.aqueduct.api.PayloadType.TEXT));
        engine.admin().createQueue(Q, QT, QueueProperties.create());
        engine.admin().startQueue(Q, true, true);
        engine.admin().startQueue(EXCEPTION_Q, false, true);
    }

    @AfterEach
    void stopNodes() throws InterruptedException {
        for (Process p : nodes) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** A second node running {@link StoreNode} with these arguments; its output lines arrive in the returned queue. */
    private BlockingQueue<String> secondNode(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.add(StoreNode.class.getName());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        nodes.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the node was killed
            }
            lines.add("EXIT");
        }, "second-node-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** The second node's lines up to (and without) {@code last}; fails if the node exits first. */
    private static List<String> linesUntil(BlockingQueue<String> lines, String last) throws InterruptedException {
        List<String> out = new ArrayList<>();
        while (true) {
            String line = lines.poll(5, TimeUnit.MINUTES);
            assertThat(line).as("the second node's output before %s; so far %s", last, out).isNotNull().isNotEqualTo("EXIT");
            if (line.equals(last)) {
                return out;
            }
            out.add(line);
        }
    }

    private static List<String> payloads(List<String> lines, String tag) {
        return lines.stream().filter(l -> l.startsWith(tag + " ")).map(l -> l.substring(tag.length() + 1)).toList();
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void twenty_thousand_messages_moved_by_two_producers_and_four_consumers_on_two_nodes_arrive_exactly_once() throws Exception {
        BlockingQueue<String> second = secondNode("move", Q, "1", "10000", "2");
        List<String> here = StoreNode.move(engine, Q, 1, 10_000, 2, "A", null);
        List<String> there = payloads(linesUntil(second, "DONE"), "RECEIVED");

        List<String> all = new ArrayList<>(here);
        all.addAll(there);
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            expected.add("A0-" + i);
            expected.add("B0-" + i);
        }
        assertThat(all).as("every message received once").hasSize(20_000).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(expected);
        assertThat(here).as("this node received some").isNotEmpty();
        assertThat(there).as("the other node received some").isNotEmpty();
        assertNothingLeft(Q);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void a_consumer_blocked_on_one_node_is_woken_by_an_enqueue_committed_on_the_other() throws Exception {
        BlockingQueue<String> second = secondNode("consume", Q, "60");
        try (QueueSession s = engine.openSession()) {
            s.enqueue(Q, null, Message.of("wake up"));
            s.commit();
        }
        assertThat(payloads(linesUntil(second, "DONE"), "RECEIVED")).containsExactly("wake up");
        assertNothingLeft(Q);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void a_delayed_message_enqueued_on_one_node_is_dequeued_on_the_other_once_its_delay_is_over() throws Exception {
        BlockingQueue<String> second = secondNode("consume", Q, "60");
        long enqueuedAt;
        try (QueueSession s = engine.openSession()) {
            enqueuedAt = System.currentTimeMillis();
            s.enqueue(Q, null, Message.of("later", MessageProperties.create().delay(2)));
            s.commit();
        }
        List<String> lines = linesUntil(second, "DONE");
        long receivedAt = System.currentTimeMillis();
        assertThat(payloads(lines, "RECEIVED")).containsExactly("later");
        assertThat(receivedAt - enqueuedAt).as("ms from enqueue to receipt on the other node").isGreaterThanOrEqualTo(2000);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void expired_messages_are_moved_once_while_the_time_managers_of_two_nodes_run() throws Exception {
        linesUntil(secondNode("idle", Q), "IDLE"); // a node whose time manager runs too
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            batch.add(Message.of("short-lived " + i, MessageProperties.create().expiration(1)));
        }
        try (QueueSession s = engine.openSession()) {
            s.enqueueArray(Q, null, batch);
            s.commit();
        }
        List<String> moved = new ArrayList<>();
        try (QueueSession s = engine.openSession()) {
            while (moved.size() < 200) {
                moved.add(s.dequeue(EXCEPTION_Q, DequeueOptions.create().waitSeconds(30)).text());
                s.commit();
            }
        }
        assertThat(moved).hasSize(200).doesNotHaveDuplicates();
        assertNothingLeft(EXCEPTION_Q);
        assertNothingLeft(Q);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void a_killed_node_gives_back_the_messages_it_held_with_each_removal_counted_as_a_failed_attempt() throws Exception {
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(Message.of("m" + i));
        }
        try (QueueSession s = engine.openSession()) {
            s.enqueueArray(Q, null, batch);
            s.commit();
        }
        BlockingQueue<String> second = secondNode("hold", Q, "3", "3");
        List<String> lines = linesUntil(second, "HOLDING");
        Set<String> locked = new HashSet<>(payloads(lines, "LOCKED"));
        Set<String> removed = new HashSet<>(payloads(lines, "REMOVED"));
        Set<String> held = new HashSet<>(locked);
        held.addAll(removed);
        assertThat(held).hasSize(6);

        List<String> free = new ArrayList<>();
        try (QueueSession s = engine.openSession()) {
            for (int i = 0; i < 4; i++) {
                free.add(s.dequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text());
            }
            assertNoMessageNow(s, Q); // what the other node holds is invisible here
            s.commit();

            nodes.get(0).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            java.util.Map<String, Integer> back = new java.util.HashMap<>();
            while (back.size() < 6) {
                Message m = s.dequeue(Q, DequeueOptions.create().waitSeconds(30));
                s.commit();
                assertThat(back.put(m.text(), m.properties().attempts())).as("received twice: %s", m.text()).isNull();
            }
            assertThat(back.keySet()).containsExactlyInAnyOrderElementsOf(held);
            // the dead node's REMOVE was a failed attempt, counted by this node from the attempt ledger;
            // LOCKED consumed nothing and counts nothing
            removed.forEach(text -> assertThat(back.get(text)).as("attempts of %s, removed by the dead node", text).isEqualTo(1));
            locked.forEach(text -> assertThat(back.get(text)).as("attempts of %s, locked by the dead node", text).isZero());
        }
        assertThat(Collections.disjoint(free, held)).isTrue();
        assertNothingLeft(Q);
    }

    private void assertNothingLeft(String queue) {
        try (QueueSession s = engine.openSession()) {
            assertNoMessageNow(s, queue);
        }
    }

    private static void assertNoMessageNow(QueueSession s, String queue) {
        try {
            Message m = s.dequeue(queue, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            throw new AssertionError("expected no message in " + queue + " but got " + m.text());
        } catch (AqException e) {
            assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
        }
    }
}
