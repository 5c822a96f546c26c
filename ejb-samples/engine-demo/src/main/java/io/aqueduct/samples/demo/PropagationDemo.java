package io.aqueduct.samples.demo;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import jakarta.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The BooksOnLine propagation of Oracle's AQ guide on Aqueduct: orders booked into
 * OE_BOOKEDORDERS_QUE reach the shipping sites' queues by rule-based remote subscribers and two
 * propagation schedules — WS_BOOKEDORDERS_QUE (West) and ES_BOOKEDORDERS_QUE (East) in the same
 * store, TS_BOOKEDORDERS_QUE (Overseas) in a second Derby store reached through the database link
 * OVERSEAS, transformed to XML on the way. Then "Exception Handling During Propagation": the East
 * queue stopped for enqueue, the schedule failing with 25207 and retrying once it is started.
 * Both stores are durable Derby directories, deleted at the start of each run.
 */
public final class PropagationDemo {
    static final String OE_Q = "OE.OE_bookedorders_que";
    static final String WS_Q = "WS.WS_bookedorders_que";
    static final String ES_Q = "ES.ES_bookedorders_que";
    static final String TS_Q = "TS.TS_bookedorders_que";
    /** The reference's rules (RuleBasedRoutingTest.WEST_RULE, EAST_RULE, OVERSEAS_RULE). */
    static final String WEST_RULE = "tab.user_data.orderregion = 'WESTERN' AND tab.user_data.ordertype != 'RUSH'";
    static final String EAST_RULE = "tab.user_data.orderregion = 'EASTERN' OR"
            + " (tab.user_data.ordertype = 'RUSH' AND tab.user_data.customer.country = 'USA')";
    static final String OVERSEAS_RULE = "tab.user_data.orderregion = 'INTERNATIONAL'";
    /** How long the demo waits for something the engine does in the background (real time). */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private PropagationDemo() {
    }

    public static void main(String[] args) throws Exception {
        run(Path.of(args.length > 0 ? args[0] : "target/demo-propagation"));
    }

