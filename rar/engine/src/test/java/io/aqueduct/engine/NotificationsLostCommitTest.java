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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A commit whose connection breaks after the database committed: the engine learns from the rows that
 * it committed, and the notifications it planned are delivered as after any commit, once each.
 */
class NotificationsLostCommitTest extends EngineFixture {
    private final BreakingStore breaking = new BreakingStore();
    private final List<AqNotification> fromMemory = new CopyOnWriteArrayList<>();
    private final List<AqNotification> reliable = new CopyOnWriteArrayList<>();

    @Override
    protected Dialect store(Dialect dialect) {
        return breaking.wrap(dialect);
    }

    @Test
    void an_enqueue_whose_connection_broke_after_it_committed_notifies_each_registration_once() {
        startedQueue("ORDERS_Q", "ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        engine.bindNotificationListener("memory", fromMemory::add);
        engine.bindNotificationListener("reliable", reliable::add);
        QueueSession s = session();
        s.register(List.of(Registration.forQueue("ORDERS_Q").notifyUrl("java:memory"),
                Registration.forQueue("ORDERS_Q").notifyUrl("java:reliable").qos(NotificationQos.RELIABLE)));

        MessageId id = s.enqueue("ORDERS_Q", Message.of("order 1"));
        breaking.breakNextCommitOfThisThread();
        s.commit(); // returns: the engine finds the message in the store, so the commit happened
        assertThat(breaking.fired()).as("the connection broke during the commit").isTrue();

        await().atMost(Duration.ofSeconds(5)).until(() -> fromMemory.size() == 1 && reliable.size() == 1);
        assertThat(fromMemory.get(0).messageId()).isEqualTo(id);
        assertThat(reliable.get(0).messageId()).isEqualTo(id);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3))
                .until(() -> fromMemory.size() == 1 && reliable.size() == 1); // once each
        assertThat(session().dequeue("ORDERS_Q", NO_WAIT).payload()).isEqualTo("order 1");
    }
}
