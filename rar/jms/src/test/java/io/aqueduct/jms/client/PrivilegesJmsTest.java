package io.aqueduct.jms.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.QueuePrivilege;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A JMS user without the AQ privilege a call needs gets JMS's security exception (AQ error 1031 as
 * its error code): JMSSecurityException in the classic API, JMSSecurityRuntimeException in a
 * JMSContext; with the privilege granted the same calls work.
 */
class PrivilegesJmsTest {
    private JmsStore store;
    private Queue orders;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        orders = store.queue("ORDERS");
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void a_send_and_a_receive_without_the_privilege_are_security_exceptions_and_work_once_granted() throws Exception {
        try (Connection alice = store.factory().createConnection("alice", "secret")) {
            alice.start();
            Session session = alice.createSession();
            assertThatThrownBy(() -> session.createProducer(orders).send(session.createTextMessage("order")))
                    .isInstanceOfSatisfying(JMSSecurityException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo("AQ-" + AqError.INSUFFICIENT_PRIVILEGES);
                        assertThat(e.getMessage()).contains("alice may not enqueue into").contains("ENQUEUE");
                    });
            // a consumer is checked when it is created
            assertThatThrownBy(() -> session.createConsumer(orders)).isInstanceOf(JMSSecurityException.class);

            store.admin().grantQueuePrivilege(QueuePrivilege.ALL, orders.getQueueName(), "ALICE", false);
            session.createProducer(orders).send(session.createTextMessage("order"));
            MessageConsumer consumer = session.createConsumer(orders);
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("order");
        }
    }

    @Test
    void a_jms_context_throws_the_runtime_twin() throws Exception {
        try (JMSContext bob = store.factory().createContext("bob", "secret")) {
            assertThatThrownBy(() -> bob.createProducer().send(orders, "order"))
                    .isInstanceOfSatisfying(JMSSecurityRuntimeException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo("AQ-" + AqError.INSUFFICIENT_PRIVILEGES));
            store.admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, orders.getQueueName(), "BOB", false);
            bob.createProducer().send(orders, "order");
        }
    }

    @Test
    void a_durable_subscription_needs_dequeue_on_the_topic_and_not_manage_any() throws Exception {
        jakarta.jms.Topic news = store.topic("NEWS");
        try (Connection carol = store.factory().createConnection("carol", "secret")) {
            carol.setClientID("carols-client");
            Session session = carol.createSession();
            assertThatThrownBy(() -> session.createDurableConsumer(news, "headlines"))
                    .isInstanceOfSatisfying(JMSSecurityException.class, e -> assertThat(e.getMessage())
                            .contains("carol may not subscribe to").contains("DEQUEUE"));
            assertThat(store.admin().subscribers(news.getTopicName())).isEmpty();

            store.admin().grantQueuePrivilege(QueuePrivilege.DEQUEUE, news.getTopicName(), "CAROL", false);
            MessageConsumer headlines = session.createDurableConsumer(news, "headlines");
            assertThat(store.admin().subscribers(news.getTopicName())).hasSize(1);
            carol.start();
            publishAsTheEngine(news, "extra");
            assertThat(((TextMessage) headlines.receive(5_000)).getText()).isEqualTo("extra");

            headlines.close();
            session.unsubscribe("headlines");
            assertThat(store.admin().subscribers(news.getTopicName())).isEmpty();
        }
    }

    @Test
    void a_topic_consumer_needs_dequeue_only_and_dequeue_does_not_open_the_rest_of_administration() throws Exception {
        jakarta.jms.Topic news = store.topic("NEWS");
        store.admin().grantQueuePrivilege(QueuePrivilege.DEQUEUE, news.getTopicName(), "CAROL", false);
        try (Connection carol = store.factory().createConnection("carol", "secret")) {
            Session session = carol.createSession();
            MessageConsumer reader = session.createConsumer(news); // a subscriber for as long as it is open
            carol.start();
            publishAsTheEngine(news, "flash");
            assertThat(((TextMessage) reader.receive(5_000)).getText()).isEqualTo("flash");
        }
        try (io.aqueduct.api.QueueSession carol = store.engine.openSession("carol")) {
            io.aqueduct.api.QueueAdmin admin = carol.admin();
            assertThatThrownBy(() -> admin.addSubscriber(news.getTopicName(), io.aqueduct.api.Agent.named("SPY"), null))
                    .isInstanceOfSatisfying(io.aqueduct.api.AqException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(AqError.INSUFFICIENT_PRIVILEGES));
            assertThatThrownBy(() -> admin.addJmsSubscriber(news.getTopicName(), "SPY", null))
                    .as("the JMS operation adds JMS subscriptions only").isInstanceOfSatisfying(io.aqueduct.api.AqException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE));
        }
        assertThat(store.admin().subscribers(news.getTopicName())).isEmpty();
    }

    @Test
    void any_user_may_create_a_temporary_queue_which_anyone_may_reply_to_and_only_its_creator_drops() throws Exception {
        try (Connection dave = store.factory().createConnection("dave", "secret");
                Connection erin = store.factory().createConnection("erin", "secret")) {
            Session daves = dave.createSession();
            jakarta.jms.TemporaryQueue replies = daves.createTemporaryQueue();
            MessageConsumer consumer = daves.createConsumer(replies);
            dave.start();

            Session erins = erin.createSession();
            erins.createProducer(replies).send(erins.createTextMessage("reply")); // PUBLIC may send to it
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("reply");

            try (io.aqueduct.api.QueueSession erinAq = store.engine.openSession("erin")) {
                assertThatThrownBy(() -> erinAq.admin().dropTemporaryQueue(replies.getQueueName()))
                        .isInstanceOfSatisfying(io.aqueduct.api.AqException.class,
                                e -> assertThat(e.errorCode()).isEqualTo(AqError.INSUFFICIENT_PRIVILEGES));
            }
            assertThatThrownBy(() -> daves.createConsumer(orders)).as("no other privilege came with it")
                    .isInstanceOf(JMSSecurityException.class);

            consumer.close();
            String name = replies.getQueueName();
            replies.delete();
            assertThat(store.admin().queues()).extracting(io.aqueduct.api.QueueInfo::name).noneMatch(n -> n.equalsIgnoreCase(name));
        }
    }

    private void publishAsTheEngine(jakarta.jms.Topic topic, String text) throws Exception {
        try (Connection engine = store.factory().createConnection()) {
            Session session = engine.createSession();
            session.createProducer(topic).send(session.createTextMessage(text));
        }
    }
}