    /** Runs the demo with its two stores in {@code base}/oe and {@code base}/ts. */
    static void run(Path base) throws Exception {
        Path oeStore = base.resolve("oe");
        Path tsStore = base.resolve("ts");
        deleteRecursively(base);
        ManualClock clock = new ManualClock();
        say("Two Derby stores: order entry (OE, WS, ES) in " + oeStore.toAbsolutePath());
        say("                  overseas shipping (TS) in " + tsStore.toAbsolutePath());
        // The overseas store is opened first, by this program: a database link to a store this JVM has
        // open uses that engine (a Derby directory can be open in one JVM only).
        try (AqueductEngine overseas = AqueductEngine.builder().derbyDirectory(tsStore).clock(clock).user("TSADM").start();
                AqueductEngine engine = AqueductEngine.builder().derbyDirectory(oeStore).clock(clock).user("BOLADM").start();
                QueueSession session = engine.openSession();
                QueueSession tsSession = overseas.openSession()) {
            QueueAdmin admin = session.admin();

            say("\n== The shipping sites' queues (multi-consumer; the overseas site reads XML)");
            jsonQueue(admin, "WS.WS_orders_mqtab", WS_Q);
            jsonQueue(admin, "ES.ES_orders_mqtab", ES_Q);
            QueueAdmin tsAdmin = overseas.admin();
            tsAdmin.createQueueTable("TS.TS_orders_mqtab", QueueTableProperties.create().payloadType(PayloadType.XML)
                    .multipleConsumers(true));
            tsAdmin.createQueue(TS_Q, "TS.TS_orders_mqtab", QueueProperties.create());
            tsAdmin.startQueue(TS_Q, true, true);
            say("  " + WS_Q + ", " + ES_Q + " (JSON) here; " + TS_Q + " (XML) in the overseas store");

            say("\n== Order entry: OE_bookedorders_que, its remote subscribers and their schedules");
            jsonQueue(admin, "OE.OE_orders_mqtab", OE_Q);
            admin.createTransformation("OE.OE2XML", "JSON", "XML", OrderToXml.class.getName());
            admin.createDatabaseLink("OVERSEAS", tsStore.toAbsolutePath().toString(), null, null);
            say("  database link OVERSEAS -> " + admin.databaseLinks().get(0).url());
            admin.addSubscriber(OE_Q, new Agent("West_Shipping", WS_Q, 0), WEST_RULE);
            admin.addSubscriber(OE_Q, new Agent("East_Shipping", ES_Q, 0), EAST_RULE);
            admin.addSubscriber(OE_Q, new Agent("Overseas_Shipping", TS_Q + "@OVERSEAS", 0), OVERSEAS_RULE, "OE.OE2XML");
            admin.subscribers(OE_Q).forEach(s -> say("  subscriber " + s));
            admin.schedulePropagation(OE_Q, null, null, null, null, 0); // this store's queues (AQ$_LOCAL)
            admin.schedulePropagation(OE_Q, "OVERSEAS", null, null, null, 0);
            say("  schedules: " + OE_Q + " -> AQ$_LOCAL and -> OVERSEAS, from now on, no window end, latency 0"
                    + " (propagated as soon as the booking commits)");

            say("\n== Booking six orders (one transaction)");
            Object[][] orders = {
                {1001, "WESTERN", "NORMAL", "USA", "My First   Book"}, {1002, "EASTERN", "NORMAL", "USA", "My Second  Book"},
                {1003, "INTERNATIONAL", "NORMAL", "Canada", "My Third   Book"}, {1004, "WESTERN", "RUSH", "USA", "My Fourth  Book"},
                {1005, "EASTERN", "RUSH", "USA", "My Fifth   Book"}, {1006, "INTERNATIONAL", "NORMAL", "UK", "My Sixth   Book"},
            };
            for (Object[] o : orders) {
                var id = session.enqueue(OE_Q, Message.of(order((Integer) o[0], (String) o[1], (String) o[2], (String) o[3],
                        (String) o[4])));
                say("  booked order " + o[0] + " " + o[1] + " " + o[2] + " " + o[3] + " as " + id);
            }
            session.commit();
            say("  committed. West takes western non-rush orders; East eastern orders and U.S. rush orders;"
                    + " Overseas international ones");

            say("\n== What reached each shipping site (each message's ORIGINAL_MSGID is the booked order's msgid)");
            show("West (" + WS_Q + ")", take(session, WS_Q, "West_Shipping", 1));
            show("East (" + ES_Q + ")", take(session, ES_Q, "East_Shipping", 3));
            show("Overseas (" + TS_Q + "@OVERSEAS, transformed by OE.OE2XML)", take(tsSession, TS_Q, "Overseas_Shipping", 2));

            say("\n== Exception handling during propagation: the East queue is stopped for enqueue");
            admin.stopQueue(ES_Q, true, false, false);
            session.enqueue(OE_Q, Message.of(order(1007, "EASTERN", "NORMAL", "USA", "My Seventh Book")));
            session.commit();
            say("  booked eastern order 1007; propagating it to " + ES_Q + " fails (the engine logs a WARNING):");
            await("the schedule's failure", () -> admin.propagationSchedule(OE_Q, null).failures() > 0);
            PropagationSchedule failed = admin.propagationSchedule(OE_Q, null);
            say("  FAILURES=" + failed.failures() + " LAST_ERROR_TIME=" + failed.lastErrorTime());
            say("  LAST_ERROR_MSG=" + failed.lastErrorMessage());
            say("  NEXT_RUN=" + failed.nextRun() + " (AQ's first retry: 30 s after the failure, then 60 s, 120 s, ...;"
                    + " the 16th failure in a row disables the schedule)");
            admin.startQueue(ES_Q, true, true);
            say("  the administrator starts " + ES_Q + " again. The demo's clock (a manual one) now moves the 30 s on,"
                    + " so the retry happens at once; with a real clock, disablePropagationSchedule +"
                    + " enablePropagationSchedule retries at once too");
            clock.advance(Duration.ofSeconds(30));
            show("East (" + ES_Q + ")", take(session, ES_Q, "East_Shipping", 1));
            await("the error to clear", () -> admin.propagationSchedule(OE_Q, null).lastErrorMessage() == null);
            PropagationSchedule recovered = admin.propagationSchedule(OE_Q, null);
            say("  after the retry: FAILURES=" + recovered.failures() + " LAST_ERROR_MSG=" + recovered.lastErrorMessage());

            say("\n== DBA_QUEUE_SCHEDULES (admin.propagationSchedules())");
            say(String.format("  %-22s %-12s %-7s %-8s %-12s %-10s %-8s %-8s %-21s %s", "QNAME", "DESTINATION", "LATENCY",
                    "DISABLED", "TOTAL_NUMBER", "TOTAL_BYTES", "AVG_SIZE", "FAILURES", "LAST_RUN", "PROCESS_NAME"));
            for (PropagationSchedule s : admin.propagationSchedules()) {
                say(String.format("  %-22s %-12s %-7d %-8s %-12d %-10d %-8.0f %-8d %-21s %s", s.qualifiedQueue(), s.destination(),
                        s.latencySeconds(), s.disabled() ? "Y" : "N", s.totalNumber(), s.totalBytes(), s.averageSize(), s.failures(),
                        s.lastRun(), s.processName()));
            }
            say("  (the demo's clock moved only when the demo moved it: LAST_RUN and the times are on that clock)");
        }
        say("\nDone. The two stores stay in " + base.toAbsolutePath() + " until the next run.");
    }

