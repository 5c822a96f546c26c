package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** jakarta.jms.Connection: lifecycle, start / stop, client id, sessions, metadata. */
class ConnectionContractTest {
    private JmsStore store;
    private Queue queue;
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("Q");
        connection = store.factory().createConnection();
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

    // ------------------------------------------------------------------ close

    @Test
    void everyMethodButCloseThrowsIllegalStateExceptionAfterClose() throws Exception {
        connection.close();
        Refusals.of()
                .call("getClientID", () -> connection.getClientID())
                .call("setClientID", () -> connection.setClientID("late"))
                .call("createSession()", () -> connection.createSession())
                .call("createSession(int)", () -> connection.createSession(Session.AUTO_ACKNOWLEDGE))
                .call("createSession(boolean, int)", () -> connection.createSession(false, Session.AUTO_ACKNOWLEDGE))
                .call("createQueueSession", () -> ((AqueductConnection) connection).createQueueSession(false, Session.AUTO_ACKNOWLEDGE))
                .call("createTopicSession", () -> ((AqueductConnection) connection).createTopicSession(false, Session.AUTO_ACKNOWLEDGE))
                .call("start", () -> connection.start())
                .call("stop", () -> connection.stop())
                .call("getMetaData", () -> connection.getMetaData())
                .call("getExceptionListener", () -> connection.getExceptionListener())
                .call("setExceptionListener", () -> connection.setExceptionListener(e -> { }))
                .call("createConnectionConsumer", () -> connection.createConnectionConsumer(queue, null, () -> null, 1))
                .allThrow(IllegalStateException.class);
    }

    @Test
    void closingAClosedConnectionDoesNothing() throws Exception {
        connection.close();
        assertThatCode(connection::close).doesNotThrowAnyException();
    }

    @Test
    void closingTheConnectionClosesItsSessionsProducersConsumersAndBrowsers() throws Exception {
        Session session = connection.createSession();
        MessageProducer producer = session.createProducer(queue);
        MessageConsumer consumer = session.createConsumer(queue);
        QueueBrowser browser = session.createBrowser(queue);
        connection.close();
        Refusals.of()
                .call("session", session::createMessage)
                .call("producer", producer::getDeliveryMode)
                .call("consumer", consumer::receiveNoWait)
                .call("browser", browser::getEnumeration)
                .allThrow(IllegalStateException.class);
        assertThatCode(() -> {
            consumer.close();
            producer.close();
            browser.close();
            session.close();
        }).as("closing what the connection closed").doesNotThrowAnyException();
    }

