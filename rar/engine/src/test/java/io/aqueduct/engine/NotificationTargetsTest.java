package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Registration;
import io.aqueduct.api.RegistrationInfo;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One slow target does not hold the others: notifications of different registrations are delivered at
 * once (each registration's in order), and a java: listener that does not return within the listener
 * timeout is a failed delivery, tried again after the back-off.
 */
class NotificationTargetsTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";

    private final List<AqNotification> received = new CopyOnWriteArrayList<>();
    private final List<String> posted = new CopyOnWriteArrayList<>();
    private final CountDownLatch releaseHttp = new CountDownLatch(1);
    private final AtomicInteger requestsSeen = new AtomicInteger();
    private HttpServer hanging;
    private final java.util.concurrent.ExecutorService answering = Executors.newCachedThreadPool();

    @Override
    protected void configure(AqueductEngine.Builder builder) {
        builder.notificationListenerTimeout(Duration.ofMillis(300));
    }

    @BeforeEach
    void queueAndTargets() throws IOException {
        startedQueue(Q, "ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        engine.bindNotificationListener("orders", received::add);
        hanging = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hanging.setExecutor(answering);
        hanging.createContext("/notify", exchange -> {
            requestsSeen.incrementAndGet();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            try {
                releaseHttp.await(60, TimeUnit.SECONDS); // the target hangs until the test lets it answer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            posted.add(body);
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        hanging.start();
    }

    @AfterEach
    void stopTarget() {
        releaseHttp.countDown();
        if (hanging != null) {
            hanging.stop(0);
        }
        answering.shutdownNow();
    }

    private String hangingUrl() {
        return "http://127.0.0.1:" + hanging.getAddress().getPort() + "/notify";
    }

    private MessageId enqueueCommitted(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text));
        s.commit();
        return id;
    }

    @Test
    void a_hanging_http_target_does_not_delay_another_registrations_notifications() {
        a_hanging_target_holds_only_its_own(java.util.EnumSet.noneOf(NotificationQos.class));
    }

    @Test
    void a_hanging_http_target_does_not_delay_another_reliable_registrations_notifications() {
        a_hanging_target_holds_only_its_own(java.util.EnumSet.of(NotificationQos.RELIABLE));
    }

    private void a_hanging_target_holds_only_its_own(java.util.Set<NotificationQos> qos) {
        NotificationQos[] flags = qos.toArray(NotificationQos[]::new);
        session().register(Registration.forQueue(Q).notifyUrl(hangingUrl()).qos(flags));
        session().register(Registration.forQueue(Q).notifyUrl("java:orders").qos(flags));

        MessageId first = enqueueCommitted("first");
        await().atMost(Duration.ofSeconds(10)).until(() -> requestsSeen.get() == 1); // the HTTP target hangs in its answer
        MessageId second = enqueueCommitted("second");

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
        assertThat(received).extracting(AqNotification::messageId).containsExactlyInAnyOrder(first, second);
        assertThat(posted).as("the HTTP target has not answered yet").isEmpty();
        assertThat(requestsSeen.get()).as("its second notification waits for its first").isEqualTo(1);

        releaseHttp.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> posted.size() == 2);
        assertThat(posted.get(0)).as("one target's notifications in order").contains(first.toString());
        assertThat(posted.get(1)).contains(second.toString());
        await().atMost(Duration.ofSeconds(5)).until(() -> admin.registrations().stream().allMatch(r -> r.delivered() == 2));
    }

    @Test
    void a_listener_that_does_not_return_within_the_timeout_is_a_failed_delivery_tried_again_after_the_back_off() {
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch never = new CountDownLatch(1);
        engine.bindNotificationListener("stuck", n -> {
            if (calls.incrementAndGet() == 1) {
                try {
                    never.await(60, TimeUnit.SECONDS); // blocks, as a waiting dequeue would
                } catch (InterruptedException e) {
                    interrupted.set(true); // the engine gave up on the call
                }
            }
        });
        session().register(Registration.forQueue(Q).notifyUrl("java:stuck").qos(NotificationQos.RELIABLE));
        session().register(Registration.forQueue(Q).notifyUrl("java:orders"));

        MessageId id = enqueueCommitted("order");

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 1); // the other listener is not held
        await().atMost(Duration.ofSeconds(10)).until(() -> stuck().failed() == 1);
        RegistrationInfo info = stuck();
        assertThat(info.lastError()).contains("java:stuck", "did not return within 300 ms");
        assertThat(info.delivered()).isZero();
        assertThat(info.pending()).as("a RELIABLE notification waits for the next try").isEqualTo(1);
        await().atMost(Duration.ofSeconds(5)).until(interrupted::get);
        assertThat(calls.get()).isEqualTo(1);

        clock.advanceSeconds(1); // the first back-off
        await().atMost(Duration.ofSeconds(10)).until(() -> stuck().delivered() == 1);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(stuck().pending()).isZero();
        assertThat(received).extracting(AqNotification::messageId).containsExactly(id);
    }

    private RegistrationInfo stuck() {
        return admin.registrations().stream().filter(r -> r.notifyUrl().equals("java:stuck")).findFirst().orElseThrow();
    }
}
