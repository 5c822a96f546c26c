package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
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

class QueueMessagingTest {
    private JmsStore store;
    private Connection connection;
    private Queue orders;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        orders = store.queue("ORDERS");
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

    @Test
    void aSentTextMessageIsReceivedWithItsHeadersAndProperties() throws Exception {
        Session session = connection.createSession();
        MessageProducer producer = session.createProducer(orders);
        TextMessage sent = session.createTextMessage("order 1");
        sent.setStringProperty("region", "WEST");
        sent.setIntProperty("items", 3);
        sent.setJMSCorrelationID("c-1");
        sent.setJMSType("NewOrder");
        producer.send(sent);

        assertThat(sent.getJMSMessageID()).startsWith("ID:");
        assertThat(sent.getJMSDestination()).isEqualTo(orders);
        assertThat(sent.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(sent.getJMSPriority()).isEqualTo(4);

        MessageConsumer consumer = session.createConsumer(orders);
        Message received = consumer.receive(5_000);
        assertThat(received).isInstanceOf(TextMessage.class);
        assertThat(((TextMessage) received).getText()).isEqualTo("order 1");
        assertThat(received.getJMSMessageID()).isEqualTo(sent.getJMSMessageID());
        assertThat(received.getStringProperty("region")).isEqualTo("WEST");
        assertThat(received.getIntProperty("items")).isEqualTo(3);
        assertThat(received.getJMSCorrelationID()).isEqualTo("c-1");
        assertThat(received.getJMSType()).isEqualTo("NewOrder");
        assertThat(received.getJMSTimestamp()).isEqualTo(sent.getJMSTimestamp());
        assertThat(received.getJMSRedelivered()).isFalse();
        assertThat(received.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        assertThat(consumer.receiveNoWait()).isNull();
    }

    @Test
    void theConnectionsUserIsTheAqSenderAndJMSXUserID() throws Exception {
        // a named user works with the AQ privileges it was granted (the store's own user holds them all)
        store.admin().grantQueuePrivilege(io.aqueduct.api.QueuePrivilege.ENQUEUE, "ORDERS", "CLERK", false);
        try (Connection clerk = store.factory().createConnection("CLERK", "any")) {
            Session s = clerk.createSession();
            s.createProducer(orders).send(s.createTextMessage("signed"));
        }
        try (io.aqueduct.api.QueueSession aq = store.engine.openSession()) {
            io.aqueduct.api.Message m = aq.dequeue("ORDERS", io.aqueduct.api.DequeueOptions.create()
                    .mode(io.aqueduct.api.DequeueMode.BROWSE).waitSeconds(io.aqueduct.api.DequeueOptions.NO_WAIT));
            assertThat(m.properties().sender().name()).isEqualTo("CLERK");
        }
        Message received = connection.createSession().createConsumer(orders).receive(5_000);
        assertThat(received.getStringProperty("JMSXUserID")).isEqualTo("CLERK");
    }

    @Test
    void higherPriorityMessagesAreReceivedFirst() throws Exception {
        Session session = connection.createSession();
        MessageProducer producer = session.createProducer(orders);
        producer.send(session.createTextMessage("low"), DeliveryMode.PERSISTENT, 1, 0);
        producer.send(session.createTextMessage("high"), DeliveryMode.PERSISTENT, 9, 0);
        producer.send(session.createTextMessage("normal"));

        MessageConsumer consumer = session.createConsumer(orders);
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("high");
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("normal");
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("low");
    }

    @Test
    void aSelectorReceivesOnlyMatchingMessages() throws Exception {
        Session session = connection.createSession();
        MessageProducer producer = session.createProducer(orders);
        for (String region : new String[] {"EAST", "WEST", "EAST"}) {
            TextMessage m = session.createTextMessage(region);
            m.setStringProperty("region", region);
            producer.send(m);
        }
        MessageConsumer west = session.createConsumer(orders, "region = 'WEST'");
        assertThat(((TextMessage) west.receive(5_000)).getText()).isEqualTo("WEST");
        assertThat(west.receiveNoWait()).isNull();
        MessageConsumer all = session.createConsumer(orders);
        assertThat(all.receive(5_000)).isNotNull();
        assertThat(all.receive(5_000)).isNotNull();
        assertThat(all.receiveNoWait()).isNull();
    }
}