    @Test
    void aReceiveBlockedOnAnotherThreadReturnsNullWhenTheConnectionCloses() throws Exception {
        connection.start();
        MessageConsumer consumer = connection.createSession().createConsumer(queue);
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        connection.close();
        assertThat(receive.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void aReceiveOnAStoppedConnectionReturnsNullWhenTheConnectionCloses() throws Exception {
        MessageConsumer consumer = connection.createSession().createConsumer(queue);
        send("waiting");
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        connection.close();
        assertThat(receive.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void closingTheConnectionRollsBackItsTransactedSessions() throws Exception {
        send("received in the transaction");
        connection.start();
        Session transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
        assertThat(transacted.createConsumer(queue).receive(5_000)).isNotNull();
        transacted.createProducer(queue).send(transacted.createTextMessage("sent in the transaction"));
        connection.close();

        try (Connection other = store.factory().createConnection()) {
            other.start();
            MessageConsumer consumer = other.createSession().createConsumer(queue);
            Message again = consumer.receive(5_000);
            assertThat(((TextMessage) again).getText()).isEqualTo("received in the transaction");
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(consumer.receiveNoWait()).isNull();
        }
    }

    @Test
    void closingTheConnectionDoesNotAcknowledgeClientAcknowledgedMessages() throws Exception {
        send("unacknowledged");
        connection.start();
        Session session = connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Message m = session.createConsumer(queue).receive(5_000);
        assertThat(m).isNotNull();
        connection.close();
        assertThatThrownBy(m::acknowledge).isInstanceOf(IllegalStateException.class);

        try (Connection other = store.factory().createConnection()) {
            other.start();
            Message again = other.createSession().createConsumer(queue).receive(5_000);
            assertThat(((TextMessage) again).getText()).isEqualTo("unacknowledged");
        }
    }

    // ------------------------------------------------------------------ start / stop

    @Test
    void aNewConnectionDeliversNothingUntilStarted() throws Exception {
        send("m");
        MessageConsumer consumer = connection.createSession().createConsumer(queue);
        assertThat(consumer.receive(300)).isNull();
        assertThat(consumer.receiveNoWait()).isNull();
        connection.start();
        assertThat(consumer.receive(5_000)).isNotNull();
    }

    @Test
    void aReceiveBlocksWhileTheConnectionIsStoppedAndStartDeliversTheMessage() throws Exception {
        connection.start();
        connection.stop();
        MessageConsumer consumer = connection.createSession().createConsumer(queue);
        send("after stop");
        CompletableFuture<Message> receive = CompletableFuture.supplyAsync(() -> {
            try {
                return consumer.receive();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !receive.isDone());
        connection.start();
        assertThat(((TextMessage) receive.get(10, TimeUnit.SECONDS)).getText()).isEqualTo("after stop");
    }

    @Test
    void listenersAreNotCalledWhileTheConnectionIsStopped() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        Session session = connection.createSession();
        session.createConsumer(queue).setMessageListener(m -> got.add(text(m)));
        connection.start();
        send("one");
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 1);

        connection.stop();
        send("two");
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> got.size() == 1);
        connection.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 2);
        assertThat(got).containsExactly("one", "two");
    }

    @Test
    void stopWaitsForAListenerInProgress() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        CompletableFuture<Void> entered = new CompletableFuture<>();
        AtomicReference<Boolean> finished = new AtomicReference<>(false);
        connection.createSession().createConsumer(queue).setMessageListener(m -> {
            entered.complete(null);
            release.join();
            finished.set(true);
        });
        connection.start();
        send("slow");
        entered.get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> {
            try {
                connection.stop();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        try {
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> !stop.isDone());
        } finally {
            release.complete(null);
        }
        stop.get(10, TimeUnit.SECONDS);
        assertThat(finished.get()).isTrue();
    }

    @Test
    void startAndStopAreIdempotent() throws Exception {
        connection.start();
        connection.start();
        connection.stop();
        connection.stop();
        connection.start();
        send("m");
        assertThat(connection.createSession().createConsumer(queue).receive(5_000)).isNotNull();
    }

    @Test
    void aListenerCannotStopOrCloseItsOwnConnection() throws Exception {
        AtomicReference<Throwable> onStop = new AtomicReference<>();
        AtomicReference<Throwable> onClose = new AtomicReference<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        connection.createSession().createConsumer(queue).setMessageListener(m -> {
            try {
                connection.stop();
            } catch (Throwable t) {
                onStop.set(t);
            }
            try {
                connection.close();
            } catch (Throwable t) {
                onClose.set(t);
            }
            done.complete(null);
        });
        connection.start();
        send("m");
        done.get(10, TimeUnit.SECONDS);
        assertThat(onStop.get()).isInstanceOf(IllegalStateException.class);
        assertThat(onClose.get()).isInstanceOf(IllegalStateException.class);
    }

    // ------------------------------------------------------------------ client id

    @Test
    void aClientIdIsSetOnce() throws Exception {
        assertThat(connection.getClientID()).isNull();
        connection.setClientID("client-1");
        assertThat(connection.getClientID()).isEqualTo("client-1");
        assertThatThrownBy(() -> connection.setClientID("client-2")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> connection.setClientID("client-1")).isInstanceOf(IllegalStateException.class);
        assertThat(connection.getClientID()).isEqualTo("client-1");
    }

    @Test
    void aClientIdIsSetBeforeTheConnectionIsUsed() throws Exception {
        connection.createSession().close();
        assertThatThrownBy(() -> connection.setClientID("late")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aClientIdCannotBeSetAfterStart() throws Exception {
        connection.start();
        assertThatThrownBy(() -> connection.setClientID("late")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aClientIdInUseByAnotherConnectionIsInvalid() throws Exception {
        connection.setClientID("shared");
        try (Connection other = store.factory().createConnection()) {
            assertThatThrownBy(() -> other.setClientID("shared")).isInstanceOf(InvalidClientIDException.class);
            assertThat(other.getClientID()).isNull();
            other.setClientID("another"); // the refused id did not count as setting one
            assertThat(other.getClientID()).isEqualTo("another");
        }
    }

    @Test
    void aClosedConnectionReleasesItsClientId() throws Exception {
        connection.setClientID("reused");
        connection.close();
        try (Connection other = store.factory().createConnection()) {
            other.setClientID("reused");
            assertThat(other.getClientID()).isEqualTo("reused");
        }
    }

    @Test
    void anEmptyOrNullClientIdIsInvalid() throws Exception {
        assertThatThrownBy(() -> connection.setClientID("")).isInstanceOf(InvalidClientIDException.class);
        assertThatThrownBy(() -> connection.setClientID(null)).isInstanceOf(InvalidClientIDException.class);
    }

    @Test
    void anAdministrativelyConfiguredClientIdCannotBeChanged() throws Exception {
        AqueductConnectionFactory configured = new AqueductConnectionFactory(store.engine, Users.anyone(null), "configured");
        try (Connection c = configured.createConnection()) {
            assertThat(c.getClientID()).isEqualTo("configured");
            assertThatThrownBy(() -> c.setClientID("mine")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> c.setClientID("configured")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(configured::createConnection).as("a second connection with the configured id")
                    .isInstanceOf(InvalidClientIDException.class);
        }
        try (Connection again = configured.createConnection()) {
            assertThat(again.getClientID()).isEqualTo("configured");
        }
    }

    // ------------------------------------------------------------------ sessions

    @Test
    void aTransactedSessionIgnoresTheAcknowledgeMode() throws Exception {
        Session s = connection.createSession(true, Session.CLIENT_ACKNOWLEDGE);
        assertThat(s.getTransacted()).isTrue();
        assertThat(s.getAcknowledgeMode()).isEqualTo(Session.SESSION_TRANSACTED);
    }

    @Test
    void aSessionHasTheModeItWasCreatedWith() throws Exception {
        assertThat(connection.createSession().getAcknowledgeMode()).isEqualTo(Session.AUTO_ACKNOWLEDGE);
        assertThat(connection.createSession().getTransacted()).isFalse();
        for (int mode : new int[] {Session.AUTO_ACKNOWLEDGE, Session.CLIENT_ACKNOWLEDGE, Session.DUPS_OK_ACKNOWLEDGE}) {
            Session byInt = connection.createSession(mode);
            assertThat(byInt.getAcknowledgeMode()).isEqualTo(mode);
            assertThat(byInt.getTransacted()).isFalse();
            Session byFlag = connection.createSession(false, mode);
            assertThat(byFlag.getAcknowledgeMode()).isEqualTo(mode);
            assertThat(byFlag.getTransacted()).isFalse();
        }
        Session transacted = connection.createSession(Session.SESSION_TRANSACTED);
        assertThat(transacted.getTransacted()).isTrue();
    }

    @Test
    void anInvalidSessionModeIsRefused() {
        Refusals.of()
                .call("createSession(-1)", () -> connection.createSession(-1))
                .call("createSession(4)", () -> connection.createSession(4))
                .call("createSession(false, 99)", () -> connection.createSession(false, 99))
                .call("createQueueSession(false, 99)", () -> ((AqueductConnection) connection).createQueueSession(false, 99))
                .call("createTopicSession(false, 99)", () -> ((AqueductConnection) connection).createTopicSession(false, 99))
                .allThrow(JMSException.class);
    }

    @Test
    void aSessionThatIsNotTransactedCannotHaveTheTransactedMode() throws Exception {
        // transacted false: "the session will be non-transacted"; SESSION_TRANSACTED is not an acknowledge mode
        assertThatThrownBy(() -> connection.createSession(false, Session.SESSION_TRANSACTED)).isInstanceOf(JMSException.class);
        assertThatThrownBy(() -> ((AqueductConnection) connection).createQueueSession(false, Session.SESSION_TRANSACTED))
                .isInstanceOf(JMSException.class);
        assertThatThrownBy(() -> ((AqueductConnection) connection).createTopicSession(false, Session.SESSION_TRANSACTED))
                .isInstanceOf(JMSException.class);
    }

    @Test
    void aQueueConnectionRefusesSubscriptionConnectionConsumers() throws Exception {
        jakarta.jms.Topic topic = store.topic("T");
        try (jakarta.jms.QueueConnection qc = store.factory().createQueueConnection();
                jakarta.jms.XAQueueConnection xqc = store.xaFactory().createXAQueueConnection()) {
            for (jakarta.jms.QueueConnection c : List.of(qc, xqc)) {
                Refusals.of()
                        .call("createSharedConnectionConsumer", () -> c.createSharedConnectionConsumer(topic, "s", null, () -> null, 1))
                        .call("createDurableConnectionConsumer", () -> c.createDurableConnectionConsumer(topic, "d", null, () -> null, 1))
                        .call("createSharedDurableConnectionConsumer",
                                () -> c.createSharedDurableConnectionConsumer(topic, "s", null, () -> null, 1))
                        .allThrow(IllegalStateException.class);
            }
        }
    }

    // ------------------------------------------------------------------ metadata, exception listener

    @Test
    void theMetaDataNamesJakartaMessaging31AndTheSupportedJmsxProperties() throws Exception {
        ConnectionMetaData md = connection.getMetaData();
        assertThat(md.getJMSVersion()).isEqualTo("3.1");
        assertThat(md.getJMSMajorVersion()).isEqualTo(3);
        assertThat(md.getJMSMinorVersion()).isEqualTo(1);
        assertThat(md.getJMSProviderName()).isEqualTo("Aqueduct");
        assertThat(md.getProviderVersion()).isNotBlank();
        assertThat(Collections.list(md.getJMSXPropertyNames()))
                .contains("JMSXDeliveryCount", "JMSXGroupID", "JMSXGroupSeq");
    }

    @Test
    void theExceptionListenerIsTheOneSet() throws Exception {
        assertThat(connection.getExceptionListener()).isNull();
        jakarta.jms.ExceptionListener l = e -> { };
        connection.setExceptionListener(l);
        assertThat(connection.getExceptionListener()).isSameAs(l);
        connection.setExceptionListener(null);
        assertThat(connection.getExceptionListener()).isNull();
    }

    private static String text(Message m) {
        try {
            return ((TextMessage) m).getText();
        } catch (JMSException e) {
            throw new RuntimeException(e);
        }
    }
}
