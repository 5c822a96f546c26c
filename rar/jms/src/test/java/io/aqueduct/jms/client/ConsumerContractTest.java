package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** jakarta.jms.MessageConsumer, QueueReceiver, TopicSubscriber. */
class ConsumerContractTest {
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

    private void send(String text) throws JMSException {
        try (Connection c = store.factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(queue).send(s.createTextMessage(text));
        }
    }

    private static String text(Message m) {
        try {
            return m == null ? null : ((TextMessage) m).getText();
        } catch (JMSException e) {
            throw new RuntimeException(e);
        }
    }

    // ------------------------------------------------------------------ close

    @Test
    void everyMethodButCloseThrowsIllegalStateExceptionAfterClose() throws Exception {
        QueueReceiver receiver = (QueueReceiver) session.createConsumer(queue, "a = 1");
        TopicSubscriber subscriber = (TopicSubscriber) session.createConsumer(topic);
        receiver.close();
        subscriber.close();
        Refusals.of()
                .call("receive()", receiver::receive)
                .call("receive(timeout)", () -> receiver.receive(100))
                .call("receiveNoWait", receiver::receiveNoWait)
                .call("getMessageSelector", receiver::getMessageSelector)
                .call("getMessageListener", receiver::getMessageListener)
                .call("setMessageListener", () -> receiver.setMessageListener(m -> { }))
                .call("getQueue", receiver::getQueue)
                .call("getTopic", subscriber::getTopic)
                .call("getNoLocal", subscriber::getNoLocal)
                .allThrow(IllegalStateException.class);
        assertThatCode(receiver::close).as("close again").doesNotThrowAnyException();
    }

