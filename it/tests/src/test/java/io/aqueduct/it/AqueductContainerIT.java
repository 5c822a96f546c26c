package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real BooksOnLine EAR (resource adapter + sample EJBs + application-scoped connector and JDBC
 * resources), with the probe WAR added, in embedded Payara. Client mode: the tests drive the probe
 * over HTTP, so the application's classes load as they would on a server.
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AqueductContainerIT {
    static final Path DEPLOYMENTS = Path.of(System.getProperty("it.deployments", "target/deployments"));
    static final Probe PROBE = new Probe(Integer.getInteger("it.http.port", 18181));
    static final long RETRY_DELAY_MS = 2_000; // IT.FLAKY_Q and IT.RBONLY_Q: retry_delay=2
    static final int MAX_RETRIES = 2;

    @Deployment(name = "booksonline", testable = false, order = 1)
    static EnterpriseArchive booksOnLine() { // also the benchmark's deployment
        EnterpriseArchive ear = ShrinkWrap.createFromZipFile(EnterpriseArchive.class,
                DEPLOYMENTS.resolve("aqueduct-booksonline.ear").toFile());
        ear.addAsModule(ShrinkWrap.createFromZipFile(WebArchive.class, DEPLOYMENTS.resolve("aqueduct-probe.war").toFile()));
        // the EAR lists its modules in application.xml (beside its resource definitions): the probe joins the list
        try (var in = ear.get("META-INF/application.xml").getAsset().openStream()) {
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            ear.setApplicationXML(new StringAsset(xml.replaceFirst("<module>",
                    "<module><web><web-uri>aqueduct-probe.war</web-uri><context-root>aqueduct-probe</context-root></web></module>\n  <module>")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ear;
    }

    // ------------------------------------------------------------------ outbound: EJB enqueue + JDBC row

    @Test
    @Order(1)
    void committedBookingIsStoredAndShipped() {
        Map<String, String> r = PROBE.call("book", "id", "o-commit-1", "shipping", "FEDEX", "region", "WESTERN");
        assertThat(r.get("msgid")).isNotBlank();
        assertThat(PROBE.call("order", "id", "o-commit-1")).containsEntry("booked", "true");
        Probe.await("the Shipping MDB to ship o-commit-1", Duration.ofSeconds(30),
                () -> "true".equals(PROBE.call("order", "id", "o-commit-1").get("shipped")));
    }

    @Test
    @Order(2)
    void rolledBackBookingLeavesNeitherRowNorMessage() {
        Map<String, String> r = PROBE.call("book", "id", "o-rollback-1", "shipping", "GROUND", "region", "EASTERN",
                "rollback", "true");
        String msgid = r.get("msgid");
        assertThat(msgid).isNotBlank();
        // a booking committed after the rolled-back one is shipped: the queue is flowing
        PROBE.call("book", "id", "o-commit-2", "shipping", "GROUND", "region", "EASTERN");
        Probe.await("the Shipping MDB to ship o-commit-2", Duration.ofSeconds(30),
                () -> "true".equals(PROBE.call("order", "id", "o-commit-2").get("shipped")));
        Probe.stays("o-rollback-1 neither booked nor shipped", Duration.ofSeconds(1), () -> {
            Map<String, String> order = PROBE.call("order", "id", "o-rollback-1");
            return "false".equals(order.get("booked")) && "false".equals(order.get("shipped"));
        });
        assertThat(PROBE.call("order", "id", "o-rollback-1")).containsEntry("booked", "false").containsEntry("shipped", "false");
        // nothing left for the Shipping MDB: the rolled-back booking never reached the shipping queue
        assertThat(PROBE.call("dequeue", "queue", "SHIP.SHIP_BOOKEDORDERS_QUE")).containsKey("none");
    }

    @Test
    @Order(3)
    void enqueueInRolledBackTransactionIsNeverDelivered() {
        String rolledBack = PROBE.call("enqueue", "queue", "IT.DELAY_Q", "text", "rolled back", "rollback", "true").get("ids");
        String committed = PROBE.call("enqueue", "queue", "IT.DELAY_Q", "text", "committed").get("ids");
        Probe.await("delivery of the committed message", Duration.ofSeconds(30),
                () -> !"-1".equals(PROBE.call("received", "id", committed).get("receivedAt")));
        Probe.stays("the rolled-back message never delivered", Duration.ofSeconds(1),
                () -> "-1".equals(PROBE.call("received", "id", rolledBack).get("receivedAt")));
        assertThat(PROBE.call("received", "id", rolledBack)).containsEntry("receivedAt", "-1");
        assertThat(PROBE.call("dequeue", "queue", "IT.DELAY_Q", "id", rolledBack)).containsKey("none");
    }

    // ------------------------------------------------------------------ inbound: retries and the exception queue

    @Test
    @Order(10)
    void throwingMdbIsRetriedAfterTheRetryDelayThenExceptionQueued() {
        retriesThenExceptionQueue("IT.FLAKY_Q");
    }

    @Test
    @Order(11)
    void rollbackOnlyMdbIsRetriedAfterTheRetryDelayThenExceptionQueued() {
        retriesThenExceptionQueue("IT.RBONLY_Q");
    }

    private void retriesThenExceptionQueue(String queue) {
        String twice = PROBE.call("enqueue", "queue", queue, "text", "fail=2", "exceptionQueue", "IT.IT_EXCEPTIONS").get("ids");
        String always = PROBE.call("enqueue", "queue", queue, "text", "fail=always", "exceptionQueue", "IT.IT_EXCEPTIONS")
                .get("ids");

        // fails twice, then succeeds on the third attempt, each retry after the retry delay
        Probe.await("three attempts of " + twice, Duration.ofSeconds(30), () -> attempts(twice).size() >= 3);
        List<Long> t = attempts(twice);
        assertThat(t).hasSize(3);
        assertThat(t.get(1) - t.get(0)).as("gap between attempts 1 and 2 (ms)").isGreaterThanOrEqualTo(RETRY_DELAY_MS);
        assertThat(t.get(2) - t.get(1)).as("gap between attempts 2 and 3 (ms)").isGreaterThanOrEqualTo(RETRY_DELAY_MS);

        // fails every time: max_retries + 1 attempts, then the exception queue
        Probe.await(always + " in the exception queue", Duration.ofSeconds(30),
                () -> attempts(always).size() >= MAX_RETRIES + 1);
        Probe.stays("no attempt of " + always + " after the last retry", Duration.ofMillis(RETRY_DELAY_MS + 1_000),
                () -> attempts(always).size() == MAX_RETRIES + 1);
        List<Long> a = attempts(always);
        assertThat(a).as("attempts of a message that always fails").hasSize(MAX_RETRIES + 1);
        for (int i = 1; i < a.size(); i++) {
            assertThat(a.get(i) - a.get(i - 1)).as("gap before attempt " + (i + 1)).isGreaterThanOrEqualTo(RETRY_DELAY_MS);
        }
        Map<String, String> moved = PROBE.call("dequeue", "queue", "IT.IT_EXCEPTIONS", "id", always);
        assertThat(moved.get("message")).as("the message in the exception queue").startsWith("fail=always");
        assertThat(PROBE.call("dequeue", "queue", queue, "id", always)).containsKey("none");
    }

    private static List<Long> attempts(String msgid) {
        String v = PROBE.call("attempts", "id", msgid).get("attempts");
        List<Long> out = new ArrayList<>();
        if (v != null && !v.isBlank()) {
            for (String s : v.split(",")) {
                out.add(Long.parseLong(s));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ concurrency and time

    @Test
    @Order(20)
    void fourSessionsDrainTwoThousandMessagesExactlyOnce() {
        PROBE.call("reset", "queue", "IT.DRAIN_Q");
        for (int i = 0; i < 4; i++) {
            assertThat(PROBE.call("enqueue", "queue", "IT.DRAIN_Q", "count", "500", "text", "drain"))
                    .containsEntry("count", "500");
        }
        Probe.await("2,000 deliveries", Duration.ofSeconds(180),
                () -> deliveries("IT.DRAIN_Q") >= 2000);
        Probe.stays("no delivery beyond the 2,000", Duration.ofSeconds(1), () -> deliveries("IT.DRAIN_Q") == 2000);
        Map<String, String> d = PROBE.call("deliveries", "queue", "IT.DRAIN_Q");
        assertThat(d).containsEntry("messages", "2000").containsEntry("deliveries", "2000").containsEntry("duplicates", "0");
        assertThat(Integer.parseInt(d.get("maxInFlight"))).as("deliveries in progress at once").isGreaterThan(1);
    }

    @Test
    @Order(21)
    void delayedMessageArrivesAfterItsDelayNotBefore() {
        Map<String, String> r = PROBE.call("enqueue", "queue", "IT.DELAY_Q", "text", "later", "delay", "3");
        String id = r.get("ids");
        long enqueuedAt = Long.parseLong(r.get("enqueuedAt"));
        Probe.stays("the delayed message not delivered in the first 1.5 s of its 3 s delay", Duration.ofMillis(1_500),
                () -> "-1".equals(PROBE.call("received", "id", id).get("receivedAt")));
        Probe.await("the delayed message", Duration.ofSeconds(30),
                () -> !"-1".equals(PROBE.call("received", "id", id).get("receivedAt")));
        long receivedAt = Long.parseLong(PROBE.call("received", "id", id).get("receivedAt"));
        assertThat(receivedAt - enqueuedAt).as("ms from enqueue to delivery").isGreaterThanOrEqualTo(3_000);
    }

    // ------------------------------------------------------------------ multi-consumer queue: MDBs as named subscribers

    static final String WEST = "IT.SHIP_Q/WEST_SHIPPING";
    static final String EAST = "IT.SHIP_Q/EAST_SHIPPING";
    static final String OVERSEAS = "IT.SHIP_Q/OVERSEAS_SHIPPING";

    /**
     * IT.SHIP_Q has two subscribers (queue definitions in pom.xml): WEST_SHIPPING with the rule
     * {@code corrid IN ('WESTERN', 'INTERNATIONAL')} and EAST_SHIPPING with {@code corrid IN ('EASTERN',
     * 'INTERNATIONAL')}; the probe's ShippingMdbs consume as each.
     */
    @Test
    @Order(30)
    void mdbsAsNamedSubscribersReceiveWhatTheirRulesSelectExactlyOnce() {
        PROBE.call("reset", "queue", WEST);
        PROBE.call("reset", "queue", EAST);
        PROBE.call("reset", "queue", OVERSEAS);
        List<String> western = enqueueShip("WESTERN", 3, false, null);
        List<String> eastern = enqueueShip("EASTERN", 2, false, null);
        List<String> international = enqueueShip("INTERNATIONAL", 2, false, null);
        List<String> rolledBack = enqueueShip("INTERNATIONAL", 1, true, null);
        // a recipient list overrides the rules: WESTERN, yet to EAST_SHIPPING only
        List<String> toEastOnly = enqueueShip("WESTERN", 1, false, "EAST_SHIPPING");

        TreeSet<String> westExpected = new TreeSet<>(western);
        westExpected.addAll(international);
        TreeSet<String> eastExpected = new TreeSet<>(eastern);
        eastExpected.addAll(international);
        eastExpected.addAll(toEastOnly);
        Probe.await("5 deliveries to each subscriber's MDB", Duration.ofSeconds(30),
                () -> delivered(WEST).size() >= westExpected.size() && delivered(EAST).size() >= eastExpected.size()
                        && delivered(OVERSEAS).size() >= international.size());
        // anything extra (a duplicate, a message for the other subscriber) would show within 1.5 s
        Probe.stays("no delivery beyond the expected ones", Duration.ofMillis(1_500),
                () -> deliveries(WEST) == westExpected.size() && deliveries(EAST) == eastExpected.size()
                        && deliveries(OVERSEAS) == international.size());

        for (String[] c : new String[][] {{WEST, "5"}, {EAST, "5"}}) {
            assertThat(PROBE.call("deliveries", "queue", c[0])).as(c[0])
                    .containsEntry("messages", c[1]).containsEntry("deliveries", c[1]).containsEntry("duplicates", "0");
        }
        assertThat(delivered(WEST)).as("what WEST_SHIPPING received").isEqualTo(westExpected);
        assertThat(delivered(EAST)).as("what EAST_SHIPPING received").isEqualTo(eastExpected);
        assertThat(delivered(WEST)).doesNotContainAnyElementsOf(rolledBack).doesNotContainAnyElementsOf(toEastOnly);
        assertThat(delivered(EAST)).doesNotContainAnyElementsOf(rolledBack);
        // OVERSEAS_SHIPPING is subscribed to WESTERN too, but its MDB's condition takes INTERNATIONAL only
        assertThat(delivered(OVERSEAS)).as("what the OVERSEAS_SHIPPING MDB with a condition received")
                .isEqualTo(new TreeSet<>(international));

        // no subscriber's rule selects it and no recipient list: refused at enqueue (AQ-24033), nothing delivered
        assertThatThrownBy(() -> enqueueShip("NORTHERN", 1, false, null)).hasMessageContaining("No recipients");
    }

    /**
     * Propagation declared in the adapter's queue definitions (pom.xml): IT.PROP_SRC's remote
     * subscriber FORWARD has the address IT.PROP_DST (same store), and IT.PROP_SRC has a schedule
     * with latency 0. An EJB enqueues into the source in its container transaction; the propagation
     * loop (a Work of the adapter) moves the message; the probe's PropagatedMdb receives it from
     * IT.PROP_DST with ORIGINAL_MSGID = the source message's id. A rolled-back enqueue goes nowhere.
     */
    @Test
    @Order(40)
    void aDeclaredScheduleCarriesWhatAnEjbEnqueuedToTheMdbOfTheDestinationQueue() {
        String key = "IT.PROP_DST";
        PROBE.call("reset", "queue", key);
        List<String> sent = enqueue("IT.PROP_SRC", 2, "propagated", false);
        List<String> rolledBack = enqueue("IT.PROP_SRC", 1, "rolled back", true);

        Probe.await("the destination queue's MDB to receive both propagated messages", Duration.ofSeconds(30),
                () -> sent.stream().noneMatch(id -> "none".equals(PROBE.call("propagated", "id", id).get("delivered"))));
        Probe.stays("no delivery beyond the two", Duration.ofMillis(1_500), () -> deliveries(key) == 2);

        TreeSet<String> deliveredIds = new TreeSet<>();
        for (String id : sent) {
            String delivered = PROBE.call("propagated", "id", id).get("delivered");
            assertThat(delivered).as("the message delivered for source message " + id).isNotEqualTo(id);
            deliveredIds.add(delivered);
        }
        assertThat(delivered(key)).as("what the MDB received: the propagated copies, ORIGINAL_MSGID = the source ids")
                .isEqualTo(deliveredIds);
        assertThat(PROBE.call("propagated", "id", rolledBack.get(0))).containsEntry("delivered", "none");
    }

    /** Enqueues {@code count} texts into {@code queue} in one container transaction of the probe's EJB; their ids. */
    private static List<String> enqueue(String queue, int count, String text, boolean rollback) {
        Map<String, String> r = PROBE.call("enqueue", "queue", queue, "count", String.valueOf(count), "text", text,
                "rollback", String.valueOf(rollback));
        assertThat(r).containsEntry("count", String.valueOf(count));
        return Arrays.asList(r.get("ids").split(","));
    }

    private static List<String> enqueueShip(String correlation, int count, boolean rollback, String recipients) {
        List<String> kv = new ArrayList<>(List.of("queue", "IT.SHIP_Q", "count", String.valueOf(count), "text",
                correlation.toLowerCase(java.util.Locale.ROOT), "correlation", correlation, "rollback", String.valueOf(rollback)));
        if (recipients != null) {
            kv.addAll(List.of("recipients", recipients));
        }
        Map<String, String> r = PROBE.call("enqueue", kv.toArray(String[]::new));
        assertThat(r).containsEntry("count", String.valueOf(count));
        return Arrays.asList(r.get("ids").split(","));
    }

    /** Deliveries the probe's MDBs recorded for {@code key} (a queue, or queue/subscriber), duplicates included. */
    private static int deliveries(String key) {
        return Integer.parseInt(PROBE.call("deliveries", "queue", key).get("deliveries"));
    }

    private static TreeSet<String> delivered(String key) {
        String ids = PROBE.call("deliveries", "queue", key, "ids", "true").get("ids");
        TreeSet<String> out = new TreeSet<>();
        if (ids != null && !ids.isBlank()) {
            out.addAll(Arrays.asList(ids.split(",")));
        }
        return out;
    }
}