    private static void jsonQueue(QueueAdmin admin, String table, String queue) {
        admin.createQueueTable(table, QueueTableProperties.create().payloadType(PayloadType.JSON).sortOrder(SortOrder.ENQ_TIME)
                .multipleConsumers(true));
        admin.createQueue(queue, table, QueueProperties.create());
        admin.startQueue(queue, true, true);
    }

    /** An order as the reference's order_typ, in JSON (JSON-P writes it: the values stay data). */
    private static String order(int orderno, String region, String type, String country, String title) {
        return Json.createObjectBuilder()
                .add("orderno", orderno).add("status", "BOOKED").add("ordertype", type).add("orderregion", region)
                .add("customer", Json.createObjectBuilder().add("custno", orderno).add("name", "Customer " + orderno)
                        .add("country", country))
                .add("paymentmethod", "CREDIT")
                .add("items", Json.createArrayBuilder().add(Json.createObjectBuilder().add("title", title).add("quantity", 1)))
                .build().toString();
    }

    /**
     * Dequeues {@code count} messages for {@code consumer}, each in its own transaction, waiting for
     * them in real time (the demo's clock is a manual one, so a dequeue's own wait would never end).
     */
    private static List<Message> take(QueueSession s, String queue, String consumer, int count) throws InterruptedException {
        DequeueOptions options = DequeueOptions.create().consumerName(consumer).waitSeconds(DequeueOptions.NO_WAIT);
        List<Message> out = new ArrayList<>();
        Instant deadline = Instant.now().plus(PATIENCE);
        while (out.size() < count) {
            try {
                out.add(s.dequeue(queue, options));
                s.commit();
            } catch (AqException e) {
                if (e.errorCode() != AqError.NO_MESSAGE) {
                    throw e;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(consumer + " got " + out.size() + " of " + count + " messages on " + queue
                            + " within " + PATIENCE.toSeconds() + " s");
                }
                Thread.sleep(50);
            }
        }
        return out;
    }

    private static void show(String site, List<Message> messages) {
        say("  " + site + ":");
        for (Message m : messages) {
            say("    " + m.text());
            say("      ORIGINAL_MSGID " + m.properties().originalMessageId());
        }
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (!done.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("waited " + PATIENCE.toSeconds() + " s for " + what);
            }
            Thread.sleep(50);
        }
    }

    private static void say(String line) {
        System.out.println(line);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
