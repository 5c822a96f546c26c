package io.aqueduct.jms.client;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** jakarta.jms.MessageProducer, QueueSender, TopicPublisher. */
class ProducerContractTest {
    private JmsStore store;
    private Queue queue;
    private Topic topic;
    private AqueductConnection connection;
    private Session session;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("Q");
        topic = store.topic("T");
        connection = (AqueductConnection) store.factory().createConnection();
        connection.start();
        session = connection.createSession();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
        store.close();
    }

    @Test
    void everyMethodButCloseThrowsIllegalStateExceptionAfterClose() throws Exception {
        MessageProducer p = session.createProducer(queue);
        MessageProducer unidentified = session.createProducer(null);
        p.close();
        unidentified.close();
        Message m = session.createMessage();
        Refusals.of()
                .call("send", () -> p.send(m))
                .call("send(mode, priority, ttl)", () -> p.send(m, DeliveryMode.PERSISTENT, 4, 0))
                .call("send(listener)", () -> p.send(m, new Completion()))
                .call("send(destination)", () -> unidentified.send(queue, m))
                .call("send(destination, mode, priority, ttl)", () -> unidentified.send(queue, m, DeliveryMode.PERSISTENT, 4, 0))
                .call("getDestination", p::getDestination)
                .call("setDeliveryMode", () -> p.setDeliveryMode(DeliveryMode.PERSISTENT))
                .call("getDeliveryMode", p::getDeliveryMode)
                .call("setPriority", () -> p.setPriority(4))
                .call("getPriority", p::getPriority)
                .call("setTimeToLive", () -> p.setTimeToLive(0))
                .call("getTimeToLive", p::getTimeToLive)
                .call("setDeliveryDelay", () -> p.setDeliveryDelay(0))
                .call("getDeliveryDelay", p::getDeliveryDelay)
                .call("setDisableMessageID", () -> p.setDisableMessageID(true))
                .call("getDisableMessageID", p::getDisableMessageID)
                .call("setDisableMessageTimestamp", () -> p.setDisableMessageTimestamp(true))
                .call("getDisableMessageTimestamp", p::getDisableMessageTimestamp)
                .allThrow(IllegalStateException.class);
        assertThatCode(p::close).as("close again").doesNotThrowAnyException();
    }

    @Test
    void aNewProducerHasTheDefaults() throws Exception {
        MessageProducer p = session.createProducer(queue);
        assertThat(p.getDestination()).isEqualTo(queue);
        assertThat(p.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(p.getPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
        assertThat(p.getTimeToLive()).isEqualTo(Message.DEFAULT_TIME_TO_LIVE);
        assertThat(p.getDeliveryDelay()).isEqualTo(Message.DEFAULT_DELIVERY_DELAY);
        assertThat(p.getDisableMessageID()).isFalse();
        assertThat(p.getDisableMessageTimestamp()).isFalse();
    }

    @Test
    void aNullMessageIsAMessageFormatException() throws Exception {
        MessageProducer p = session.createProducer(queue);
        assertThatThrownBy(() -> p.send(null)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> p.send(null, DeliveryMode.PERSISTENT, 4, 0)).isInstanceOf(MessageFormatException.class);
        MessageProducer unidentified = session.createProducer(null);
        assertThatThrownBy(() -> unidentified.send(queue, null)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void anUnidentifiedProducerNamesADestinationInEachSend() throws Exception {
        MessageProducer p = session.createProducer(null);
        assertThat(p.getDestination()).isNull();
        assertThatThrownBy(() -> p.send(session.createMessage())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.send(session.createMessage(), DeliveryMode.PERSISTENT, 4, 0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.send(session.createMessage(), new Completion()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.send(null, session.createMessage())).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> p.send(null, session.createMessage(), DeliveryMode.PERSISTENT, 4, 0))
                .isInstanceOf(InvalidDestinationException.class);
        p.send(queue, session.createTextMessage("to the queue"));
        assertThat(receive(queue)).isEqualTo("to the queue");
    }

    @Test
    void aProducerWithADestinationCannotNameAnother() throws Exception {
        MessageProducer p = session.createProducer(queue);
        assertThatThrownBy(() -> p.send(queue, session.createMessage())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.send(queue, session.createMessage(), DeliveryMode.PERSISTENT, 4, 0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> p.send(queue, session.createMessage(), new Completion()))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aProducerOnADestinationThatDoesNotExistIsRefused() throws Exception {
        assertThatThrownBy(() -> session.createProducer(session.createQueue("NOT_THERE")))
                .isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> session.createProducer(session.createQueue("T")))
                .as("a topic named as a queue").isInstanceOf(InvalidDestinationException.class);
        MessageProducer unidentified = session.createProducer(null);
        assertThatThrownBy(() -> unidentified.send(session.createTopic("NOT_THERE"), session.createMessage()))
                .isInstanceOf(InvalidDestinationException.class);
    }

    @Test
    void anInvalidDeliveryModePriorityOrTimeToLiveIsRefused() throws Exception {
        MessageProducer p = session.createProducer(queue);
        Message m = session.createMessage();
        Refusals.of()
                .call("setDeliveryMode(0)", () -> p.setDeliveryMode(0))
                .call("setDeliveryMode(3)", () -> p.setDeliveryMode(3))
                .call("setPriority(-1)", () -> p.setPriority(-1))
                .call("setPriority(10)", () -> p.setPriority(10))
                .call("setTimeToLive(-1)", () -> p.setTimeToLive(-1))
                .call("setDeliveryDelay(-1)", () -> p.setDeliveryDelay(-1))
                .call("send, mode 0", () -> p.send(m, 0, 4, 0))
                .call("send, priority 10", () -> p.send(m, DeliveryMode.PERSISTENT, 10, 0))
                .call("send, priority -1", () -> p.send(m, DeliveryMode.PERSISTENT, -1, 0))
                .call("send, ttl -1", () -> p.send(m, DeliveryMode.PERSISTENT, 4, -1))
                .allThrow(JMSException.class);
        assertThat(p.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(p.getPriority()).isEqualTo(4);
        assertThat(receiveNow(queue)).as("nothing was sent").isNull();
    }

    @Test
    void sendSetsTheHeadersOnTheSentMessage() throws Exception {
        MessageProducer p = session.createProducer(queue);
        TextMessage m = session.createTextMessage("m");
        m.setJMSDeliveryMode(DeliveryMode.PERSISTENT);
        m.setJMSPriority(0);
        long before = System.currentTimeMillis();
        p.send(m, DeliveryMode.NON_PERSISTENT, 7, 60_000);
        long after = System.currentTimeMillis();

        assertThat(m.getJMSMessageID()).startsWith("ID:");
        assertThat(m.getJMSDestination()).isEqualTo(queue);
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSPriority()).isEqualTo(7);
        assertThat(m.getJMSTimestamp()).isBetween(before, after);
        assertThat(m.getJMSExpiration()).isEqualTo(m.getJMSTimestamp() + 60_000);
        assertThat(m.getJMSDeliveryTime()).isEqualTo(m.getJMSTimestamp());

        Message got = session.createConsumer(queue).receive(5_000);
        assertThat(got.getJMSMessageID()).isEqualTo(m.getJMSMessageID());
        assertThat(got.getJMSDestination()).isEqualTo(queue);
        assertThat(got.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(got.getJMSPriority()).isEqualTo(7);
        assertThat(got.getJMSExpiration()).isEqualTo(m.getJMSExpiration());
        // explicit arguments do not change the producer's defaults
        assertThat(p.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(p.getPriority()).isEqualTo(4);
    }

    @Test
    void theProducersDefaultsAreTheSentMessagesHeaders() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.setPriority(2);
        p.setTimeToLive(0);
        TextMessage m = session.createTextMessage("m");
        m.setJMSPriority(9); // the producer decides, not the message
        p.send(m);
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getJMSPriority()).isEqualTo(2);
        assertThat(m.getJMSExpiration()).isZero();
        Message got = session.createConsumer(queue).receive(5_000);
        assertThat(got.getJMSPriority()).isEqualTo(2);
        assertThat(got.getJMSExpiration()).isZero();
    }

    @Test
    void disableMessageTimestampSendsATimestampOfZero() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.setDisableMessageTimestamp(true);
        assertThat(p.getDisableMessageTimestamp()).isTrue();
        Message m = session.createTextMessage("m");
        p.send(m);
        assertThat(m.getJMSTimestamp()).isZero();
        assertThat(session.createConsumer(queue).receive(5_000).getJMSTimestamp()).isZero();
    }

    @Test
    void disableMessageIdIsAHint() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.setDisableMessageID(true);
        assertThat(p.getDisableMessageID()).isTrue();
        Message m = session.createTextMessage("m");
        p.send(m);
        assertThat(m.getJMSMessageID()).satisfiesAnyOf(id -> assertThat(id).isNull(), id -> assertThat(id).startsWith("ID:"));
        assertThat(receive(queue)).isEqualTo("m");
    }

    @Test
    void theMessageSentIsACopy() throws Exception {
        MessageProducer p = session.createProducer(queue);
        TextMessage m = session.createTextMessage("first");
        p.send(m);
        m.setText("second");
        p.send(m);
        assertThat(receive(queue)).isEqualTo("first");
        assertThat(receive(queue)).isEqualTo("second");
    }

    @Test
    void aMessagePastItsTimeToLiveIsNotDelivered() throws Exception {
        MessageProducer p = session.createProducer(queue);
        Message m = session.createTextMessage("short-lived");
        p.send(m, DeliveryMode.PERSISTENT, 4, 500);
        p.send(session.createTextMessage("lasting"));
        await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(10))
                .until(() -> System.currentTimeMillis() > m.getJMSExpiration() + 1_500);
        assertThat(receive(queue)).isEqualTo("lasting");
        assertThat(receiveNow(queue)).isNull();
    }

    @Test
    void publishingToATopicWithoutSubscriptionsSucceedsAndReachesNobody() throws Exception {
        TextMessage m = session.createTextMessage("to nobody");
        session.createProducer(topic).send(m);
        assertThat(m.getJMSMessageID()).startsWith("ID:");
        MessageConsumer later = session.createConsumer(topic);
        assertThat(later.receive(200)).isNull();
        later.close();
        Session transacted = connection.createSession(Session.SESSION_TRANSACTED);
        transacted.createProducer(topic).send(transacted.createTextMessage("still nobody"));
        transacted.createProducer(queue).send(transacted.createTextMessage("the transaction goes on"));
        transacted.commit();
        assertThat(receive(queue)).isEqualTo("the transaction goes on");
    }

    @Test
    void aQueueSenderAndATopicPublisherKnowTheirDestination() throws Exception {
        QueueSession qs = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueSender sender = qs.createSender(queue);
        assertThat(sender.getQueue()).isEqualTo(queue);
        sender.send(qs.createTextMessage("sent"));
        assertThat(receive(queue)).isEqualTo("sent");
        QueueSender anySender = qs.createSender(null);
        assertThat(anySender.getQueue()).isNull();
        anySender.send(queue, qs.createTextMessage("named"));
        assertThat(receive(queue)).isEqualTo("named");

        TopicSession ts = connection.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer subscriber = ts.createSubscriber(topic);
        TopicPublisher publisher = ts.createPublisher(topic);
        assertThat(publisher.getTopic()).isEqualTo(topic);
        publisher.publish(ts.createTextMessage("published"));
        assertThat(((TextMessage) subscriber.receive(5_000)).getText()).isEqualTo("published");
        TopicPublisher anyPublisher = ts.createPublisher(null);
        anyPublisher.publish(topic, ts.createTextMessage("named"));
        assertThat(((TextMessage) subscriber.receive(5_000)).getText()).isEqualTo("named");
    }

    @Test
    void anotherProvidersDestinationIsTakenByItsName() throws Exception {
        Queue foreign = () -> "Q";
        MessageProducer p = session.createProducer(foreign);
        p.send(session.createTextMessage("via a foreign queue"));
        assertThat(receive(queue)).isEqualTo("via a foreign queue");
        session.createProducer(null).send(foreign, session.createTextMessage("named"));
        assertThat(receive(queue)).isEqualTo("named");
        Destination neither = new Destination() { };
        assertThatThrownBy(() -> session.createProducer(neither)).isInstanceOf(InvalidDestinationException.class);
    }

    private String receive(Queue q) throws JMSException {
        MessageConsumer c = session.createConsumer(q);
        try {
            Message m = c.receive(5_000);
            return m == null ? null : ((TextMessage) m).getText();
        } finally {
            c.close();
        }
    }

    private Message receiveNow(Queue q) throws JMSException {
        MessageConsumer c = session.createConsumer(q);
        try {
            return c.receive(200);
        } finally {
            c.close();
        }
    }

    private static final class Completion implements jakarta.jms.CompletionListener {
        @Override
        public void onCompletion(Message message) {
        }

        @Override
        public void onException(Message message, Exception exception) {
        }
    }
}
