package io.aqueduct.engine.propagation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import java.io.IOException;
import java.io.Serializable;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AQ's propagation over HTTP: a database link whose URL is another server's Aqueduct servlet, with an
 * AQ agent's credentials. The other server here is a stand-in for aqueduct.war's servlet (the JDK's
 * HTTP server doing what {@code PropagationRequests} does: BASIC credentials to the agent's database
 * user, {@code receivePropagation} in one transaction, commit, answer); the real servlet is proven in
 * the container by HttpAccessIT. Both stores are Derby; the source runs its propagation job itself on
 * a manual clock, so AQ's backoff passes in no time.
 */
class PropagationOverHttpTest {
    private static final String SOURCE_Q = "OE.OE_BOOKEDORDERS_QUE";
    private static final String DEST_Q = "WS.WS_BOOKEDORDERS_QUE";
    private static final String LINK = "DBA";
    private static final AtomicInteger STORES = new AtomicInteger();

    private final ManualClock clock = new ManualClock();
    private AqueductEngine source;
    private AqueductEngine destination;
    private HttpServer servlet;
    /** Agents the stand-in knows: name -> password, and the database user each works as. */
    private final Map<String, String> passwords = new java.util.concurrent.ConcurrentHashMap<>(Map.of("JOHN", "welcome"));
    private final Map<String, String> dbUsers = Map.of("JOHN", "CBADM");
    /** Set: the next request is committed there, but its answer is lost on the way back. */
    private final AtomicBoolean loseNextAnswer = new AtomicBoolean();
    /** Set to n > 0: the n-th delivery request from now is committed there, but its answer is lost. */
    private final AtomicInteger loseDeliveryAnswer = new AtomicInteger();
    /** Delivery requests the stand-in received. */
    private final AtomicInteger deliveries = new AtomicInteger();

