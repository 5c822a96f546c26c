package io.aqueduct.jms.client;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** jakarta.jms.Session, QueueSession, TopicSession: lifecycle, transactions, domains, message factories. */
class SessionContractTest {
    private JmsStore store;
    private Queue queue;
    private Topic topic;
    private AqueductConnection connection;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("Q");
        topic = store.topic("T");
        connection = (AqueductConnection) store.factory().createConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
        store.close();
    }

    private void send(String text) throws JMSException {
        try (Connection c = store.factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(queue).send(s.createTextMessage(text));
        }
    }

    private String receiveText(int timeoutMillis) throws JMSException {
        try (Connection c = store.factory().createConnection()) {
            c.start();
            Message m = c.createSession().createConsumer(queue).receive(timeoutMillis);
            return m == null ? null : ((TextMessage) m).getText();
        }
    }

    // ------------------------------------------------------------------ close

    @Test
    void everyMethodButCloseThrowsIllegalStateExceptionAfterClose() throws Exception {
        Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Session transacted = connection.createSession(Session.SESSION_TRANSACTED);
        session.close();
        transacted.close();
        Refusals.of()
                .call("createMessage", session::createMessage)
                .call("createTextMessage", session::createTextMessage)
                .call("createTextMessage(String)", () -> session.createTextMessage("x"))
                .call("createBytesMessage", session::createBytesMessage)
                .call("createMapMessage", session::createMapMessage)
                .call("createObjectMessage", session::createObjectMessage)
                .call("createObjectMessage(Serializable)", () -> session.createObjectMessage("x"))
                .call("createStreamMessage", session::createStreamMessage)
                .call("getTransacted", session::getTransacted)
                .call("getAcknowledgeMode", session::getAcknowledgeMode)
                .call("commit", transacted::commit)
                .call("rollback", transacted::rollback)
                .call("recover", session::recover)
                .call("createProducer", () -> session.createProducer(queue))
                .call("createConsumer", () -> session.createConsumer(queue))
                .call("createConsumer(selector)", () -> session.createConsumer(queue, "a = 1"))
                .call("createConsumer(selector, noLocal)", () -> session.createConsumer(topic, null, true))
                .call("createBrowser", () -> session.createBrowser(queue))
                .call("createQueue", () -> session.createQueue("Q"))
                .call("createTopic", () -> session.createTopic("T"))
                .call("createTemporaryQueue", session::createTemporaryQueue)
                .call("createTemporaryTopic", session::createTemporaryTopic)
                .call("createDurableSubscriber", () -> session.createDurableSubscriber(topic, "d"))
                .call("createDurableConsumer", () -> session.createDurableConsumer(topic, "d"))
                .call("createSharedConsumer", () -> session.createSharedConsumer(topic, "s"))
                .call("createSharedDurableConsumer", () -> session.createSharedDurableConsumer(topic, "s"))
                .call("unsubscribe", () -> session.unsubscribe("d"))
                .call("getMessageListener", session::getMessageListener)
                .call("setMessageListener", () -> session.setMessageListener(m -> { }))
                .allThrow(IllegalStateException.class);
    }

    @Test
    void closingAClosedSessionDoesNothing() throws Exception {
        Session session = connection.createSession();
        session.close();
        assertThatCode(session::close).doesNotThrowAnyException();
    }

    @Test
    void closingTheSessionClosesItsProducersConsumersAndBrowsers() throws Exception {
        Session session = connection.createSession();
        MessageProducer producer = session.createProducer(queue);
        MessageConsumer consumer = session.createConsumer(queue);
        QueueBrowser browser = session.createBrowser(queue);
        session.close();
        Refusals.of()
                .call("producer.send", () -> producer.send(session.createMessage()))
                .call("producer.getPriority", producer::getPriority)
                .call("consumer.receiveNoWait", consumer::receiveNoWait)
                .call("consumer.getMessageSelector", consumer::getMessageSelector)
                .call("browser.getEnumeration", browser::getEnumeration)
                .call("browser.getQueue", browser::getQueue)
                .allThrow(IllegalStateException.class);
        assertThatCode(() -> connection.createSession().createProducer(queue).send(connection.createSession().createMessage()))
                .as("the connection goes on").doesNotThrowAnyException();
    }

    @Test
    void aReceiveBlockedOnAnotherThreadReturnsNullWhenTheSessionCloses() throws Exception {
        Session session = connection.createSession();
        MessageConsumer consumer = session.createConsumer(queue);
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        session.close();
        assertThat(receive.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void closingATransactedSessionRollsItsTransactionBack() throws Exception {
        send("received");
        Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
        assertThat(session.createConsumer(queue).receive(5_000)).isNotNull();
        session.createProducer(queue).send(session.createTextMessage("sent"));
        session.close();
        assertThat(receiveText(5_000)).isEqualTo("received");
        assertThat(receiveText(200)).isNull();
    }

    @Test
    void aMessageOfAClosedSessionCannotBeAcknowledged() throws Exception {
        send("m");
        Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Message m = session.createConsumer(queue).receive(5_000);
        session.close();
        assertThatThrownBy(m::acknowledge).isInstanceOf(IllegalStateException.class);
        assertThat(((TextMessage) m).getText()).as("the message itself stays usable").isEqualTo("m");
    }

    @Test
    void aListenerMayCloseItsOwnSessionAndItsMessageIsStillAcknowledged() throws Exception {
        send("closing");
        Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        session.createConsumer(queue).setMessageListener(m -> {
            try {
                session.close();
            } catch (Throwable t) {
                thrown.set(t);
            }
            done.complete(null);
        });
        done.get(10, TimeUnit.SECONDS);
        // Session.close: from its own listener it either throws IllegalStateException or closes the session;
        // if it closes an AUTO_ACKNOWLEDGE session, the message is still acknowledged when onMessage returns
        if (thrown.get() == null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ((AqueductSession) session).isClosed());
            assertThat(receiveText(1_000)).isNull();
        } else {
            assertThat(thrown.get()).isInstanceOf(IllegalStateException.class);
        }
    }

    // ------------------------------------------------------------------ transactions and acknowledgement

    @Test
    void commitAndRollbackAreForTransactedSessionsOnly() throws Exception {
        for (int mode : new int[] {Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE}) {
            Session session = connection.createSession(mode);
            assertThatThrownBy(session::commit).as("commit, mode %d", mode).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(session::rollback).as("rollback, mode %d", mode).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void recoverIsForSessionsThatAreNotTransacted() throws Exception {
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        assertThatThrownBy(session::recover).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTransactedSendIsDeliveredOnCommitOnly() throws Exception {
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        MessageProducer producer = session.createProducer(queue);
        producer.send(session.createTextMessage("discarded"));
        session.rollback();
        assertThat(receiveText(200)).isNull();
        producer.send(session.createTextMessage("committed"));
        assertThat(receiveText(200)).isNull();
        session.commit();
        assertThat(receiveText(5_000)).isEqualTo("committed");
    }

    @Test
    void aRolledBackReceiveIsDeliveredAgainAsRedelivered() throws Exception {
        send("m");
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        MessageConsumer consumer = session.createConsumer(queue);
        Message first = consumer.receive(5_000);
        assertThat(first.getJMSRedelivered()).isFalse();
        session.rollback();
        Message again = consumer.receive(5_000);
        assertThat(again.getJMSMessageID()).isEqualTo(first.getJMSMessageID());
        assertThat(again.getJMSRedelivered()).isTrue();
        assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        session.commit();
        assertThat(receiveText(200)).isNull();
    }

    @Test
    void recoverDeliversUnacknowledgedMessagesAgain() throws Exception {
        send("m");
        Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(queue);
        Message first = consumer.receive(5_000);
        session.recover();
        Message again = consumer.receive(5_000);
        assertThat(again.getJMSMessageID()).isEqualTo(first.getJMSMessageID());
        assertThat(again.getJMSRedelivered()).isTrue();
        again.acknowledge();
        session.close();
        assertThat(receiveText(200)).isNull();
    }

    // ------------------------------------------------------------------ domains

    @Test
    void aQueueSessionRefusesThePublishSubscribeMethods() throws Exception {
        QueueSession session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        Refusals.of()
                .call("createDurableSubscriber", () -> session.createDurableSubscriber(topic, "d"))
                .call("createDurableSubscriber(selector)", () -> session.createDurableSubscriber(topic, "d", null, false))
                .call("createDurableConsumer", () -> session.createDurableConsumer(topic, "d"))
                .call("createDurableConsumer(selector)", () -> session.createDurableConsumer(topic, "d", null, false))
                .call("createSharedConsumer", () -> session.createSharedConsumer(topic, "s"))
                .call("createSharedConsumer(selector)", () -> session.createSharedConsumer(topic, "s", null))
                .call("createSharedDurableConsumer", () -> session.createSharedDurableConsumer(topic, "s"))
                .call("createSharedDurableConsumer(selector)", () -> session.createSharedDurableConsumer(topic, "s", null))
                .call("createTemporaryTopic", session::createTemporaryTopic)
                .call("createTopic", () -> session.createTopic("T"))
                .call("unsubscribe", () -> session.unsubscribe("d"))
                .allThrow(IllegalStateException.class);
        assertThat(session.createQueue("Q")).isEqualTo(queue);
        assertThat(session.createReceiver(queue)).isNotNull();
        assertThat(session.createSender(queue)).isNotNull();
        assertThat(session.createBrowser(queue)).isNotNull();
        assertThat(session.createTemporaryQueue()).isNotNull();
    }

    @Test
    void aTopicSessionRefusesThePointToPointMethods() throws Exception {
        TopicSession session = connection.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        Refusals.of()
                .call("createBrowser", () -> session.createBrowser(queue))
                .call("createBrowser(selector)", () -> session.createBrowser(queue, "a = 1"))
                .call("createQueue", () -> session.createQueue("Q"))
                .call("createTemporaryQueue", session::createTemporaryQueue)
                .allThrow(IllegalStateException.class);
        assertThat(session.createTopic("T")).isEqualTo(topic);
        assertThat(session.createSubscriber(topic)).isNotNull();
        assertThat(session.createPublisher(topic)).isNotNull();
        assertThat(session.createTemporaryTopic()).isNotNull();
    }

    @Test
    void aSessionServesBothDomains() throws Exception {
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        session.createProducer(queue).send(session.createTextMessage("to the queue"));
        MessageConsumer subscriber = session.createConsumer(topic);
        session.createProducer(topic).send(session.createTextMessage("to the topic"));
        session.commit();
        assertThat(((TextMessage) subscriber.receive(5_000)).getText()).isEqualTo("to the topic");
        assertThat(((TextMessage) session.createConsumer(queue).receive(5_000)).getText()).isEqualTo("to the queue");
        session.commit();
    }

    // ------------------------------------------------------------------ messages and destinations

    @Test
    void theMessageFactoriesMakeNewWritableMessagesOfTheirType() throws Exception {
        Session session = connection.createSession();
        assertThat(session.createMessage()).isNotNull();
        assertThat(session.createTextMessage()).isInstanceOf(TextMessage.class);
        assertThat(session.createTextMessage("t").getText()).isEqualTo("t");
        assertThat(session.createBytesMessage()).isInstanceOf(BytesMessage.class);
        assertThat(session.createMapMessage()).isInstanceOf(MapMessage.class);
        assertThat(session.createStreamMessage()).isInstanceOf(StreamMessage.class);
        assertThat(session.createObjectMessage()).isInstanceOf(ObjectMessage.class);
        assertThat(session.createObjectMessage(42).getObject()).isEqualTo(42);
        TextMessage m = session.createTextMessage();
        m.setStringProperty("p", "v");
        m.setText("body");
        assertThat(m.getText()).isEqualTo("body");
    }

    @Test
    void createQueueAndCreateTopicNameDestinationsWithoutCreatingThem() throws Exception {
        Session session = connection.createSession();
        Queue q = session.createQueue("Q");
        Topic t = session.createTopic("T");
        assertThat(q.getQueueName()).isEqualTo("Q");
        assertThat(t.getTopicName()).isEqualTo("T");
        assertThat(session.createQueue("NOT_THERE").getQueueName()).isEqualTo("NOT_THERE");
    }

    @Test
    void createQueueRefusesANameThatIsNoQueueName() throws Exception {
        Session session = connection.createSession();
        assertThatThrownBy(() -> session.createQueue("no such name!")).isInstanceOf(JMSException.class);
        assertThatThrownBy(() -> session.createTopic("")).isInstanceOf(JMSException.class);
    }
}