    @Test
    void aReceiveBlockedOnAnotherThreadReturnsNullWhenTheConsumerCloses() throws Exception {
        MessageConsumer consumer = session.createConsumer(queue);
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        consumer.close();
        assertThat(receive.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void closingAConsumerWaitsForItsListenerInProgressOnAnotherThread() throws Exception {
        CompletableFuture<Void> entered = new CompletableFuture<>();
        CompletableFuture<Void> release = new CompletableFuture<>();
        AtomicBoolean finished = new AtomicBoolean();
        MessageConsumer consumer = session.createConsumer(queue);
        consumer.setMessageListener(m -> {
            entered.complete(null);
            release.join();
            finished.set(true);
        });
        send("slow");
        entered.get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> close = CompletableFuture.runAsync(() -> {
            try {
                consumer.close();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        try {
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !close.isDone());
        } finally {
            release.complete(null);
        }
        close.get(10, TimeUnit.SECONDS);
        assertThat(finished).isTrue();
    }

    @Test
    void aListenerMayCloseItsOwnConsumerAndCompletesNormally() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<String> done = new CompletableFuture<>();
        MessageConsumer consumer = session.createConsumer(queue);
        consumer.setMessageListener(m -> {
            try {
                consumer.close();
            } catch (Throwable t) {
                thrown.set(t);
            }
            done.complete(text(m));
        });
        send("one");
        assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo("one");
        assertThat(thrown.get()).isNull();
        assertThatThrownBy(consumer::getMessageListener).isInstanceOf(IllegalStateException.class);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (Connection c = store.factory().createConnection()) {
                c.start();
                assertThat(c.createSession().createConsumer(queue).receive(200)).as("acknowledged").isNull();
            }
        });
    }

    // ------------------------------------------------------------------ destinations and selectors

    @Test
    void aNullDestinationIsAnInvalidDestinationException() throws Exception {
        QueueSession qs = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        TopicSession ts = connection.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        Refusals.of()
                .call("createConsumer", () -> session.createConsumer(null))
                .call("createConsumer(selector)", () -> session.createConsumer(null, "a = 1"))
                .call("createConsumer(selector, noLocal)", () -> session.createConsumer(null, null, false))
                .call("createReceiver", () -> qs.createReceiver(null))
                .call("createReceiver(selector)", () -> qs.createReceiver(null, "a = 1"))
                .call("createSubscriber", () -> ts.createSubscriber(null))
                .call("createSubscriber(selector, noLocal)", () -> ts.createSubscriber(null, null, true))
                .call("createDurableSubscriber", () -> session.createDurableSubscriber(null, "d"))
                .call("createDurableConsumer", () -> session.createDurableConsumer(null, "d"))
                .call("createSharedConsumer", () -> session.createSharedConsumer(null, "s"))
                .call("createSharedDurableConsumer", () -> session.createSharedDurableConsumer(null, "s"))
                .allThrow(InvalidDestinationException.class);
    }

    @Test
    void aDestinationThatDoesNotExistIsAnInvalidDestinationException() throws Exception {
        Refusals.of()
                .call("queue", () -> session.createConsumer(session.createQueue("NOT_THERE")))
                .call("topic", () -> session.createConsumer(session.createTopic("NOT_THERE")))
                .call("a topic named as a queue", () -> session.createConsumer(session.createQueue("T")))
                .call("a queue named as a topic", () -> session.createConsumer(session.createTopic("Q")))
                .call("durable", () -> session.createDurableConsumer(session.createTopic("NOT_THERE"), "d"))
                .allThrow(InvalidDestinationException.class);
    }

    @Test
    void aMalformedSelectorIsAnInvalidSelectorException() throws Exception {
        connection.close();
        connection = (AqueductConnection) store.factory().createConnection();
        connection.setClientID("selectors");
        session = connection.createSession();
        QueueSession qs = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        TopicSession ts = connection.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        String bad = "a = = 1";
        Refusals.of()
                .call("queue consumer", () -> session.createConsumer(queue, bad))
                .call("receiver", () -> qs.createReceiver(queue, bad))
                .call("topic consumer", () -> session.createConsumer(topic, bad))
                .call("topic consumer, noLocal", () -> session.createConsumer(topic, bad, true))
                .call("subscriber", () -> ts.createSubscriber(topic, bad, false))
                .call("durable", () -> session.createDurableConsumer(topic, "d", bad, false))
                .call("durable subscriber", () -> ts.createDurableSubscriber(topic, "d", bad, false))
                .call("shared", () -> session.createSharedConsumer(topic, "s", bad))
                .call("shared durable", () -> session.createSharedDurableConsumer(topic, "s", bad))
                .call("browser", () -> session.createBrowser(queue, bad))
                .call("selector on a string in arithmetic", () -> session.createConsumer(queue, "'a' + 1 = 2"))
                .allThrow(InvalidSelectorException.class);
    }

    @Test
    void theSelectorIsNullWhenNoneOrEmptyWasGiven() throws Exception {
        assertThat(session.createConsumer(queue).getMessageSelector()).isNull();
        assertThat(session.createConsumer(queue, "").getMessageSelector()).isNull();
        assertThat(session.createConsumer(queue, null).getMessageSelector()).isNull();
        assertThat(session.createConsumer(queue, "a = 1").getMessageSelector()).isEqualTo("a = 1");
        assertThat(session.createConsumer(topic, "b = 2").getMessageSelector()).isEqualTo("b = 2");
    }

    @Test
    void aReceiverAndASubscriberKnowTheirDestination() throws Exception {
        QueueReceiver r = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE).createReceiver(queue);
        assertThat(r.getQueue()).isEqualTo(queue);
        TopicSubscriber s = connection.createTopicSession(false, Session.AUTO_ACKNOWLEDGE).createSubscriber(topic, null, true);
        assertThat(s.getTopic()).isEqualTo(topic);
        assertThat(s.getNoLocal()).isTrue();
    }

    @Test
    void anotherProvidersQueueAndTopicAreTakenByTheirNames() throws Exception {
        Queue foreignQueue = () -> "Q";
        Topic foreignTopic = () -> "T";
        MessageConsumer fromQueue = session.createConsumer(foreignQueue);
        MessageConsumer fromTopic = session.createConsumer(foreignTopic);
        session.createProducer(queue).send(session.createTextMessage("queued"));
        session.createProducer(topic).send(session.createTextMessage("published"));
        assertThat(text(fromQueue.receive(5_000))).isEqualTo("queued");
        assertThat(text(fromTopic.receive(5_000))).isEqualTo("published");
    }

