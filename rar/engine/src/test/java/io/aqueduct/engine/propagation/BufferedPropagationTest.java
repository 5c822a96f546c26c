package io.aqueduct.engine.propagation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import io.aqueduct.engine.transformation.ShoutingText;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Propagation of buffered messages (docs/buffered.md, docs/propagation.md): a schedule moves the
 * buffered messages its source queue holds in memory for remote consumers — to a queue of the same
 * store, of another store of this JVM, or of another server over HTTP — and they arrive BUFFERED, with
 * their properties, the delay and expiration left, transformed, in the queue's order. Faults: a way
 * that is blocked (the servlet unreachable, the destination's buffered memory full) leaves them in the
 * source's memory, bounded by its limit, until the schedule's retry; an answer lost after the
 * destination enqueued them delivers nothing twice (the destination's in-memory receipts). Buffered
 * messages never touch the store: Derby only (the stores' own part, the schedule's row, is the same as
 * for persistent propagation, proven on every store by PropagationTest).
 */
class BufferedPropagationTest {
    private static final AtomicInteger STORES = new AtomicInteger();
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    private final ManualClock clock = new ManualClock();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final Map<AqueductEngine, String> stores = new java.util.HashMap<>();
    private AqueductEngine source;
    private AqueductEngine destination;
    private HttpServer servlet;
    /** Set: the next buffered delivery is done there, but its answer is lost on the way back. */
    private final AtomicBoolean loseNextAnswer = new AtomicBoolean();

    @AfterEach
    void closeAll() throws Exception {
        if (servlet != null) {
            servlet.stop(0);
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private AqueductEngine engine(String name, long maxBufferedBytes) {
        String store = name + STORES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        AqueductEngine e = AqueductEngine.builder().clock(clock).user("OE").timeManager(false).maxBufferedBytes(maxBufferedBytes)
                .bufferedEnqueueWaitMillis(0).derbyInMemory(store).start();
        open.add(e);
        stores.put(e, store);
        return e;
    }

    /** The source: OE.ORDERS_Q, multi-consumer, priority order, with a local subscriber that keeps its own copy. */
    private void source(long maxBufferedBytes) {
        source = engine("bsrc", maxBufferedBytes);
        QueueAdmin admin = source.admin();
        admin.createQueueTable("OE.ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue("OE.ORDERS_Q", "OE.ORDERS_QT", QueueProperties.create());
        admin.startQueue("OE.ORDERS_Q", true, true);
        admin.addSubscriber("OE.ORDERS_Q", Agent.named("AUDIT"), null);
    }

    private static void queue(AqueductEngine e, String table, String queue, boolean multi) {
        QueueAdmin admin = e.admin();
        admin.createQueueTable(table, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(multi));
        admin.createQueue(queue, table, QueueProperties.create());
        admin.startQueue(queue, true, true);
    }

    private MessageId enqueue(String text, MessageProperties p) {
        try (QueueSession s = source.openSession()) {
            return s.enqueue("OE.ORDERS_Q", BUFFERED, Message.of(text, p));
        }
    }

    private static List<Message> drain(AqueductEngine e, String queue, DequeueOptions options) {
        List<Message> out = new ArrayList<>();
        try (QueueSession s = e.openSession()) {
            while (true) {
                try {
                    out.add(s.dequeue(queue, options.waitSeconds(DequeueOptions.NO_WAIT)));
                } catch (AqException x) {
                    assertThat(x.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                    s.commit();
                    return out;
                }
            }
        }
    }

    private static DequeueOptions buffered() {
        return DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE);
    }

    private static BufferedQueueInfo memory(AqueductEngine e, String queue) {
        return e.admin().bufferedQueues().stream().filter(b -> (b.owner() + "." + b.name()).equals(queue)).findFirst()
                .orElseThrow();
    }

    private PropagationSchedule schedule(String destination) {
        return source.admin().propagationSchedule("OE.ORDERS_Q", destination);
    }

    // ------------------------------------------------------------------ what arrives, and how

    @Test
    void buffered_messages_arrive_buffered_in_a_queue_of_the_same_store_with_their_properties_order_delay_and_expiration() {
        source(1 << 20);
        queue(source, "WS.SHIP_QT", "WS.SHIP_Q", false);
        source.admin().addSubscriber("OE.ORDERS_Q", new Agent(null, "WS.SHIP_Q", 0), "corrid = 'WEST'");
        source.admin().schedulePropagation("OE.ORDERS_Q", null, null, null, null, 0);

        MessageId low = enqueue("low", MessageProperties.create().correlation("WEST").priority(5).userProperty("items", 3)
                .expiration(3600));
        enqueue("high", MessageProperties.create().correlation("WEST").priority(1));
        enqueue("east", MessageProperties.create().correlation("EAST")); // the remote subscriber's rule is false
        enqueue("later", MessageProperties.create().correlation("WEST").priority(0).delay(120));
        clock.advance(Duration.ofSeconds(60));

        source.propagator().runDue();

        assertThat(drain(source, "WS.SHIP_Q", DequeueOptions.create())).as("nothing persistent arrived").isEmpty();
        List<Message> arrived = drain(source, "WS.SHIP_Q", buffered());
        assertThat(arrived).extracting(Message::text).containsExactly("high", "low"); // "later" is still delayed
        Message m = arrived.get(1);
        assertThat(m.properties().deliveryMode()).isEqualTo(DeliveryMode.BUFFERED);
        assertThat(m.properties().correlation()).isEqualTo("WEST");
        assertThat(m.properties().priority()).isEqualTo(5);
        assertThat(m.properties().userProperties()).containsEntry("items", 3);
        assertThat(m.properties().expiration()).as("the hour less the minute at the source").isEqualTo(3540);
        assertThat(m.properties().originalMessageId()).isEqualTo(low);

        clock.advance(Duration.ofSeconds(59));
        assertThat(drain(source, "WS.SHIP_Q", buffered())).as("the delay left: 60 s").isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(drain(source, "WS.SHIP_Q", buffered())).extracting(Message::text).containsExactly("later");

        BufferedQueueInfo orders = memory(source, "OE.ORDERS_Q");
        assertThat(orders.subscriberMessages()).containsEntry("AUDIT", 4L).containsEntry("at WS.SHIP_Q", 0L);
        assertThat(drain(source, "OE.ORDERS_Q", buffered().consumerName("AUDIT"))).hasSize(4);
        assertThat(memory(source, "OE.ORDERS_Q").bytes()).as("gone from memory with its last part").isZero();
        PropagationSchedule s = schedule(PropagationSchedule.LOCAL);
        assertThat(s.totalNumber()).isEqualTo(3);
        assertThat(s.totalBytes()).isPositive();
        assertThat(s.failures()).isZero();
    }

    @Test
    void a_named_remote_consumer_with_a_transformation_gets_them_in_another_store_of_this_jvm_and_dequeues_them_by_name() {
        source(1 << 20);
        destination = engine("bdst", 1 << 20);
        queue(destination, "WS.SHIP_QT", "WS.SHIP_Q", true);
        source.admin().createTransformation("OE.SHOUT", "TEXT", "TEXT", ShoutingText.class.getName());
        source.admin().createDatabaseLink("WEST", "jdbc:derby:memory:" + name(destination), null, null);
        source.admin().addSubscriber("OE.ORDERS_Q", new Agent("WEST_SHIPPING", "WS.SHIP_Q@WEST", 0), null, "OE.SHOUT");
        source.admin().schedulePropagation("OE.ORDERS_Q", "WEST", null, null, null, 0);

        enqueue("order 1", MessageProperties.create());
        // a recipient list names who gets it: here only AUDIT, so nothing goes west
        enqueue("audit only", MessageProperties.create().recipients(List.of(Agent.named("AUDIT"))));
        source.propagator().runDue();

        assertThat(drain(destination, "WS.SHIP_Q", buffered().consumerName("WEST_SHIPPING"))).extracting(Message::text)
                .containsExactly("ORDER 1!");
        assertThat(schedule("WEST").totalNumber()).isEqualTo(1);
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("WEST_SHIPPING at WS.SHIP_Q@WEST", 0L);
    }

    @Test
    void what_no_propagation_serves_is_still_refused_and_what_the_destination_refuses_is_dropped_with_the_schedules_last_error() {
        source(1 << 20);
        AqException refused = expectError(AqError.NO_RECIPIENTS, () -> enqueue("by mail", MessageProperties.create()
                .recipients(List.of(new Agent("SOMEONE", "someone@example.com", 2)))));
        assertThat(refused.getMessage()).contains("no propagation serves");
        assertThat(source.admin().bufferedQueues()).as("nothing buffered").isEmpty();

        source.admin().addSubscriber("OE.ORDERS_Q", new Agent(null, "WS.NO_SUCH_Q", 0), null);
        source.admin().schedulePropagation("OE.ORDERS_Q", null, null, null, null, 0);
        enqueue("nowhere", MessageProperties.create());
        source.propagator().runDue();

        PropagationSchedule s = schedule(PropagationSchedule.LOCAL);
        assertThat(s.lastErrorMessage()).startsWith("AQ-25205");
        assertThat(s.failures()).as("a refusal is not a failure of the way").isZero();
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("at WS.NO_SUCH_Q", 0L)
                .containsEntry("AUDIT", 1L);
    }

    @Test
    void a_buffered_enqueue_for_a_remote_consumer_wakes_the_running_propagation_at_once() {
        String store = "bwake" + STORES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        source = AqueductEngine.builder().user("OE").derbyInMemory(store).start(); // the system clock, its loops running
        open.add(source);
        queue(source, "OE.ORDERS_QT", "OE.ORDERS_Q", true);
        queue(source, "WS.SHIP_QT", "WS.SHIP_Q", false);
        source.admin().addSubscriber("OE.ORDERS_Q", new Agent(null, "WS.SHIP_Q", 0), null);
        source.admin().schedulePropagation("OE.ORDERS_Q", null, null, null, null, 0);

        enqueue("now", MessageProperties.create());

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(drain(source, "WS.SHIP_Q", buffered()))
                .extracting(Message::text).containsExactly("now"));
    }

    @Test
    void removing_a_remote_subscriber_frees_the_memory_its_waiting_parts_took() {
        source(1 << 20);
        Agent west = new Agent(null, "WS.SHIP_Q", 0);
        source.admin().addSubscriber("OE.ORDERS_Q", west, null); // no schedule: its parts wait
        enqueue("for both", MessageProperties.create());
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("at WS.SHIP_Q", 1L);

        source.admin().removeSubscriber("OE.ORDERS_Q", west);
        drain(source, "OE.ORDERS_Q", buffered().consumerName("AUDIT"));

        assertThat(memory(source, "OE.ORDERS_Q").bytes()).isZero();
        assertThat(memory(source, "OE.ORDERS_Q").messages()).isZero();
    }

    @Test
    void a_linked_store_that_cannot_be_opened_blocks_the_way_and_refuses_no_message() {
        source(1 << 20);
        source.admin().createDatabaseLink("GONE", "jdbc:postgresql://127.0.0.1:1/nowhere", "ts", "secret"); // nothing listens
        source.admin().addSubscriber("OE.ORDERS_Q", new Agent(null, "TS.SHIP_Q@GONE", 0), null);
        source.admin().schedulePropagation("OE.ORDERS_Q", "GONE", null, null, null, 0);
        enqueue("waits", MessageProperties.create());

        source.propagator().runDue();

        assertThat(schedule("GONE").failures()).isEqualTo(1);
        assertThat(schedule("GONE").lastErrorMessage()).startsWith("AQ-12541");
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("at TS.SHIP_Q@GONE", 1L);
    }

    // ------------------------------------------------------------------ faults, over HTTP

    /** The source, a destination server reached over HTTP through a stand-in of aqueduct.war's servlet, and a schedule to it. */
    private void overHttp(long sourceMemory, long destinationMemory) throws IOException {
        source(sourceMemory);
        destination = engine("bhttp", destinationMemory);
        queue(destination, "WS.SHIP_QT", "WS.SHIP_Q", false);
        destination.admin().createAqAgent("JOHN", true, false);
        destination.admin().enableDbAccess("JOHN", "CBADM");
        destination.admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, "WS.SHIP_Q", "CBADM", false);
        serverUp(0);
        source.admin().createDatabaseLink("DBA", "http://127.0.0.1:" + servlet.getAddress().getPort()
                + "/aqueduct/aqserv/servlet", "john", "welcome");
        source.admin().addSubscriber("OE.ORDERS_Q", new Agent(null, "WS.SHIP_Q@DBA", 0), null);
        source.admin().schedulePropagation("OE.ORDERS_Q", "DBA", null, null, null, 0);
    }

    /** The destination server comes up (again) on {@code port} (0: any). */
    private void serverUp(int port) throws IOException {
        servlet = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        servlet.createContext("/aqueduct/aqserv/servlet", this::serve);
        servlet.start();
    }

    /** The destination server goes down: connections to it are refused. Returns its port. */
    private int serverDown() {
        int port = servlet.getAddress().getPort();
        servlet.stop(0);
        return port;
    }

    /** What aqueduct.war's servlet does with a propagation request (see PropagationOverHttpTest), with faults. */
    private void serve(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        String[] credentials = new String(Base64.getDecoder().decode(auth.substring("Basic ".length())), StandardCharsets.UTF_8)
                .split(":", 2);
        assertThat(credentials).containsExactly("john", "welcome");
        byte[] answer;
        try (QueueSession session = destination.openSession("CBADM")) {
            try {
                answer = session.receivePropagation(body);
                session.commit();
            } catch (AqException e) {
                session.rollback();
                byte[] text = String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("X-Aqueduct-Error", String.valueOf(e.errorCode()));
                exchange.sendResponseHeaders(409, text.length);
                exchange.getResponseBody().write(text);
                exchange.close();
                return;
            }
        }
        if (body[4] == PropagationWire.DELIVER_BUFFERED && loseNextAnswer.compareAndSet(true, false)) {
            exchange.sendResponseHeaders(502, -1); // enqueued there; the source hears of a failure
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().add("Content-Type", PropagationWire.CONTENT_TYPE);
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    @Test
    void an_answer_lost_after_the_destination_enqueued_them_delivers_nothing_twice() throws IOException {
        overHttp(1 << 20, 1 << 20);
        for (int i = 0; i < 5; i++) {
            enqueue("m" + i, MessageProperties.create());
        }
        loseNextAnswer.set(true);

        source.propagator().runDue();

        assertThat(schedule("DBA").failures()).isEqualTo(1);
        assertThat(schedule("DBA").lastErrorMessage()).startsWith("AQ-12541: ").contains("HTTP 502");
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).as("kept: the source cannot know they arrived")
                .containsEntry("at WS.SHIP_Q@DBA", 5L);
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();

        assertThat(drain(destination, "WS.SHIP_Q", buffered())).extracting(Message::text)
                .containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(schedule("DBA").failures()).isZero();
        assertThat(schedule("DBA").totalNumber()).as("counted when the retry learnt they were there").isEqualTo(5);
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("at WS.SHIP_Q@DBA", 0L);
    }

    @Test
    void while_the_destination_is_down_they_wait_in_the_sources_memory_bounded_by_its_limit_and_go_when_it_is_back()
            throws IOException {
        overHttp(8 * 1024, 1 << 20);
        int port = serverDown();
        String kilobyte = "k".repeat(1000);
        int accepted = 0;
        AqException full = null;
        while (full == null) {
            try {
                enqueue(accepted + kilobyte, MessageProperties.create().recipients(List.of(new Agent(null, "WS.SHIP_Q@DBA", 0))));
                accepted++;
            } catch (AqException e) {
                full = e;
            }
        }
        assertThat(full.errorCode()).as("the producer is flow-controlled").isEqualTo(AqError.FLOW_CONTROL);
        assertThat(accepted).isBetween(5, 8);

        source.propagator().runDue();
        assertThat(schedule("DBA").failures()).isEqualTo(1);
        assertThat(schedule("DBA").lastErrorMessage()).startsWith("AQ-12541: ");
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS - 1));
        source.propagator().runDue();
        assertThat(schedule("DBA").failures()).as("no try before the backoff ends").isEqualTo(1);

        serverUp(port);
        clock.advance(Duration.ofMillis(1));
        source.propagator().runDue();

        assertThat(drain(destination, "WS.SHIP_Q", buffered())).hasSize(accepted);
        assertThat(schedule("DBA").failures()).isZero();
        assertThat(memory(source, "OE.ORDERS_Q").bytes()).isZero();
        enqueue("room again", MessageProperties.create()); // the producer goes on
    }

    @Test
    void a_destination_whose_buffered_memory_is_full_holds_them_back_until_it_has_room() throws IOException {
        overHttp(1 << 20, 1024);
        try (QueueSession s = destination.openSession()) {
            s.enqueue("WS.SHIP_Q", BUFFERED, Message.of("x".repeat(600))); // the destination's own, taking its memory
        }
        enqueue("y".repeat(600), MessageProperties.create());

        source.propagator().runDue();

        assertThat(schedule("DBA").failures()).isEqualTo(1);
        assertThat(schedule("DBA").lastErrorMessage()).contains("25307");
        assertThat(memory(source, "OE.ORDERS_Q").subscriberMessages()).containsEntry("at WS.SHIP_Q@DBA", 1L);
        assertThat(drain(destination, "WS.SHIP_Q", buffered())).extracting(m -> m.text().substring(0, 1)).containsExactly("x");

        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();

        assertThat(drain(destination, "WS.SHIP_Q", buffered())).extracting(m -> m.text().substring(0, 1)).containsExactly("y");
        assertThat(schedule("DBA").failures()).isZero();
    }

    @Test
    void buffered_messages_waiting_for_propagation_are_lost_when_the_source_engine_stops() throws IOException {
        overHttp(1 << 20, 1 << 20);
        int port = serverDown();
        enqueue("gone", MessageProperties.create());
        source.propagator().runDue();
        String store = name(source);
        source.close();

        source = AqueductEngine.builder().clock(clock).user("OE").timeManager(false).derbyInMemory(store).start();
        open.add(source);
        serverUp(port);
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();

        assertThat(drain(destination, "WS.SHIP_Q", buffered())).isEmpty();
        assertThat(drain(destination, "WS.SHIP_Q", DequeueOptions.create())).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private String name(AqueductEngine e) {
        return stores.get(e);
    }

    private static AqException expectError(int code, Runnable r) {
        AqException[] caught = new AqException[1];
        assertThatThrownBy(r::run).isInstanceOfSatisfying(AqException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(code);
            caught[0] = e;
        });
        return caught[0];
    }
}
