package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Registration;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Notifications on a shared store (PostgreSQL, MariaDB) with two engines in this JVM: a registration
 * made on one node is in force on the other, a RELIABLE notification is delivered once whichever node
 * enqueued it, and a {@code java:} one by the node that has the listener bound. Real time.
 */
class NotificationsTwoNodesTest {
    private static final String Q = "NTFN_Q";
    private static final String QT = "NTFN_QT";

    private AqueductEngine a;
    private AqueductEngine b;
    private HttpServer http;
    private final List<String> posts = new CopyOnWriteArrayList<>();

    @BeforeEach
    void twoNodes() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.emptyStore();
        a = MultiNodeTest.engine();
        b = MultiNodeTest.engine();
        a.admin().createQueueTable(QT, QueueTableProperties.create().payloadType(PayloadType.TEXT));
        a.admin().createQueue(Q, QT, QueueProperties.create());
        a.admin().startQueue(Q, true, true);
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/notify", exchange -> {
            posts.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        http.start();
    }

    @AfterEach
    void stop() {
        if (http != null) {
            http.stop(0);
        }
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    private static long queueId() throws java.sql.SQLException {
        try (java.sql.Connection c = TestStore.CURRENT.connect(); java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT QID FROM AQ_QUEUE WHERE NAME = '" + Q + "'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static MessageId enqueue(AqueductEngine node, String text) {
        try (QueueSession s = node.openSession()) {
            MessageId id = s.enqueue(Q, Message.of(text));
            s.commit();
            return id;
        }
    }

    @Test
    void a_reliable_http_notification_registered_on_one_node_is_posted_once_for_messages_of_either_node() {
        try (QueueSession s = a.openSession()) {
            s.register(Registration.forQueue(Q).notifyUrl("http://127.0.0.1:" + http.getAddress().getPort() + "/notify")
                    .qos(NotificationQos.RELIABLE));
        }
        // node b learns of the registration through the catalog signal (until then its enqueues notify nobody)
        await().atMost(Duration.ofSeconds(10)).until(() -> b.notifier().watched(queueId()));
        MessageId fromA = enqueue(a, "from a");
        MessageId fromB = enqueue(b, "from b");

        await().atMost(Duration.ofSeconds(20)).until(() -> posts.size() >= 2);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> posts.size() == 2);
        assertThat(posts).anySatisfy(p -> assertThat(p).contains("<message_id>" + fromA + "</message_id>"));
        assertThat(posts).anySatisfy(p -> assertThat(p).contains("<message_id>" + fromB + "</message_id>"));
        await().atMost(Duration.ofSeconds(5)).until(() -> a.admin().registrations().get(0).delivered() == 2);
        assertThat(a.admin().registrations().get(0).pending()).isZero();
    }

    @Test
    void a_reliable_java_notification_is_delivered_by_the_node_that_has_the_listener_bound() {
        List<AqNotification> onB = new CopyOnWriteArrayList<>();
        b.bindNotificationListener("audit", onB::add);
        try (QueueSession s = a.openSession()) {
            s.register(Registration.forQueue(Q).notifyUrl("java:audit").qos(NotificationQos.RELIABLE));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> b.admin().registrations().size() == 1);

        MessageId id = enqueue(a, "audit me"); // node a has no listener of that name: node b delivers it

        await().atMost(Duration.ofSeconds(20)).until(() -> onB.size() == 1);
        assertThat(onB.get(0).messageId()).isEqualTo(id);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> onB.size() == 1);
        assertThat(a.admin().registrations().get(0).failed()).as("node a never tried it").isZero();
    }

    @Test
    void registering_on_a_queue_another_node_created_a_moment_ago_needs_dequeue_on_it_too() {
        a.admin().createQueue("NEW_Q", QT, QueueProperties.create()); // node b may not have read it yet

        try (QueueSession alice = b.openSession("alice")) {
            assertThatThrownBy(() -> alice.register(Registration.forQueue("NEW_Q").notifyUrl("java:alice")))
                    .isInstanceOfSatisfying(AqException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(AqError.INSUFFICIENT_PRIVILEGES));
        }
        assertThat(a.admin().registrations()).isEmpty();
    }
}
