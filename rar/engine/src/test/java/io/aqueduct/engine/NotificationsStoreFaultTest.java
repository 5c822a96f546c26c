package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqNotification;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Registration;
import io.aqueduct.engine.store.Dialect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store goes away while the notification loop counts a delivery: the delivery happened, so a
 * RELIABLE notification is not delivered again when its lease runs out, and the in-memory notifications
 * due in the same round are not lost.
 */
class NotificationsStoreFaultTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private final BreakingStore breaking = new BreakingStore();
    private final List<AqNotification> received = new CopyOnWriteArrayList<>();

    @Override
    protected Dialect store(Dialect dialect) {
        return breaking.wrap(dialect);
    }

    @BeforeEach
    void queue() {
        startedQueue(Q, "ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        engine.bindNotificationListener("orders", received::add);
    }

    private List<MessageId> enqueueCommitted(String... texts) {
        QueueSession s = session();
        List<MessageId> ids = new ArrayList<>();
        for (String text : texts) {
            ids.add(s.enqueue(Q, Message.of(text)));
        }
        s.commit();
        return ids;
    }

    @Test
    void a_reliable_notification_whose_count_failed_is_not_delivered_again_after_its_lease() {
        session().register(Registration.forQueue(Q).notifyUrl("java:orders").qos(NotificationQos.RELIABLE));
        breaking.breakStatementsContaining("SET DELIVERED", 2);
        MessageId id = enqueueCommitted("once").get(0);

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
        assertThat(received.get(0).messageId()).isEqualTo(id);
        await().atMost(Duration.ofSeconds(5)).until(breaking::statementsBroken);
        await().atMost(Duration.ofSeconds(5)).until(() -> admin.registrations().get(0).pending() == 0);

        clock.advanceSeconds(121); // past the 120 s lease of a row that would still be there
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(4)).until(() -> received.size() == 1);
    }

    @Test
    void in_memory_notifications_due_in_the_round_whose_count_failed_are_all_delivered() {
        session().register(Registration.forQueue(Q).notifyUrl("java:orders"));
        breaking.breakStatementsContaining("SET DELIVERED", 2);
        List<MessageId> ids = enqueueCommitted("one", "two", "three");

        await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 3);
        assertThat(breaking.statementsBroken()).isTrue();
        assertThat(received).extracting(AqNotification::messageId).containsExactlyInAnyOrderElementsOf(ids);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> received.size() == 3);
    }
}
