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
    void a_durable_subscription_adds_a_subscriber_so_it_needs_manage_any_besides_dequeue() throws Exception {
        jakarta.jms.Topic news = store.topic("NEWS");
        store.admin().grantQueuePrivilege(QueuePrivilege.ALL, news.getTopicName(), "CAROL", false);
        try (Connection carol = store.factory().createConnection("carol", "secret")) {
            carol.setClientID("carols-client");
            Session session = carol.createSession();
            assertThatThrownBy(() -> session.createDurableConsumer(news, "headlines"))
                    .isInstanceOf(JMSSecurityException.class);
            assertThat(store.admin().subscribers(news.getTopicName())).isEmpty();

            store.admin().grantSystemPrivilege(io.aqueduct.api.SystemPrivilege.MANAGE_ANY, "CAROL", false);
            MessageConsumer headlines = session.createDurableConsumer(news, "headlines");
            carol.start();
            session.createProducer(news).send(session.createTextMessage("extra"));
            assertThat(((TextMessage) headlines.receive(5_000)).getText()).isEqualTo("extra");
        }
    }
}
