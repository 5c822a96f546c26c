package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import com.sun.net.httpserver.HttpServer;
import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Registration;
import io.aqueduct.api.RegistrationInfo;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.store.Dialects;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reference 001 §2.9-2.10 (AQ$_REG_INFO, AQ$_DESCRIPTOR) and 000's notification envelope: REGISTER /
 * UNREGISTER, one notification per message per consumer when it becomes available (commit, delay end,
 * retry), RELIABLE ones surviving a restart, timeouts, in-JVM listeners, HTTP and mail.
 */
class NotificationsTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private static final String MQ = "BOOKED_Q";
    private static final String MQT = "BOOKED_QT";

    @RegisterExtension
    static final GreenMailExtension MAIL = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private final List<AqNotification> received = new CopyOnWriteArrayList<>();
    private final List<AqNotification> shipping = new CopyOnWriteArrayList<>();
    private final List<AqNotification> billing = new CopyOnWriteArrayList<>();
    private HttpServer http;
    private final List<String[]> posts = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger failuresLeft = new AtomicInteger();

    @BeforeEach
    void queues() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().maxRetries(5).retryDelay(30));
        startedQueue(MQ, MQT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true),
                QueueProperties.create());
        admin.addSubscriber(MQ, Agent.named("SHIPPING"), null);
        admin.addSubscriber(MQ, Agent.named("BILLING"), null);
        engine.bindNotificationListener("orders", received::add);
        engine.bindNotificationListener("shipping", shipping::add);
        engine.bindNotificationListener("billing", billing::add);
    }

    @AfterEach
    void stopHttp() {
        if (http != null) {
            http.stop(0);
        }
    }

    private MessageId enqueueCommitted(String queue, Message m) {
        QueueSession s = session();
        MessageId id = s.enqueue(queue, m);
        s.commit();
        return id;
    }

    // ------------------------------------------------------------------ when notifications fire

    @Test
    void a_listener_is_notified_once_per_committed_message_with_its_descriptor_and_the_registrations_context() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:orders").context(new byte[] {7, 8}));

        MessageId rush = s.enqueue(Q, Message.of("order 1", MessageProperties.create().priority(2).correlation("RUSH")
                .sender(Agent.named("OE"))));
        MessageId second = s.enqueue(Q, Message.of("order 2"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(received::isEmpty); // not before the commit
        s.commit();

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
        AqNotification n = received.stream().filter(x -> x.messageId().equals(rush)).findFirst().orElseThrow();
        assertThat(n.queue()).isEqualTo("APP." + Q);
        assertThat(n.consumer()).isNull();
        assertThat(n.properties().priority()).isEqualTo(2);
        assertThat(n.properties().correlation()).isEqualTo("RUSH");
        assertThat(n.properties().sender().name()).isEqualTo("OE");
        assertThat(n.context()).containsExactly(7, 8);
        assertThat(n.payload()).as("no PAYLOAD asked").isNull();
        assertThat(n.flags()).isZero();
        assertThat(received).extracting(AqNotification::messageId).containsExactlyInAnyOrder(rush, second);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 2); // once each
        await().atMost(Duration.ofSeconds(5)).until(() -> admin.registrations().get(0).delivered() == 2);
    }

    @Test
    void a_rolled_back_enqueue_notifies_nobody_and_an_immediate_one_notifies_without_a_commit() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:orders").qos(NotificationQos.PAYLOAD));
        s.enqueue(Q, Message.of("never"));
        s.rollback();
        MessageId now = s.enqueue(Q, EnqueueOptions.create().visibility(Visibility.IMMEDIATE), Message.of("at once"));

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        assertThat(received.get(0).messageId()).isEqualTo(now);
        assertThat(received.get(0).payload()).isEqualTo("at once");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 1);
    }

    @Test
    void each_consumer_is_notified_of_the_messages_for_it_and_not_of_the_others() {
        QueueSession s = session();
        s.register(List.of(Registration.named(MQ + ":shipping").notifyUrl("java:shipping"),
                Registration.forQueue(MQ).consumer("BILLING").notifyUrl("java:billing")));

        MessageId both = enqueueCommitted(MQ, Message.of("for everyone"));
        MessageId onlyShipping = enqueueCommitted(MQ, Message.of("shipping only",
                MessageProperties.create().recipients(List.of(Agent.named("SHIPPING")))));

        await().atMost(Duration.ofSeconds(10)).until(() -> shipping.size() == 2 && billing.size() == 1);
        assertThat(shipping).extracting(AqNotification::messageId).containsExactlyInAnyOrder(both, onlyShipping);
        assertThat(shipping).extracting(AqNotification::consumer).containsOnly("SHIPPING");
        assertThat(billing).extracting(AqNotification::messageId).containsExactly(both);
        assertThat(billing.get(0).consumer()).isEqualTo("BILLING");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> billing.size() == 1);
    }

    /**
     * A listener that, as AQ's callbacks do, dequeues the message it is told of at once (NO_WAIT, by its
     * id, browsing) and records what it found: the state of the message, or "nothing".
     */
    private final List<String> foundByListener = new CopyOnWriteArrayList<>();

    private void bindDequeuingListener(String name, String queue) {
        engine.bindNotificationListener(name, n -> {
            String found;
            QueueSession own = engine.openSession();
            try {
                DequeueOptions o = NO_WAIT.copy().mode(DequeueMode.BROWSE).messageId(n.messageId());
                if (n.consumer() != null) {
                    o.consumerName(n.consumer());
                }
                Message m = own.dequeue(queue, o);
                found = m.properties().state() + " (descriptor " + n.properties().state() + ")";
            } catch (AqException e) {
                found = "nothing: " + e.getMessage() + " (descriptor " + n.properties().state() + ")";
            } finally {
                own.close();
            }
            foundByListener.add(found);
            received.add(n);
        });
    }

    @Test
    void a_delayed_message_notifies_when_its_delay_ends() {
        bindDequeuingListener("dequeuer", Q);
        session().register(Registration.forQueue(Q).notifyUrl("java:dequeuer"));
        MessageId later = enqueueCommitted(Q, Message.of("later", MessageProperties.create().delay(60)));

        clock.advanceSeconds(59);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(received::isEmpty);
        clock.advanceSeconds(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        assertThat(received.get(0).messageId()).isEqualTo(later);
        assertThat(received.get(0).properties().delay()).isEqualTo(60);
        assertThat(foundByListener).as("the listener dequeues what it is told of").containsExactly("READY (descriptor READY)");
    }

    @Test
    void a_reliable_registration_made_during_a_delay_is_notified_when_it_ends_with_the_message_dequeuable() {
        bindDequeuingListener("dequeuer", Q);
        MessageId later = enqueueCommitted(Q, Message.of("later", MessageProperties.create().delay(60)));
        clock.advanceSeconds(30);
        session().register(Registration.forQueue(Q).notifyUrl("java:dequeuer").qos(NotificationQos.RELIABLE));
        assertThat(admin.registrations().get(0).pending()).as("nothing planned while the message waits").isZero();

        clock.advanceSeconds(30);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        assertThat(received.get(0).messageId()).isEqualTo(later);
        assertThat(foundByListener).containsExactly("READY (descriptor READY)");
        await().atMost(Duration.ofSeconds(5)).until(() -> admin.registrations().get(0).pending() == 0);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 1);
    }

    @Test
    void a_delayed_message_on_a_multi_consumer_queue_notifies_each_consumer_when_its_delay_ends() {
        bindDequeuingListener("shipping", MQ);
        session().register(List.of(Registration.forQueue(MQ).consumer("SHIPPING").notifyUrl("java:shipping"),
                Registration.forQueue(MQ).consumer("BILLING").notifyUrl("java:billing")));
        MessageId later = enqueueCommitted(MQ, Message.of("later", MessageProperties.create().delay(60)));

        clock.advanceSeconds(59);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.isEmpty() && billing.isEmpty());
        clock.advanceSeconds(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1 && billing.size() == 1);
        assertThat(received.get(0).messageId()).isEqualTo(later);
        assertThat(billing.get(0).consumer()).isEqualTo("BILLING");
        assertThat(foundByListener).containsExactly("READY (descriptor READY)");
    }

    @Test
    void a_failed_attempt_notifies_again_when_the_retry_delay_ends() {
        bindDequeuingListener("dequeuer", Q);
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:dequeuer"));
        MessageId id = enqueueCommitted(Q, Message.of("retry me"));
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);

        s.dequeue(Q, NO_WAIT.copy().mode(DequeueMode.REMOVE));
        s.rollback(); // a failed attempt: back after the queue's 30 s retry delay

        clock.advanceSeconds(29);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 1);
        clock.advanceSeconds(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
        assertThat(received.get(1).messageId()).isEqualTo(id);
        assertThat(received.get(1).properties().attempts()).isEqualTo(1);
        assertThat(foundByListener).containsExactly("READY (descriptor READY)", "READY (descriptor READY)");
    }

    @Test
    void a_consumers_failed_attempt_notifies_that_consumer_again_and_nobody_else() {
        bindDequeuingListener("shipping", MQ);
        QueueSession s = session();
        s.register(List.of(Registration.forQueue(MQ).consumer("SHIPPING").notifyUrl("java:shipping"),
                Registration.forQueue(MQ).consumer("BILLING").notifyUrl("java:billing")));
        MessageId id = enqueueCommitted(MQ, Message.of("ship and bill"));
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1 && billing.size() == 1);

        s.dequeue(MQ, NO_WAIT.copy().consumerName("SHIPPING").mode(DequeueMode.REMOVE));
        s.rollback(); // shipping's attempt failed; the queue has no retry delay: available again at once

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 2);
        assertThat(received.get(1).messageId()).isEqualTo(id);
        assertThat(received.get(1).consumer()).isEqualTo("SHIPPING");
        assertThat(foundByListener).containsExactly("READY (descriptor READY)", "READY (descriptor READY)");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> billing.size() == 1);
    }

    @Test
    void a_propagated_message_notifies_the_destination_queues_registration_when_it_arrives() {
        startedQueue("PROP_SRC", "PROP_SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .multipleConsumers(true), QueueProperties.create());
        admin.addSubscriber("PROP_SRC", new Agent("TO_ORDERS", Q, 0), null);
        admin.schedulePropagation("PROP_SRC", null, null, null, null, 0);
        session().register(Registration.forQueue(Q).notifyUrl("java:orders"));

        MessageId source = enqueueCommitted("PROP_SRC", Message.of("travels"));

        await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 1);
        assertThat(received.get(0).queue()).isEqualTo("APP." + Q);
        assertThat(received.get(0).properties().originalMessageId()).isEqualTo(source);
        assertThat(received.get(0).messageId()).isNotEqualTo(source);
    }

    @Test
    void a_registration_ends_at_its_timeout_with_one_last_notification_flagged_as_timed_out() {
        session().register(Registration.forQueue(Q).notifyUrl("java:orders").timeoutSeconds(60).context(new byte[] {1}));
        assertThat(admin.registrations().get(0).expiresAt()).isEqualTo(clock.now().plusSeconds(60));

        clock.advanceSeconds(60);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        AqNotification last = received.get(0);
        assertThat(last.timedOut()).isTrue();
        assertThat(last.flags()).isEqualTo(AqNotification.TIMED_OUT);
        assertThat(last.messageId()).isNull();
        assertThat(last.context()).containsExactly(1);
        assertThat(admin.registrations()).isEmpty();
        enqueueCommitted(Q, Message.of("nobody listens now"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 1);
    }

    @Test
    void unregister_stops_the_notifications_and_an_unknown_registration_is_refused() {
        QueueSession s = session();
        Registration r = Registration.forQueue(Q).notifyUrl("java:orders");
        s.register(r);
        s.unregister(r);
        enqueueCommitted(Q, Message.of("after"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(received::isEmpty);
        assertThat(admin.registrations()).isEmpty();

        assertThatThrownBy(() -> s.unregister(r)).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.REGISTRATION_NOT_FOUND));
    }

    @Test
    void registering_the_same_queue_consumer_and_address_again_replaces_it() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:orders").context(new byte[] {1}));
        s.register(Registration.forQueue(Q).notifyUrl("java:orders").context(new byte[] {2}).qos(NotificationQos.RELIABLE));

        assertThat(admin.registrations()).singleElement().satisfies(r -> {
            assertThat(r.context()).containsExactly(2);
            assertThat(r.qos()).containsExactly(NotificationQos.RELIABLE);
        });
        enqueueCommitted(Q, Message.of("one"));
        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        assertThat(received.get(0).context()).containsExactly(2);
    }

    @Test
    void registering_again_without_reliable_drops_the_registrations_waiting_rows() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:nobody_bound").qos(NotificationQos.RELIABLE));
        enqueueCommitted(Q, Message.of("waits for a listener"));
        assertThat(admin.registrations().get(0).pending()).isEqualTo(1);

        s.register(Registration.forQueue(Q).notifyUrl("java:nobody_bound"));

        assertThat(admin.registrations()).singleElement().satisfies(r -> {
            assertThat(r.qos()).isEmpty();
            assertThat(r.pending()).as("no RELIABLE row left behind").isZero();
        });
    }

    // ------------------------------------------------------------------ reliable

    @Test
    void a_reliable_notification_is_in_the_store_with_its_message_and_is_delivered_once_after_a_restart(@TempDir Path dir)
            throws Exception {
        engine.close();
        engine = durableEngine(dir);
        startedQueueIfMissing();
        QueueSession s = engine.openSession();
        s.register(Registration.forQueue(Q).notifyUrl("java:restarted").qos(NotificationQos.RELIABLE));
        MessageId id = s.enqueue(Q, Message.of("survives"));
        s.commit();
        s.close();
        // nobody has java:restarted bound: it waits in the store
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.admin().registrations().get(0).pending() == 1);
        engine.close();

        engine = durableEngine(dir);
        List<AqNotification> after = new CopyOnWriteArrayList<>();
        engine.bindNotificationListener("restarted", after::add);

        await().atMost(Duration.ofSeconds(10)).until(() -> after.size() == 1);
        assertThat(after.get(0).messageId()).isEqualTo(id);
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.admin().registrations().get(0).pending() == 0);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> after.size() == 1);
        assertThat(engine.admin().registrations().get(0).delivered()).isEqualTo(1);
    }

    /** An engine on a store that outlives it: a Derby directory, or the shared store of this run. */
    private AqueductEngine durableEngine(Path dir) {
        AqueductEngine.Builder b = AqueductEngine.builder().clock(clock).user("TESTER");
        if (TestStore.CURRENT.shared()) {
            b.dialect(Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP");
        } else {
            b.derbyDirectory(dir.resolve("store"));
        }
        AqueductEngine e = b.start();
        admin = e.admin();
        return e;
    }

    private void startedQueueIfMissing() {
        if (admin.queues().stream().noneMatch(q -> q.name().equals(Q))) {
            startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        }
    }

    @Test
    void a_failing_endpoint_is_tried_again_with_back_off_and_its_last_error_is_visible() throws Exception {
        startHttp(500);
        failuresLeft.set(2);
        session().register(Registration.forQueue(Q).notifyUrl(url()).qos(NotificationQos.RELIABLE));
        enqueueCommitted(Q, Message.of("flaky"));

        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).failed() == 1);
        RegistrationInfo info = admin.registrations().get(0);
        assertThat(info.lastError()).contains("HTTP 500");
        assertThat(info.lastErrorAt()).isEqualTo(clock.now());
        assertThat(info.pending()).isEqualTo(1);
        assertThat(info.delivered()).isZero();

        clock.advanceSeconds(1); // the first back-off: 1 s
        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).failed() == 2);
        clock.advanceSeconds(1); // the second is 2 s: not yet
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> posts.size() == 2);
        clock.advanceSeconds(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).delivered() == 1);
        assertThat(posts).hasSize(3);
        assertThat(admin.registrations().get(0).pending()).isZero();
        assertThat(viewRow()).containsEntry("NUM_NTFNS", 1L).containsEntry("NUM_FAILED", 2L).containsEntry("NUM_PENDING", 0L);
    }

    @Test
    void a_failing_reliable_target_is_tried_once_per_back_off_not_once_per_waiting_notification() throws Exception {
        startHttp(500);
        failuresLeft.set(1);
        session().register(Registration.forQueue(Q).notifyUrl(url()).qos(NotificationQos.RELIABLE));
        QueueSession s = session();
        for (String order : List.of("one", "two", "three")) {
            s.enqueue(Q, Message.of(order));
        }
        s.commit();

        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).failed() == 1);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> posts.size() == 1); // the others wait
        assertThat(admin.registrations().get(0).pending()).isEqualTo(3);

        clock.advanceSeconds(1); // the target's next try: all three go
        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).delivered() == 3);
        assertThat(posts).hasSize(4);
        assertThat(admin.registrations().get(0).failed()).isEqualTo(1);
    }

    @Test
    void a_failing_listener_is_tried_once_per_back_off_not_once_per_waiting_notification() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger(1);
        engine.bindNotificationListener("flaky", n -> {
            calls.incrementAndGet();
            if (failures.getAndDecrement() > 0) {
                throw new IllegalStateException("not now");
            }
        });
        session().register(Registration.forQueue(Q).notifyUrl("java:flaky"));
        QueueSession s = session();
        for (String order : List.of("one", "two", "three")) {
            s.enqueue(Q, Message.of(order));
        }
        s.commit();

        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).failed() == 1);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> calls.get() == 1);

        clock.advanceSeconds(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> admin.registrations().get(0).delivered() == 3);
        assertThat(calls.get()).isEqualTo(4);
    }

    private java.util.Map<String, Object> viewRow() throws Exception {
        try (Connection c = sql(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT QUEUE_OWNER, QUEUE_NAME, LOCATION_NAME, NUM_NTFNS, NUM_FAILED,"
                        + " NUM_PENDING, QOSFLAGS FROM DBA_SUBSCR_REGISTRATIONS")) {
            assertThat(rs.next()).isTrue();
            java.util.Map<String, Object> row = new java.util.HashMap<>();
            row.put("QUEUE_OWNER", rs.getString(1));
            row.put("QUEUE_NAME", rs.getString(2));
            row.put("LOCATION_NAME", rs.getString(3));
            row.put("NUM_NTFNS", rs.getLong(4));
            row.put("NUM_FAILED", rs.getLong(5));
            row.put("NUM_PENDING", rs.getLong(6));
            row.put("QOSFLAGS", rs.getString(7));
            assertThat(rs.next()).isFalse();
            return row;
        }
    }

    // ------------------------------------------------------------------ HTTP and mail

    @Test
    void an_http_registration_gets_the_AQXmlNotification_envelope_posted_as_text_xml() throws Exception {
        startHttp(200);
        session().register(Registration.forQueue(Q).notifyUrl(url()));
        MessageId id = enqueueCommitted(Q, Message.of("<b>&", MessageProperties.create().correlation("RUSH")));

        await().atMost(Duration.ofSeconds(10)).until(() -> posts.size() == 1);
        assertThat(posts.get(0)[0]).startsWith("text/xml");
        String body = posts.get(0)[1];
        assertThat(body).contains("<Envelope xmlns=\"http://www.oracle.com/schemas/IDAP/envelope\">")
                .contains("<AQXmlNotification xmlns=\"http://www.oracle.com/schemas/AQ/access\">")
                .contains("<destination>APP." + Q + "</destination>")
                .contains("<message_id>" + id + "</message_id>")
                .contains("<correlation>RUSH</correlation>")
                .contains("<message_state>0</message_state>")
                .doesNotContain("message_payload");
        // it is well-formed XML
        javax.xml.parsers.DocumentBuilderFactory f = io.aqueduct.engine.xml.SecureXml.documentBuilderFactory();
        f.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void an_http_registration_with_qos_JSON_gets_json_with_the_payload_it_asked_for() throws Exception {
        startHttp(200);
        session().register(Registration.forQueue(Q).notifyUrl(url()).qos(NotificationQos.JSON, NotificationQos.PAYLOAD));
        MessageId id = enqueueCommitted(Q, Message.of("say \"hi\""));

        await().atMost(Duration.ofSeconds(10)).until(() -> posts.size() == 1);
        assertThat(posts.get(0)[0]).isEqualTo("application/json");
        try (jakarta.json.JsonReader r = jakarta.json.Json.createReader(new java.io.StringReader(posts.get(0)[1]))) {
            jakarta.json.JsonObject o = r.readObject();
            assertThat(o.getString("destination")).isEqualTo("APP." + Q);
            assertThat(o.getJsonObject("message_header").getString("message_id")).isEqualTo(id.toString());
            assertThat(o.getString("message_payload")).isEqualTo("say \"hi\"");
            assertThat(o.getInt("notification_flags")).isZero();
        }
    }

    @Test
    void a_mailto_registration_is_mailed_the_envelope() throws Exception {
        engine.close();
        engine = AqueductEngine.builder().clock(clock).user("TESTER")
                .mail("127.0.0.1", MAIL.getSmtp().getPort(), "aq@example.com", null, null, false)
                .dialect(TestStore.CURRENT.shared() ? TestStore.CURRENT.migratedStore() : derbyCopy())
                .defaultSchema("APP").start();
        admin = engine.admin();
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = engine.openSession();
        s.register(Registration.forQueue(Q).notifyUrl("mailto://john@company.com"));
        MessageId id = s.enqueue(Q, Message.of("mail me"));
        s.commit();
        s.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> MAIL.getReceivedMessages().length == 1);
        MimeMessage m = MAIL.getReceivedMessages()[0];
        assertThat(m.getAllRecipients()[0].toString()).isEqualTo("john@company.com");
        assertThat(m.getFrom()[0].toString()).isEqualTo("aq@example.com");
        assertThat(m.getSubject()).isEqualTo("AQ notification: APP." + Q);
        assertThat(m.getContentType()).startsWith("text/xml");
        assertThat((String) m.getContent()).contains("<AQXmlNotification").contains("<message_id>" + id + "</message_id>");
    }

    private io.aqueduct.engine.store.Dialect derbyCopy() throws Exception {
        String name = databaseName + "_mail";
        DerbyTemplate.copyTo(name);
        return io.aqueduct.engine.store.DerbyDialect.inMemory(name);
    }

    private void startHttp(int failureStatus) throws IOException {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/notify", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            posts.add(new String[] {exchange.getRequestHeaders().getFirst("Content-Type"), body});
            int status = failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? failureStatus : 204;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        http.start();
    }

    private String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort() + "/notify";
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void bad_registrations_are_refused_before_anything_is_stored() {
        QueueSession s = session();
        assertRefused(s, Registration.forQueue("NO_SUCH_Q").notifyUrl("java:orders"), AqError.QUEUE_NOT_FOUND);
        assertRefused(s, Registration.forQueue(MQ).notifyUrl("java:shipping"), AqError.CONSUMER_NAME_REQUIRED);
        assertRefused(s, Registration.forQueue(Q).consumer("X").notifyUrl("java:orders"), AqError.INVALID_VALUE);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("ftp://host/x"), AqError.INVALID_NOTIFICATION_ADDRESS);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("plsql://CALLBACK"), AqError.INVALID_NOTIFICATION_ADDRESS);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("mailto:a@b.c, d@e.f"), AqError.INVALID_NOTIFICATION_ADDRESS);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("java:bad name"), AqError.INVALID_NOTIFICATION_ADDRESS);
        assertRefused(s, Registration.forQueue(Q).notifyUrl(null), AqError.INVALID_NOTIFICATION_ADDRESS);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("java:orders").timeoutSeconds(-1), AqError.INVALID_VALUE);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("java:orders").timeoutSeconds(Long.MAX_VALUE), AqError.INVALID_VALUE);
        assertRefused(s, Registration.forQueue(Q).notifyUrl("java:orders").context(new byte[2001]), AqError.INVALID_VALUE);
        // nothing is ever made available on an exception queue: a registration there would never fire
        assertRefused(s, Registration.forQueue("AQ$_" + QT + "_E").notifyUrl("java:orders"), AqError.INVALID_VALUE);
        assertRefused(s, Registration.forQueue("AQ$_" + MQT + "_E").notifyUrl("java:orders"), AqError.INVALID_VALUE);
        // the registration records its user in 128 characters
        assertRefused(session("U".repeat(129)), Registration.forQueue(Q).notifyUrl("java:orders"), AqError.INVALID_VALUE);
        // a list is all or nothing: the good one before the bad one is not stored either
        assertThatThrownBy(() -> s.register(List.of(Registration.forQueue(Q).notifyUrl("java:orders"),
                Registration.forQueue(Q).notifyUrl("gopher://x")))).isInstanceOf(AqException.class);
        assertThat(admin.registrations()).isEmpty();
        enqueueCommitted(Q, Message.of("nobody registered"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(received::isEmpty);
    }

    private void assertRefused(QueueSession s, Registration r, int code) {
        assertThatThrownBy(() -> s.register(r)).as(r.toString()).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(code));
        assertThat(admin.registrations()).as("nothing stored after " + r).isEmpty();
    }

    @Test
    void dropping_a_queue_drops_its_registrations() {
        session().register(Registration.forQueue(Q).notifyUrl("java:orders"));
        admin.stopQueue(Q, true, true, true);
        admin.dropQueue(Q);
        assertThat(admin.registrations()).isEmpty();
    }
}
