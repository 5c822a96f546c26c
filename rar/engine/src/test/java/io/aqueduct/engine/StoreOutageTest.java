package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A database server that goes away under load: producers and consumers keep working through the
 * outage as an application would (retrying after an error), and once the server is back they,
 * the time manager and the engine's own connections resume by themselves. Nothing committed is
 * lost, nothing is delivered twice. Runs against a private server of the store under test (its own
 * port and data directory), never the shared one.
 */
class StoreOutageTest {
    /** How long the server stays down (the 30 s by default). */
    private static final long DOWN_SECONDS = Long.getLong("aqueduct.test.outage.seconds", 30);
    private static PrivateServer server;
    private AqueductEngine engine;

    @BeforeAll
    static void startPrivateServer() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "an outage of a database server (PostgreSQL, MariaDB)");
        TestStore.CURRENT.assumeConfigured();
        server = TestStore.CURRENT.kind == TestStore.Kind.POSTGRES ? PrivateServer.postgres() : PrivateServer.mariadb();
    }

    @AfterAll
    static void removePrivateServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void startEngine() throws Exception {
        server.start();
        String url = server.jdbcUrl();
        if (TestStore.CURRENT.kind == TestStore.Kind.MARIADB) {
            try (Connection c = DriverManager.getConnection(url, server.user(), server.password()); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS OUTAGE");
                s.execute("CREATE DATABASE OUTAGE");
            }
            url = url + "/OUTAGE";
        } else {
            try (Connection c = DriverManager.getConnection(url, server.user(), server.password()); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS \"OUTAGE\" CASCADE");
                s.execute("CREATE SCHEMA \"OUTAGE\"");
            }
            url = url + "?currentSchema=%22OUTAGE%22";
        }
        engine = AqueductEngine.builder().dialect(Dialects.forJdbc(new JdbcSettings(url, server.user(), server.password())))
                .defaultSchema("OUTAGE").user("LOAD").start();
        engine.admin().createQueueTable("QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        for (String q : List.of("WORK", "LATER")) {
            engine.admin().createQueue(q, "QT", QueueProperties.create().maxRetries(1000));
            engine.admin().startQueue(q, true, true);
        }
    }

    @AfterEach
    void stopEngine() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void producers_and_consumers_resume_by_themselves_after_the_server_was_down() throws Exception {
        try (QueueSession s = engine.openSession()) {
            // due while the server is down: the time manager makes it available once it is back
            s.enqueue("LATER", null, Message.of("delayed across the outage", MessageProperties.create().delay(2)));
            s.commit();
        }
        Load load = new Load(engine);
        load.start();
        load.awaitProgress(50);
        server.stop();
        long downAt = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(DOWN_SECONDS)); // the outage itself: what the test is about
        server.start();
        long upAt = System.nanoTime();
        long before = load.enqueued.get();
        await().atMost(Duration.ofSeconds(60)).until(() -> load.enqueued.get() > before + 20 && load.dequeuedAfter(upAt) > 20);
        long recoveredMs = (load.firstCommitAfter(upAt) - upAt) / 1_000_000;
        load.awaitProgress(50);
        load.finish();
        load.report(TestStore.CURRENT.kind + " down " + (upAt - downAt) / 1_000_000_000 + " s", recoveredMs);
        load.assertNothingLostNorDuplicated();
        try (QueueSession s = engine.openSession()) {
            assertThat(s.dequeue("LATER", DequeueOptions.create().waitSeconds(30)).text()).isEqualTo("delayed across the outage");
            s.commit();
        }
    }

    @Test
    void every_connection_of_the_engine_killed_mid_load_is_replaced() throws Exception {
        Load load = new Load(engine);
        load.start();
        load.awaitProgress(50);
        long killedAt = System.nanoTime();
        int killed = server.terminateOtherConnections();
        load.awaitProgress(100);
        long recoveredMs = (load.firstCommitAfter(killedAt) - killedAt) / 1_000_000;
        load.finish();
        load.report(TestStore.CURRENT.kind + " " + killed + " connections killed", recoveredMs);
        assertThat(killed).as("the engine's connections were there to kill").isGreaterThanOrEqualTo(4);
        load.assertNothingLostNorDuplicated();
        try (QueueSession s = engine.openSession()) {
            s.enqueue("LATER", null, Message.of("after the kill", MessageProperties.create().delay(1)));
            s.commit();
            assertThat(s.dequeue("LATER", DequeueOptions.create().waitSeconds(30)).text()).isEqualTo("after the kill");
            s.commit();
        }
    }

    @Test
    void a_dequeue_waiting_when_the_server_stops_returns_promptly_with_the_error_and_the_session_works_again()
            throws Exception {
        try (QueueSession s = engine.openSession()) {
            java.util.concurrent.atomic.AtomicReference<Thread> dequeuer = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.CompletableFuture<AqException> waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                dequeuer.set(Thread.currentThread());
                try {
                    s.dequeue("WORK", DequeueOptions.create().waitSeconds(120));
                    return null;
                } catch (AqException e) {
                    return e;
                }
            });
            // the dequeue is waiting (parked in its wait; had it returned, the assertions below say with what)
            await().atMost(Duration.ofSeconds(10)).until(() -> waiting.isDone()
                    || dequeuer.get() != null && Blocking.parkedOnCondition(dequeuer.get()));
            long stoppedAt = System.nanoTime();
            server.stop();
            AqException e = waiting.get(30, TimeUnit.SECONDS);
            long returnedMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            System.out.println("StoreOutageTest " + TestStore.CURRENT.kind + ": a waiting dequeue returned " + returnedMs
                    + " ms after the server stopped");
            assertThat(e).isNotNull();
            assertThat(e.errorCode()).isEqualTo(AqError.STORE_UNAVAILABLE);
            assertThat(returnedMs).as("promptly, not after its 120 s wait").isLessThan(20_000);

            server.start();
            await().atMost(Duration.ofSeconds(30)).ignoreException(AqException.class).untilAsserted(() -> {
                s.enqueue("WORK", null, Message.of("after the restart"));
                s.commit();
            });
            assertThat(s.dequeue("WORK", DequeueOptions.create().waitSeconds(5)).text()).isEqualTo("after the restart");
            s.commit();
        }
    }

    @Test
    void a_message_taken_by_a_transaction_in_flight_when_the_server_crashes_is_delivered_once_after_the_restart()
            throws Exception {
        try (QueueSession s = engine.openSession()) {
            s.enqueue("WORK", null, Message.of("in flight at the crash"));
            s.commit();
        }
        QueueSession taker = engine.openSession();
        // taken, its attempt on record, not committed
        assertThat(taker.dequeue("WORK", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                .isEqualTo("in flight at the crash");
        server.kill(); // SIGKILL: what was not on disk is gone, the taker's transaction with it
        server.start(); // crash recovery
        try {
            taker.commit();
        } catch (AqException lost) {
            assertThat(lost.errorCode()).isIn(AqError.STORE_UNAVAILABLE, AqError.COMMIT_OUTCOME_UNKNOWN);
        } finally {
            taker.close();
        }
        try (QueueSession s = engine.openSession()) {
            // back, once (the crash undid the take), its attempt counted from the ledger's record
            Message again = await().atMost(Duration.ofSeconds(60)).ignoreException(AqException.class)
                    .until(() -> s.dequeue("WORK", DequeueOptions.create().waitSeconds(1)), m -> m != null);
            assertThat(again.text()).isEqualTo("in flight at the crash");
            assertThat(again.properties().attempts()).as("the take's attempt, on record before the crash").isEqualTo(1);
            s.commit();
            AqException none = org.junit.jupiter.api.Assertions.assertThrows(AqException.class,
                    () -> s.dequeue("WORK", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)));
            assertThat(none.errorCode()).isEqualTo(AqError.NO_MESSAGE);
        }
    }

    /**
     * Two producers (enqueue + commit per message, distinct texts) and two consumers (dequeue with a
     * 1 s wait + commit), each retrying after an error as an application would. A commit whose
     * outcome is unknown (25405) leaves its message as "maybe".
     */
    private static final class Load {
        private final AqueductEngine engine;
        private final ExecutorService pool = Executors.newFixedThreadPool(4);
        private final List<Future<?>> workers = new ArrayList<>();
        private final AtomicBoolean producing = new AtomicBoolean(true);
        private final AtomicBoolean consuming = new AtomicBoolean(true);
        final AtomicLong enqueued = new AtomicLong();
        private final Set<String> committedEnqueues = ConcurrentHashMap.newKeySet();
        private final Set<String> maybeEnqueued = ConcurrentHashMap.newKeySet();
        private final List<String> received = java.util.Collections.synchronizedList(new ArrayList<>());
        private final Set<String> maybeReceived = ConcurrentHashMap.newKeySet();
        private final List<Long> dequeueCommits = java.util.Collections.synchronizedList(new ArrayList<>());
        private final AtomicInteger errors = new AtomicInteger();
        private final AtomicInteger late = new AtomicInteger();
        private final java.util.Map<String, List<String>> history = new ConcurrentHashMap<>();

        private void note(String text, String what) {
            history.computeIfAbsent(text, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(Thread.currentThread().getName() + ":" + what);
        }
        private final Set<Integer> errorCodes = ConcurrentHashMap.newKeySet();

        Load(AqueductEngine engine) {
            this.engine = engine;
        }

        void start() {
            for (int p = 0; p < 2; p++) {
                String name = "P" + p;
                workers.add(pool.submit(() -> produce(name)));
            }
            for (int c = 0; c < 2; c++) {
                workers.add(pool.submit(this::consume));
            }
        }

        private void produce(String name) {
            QueueSession s = null;
            for (int i = 0; producing.get();) {
                String text = name + "-" + i;
                try {
                    if (s == null) {
                        s = engine.openSession();
                    }
                    s.enqueue("WORK", null, Message.of(text));
                    note(text, "enqueued");
                    s.commit();
                    note(text, "enqueue committed");
                    committedEnqueues.add(text);
                    enqueued.incrementAndGet();
                    i++;
                } catch (AqException e) {
                    failed(e);
                    note(text, "producer error " + e.errorCode());
                    if (e.errorCode() == AqError.COMMIT_OUTCOME_UNKNOWN) {
                        maybeEnqueued.add(text);
                        i++; // the application cannot tell: it moves on rather than risk a duplicate
                    }
                    pause();
                }
            }
            if (s != null) {
                s.close();
            }
        }

        private void consume() {
            QueueSession s = null;
            while (consuming.get()) {
                String text = null;
                try {
                    if (s == null) {
                        s = engine.openSession();
                    }
                    text = s.dequeue("WORK", DequeueOptions.create().waitSeconds(1)).text();
                    note(text, "dequeued");
                    s.commit();
                    note(text, "dequeue committed");
                    received.add(text);
                    dequeueCommits.add(System.nanoTime());
                } catch (AqException e) {
                    if (e.errorCode() == AqError.NO_MESSAGE) {
                        s.rollback();
                        if (!producing.get()) {
                            s.close(); // a 1 s wait brought nothing and the producers are done: drained
                            return;
                        }
                        continue;
                    }
                    failed(e);
                    if (text != null) {
                        note(text, "consumer error " + e.errorCode());
                    }
                    if (e.errorCode() == AqError.COMMIT_OUTCOME_UNKNOWN && text != null) {
                        maybeReceived.add(text);
                    }
                    pause();
                }
            }
            if (s != null) {
                s.close();
            }
        }

        private void failed(AqException e) {
            errors.incrementAndGet();
            errorCodes.add(e.errorCode());
        }

        private static void pause() {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitProgress(int more) {
            long target = enqueued.get() + more;
            int seen = received.size() + more;
            await().atMost(Duration.ofSeconds(60)).until(() -> enqueued.get() >= target && received.size() >= seen);
        }

        long dequeuedAfter(long nanos) {
            synchronized (dequeueCommits) {
                return dequeueCommits.stream().filter(t -> t > nanos).count();
            }
        }

        /** When the first dequeue committed after {@code nanos} (System.nanoTime). */
        long firstCommitAfter(long nanos) {
            synchronized (dequeueCommits) {
                return dequeueCommits.stream().filter(t -> t > nanos).min(Long::compare).orElse(Long.MAX_VALUE);
            }
        }

        void finish() throws Exception {
            producing.set(false);
            workers.get(0).get(60, TimeUnit.SECONDS);
            workers.get(1).get(60, TimeUnit.SECONDS);
            for (Future<?> f : workers.subList(2, 4)) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
            // what is still to come: a message whose consumer's connection broke is back once its attempt is counted
            try (QueueSession s = engine.openSession()) {
                while (true) {
                    try {
                        received.add(s.dequeue("WORK", DequeueOptions.create().waitSeconds(15)).text());
                        s.commit();
                        late.incrementAndGet();
                    } catch (AqException e) {
                        if (e.errorCode() != AqError.NO_MESSAGE) {
                            throw e;
                        }
                        return;
                    }
                }
            }
        }

        void report(String what, long recoveredMs) {
            Set<String> distinct = new HashSet<>(received);
            System.out.printf("StoreOutageTest %s: committed enqueues %d (+%d outcome unknown), committed dequeues %d"
                    + " (+%d outcome unknown; %d drained at the end), lost %d, delivered twice %d, errors seen %d %s, first dequeue"
                    + " commit %d ms after the store was back%n", what, committedEnqueues.size(), maybeEnqueued.size(),
                    received.size(), maybeReceived.size(), late.get(), lost().size(), received.size() - distinct.size(), errors.get(), errorCodes, recoveredMs);
        }

        private Set<String> lost() {
            Set<String> lost = new HashSet<>(committedEnqueues);
            lost.removeAll(received);
            lost.removeAll(maybeReceived);
            return lost;
        }

        void assertNothingLostNorDuplicated() {
            lost().forEach(t -> System.out.println("LOST " + t + ": " + history.get(t)));
            assertThat(lost()).as("committed enqueues never received").isEmpty();
            assertThat(received).as("delivered twice").doesNotHaveDuplicates();
            Set<String> known = new HashSet<>(committedEnqueues);
            known.addAll(maybeEnqueued);
            assertThat(known).as("only what was enqueued is received").containsAll(received);
        }
    }
}
