package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AcknowledgementAndTransactionsTest {
    private JmsStore store;
    private Connection connection;
    private Queue queue;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("WORK");
        connection = store.factory().createConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private void send(String... texts) throws Exception {
        try (Session s = connection.createSession()) {
            MessageProducer p = s.createProducer(queue);
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    private static String text(Message m) throws Exception {
        return m == null ? null : ((TextMessage) m).getText();
    }

    @Test
    void aTransactedSendIsInvisibleUntilCommit() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        tx.createProducer(queue).send(tx.createTextMessage("pending"));
        Session reader = connection.createSession();
        MessageConsumer consumer = reader.createConsumer(queue);
        assertThat(consumer.receiveNoWait()).isNull();
        tx.commit();
        assertThat(text(consumer.receive(5_000))).isEqualTo("pending");
    }

    @Test
    void aRolledBackSendNeverHappened() throws Exception {
        Session tx = connection.createSession(Session.SESSION_TRANSACTED);
        tx.createProducer(queue).send(tx.createTextMessage("never"));
        tx.rollback();
        assertThat(connection.createSession().createConsumer(queue).receive(300)).isNull();
    }

    @Test
    void aRolledBackReceiveIsDeliveredAgainMarkedRedelivered() throws Exception {
        send("again");
        Session tx = connection.createSession(Session.SESSION_TRANSACTED);
        MessageConsumer consumer = tx.createConsumer(queue);
        Message first = consumer.receive(5_000);
        assertThat(first.getJMSRedelivered()).isFalse();
        tx.rollback();
        Message second = consumer.receive(5_000);
        assertThat(text(second)).isEqualTo("again");
        assertThat(second.getJMSRedelivered()).isTrue();
        assertThat(second.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        tx.commit();
        assertThat(consumer.receive(300)).isNull();
    }

    @Test
    void clientAcknowledgeKeepsMessagesUntilAcknowledgedAndRecoverDeliversThemAgain() throws Exception {
        send("a", "b");
        Session client = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = client.createConsumer(queue);
        assertThat(text(consumer.receive(5_000))).isEqualTo("a");
        assertThat(text(consumer.receive(5_000))).isEqualTo("b");
        client.recover();
        Message a = consumer.receive(5_000);
        assertThat(text(a)).isEqualTo("a");
        assertThat(a.getJMSRedelivered()).isTrue();
        Message b = consumer.receive(5_000);
        b.acknowledge(); // acknowledges both
        client.recover();
        assertThat(consumer.receive(300)).isNull();
    }

    @Test
    void unacknowledgedMessagesComeBackWhenTheSessionCloses() throws Exception {
        send("kept");
        Session client = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        assertThat(text(client.createConsumer(queue).receive(5_000))).isEqualTo("kept");
        client.close();
        assertThat(text(connection.createSession().createConsumer(queue).receive(5_000))).isEqualTo("kept");
    }

    @Test
    void autoAcknowledgeRemovesTheMessageOnReceive() throws Exception {
        send("once");
        Session auto = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        assertThat(text(auto.createConsumer(queue).receive(5_000))).isEqualTo("once");
        auto.close();
        assertThat(connection.createSession().createConsumer(queue).receive(300)).isNull();
    }

    @Test
    void aSendInAClientAcknowledgeSessionDoesNotAcknowledgeItsReceives() throws Exception {
        send("in");
        Session client = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        assertThat(text(client.createConsumer(queue).receive(5_000))).isEqualTo("in");
        Queue out = store.queue("OUTBOX");
        client.createProducer(out).send(client.createTextMessage("out"));
        client.recover();
        assertThat(text(client.createConsumer(queue).receive(5_000))).isEqualTo("in");
        assertThat(text(connection.createSession().createConsumer(out).receive(5_000))).isEqualTo("out");
    }

    @Test
    void commitAndRollbackAreRefusedOutsideATransactedSession() throws Exception {
        Session auto = connection.createSession();
        org.assertj.core.api.Assertions.assertThatThrownBy(auto::commit).isInstanceOf(jakarta.jms.IllegalStateException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(auto::rollback).isInstanceOf(jakarta.jms.IllegalStateException.class);
        Session tx = connection.createSession(Session.SESSION_TRANSACTED);
        org.assertj.core.api.Assertions.assertThatThrownBy(tx::recover).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }
}
