package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.connector.TransactedEndpoints.Delivery;
import io.aqueduct.connector.TransactedEndpoints.Outcome;
import io.aqueduct.engine.PrivateServers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Delivery to an MDB from a PostgreSQL store that goes away: the adapter's delivery sessions find
 * their connections broken, back off, and deliver again by themselves once the server is back;
 * nothing is lost, nothing delivered twice. On a private server (its own port and data), never
 * the shared one.
 */
class DeliveryAfterStoreRestartTest {
    private static final String QUEUE = "RESTART_Q";
    private static final String DEFINITIONS = "table RESTART_QTAB payload=TEXT; queue " + QUEUE
            + " table=RESTART_QTAB max_retries=100 retry_delay=0;"
            + " table RESTART_MQTAB payload=RAW sort=priority,enq_time multiple_consumers=true;"
            + " queue RESTART_T table=RESTART_MQTAB max_retries=100 retry_delay=0";
    /** How long the server stays down. */
    private static final long DOWN_SECONDS = 5;

    private static PrivateServers.Postgres server;
    private RunningAdapter ra;

    @BeforeAll
    static void startPrivateServer() throws Exception {
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "PostgreSQL is not installed (/usr/lib/postgresql)");
        server = PrivateServers.postgres();
    }

    @AfterAll
    static void removePrivateServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void startAdapter() throws Exception {
        server.start();
        server.freshDatabase();
        ra = RunningAdapter.onStore(server.jdbcUrl(), server.user(), server.password(), DEFINITIONS);
    }

    @AfterEach
    void stopAdapter() {
        if (ra != null) {
            ra.close();
            assertThat(ra.workManager.releaseAll()).as("threads of the adapter's work still running after stop()").isEmpty();
            assertThat(ra.workManager.failures()).as("what the adapter's work threw to the WorkManager").isEmpty();
        }
    }

    @Test
    void delivery_resumes_by_itself_after_the_server_was_stopped_and_started() throws Exception {
        // the engine's loops are the container's Work: time manager, propagation, notifications, signal sender,
        // database and direct signal receivers, attempt ledger
        assertThat(ra.workManager.running()).as("the engine's background loops as Work").isEqualTo(7);
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> { });
        List<String> before = texts("before", 20);
        ra.enqueue(QUEUE, before);
        ra.awaitSettled(mdb, before, Duration.ofSeconds(30));

        javax.management.MBeanServer beans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName engine = beans.queryNames(new javax.management.ObjectName("io.aqueduct:type=Engine,*"), null)
                .iterator().next();
        javax.management.ObjectName activation = beans.queryNames(new javax.management.ObjectName("io.aqueduct:type=Activation,queue="
                + javax.management.ObjectName.quote(QUEUE) + ",*"), null).iterator().next();
        assertThat(beans.getAttribute(engine, "StoreReachable")).isEqualTo(true);

        server.stop();
        long downAt = System.nanoTime();
        assertThat(beans.getAttribute(engine, "StoreReachable")).as("the health probe during the outage").isEqualTo(false);
        Thread.sleep(TimeUnit.SECONDS.toMillis(DOWN_SECONDS)); // the outage itself: what the test is about
        server.start();
        long upAt = System.nanoTime();

        List<String> after = texts("after", 20);
        // the application retries its enqueue while the store says it is unavailable (3113)
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> ra.tryEnqueue(QUEUE, after));
        long enqueuedAt = System.nanoTime();
        ra.awaitSettled(mdb, all(before, after), Duration.ofSeconds(60));

        long resumedAt = mdb.settled().stream().filter(d -> d.text().startsWith("after")).mapToLong(Delivery::atNanos).min().orElseThrow();
        report(String.format("server down %.1f s", seconds(upAt - downAt)), mdb, enqueuedAt - upAt, resumedAt - upAt);
        assertEveryOneDeliveredOnce(mdb, all(before, after));
        assertThat(ra.workManager.running()).as("the background loops and the 2 delivery workers outlived the outage")
                .isEqualTo(9);
        // and the health figures say so
        assertThat(beans.getAttribute(engine, "StoreReachable")).isEqualTo(true);
        assertThat(beans.getAttribute(engine, "TimeManagerAlive")).isEqualTo(true);
        assertThat(beans.getAttribute(activation, "WorkersRunning")).isEqualTo(2);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(beans.getAttribute(activation, "WorkersFailing")).isEqualTo(0));
        assertThat(ra.workManager.failures()).isEmpty();
    }

    @Test
    void delivery_continues_when_every_connection_is_killed_mid_delivery() throws Exception {
        CountDownLatch halfway = new CountDownLatch(20);
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            halfway.countDown();
            Thread.sleep(20); // deliveries in progress while the connections go
        });
        List<String> texts = texts("message", 40);
        ra.enqueue(QUEUE, texts);
        assertThat(halfway.await(30, TimeUnit.SECONDS)).isTrue();

        long killedAt = System.nanoTime();
        int killed = server.terminateOtherConnections();
        int settledThen = mdb.settled().size();

        ra.awaitSettled(mdb, texts, Duration.ofSeconds(60));
        long resumedAt = mdb.committed().stream().filter(d -> d.atNanos() > killedAt).mapToLong(Delivery::atNanos).min().orElseThrow();
        report(killed + " connections killed after " + settledThen + " deliveries", mdb, -1, resumedAt - killedAt);
        assertThat(killed).as("the adapter's connections were there to kill").isGreaterThanOrEqualTo(2);
        assertEveryOneDeliveredOnce(mdb, texts);
    }

    @Test
    void delivery_continues_when_every_connection_is_killed_while_the_sessions_wait_for_messages() throws Exception {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> { });
        List<String> before = texts("before", 10);
        ra.enqueue(QUEUE, before);
        ra.awaitSettled(mdb, before, Duration.ofSeconds(30));

        long killedAt = System.nanoTime();
        int killed = server.terminateOtherConnections(); // both delivery sessions are idle, waiting for the queue
        List<String> after = texts("after", 10);
        ra.enqueue(QUEUE, after);

        ra.awaitSettled(mdb, all(before, after), Duration.ofSeconds(60));
        long resumedAt = mdb.settled().stream().filter(d -> d.text().startsWith("after")).mapToLong(Delivery::atNanos).min().orElseThrow();
        report(killed + " connections killed while idle", mdb, -1, resumedAt - killedAt);
        assertEveryOneDeliveredOnce(mdb, all(before, after));
    }

    @Test
    void delivery_continues_when_only_the_delivery_sessions_own_connection_is_killed() throws Exception {
        java.util.Set<Integer> before = server.connections().keySet();
        TransactedEndpoints mdb = ra.activate(QUEUE, 1, m -> { });
        ra.enqueue(QUEUE, List.of("before"));
        ra.awaitSettled(mdb, List.of("before"), Duration.ofSeconds(30));
        // the delivery session's own connection: opened by the activation, its last statement the
        // one-phase commit of the delivery (the session's other connections ran a SELECT, an INSERT, a ROLLBACK)
        List<Integer> delivery = await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().entrySet().stream()
                .filter(c -> !before.contains(c.getKey()) && "COMMIT".equals(c.getValue())).map(Map.Entry::getKey).toList(),
                l -> l.size() == 1);

        server.terminate(delivery); // as an idle-session timeout or a dropped idle connection would
        List<String> after = texts("after", 5);
        ra.enqueue(QUEUE, after);

        ra.awaitSettled(mdb, all(List.of("before"), after), Duration.ofSeconds(30));
        assertEveryOneDeliveredOnce(mdb, all(List.of("before"), after));
    }

    @Test
    void a_jms_mdb_on_a_durable_subscription_resumes_by_itself_after_the_server_was_stopped_and_started() throws Exception {
        io.aqueduct.connector.jms.JmsActivationSpec spec = new io.aqueduct.connector.jms.JmsActivationSpec();
        spec.setDestination("RESTART_T");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("billing");
        spec.setClientId("booksonline");
        spec.setMaxSessions(2);
        TransactedEndpoints mdb = ra.activate(spec, TransactedEndpoints.jms(m -> { }, true));
        List<String> before = texts("before", 10);
        publish(before);
        ra.awaitSettled(mdb, before, Duration.ofSeconds(30));

        server.stop();
        Thread.sleep(TimeUnit.SECONDS.toMillis(DOWN_SECONDS));
        server.start();

        List<String> after = texts("after", 10);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            publish(after); // the application retries its send while the store is away
            return true;
        });
        int killed = server.terminateOtherConnections(); // and once more, every connection, while delivering
        List<String> last = texts("last", 10);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            publish(last);
            return true;
        });

        List<String> all = new java.util.ArrayList<>(all(before, after));
        all.addAll(last);
        ra.awaitSettled(mdb, all, Duration.ofSeconds(60));
        Map<String, Long> settled = mdb.settled().stream().collect(Collectors.groupingBy(Delivery::text, Collectors.counting()));
        assertThat(settled).as("deliveries by text after the restart and " + killed + " killed connections")
                .isEqualTo(all.stream().collect(Collectors.toMap(t -> t, t -> 1L)));
        assertThat(mdb.containerErrors()).isEmpty();
    }

    /** Publishes the texts to RESTART_T in one transacted JMS session (all or none). */
    private void publish(List<String> texts) throws Exception {
        try (jakarta.jms.Connection c = new io.aqueduct.jms.client.AqueductConnectionFactory(ra.adapter.engine()).createConnection()) {
            jakarta.jms.Session s = c.createSession(true, jakarta.jms.Session.SESSION_TRANSACTED);
            jakarta.jms.MessageProducer p = s.createProducer(s.createTopic("RESTART_T"));
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
            s.commit();
        }
    }

    /**
     * Each message was handed to the bean in exactly one transaction that committed (or whose
     * commit the container could not confirm: then the message must be gone, not delivered again),
     * and the queue is empty.
     */
    private void assertEveryOneDeliveredOnce(TransactedEndpoints mdb, List<String> texts) throws Exception {
        Map<String, Long> settled = mdb.settled().stream().collect(Collectors.groupingBy(Delivery::text, Collectors.counting()));
        assertThat(settled).as("deliveries committed (or of unknown outcome) by text, duplicates: " + mdb.deliveries())
                .isEqualTo(texts.stream().collect(Collectors.toMap(t -> t, t -> 1L)));
        assertThat(ra.browse(QUEUE)).as("the queue after delivery").isEmpty();
        assertThat(mdb.containerErrors()).isEmpty();
    }

    /** Prints the figures; {@code enqueueRetriedNanos} &lt; 0: the application's enqueue never met the store away. */
    private static void report(String what, TransactedEndpoints mdb, long enqueueRetriedNanos, long resumedNanos) {
        Map<Outcome, Long> outcomes = mdb.deliveries().stream().collect(Collectors.groupingBy(Delivery::outcome, Collectors.counting()));
        long settled = mdb.settled().size();
        long distinct = mdb.settled().stream().map(Delivery::text).distinct().count();
        System.out.printf("[DeliveryAfterStoreRestartTest] %s: delivered %d, duplicates %d; delivery transactions %s;%s"
                + " delivery resumed after %.1f s%n", what, distinct, settled - distinct, outcomes,
                enqueueRetriedNanos < 0 ? "" : String.format(" enqueue accepted %.1f s after the restart;", seconds(enqueueRetriedNanos)),
                seconds(resumedNanos));
    }

    private static List<String> all(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static List<String> texts(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + " " + i).toList();
    }
}