    // ------------------------------------------------------------------ receiving

    @Test
    void aReceivedMessageIsReadOnlyUntilCleared() throws Exception {
        Session s = connection.createSession();
        MapMessage sent = s.createMapMessage();
        sent.setString("k", "v");
        sent.setStringProperty("p", "v");
        s.createProducer(queue).send(sent);
        send("text");
        MessageConsumer consumer = s.createConsumer(queue);
        MapMessage map = (MapMessage) consumer.receive(5_000);
        TextMessage text = (TextMessage) consumer.receive(5_000);
        Refusals.of()
                .call("property", () -> map.setStringProperty("p", "w"))
                .call("map body", () -> map.setString("k", "w"))
                .call("text body", () -> text.setText("w"))
                .call("object property", () -> text.setObjectProperty("o", 1))
                .allThrow(MessageNotWriteableException.class);
        text.clearBody();
        text.setText("rewritten");
        assertThat(text.getText()).isEqualTo("rewritten");
        map.clearProperties();
        map.setStringProperty("p", "w");
        assertThat(map.getStringProperty("p")).isEqualTo("w");
        assertThat(map.getString("k")).as("the body stays").isEqualTo("v");
    }

    @Test
    void receiveWithATimeoutReturnsNullWhenNothingComes() throws Exception {
        MessageConsumer consumer = session.createConsumer(queue);
        long start = System.nanoTime();
        assertThat(consumer.receive(300)).isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(consumer.receiveNoWait()).isNull();
    }

    @Test
    void aReceiveWithTheLongestTimeoutWaits() throws Exception {
        MessageConsumer consumer = session.createConsumer(queue);
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive(Long.MAX_VALUE);
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        send("eventually");
        assertThat(text(receive.get(10, TimeUnit.SECONDS))).isEqualTo("eventually");
    }

    @Test
    void aReceiveWaitingOnAnotherThreadGetsAMessageSentLater() throws Exception {
        MessageConsumer consumer = session.createConsumer(queue);
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive(0);
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        send("later");
        assertThat(text(receive.get(10, TimeUnit.SECONDS))).isEqualTo("later");
    }

    @Test
    void aListenerReceivesMessagesInOrderAndStopsWhenRemoved() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        MessageConsumer consumer = session.createConsumer(queue);
        jakarta.jms.MessageListener l = m -> got.add(text(m));
        consumer.setMessageListener(l);
        assertThat(consumer.getMessageListener()).isSameAs(l);
        send("1");
        send("2");
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 2);
        assertThat(got).containsExactly("1", "2");
        consumer.setMessageListener(null);
        assertThat(consumer.getMessageListener()).isNull();
        send("3");
        assertThat(text(consumer.receive(5_000))).isEqualTo("3");
        assertThat(got).containsExactly("1", "2");
    }

    @Test
    void aSynchronousReceiveIsRefusedInASessionWithAListener() throws Exception {
        session.createConsumer(queue).setMessageListener(m -> { });
        MessageConsumer other = session.createConsumer(queue);
        assertThatThrownBy(() -> other.receiveNoWait()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTopicSubscriberReceivesWhatIsPublishedAfterItSubscribed() throws Exception {
        session.createProducer(topic).send(session.createTextMessage("before"));
        MessageConsumer subscriber = session.createConsumer(topic);
        session.createProducer(topic).send(session.createTextMessage("after"));
        assertThat(text(subscriber.receive(5_000))).isEqualTo("after");
        assertThat(subscriber.receive(200)).isNull();
    }

    @Test
    void noLocalSkipsTheConnectionsOwnMessages() throws Exception {
        MessageConsumer noLocal = session.createConsumer(topic, null, true);
        session.createProducer(topic).send(session.createTextMessage("own"));
        try (Connection other = store.factory().createConnection()) {
            Session s = other.createSession();
            s.createProducer(topic).send(s.createTextMessage("other's"));
        }
        assertThat(text(noLocal.receive(5_000))).isEqualTo("other's");
        assertThat(noLocal.receive(200)).isNull();
    }
}
