package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.DeliveryMode;
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
import io.aqueduct.api.Visibility;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Notifications of buffered messages (docs/buffered.md, docs/notifications.md): a registration is
 * told of a buffered message at its enqueue (no commit to wait for), from memory, with the
 * descriptor's delivery mode BUFFERED; a delayed one when its delay ends; on a multi-consumer queue
 * each consumer the message is for.
 */
class BufferedNotificationsTest extends EngineFixture {
    private static final String Q = "TICKS_Q";
    private static final String MQ = "NEWS_Q";
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    private final List<AqNotification> ticks = new CopyOnWriteArrayList<>();
    private final List<AqNotification> sports = new CopyOnWriteArrayList<>();
    private final List<AqNotification> weather = new CopyOnWriteArrayList<>();

    @BeforeEach
    void queues() {
        startedQueue(Q, "TICKS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        startedQueue(MQ, "NEWS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true),
                QueueProperties.create());
        admin.addSubscriber(MQ, Agent.named("SPORTS"), null);
        admin.addSubscriber(MQ, Agent.named("WEATHER"), null);
        engine.bindNotificationListener("ticks", ticks::add);
        engine.bindNotificationListener("sports", sports::add);
        engine.bindNotificationListener("weather", weather::add);
    }

    @Test
    void a_buffered_enqueue_notifies_at_once_with_its_descriptor_and_payload() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:ticks").context(new byte[] {4})
                .qos(NotificationQos.PAYLOAD));

        MessageId id = s.enqueue(Q, BUFFERED, Message.of("ACME 4.25", MessageProperties.create().priority(2)
                .correlation("ACME")));
        // no commit: the buffered message is in no transaction

        await().atMost(Duration.ofSeconds(10)).until(() -> ticks.size() == 1);
        AqNotification n = ticks.get(0);
        assertThat(n.messageId()).isEqualTo(id);
        assertThat(n.queue()).isEqualTo("APP." + Q);
        assertThat(n.properties().deliveryMode()).isEqualTo(DeliveryMode.BUFFERED);
        assertThat(n.properties().priority()).isEqualTo(2);
        assertThat(n.properties().correlation()).isEqualTo("ACME");
        assertThat(n.context()).containsExactly(4);
        assertThat(n.payload()).isEqualTo("ACME 4.25");
        s.rollback(); // changes nothing for the buffered message
        assertThat(s.dequeue(Q, io.aqueduct.api.DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
                .visibility(Visibility.IMMEDIATE)).id()).isEqualTo(id);
    }

    @Test
    void a_reliable_registration_is_notified_of_a_buffered_message_from_memory() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:ticks").qos(NotificationQos.RELIABLE));

        MessageId id = s.enqueue(Q, BUFFERED, Message.of("tick"));

        await().atMost(Duration.ofSeconds(10)).until(() -> ticks.size() == 1);
        assertThat(ticks.get(0).messageId()).isEqualTo(id);
        assertThat(ticks.get(0).properties().deliveryMode()).isEqualTo(DeliveryMode.BUFFERED);
    }

    @Test
    void a_delayed_buffered_message_notifies_when_its_delay_ends() {
        QueueSession s = session();
        s.register(Registration.forQueue(Q).notifyUrl("java:ticks"));

        MessageId later = s.enqueue(Q, BUFFERED, Message.of("later", MessageProperties.create().delay(60)));
        clock.advanceSeconds(59);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3)).until(ticks::isEmpty);
        clock.advanceSeconds(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> ticks.size() == 1);
        assertThat(ticks.get(0).messageId()).isEqualTo(later);
    }

    @Test
    void each_subscriber_a_buffered_message_is_for_is_notified_and_a_persistent_one_still_after_its_commit() {
        QueueSession s = session();
        s.register(Registration.forQueue(MQ).consumer("SPORTS").notifyUrl("java:sports"));
        s.register(Registration.forQueue(MQ).consumer("WEATHER").notifyUrl("java:weather"));

        MessageId both = s.enqueue(MQ, BUFFERED, Message.of("both"));
        MessageId rain = s.enqueue(MQ, BUFFERED, Message.of("rain", MessageProperties.create()
                .recipients(List.of(Agent.named("WEATHER")))));
        MessageId stored = s.enqueue(MQ, Message.of("stored"));

        await().atMost(Duration.ofSeconds(10)).until(() -> sports.size() == 1 && weather.size() == 2);
        assertThat(sports).extracting(AqNotification::messageId).containsExactly(both);
        assertThat(weather).extracting(AqNotification::messageId).containsExactlyInAnyOrder(both, rain);
        assertThat(weather).allSatisfy(n -> assertThat(n.consumer()).isEqualTo("WEATHER"));
        s.commit();
        await().atMost(Duration.ofSeconds(10)).until(() -> sports.size() == 2 && weather.size() == 3);
        assertThat(sports.get(1).messageId()).isEqualTo(stored);
        assertThat(sports.get(1).properties().deliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
    }
}
