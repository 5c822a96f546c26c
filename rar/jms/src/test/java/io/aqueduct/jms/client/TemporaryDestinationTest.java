package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** jakarta.jms.TemporaryQueue and TemporaryTopic: owned by their connection. */
class TemporaryDestinationTest {
    private JmsStore store;
    private Queue requests;
    private Connection connection;
    private Connection other;
    private Session session;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        requests = store.queue("REQUESTS");
        connection = store.factory().createConnection();
        connection.start();
        other = store.factory().createConnection();
        other.start();
        session = connection.createSession();
    }

    @AfterEach
    void close() throws Exception {
        other.close();
        connection.close();
        store.close();
    }

    @Test
    void aTemporaryQueueCarriesMessagesLikeAQueue() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        assertThat(tq.getQueueName()).isNotBlank();
        MessageConsumer consumer = session.createConsumer(tq);
        Session s = other.createSession();
        s.createProducer(tq).send(s.createTextMessage("from another connection"));
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("from another connection");
    }

    @Test
    void aTemporaryTopicCarriesMessagesLikeATopic() throws Exception {
        TemporaryTopic tt = session.createTemporaryTopic();
        assertThat(tt.getTopicName()).isNotBlank();
        MessageConsumer first = session.createConsumer(tt);
        MessageConsumer second = connection.createSession().createConsumer(tt);
        Session s = other.createSession();
        s.createProducer(tt).send(s.createTextMessage("to all"));
        assertThat(((TextMessage) first.receive(5_000)).getText()).isEqualTo("to all");
        assertThat(((TextMessage) second.receive(5_000)).getText()).isEqualTo("to all");
    }

    @Test
    void eachTemporaryDestinationIsANewOne() throws Exception {
        assertThat(session.createTemporaryQueue()).isNotEqualTo(session.createTemporaryQueue());
        assertThat(session.createTemporaryTopic()).isNotEqualTo(session.createTemporaryTopic());
    }

    @Test
    void onlyTheCreatingConnectionMayConsumeFromATemporaryDestination() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        TemporaryTopic tt = session.createTemporaryTopic();
        Session s = other.createSession();
        assertThatThrownBy(() -> s.createConsumer(tq)).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> s.createConsumer(tt)).isInstanceOf(InvalidDestinationException.class);
        assertThat(connection.createSession().createConsumer(tq)).as("another session of the creating connection").isNotNull();
    }

    @Test
    void aTemporaryQueueReceivedAsReplyToCannotBeConsumedByAnotherConnection() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        TextMessage request = session.createTextMessage("request");
        request.setJMSReplyTo(tq);
        session.createProducer(requests).send(request);
        Session s = other.createSession();
        Message got = s.createConsumer(requests).receive(5_000);
        assertThat(got.getJMSReplyTo()).isInstanceOf(TemporaryQueue.class).isEqualTo(tq);
        assertThatThrownBy(() -> s.createConsumer(got.getJMSReplyTo())).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> ((TemporaryQueue) got.getJMSReplyTo()).delete()).isInstanceOf(JMSException.class);
    }

    @Test
    void closingTheConnectionDeletesItsTemporaryDestinations() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        TemporaryTopic tt = session.createTemporaryTopic();
        Session s = other.createSession();
        jakarta.jms.MessageProducer producer = s.createProducer(tq);
        producer.send(s.createTextMessage("before"));
        connection.close();
        assertThatThrownBy(() -> producer.send(s.createMessage())).isInstanceOf(InvalidDestinationException.class);
        try (Connection fresh = store.factory().createConnection()) {
            Session f = fresh.createSession();
            assertThatThrownBy(() -> f.createProducer(tq)).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> f.createProducer(tt)).isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void aTemporaryDestinationWithAConsumerCannotBeDeleted() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        TemporaryTopic tt = session.createTemporaryTopic();
        MessageConsumer onQueue = session.createConsumer(tq);
        MessageConsumer onTopic = connection.createSession().createConsumer(tt);
        assertThatThrownBy(tq::delete).isInstanceOf(JMSException.class);
        assertThatThrownBy(tt::delete).isInstanceOf(JMSException.class);
        onQueue.close();
        onTopic.close();
        tq.delete();
        tt.delete();
    }

    @Test
    void aDeletedTemporaryDestinationCannotBeUsed() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        Session s = other.createSession();
        s.createProducer(tq).send(s.createTextMessage("warm the producer's cache"));
        tq.delete();
        assertThatThrownBy(() -> session.createConsumer(tq)).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> session.createProducer(tq)).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> s.createProducer(null).send(tq, s.createMessage())).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(tq::delete).as("deleted twice").isInstanceOf(JMSException.class);
    }

    @Test
    void aClosedSessionsConsumerDoesNotKeepATemporaryQueue() throws Exception {
        TemporaryQueue tq = session.createTemporaryQueue();
        Session consuming = connection.createSession();
        consuming.createConsumer(tq);
        consuming.close();
        tq.delete();
    }
}