    @BeforeEach
    void twoStoresAndTheServletBetween() throws IOException {
        int n = STORES.incrementAndGet();
        destination = AqueductEngine.builder().clock(clock).user("TS").timeManager(false)
                .derbyInMemory("httpdest" + n + "_" + ProcessHandle.current().pid()).start();
        QueueAdmin dst = destination.admin();
        dst.createQueueTable("WS.WS_ORDERS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        dst.createQueue(DEST_Q, "WS.WS_ORDERS_QTAB", QueueProperties.create());
        dst.startQueue(DEST_Q, true, true);
        dst.createAqAgent("JOHN", true, false);
        dst.enableDbAccess("JOHN", "CBADM");
        dst.grantQueuePrivilege(QueuePrivilege.ENQUEUE, DEST_Q, "CBADM", false);

        servlet = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        servlet.createContext("/aqueduct/aqserv/servlet", this::serve);
        servlet.start();

        source = AqueductEngine.builder().clock(clock).user("OE").timeManager(false)
                .derbyInMemory("httpsrc" + n + "_" + ProcessHandle.current().pid()).start();
        QueueAdmin src = source.admin();
        src.createQueueTable("OE.OE_ORDERS_MQTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        src.createQueue(SOURCE_Q, "OE.OE_ORDERS_MQTAB", QueueProperties.create().retention(86_400));
        src.startQueue(SOURCE_Q, true, true);
        src.createDatabaseLink(LINK, servletUrl(), "john", "welcome");
        src.addSubscriber(SOURCE_Q, new Agent(null, DEST_Q + "@" + LINK, 0), "corrid = 'WEST'");
        src.schedulePropagation(SOURCE_Q, LINK, null, null, null, 0);
    }

    @AfterEach
    void stop() {
        if (servlet != null) {
            servlet.stop(0);
        }
        if (source != null) {
            source.close();
        }
        if (destination != null) {
            destination.close();
        }
    }

    private String servletUrl() {
        return "http://127.0.0.1:" + servlet.getAddress().getPort() + "/aqueduct/aqserv/servlet";
    }

    /** What aqueduct.war's servlet does with a propagation request. */
    private void serve(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        boolean delivery = body.length > 4 && body[4] == PropagationWire.DELIVER;
        if (delivery) {
            deliveries.incrementAndGet();
        }
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        String[] credentials = auth == null ? new String[0]
                : new String(Base64.getDecoder().decode(auth.substring("Basic ".length())), StandardCharsets.UTF_8).split(":", 2);
        String agent = credentials.length == 2 ? credentials[0].toUpperCase(java.util.Locale.ROOT) : null;
        if (agent == null || !credentials[1].equals(passwords.get(agent))) {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
            return;
        }
        byte[] answer;
        try (QueueSession session = destination.openSession(dbUsers.get(agent))) {
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
        if (loseNextAnswer.compareAndSet(true, false) || (delivery && loseDeliveryAnswer.get() > 0
                && loseDeliveryAnswer.decrementAndGet() == 0)) {
            exchange.sendResponseHeaders(502, -1); // committed here; the source hears of a failure
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().add("Content-Type", PropagationWire.CONTENT_TYPE);
        exchange.sendResponseHeaders(200, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private void enqueue(String text, MessageProperties properties) {
        try (QueueSession s = source.openSession()) {
            s.enqueue(SOURCE_Q, EnqueueOptions.create(), Message.of(text, properties.correlation("WEST")));
            s.commit();
        }
    }

    private List<Message> drainDestination() {
        List<Message> out = new ArrayList<>();
        try (QueueSession s = destination.openSession()) {
            while (true) {
                try {
                    out.add(s.dequeue(DEST_Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)));
                } catch (AqException e) {
                    if (e.errorCode() == AqError.NO_MESSAGE) {
                        break;
                    }
                    throw e;
                }
            }
            s.commit();
        }
        return out;
    }

    private PropagationSchedule schedule() {
        return source.admin().propagationSchedule(SOURCE_Q, LINK);
    }

    @Test
    void messages_arrive_at_the_other_server_with_their_properties_and_original_msgid() {
        source.admin().addSubscriber(SOURCE_Q, Agent.named("EAST_SHIPPING"), "corrid = 'EAST'"); // a local one stays here
        try (QueueSession s = source.openSession()) {
            s.enqueue(SOURCE_Q, EnqueueOptions.create(), Message.of("order 1", MessageProperties.create().correlation("WEST")
                    .priority(2).userProperty("region", "WESTERN").userProperty("items", 3).expiration(3600)));
            s.enqueue(SOURCE_Q, EnqueueOptions.create(), Message.of("for the east", MessageProperties.create().correlation("EAST")));
            s.commit();
        }
        clock.advance(Duration.ofMinutes(10));

        source.propagator().runDue();

        List<Message> arrived = drainDestination();
        assertThat(arrived).extracting(Message::text).containsExactly("order 1");
        Message m = arrived.get(0);
        assertThat(m.properties().correlation()).isEqualTo("WEST");
        assertThat(m.properties().priority()).isEqualTo(2);
        assertThat(m.properties().userProperties()).containsEntry("region", "WESTERN").containsEntry("items", 3);
        assertThat(m.properties().expiration()).isEqualTo(3000); // an hour less the 10 minutes at the source
        assertThat(m.properties().originalMessageId()).isNotNull();
        PropagationSchedule schedule = schedule();
        assertThat(schedule.totalNumber()).isEqualTo(1);
        assertThat(schedule.failures()).isZero();
    }

    @Test
    void an_answer_lost_after_the_destination_committed_delivers_nothing_twice() {
        for (int i = 0; i < 5; i++) {
            enqueue("m" + i, MessageProperties.create());
        }
        loseNextAnswer.set(true);

        source.propagator().runDue();

        assertThat(schedule().failures()).isEqualTo(1);
        assertThat(schedule().lastErrorMessage()).startsWith("AQ-12541: ").contains("HTTP 502");
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();

        assertThat(drainDestination()).extracting(Message::text).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(schedule().failures()).isZero();
        assertThat(schedule().totalNumber()).isEqualTo(5);
        // the receipts have done their work and are gone
        try (QueueSession s = destination.openSession()) {
            byte[] answer = s.receivePropagation(PropagationWire.receipts(
                    "OE.OE_BOOKEDORDERS_QUE@" + LINK, "", 1000));
            assertThat(PropagationWire.receiptList(answer)).isEmpty();
            s.commit();
        }
    }

    @Test
    void a_batch_larger_than_one_request_goes_in_several_and_a_lost_answer_of_the_second_delivers_nothing_twice() {
        String big = "x".repeat(150_000); // about 450 KB a request allows three or so: 10 of them take several requests
        for (int i = 0; i < 10; i++) {
            enqueue(i + big, MessageProperties.create());
        }
        loseDeliveryAnswer.set(2);

        source.propagator().runDue();

        assertThat(schedule().failures()).as("the second request's answer was lost").isEqualTo(1);
        int before = deliveries.get();
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();

        assertThat(deliveries.get() - before).as("several requests again").isGreaterThan(1);
        assertThat(drainDestination()).extracting(m -> m.text().substring(0, 1))
                .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9");
        assertThat(schedule().failures()).isZero();
    }

    @Test
    void one_users_receipts_are_not_anothers() {
        QueueAdmin dst = destination.admin();
        dst.createQueue("WS.MALLORY_Q", "WS.WS_ORDERS_QTAB", QueueProperties.create());
        dst.startQueue("WS.MALLORY_Q", true, true);
        dst.grantQueuePrivilege(QueuePrivilege.ENQUEUE, "WS.MALLORY_Q", "MALLORY", false);
        String receipt = "0123456789ABCDEF0123456789ABCDEF/00";
        LinkSession.Arrival toMallory = new LinkSession.Arrival(receipt, "WS.MALLORY_Q", new io.aqueduct.engine.session.PropagatedMessage(
                Message.of("squatting"), "0123456789ABCDEF0123456789ABCDEF", true), null);
        try (QueueSession mallory = destination.openSession("MALLORY")) {
            mallory.receivePropagation(PropagationWire.deliver("OE.OE_BOOKEDORDERS_QUE@" + LINK, List.of(toMallory)));
            mallory.commit();
            // and she sees none of CBADM's, nor can she remove them
            assertThat(PropagationWire.receiptList(mallory.receivePropagation(PropagationWire.receipts(
                    "OE.OE_BOOKEDORDERS_QUE@" + LINK, "", 100)))).extracting(LinkSession.Receipt::id).containsExactly(receipt);
            mallory.commit();
        }
        LinkSession.Arrival real = new LinkSession.Arrival(receipt, DEST_Q, new io.aqueduct.engine.session.PropagatedMessage(
                Message.of("the order"), "0123456789ABCDEF0123456789ABCDEF", true), null);
        try (QueueSession cbadm = destination.openSession("CBADM")) {
            List<LinkSession.Arrived> outcome = PropagationWire.delivered(cbadm.receivePropagation(
                    PropagationWire.deliver("OE.OE_BOOKEDORDERS_QUE@" + LINK, List.of(real))), 1);
            cbadm.commit();
            assertThat(outcome.get(0).present()).as("delivered, not taken for Mallory's").isFalse();
        }
        assertThat(drainDestination()).extracting(Message::text).containsExactly("the order");
    }

    @Test
    void recipients_with_addresses_are_refused_so_the_receiving_store_forwards_nothing_for_the_sender() {
        QueueAdmin dst = destination.admin();
        dst.createQueueTable("WS.WS_MC_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        dst.createQueue("WS.IN_Q", "WS.WS_MC_QTAB", QueueProperties.create());
        dst.startQueue("WS.IN_Q", true, true);
        dst.grantQueuePrivilege(QueuePrivilege.ENQUEUE, "WS.IN_Q", "CBADM", false);
        dst.schedulePropagation("WS.IN_Q", null, null, null, null, 0);
        MessageProperties forwarded = MessageProperties.create().recipients(List.of(new Agent("X", DEST_Q, 0)));
        LinkSession.Arrival arrival = new LinkSession.Arrival("0123456789ABCDEF0123456789ABCDEF/01", "WS.IN_Q",
                new io.aqueduct.engine.session.PropagatedMessage(Message.of("stolen", forwarded), "0123456789ABCDEF0123456789ABCDEF",
                        true), null);
        try (QueueSession cbadm = destination.openSession("CBADM")) {
            assertThatThrownBy(() -> cbadm.receivePropagation(PropagationWire.deliver("X@Y", List.of(arrival))))
                    .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                    .hasMessageContaining("recipients with an address");
            cbadm.rollback();
        }
        destination.propagator().runDue();
        assertThat(drainDestination()).isEmpty();
    }

    @Test
    void an_agent_without_enqueue_on_the_destination_queue_blocks_the_schedule_until_granted() {
        destination.admin().revokeQueuePrivilege(QueuePrivilege.ENQUEUE, DEST_Q, "CBADM");
        enqueue("waits for the grant", MessageProperties.create());

        source.propagator().runDue();

        assertThat(schedule().failures()).isEqualTo(1);
        assertThat(schedule().lastErrorMessage()).startsWith("AQ-01031: ");
        assertThat(drainDestination()).isEmpty();

        destination.admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, DEST_Q, "CBADM", false);
        source.admin().disablePropagationSchedule(SOURCE_Q, LINK);
        source.admin().enablePropagationSchedule(SOURCE_Q, LINK); // retry at once
        source.propagator().runDue();
        assertThat(drainDestination()).extracting(Message::text).containsExactly("waits for the grant");
    }

    @Test
    void a_wrong_password_is_the_logon_error_and_altering_the_link_fixes_it() {
        source.admin().alterDatabaseLink(LINK, servletUrl(), "john", "wrong");
        enqueue("after the fix", MessageProperties.create());

        source.propagator().runDue();

        assertThat(schedule().lastErrorMessage()).startsWith("AQ-01017: ").contains("john");
        source.admin().alterDatabaseLink(LINK, servletUrl(), "john", "welcome");
        source.admin().disablePropagationSchedule(SOURCE_Q, LINK);
        source.admin().enablePropagationSchedule(SOURCE_Q, LINK);
        source.propagator().runDue();
        assertThat(drainDestination()).extracting(Message::text).containsExactly("after the fix");
    }

    @Test
    void a_destination_queue_that_does_not_exist_makes_the_message_undeliverable_and_the_rest_goes_on() {
        source.admin().addSubscriber(SOURCE_Q, new Agent("LOST", "WS.NO_SUCH_QUEUE@" + LINK, 0), "corrid = 'WEST'");
        enqueue("to both", MessageProperties.create());

        source.propagator().runDue();

        assertThat(drainDestination()).extracting(Message::text).containsExactly("to both");
        PropagationSchedule schedule = schedule();
        assertThat(schedule.failures()).isZero();
        assertThat(schedule.lastErrorMessage()).contains("NO_SUCH_QUEUE");
    }

    @Test
    void the_servers_stopped_queue_is_a_failure_with_its_error_and_backoff() {
        destination.admin().stopQueue(DEST_Q, true, false, false);
        enqueue("held back", MessageProperties.create());

        source.propagator().runDue();

        assertThat(schedule().failures()).isEqualTo(1);
        assertThat(schedule().lastErrorMessage()).startsWith("AQ-25207: ");
        destination.admin().startQueue(DEST_Q, true, true);
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS));
        source.propagator().runDue();
        assertThat(drainDestination()).extracting(Message::text).containsExactly("held back");
    }

    /** A serializable payload that stays at home. */
    record Order(String id) implements Serializable {
    }

    @Test
    void serialized_java_objects_are_not_sent_over_http() {
        QueueAdmin src = source.admin();
        src.createQueueTable("OE.OBJ_QT", QueueTableProperties.create().objectType(Order.class.getName())
                .multipleConsumers(true));
        src.createQueue("OE.OBJ_Q", "OE.OBJ_QT", QueueProperties.create());
        src.startQueue("OE.OBJ_Q", true, true);
        src.addSubscriber("OE.OBJ_Q", new Agent(null, DEST_Q + "@" + LINK, 0), null);
        src.schedulePropagation("OE.OBJ_Q", LINK, null, null, null, 0);
        try (QueueSession s = source.openSession()) {
            s.enqueue("OE.OBJ_Q", EnqueueOptions.create(), Message.of(new Order("42")));
            s.commit();
        }
        int before = deliveries.get();

        source.propagator().runDue();

        PropagationSchedule schedule = src.propagationSchedule("OE.OBJ_Q", LINK);
        assertThat(schedule.lastErrorMessage()).startsWith("AQ-25215: ").contains("not propagated over HTTP");
        assertThat(schedule.failures()).isZero();
        assertThat(drainDestination()).isEmpty();
        assertThat(deliveries.get()).as("nothing of it was sent").isEqualTo(before);
    }

    @Test
    void links_over_http_are_checked_when_created() {
        QueueAdmin src = source.admin();
        assertThatThrownBy(() -> src.createDatabaseLink("NOUSER", servletUrl(), null, null))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("needs the user and password of an AQ agent");
        assertThatThrownBy(() -> src.createDatabaseLink("INURL", "http://john:welcome@dest.example.com/aqueduct/aqserv/servlet", "john", "x"))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("not in its URL");
        assertThatThrownBy(() -> src.createDatabaseLink("TCP", "(DESCRIPTION=(ADDRESS=(PROTOCOL=tcp)(HOST=db)(PORT=1521)))", "u", "p"))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("PROTOCOL is tcp");
        assertThatThrownBy(() -> src.createDatabaseLink("BADPORT", "(DESCRIPTION=(ADDRESS=(PROTOCOL=http)(HOST=web)(PORT=99999)))", "u", "p"))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("not a TCP port");
        assertThat(src.databaseLinks()).extracting(l -> l.name()).containsExactly(LINK);

        // AQ's own connect descriptor: the servlet at the server's /aqueduct/aqserv/servlet
        src.createDatabaseLink("DESCRIBED", "(DESCRIPTION=(ADDRESS=(PROTOCOL=http)(HOST=127.0.0.1)(PORT="
                + servlet.getAddress().getPort() + ")))", "john", "welcome");
        assertThat(HttpLinkedStore.servlet("(description=(address=(protocol=HTTPS)(host=webdest.example.com)(port=8081)))", "john"))
                .hasToString("https://webdest.example.com:8081/aqueduct/aqserv/servlet");
    }

    @Test
    void a_request_that_aqueduct_did_not_write_is_refused_and_changes_nothing() {
        try (QueueSession s = destination.openSession("CBADM")) {
            for (byte[] hostile : List.of(new byte[0], "<soap:Envelope/>".getBytes(StandardCharsets.UTF_8),
                    new byte[] {0x41, 0x51, 0x50, 0x01, 'D', 0x7f, 0x7f, 0x7f, 0x7f},
                    new byte[] {0x41, 0x51, 0x50, 0x01, 'X'})) {
                assertThatThrownBy(() -> s.receivePropagation(hostile))
                        .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                        .hasMessageContaining("not an Aqueduct propagation request");
            }
            s.rollback();
        }
        assertThat(drainDestination()).isEmpty();
    }
}
