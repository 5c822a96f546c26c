package io.aqueduct.samples.demo;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The BooksOnLine order flow of Oracle's AQ guide on Aqueduct: orders enqueued with shipping
 * priorities, RUSH orders taken first by correlation, a deferred-billing message delayed 15 days,
 * and the queue table seen through its AQ$ view. Runs on a durable embedded Derby store; the
 * demo's clock is a manual one, so the 15 days pass in a moment. Then {@link PropagationDemo}: the
 * booked orders propagated to the shipping sites, one of them in a second store.
 */
public final class BooksOnLineDemo {
    private static final DequeueOptions NO_WAIT = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);

    private BooksOnLineDemo() {
    }

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args.length > 0 ? args[0] : "target/demo-store");
        deleteRecursively(store);
        ManualClock clock = new ManualClock();
        say("Starting Aqueduct on embedded Derby in " + store.toAbsolutePath() + " (demo clock at " + clock.now() + ")");
        try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(store).clock(clock).user("BOLADM").start();
                QueueSession session = engine.openSession()) {
            QueueAdmin admin = session.admin();

            say("\n== Order entry: a priority queue of booked orders (sort order priority,enq_time)");
            admin.createQueueTable("OE.OE_orders_pr_qtab", QueueTableProperties.create().payloadType(PayloadType.JSON)
                    .sortOrder(SortOrder.PRIORITY_ENQ_TIME).comment("Order Entry priority orders"));
            admin.createQueue("OE.OE_bookedorders_que", "OE.OE_orders_pr_qtab", QueueProperties.create());
            admin.startQueue("OE.OE_bookedorders_que", true, true);
            Object[][] orders = {
                {1001, "Ground", 3, "NORMAL"}, {1002, "FedEx", 1, "RUSH"}, {1003, "Air", 2, "NORMAL"},
                {1004, "Ground", 3, "RUSH"}, {1005, "FedEx", 1, "NORMAL"}, {1006, "Air", 2, "RUSH"},
            };
            for (Object[] o : orders) {
                // JSON-P writes the text: whatever the values hold, they stay data
                String json = Json.createObjectBuilder()
                        .add("orderno", (Integer) o[0])
                        .add("shipping", (String) o[1])
                        .add("ordertype", (String) o[3])
                        .build().toString();
                var id = session.enqueue("OE.OE_bookedorders_que",
                        Message.of(json, MessageProperties.create().priority((Integer) o[2]).correlation((String) o[3])));
                say("  enqueued order " + o[0] + " shipping " + o[1] + " (priority " + o[2] + ", correlation " + o[3] + ") as " + id);
            }
            session.commit();
            say("  committed: the six orders are visible to the shipping application now");

            say("\n== Shipping: RUSH orders first, by correlation");
            DequeueOptions rush = DequeueOptions.create().correlation("RUSH").waitSeconds(DequeueOptions.NO_WAIT)
                    .navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE);
            while (true) {
                try {
                    Message m = session.dequeue("OE.OE_bookedorders_que", rush);
                    say("  RUSH    priority " + m.properties().priority() + ": " + m.text());
                } catch (AqException e) {
                    if (e.errorCode() != AqError.NO_MESSAGE) {
                        throw e;
                    }
                    say("  no more RUSH orders (AQ " + e.errorCode() + ")");
                    break;
                }
            }
            say("== Shipping: the other orders in shipping-priority order (FedEx 1, air 2, ground 3)");
            DequeueOptions rest = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
                    .navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE);
            while (true) {
                try {
                    Message m = session.dequeue("OE.OE_bookedorders_que", rest);
                    say("  " + m.properties().correlation() + "  priority " + m.properties().priority() + ": " + m.text());
                } catch (AqException e) {
                    if (e.errorCode() != AqError.NO_MESSAGE) {
                        throw e;
                    }
                    break;
                }
            }
            session.commit();

            say("\n== Billing: corporate customers are billed 15 days after shipping");
            admin.createQueueTable("CB.CB_billing_qtab", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            admin.createQueue("CB.deferbilling_que", "CB.CB_billing_qtab", QueueProperties.create().retention(QueueProperties.INFINITE));
            admin.startQueue("CB.deferbilling_que", true, true);
            var billId = session.enqueue("CB.deferbilling_que",
                    Message.of("bill order 1002 to ACME Corp.", MessageProperties.create().delay(Duration.ofDays(15).toSeconds())));
            session.commit();
            say("  enqueued " + billId + " with a delay of 15 days");
            printView(store, "CB", "CB_BILLING_QTAB");
            try {
                session.dequeue("CB.deferbilling_que", NO_WAIT);
            } catch (AqException e) {
                say("  dequeue now: AQ " + e.errorCode() + " - the message is WAITING until its delay ends");
            }
            clock.advance(Duration.ofDays(15));
            say("  ... the demo clock moves 15 days on, to " + clock.now() + "; the time manager makes the message READY");
            Message bill = session.dequeue("CB.deferbilling_que", DequeueOptions.create().waitSeconds(5));
            session.commit();
            say("  dequeued: " + bill.text() + " (enqueued " + bill.properties().enqueueTime() + ")");
            say("  the queue keeps processed messages (retention INFINITE), so the AQ$ view still shows it:");
            printView(store, "CB", "CB_BILLING_QTAB");
        }
        say("\nDone. The store stays in " + store.toAbsolutePath() + " until the next run.");

        say("\n\n=========== Part 2: propagation (PropagationDemo) ===========");
        PropagationDemo.run(store.resolveSibling(store.getFileName() + "-propagation"));
    }

    private static void printView(Path store, String schema, String table) throws SQLException {
        // an administrator's view of the queue table, with plain SQL (the engine is still running in this JVM)
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + store.toAbsolutePath());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT QUEUE, MSG_ID, MSG_STATE, DELAY, ENQ_USER_ID, DEQ_TIME FROM \""
                        + schema + "\".\"AQ$" + table + "\"")) {
            say("    SELECT QUEUE, MSG_ID, MSG_STATE, DELAY, ENQ_USER_ID, DEQ_TIME FROM " + schema + ".\"AQ$" + table + "\"");
            while (rs.next()) {
                say(String.format("    %-18s %s %-9s %-21s %-7s %s", rs.getString(1), rs.getString(2).trim(), rs.getString(3),
                        rs.getTimestamp(4), rs.getString(5), rs.getTimestamp(6)));
            }
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
