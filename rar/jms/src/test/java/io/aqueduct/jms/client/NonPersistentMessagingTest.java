package io.aqueduct.jms.client;

import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.time.AqClock;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * JMS NON_PERSISTENT messages are AQ buffered messages: sent outside a transaction they live in the
 * engine's memory (no store write); every consumer receives both delivery modes.
 */
class NonPersistentMessagingTest {
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
        connection.setClientID("np");
        connection.start();
        session = connection.createSession();
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

    private long bufferedIn(String queueName) {
        return store.admin().bufferedQueues().stream().filter(b -> b.name().equals(queueName))
                .mapToLong(BufferedQueueInfo::messages).sum();
    }

    /** Persistent messages of a queue, read through the AQ api (browse): buffered ones are not among them. */
    private int storedIn(String queueName) {
        return storedIn(queueName, null);
    }

    private int storedIn(String queueName, String consumer) {
        try (EngineSession s = store.engine.openSession(null)) {
            return s.dequeueArray(queueName, DequeueOptions.create().mode(io.aqueduct.api.DequeueMode.BROWSE)
                    .waitSeconds(DequeueOptions.NO_WAIT).consumerName(consumer), 100).size();
        }
    }

    @Test
    void aNonPersistentProducerSendsBufferedMessagesThatAreReceivedAsNonPersistent() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(session.createTextMessage("tick"));

        assertThat(bufferedIn("Q")).isEqualTo(1);
        assertThat(storedIn("Q")).isZero();
        Message m = session.createConsumer(queue).receive(5_000);
        assertThat(((TextMessage) m).getText()).isEqualTo("tick");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(bufferedIn("Q")).isZero();
    }

    @Test
    void aPerSendDeliveryModeChoosesForThatSendAndAConsumerTakesBothKindsInPriorityOrder() throws Exception {
        MessageProducer p = session.createProducer(queue); // PERSISTENT by default
        p.send(session.createTextMessage("stored, low"), DeliveryMode.PERSISTENT, 1, 0);
        p.send(session.createTextMessage("buffered, high"), DeliveryMode.NON_PERSISTENT, 8, 0);
        p.send(session.createTextMessage("stored, default"));

        assertThat(bufferedIn("Q")).isEqualTo(1);
        assertThat(storedIn("Q")).isEqualTo(2);
        MessageConsumer c = session.createConsumer(queue);
        List<String> got = new ArrayList<>();
        List<Integer> modes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Message m = c.receiveNoWait();
            got.add(((TextMessage) m).getText());
            modes.add(m.getJMSDeliveryMode());
        }
        assertThat(got).containsExactly("buffered, high", "stored, default", "stored, low");
        assertThat(modes).containsExactly(DeliveryMode.NON_PERSISTENT, DeliveryMode.PERSISTENT, DeliveryMode.PERSISTENT);
        assertThat(c.receiveNoWait()).isNull();
    }

    @Test
    void aWaitingReceiveIsWokenByANonPersistentSend() throws Exception {
        Session other = connection.createSession();
        MessageConsumer c = other.createConsumer(queue);
        CompletableFuture<Message> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return c.receive(30_000);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        MessageProducer p = session.createProducer(queue);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(session.createTextMessage("wake"));

        Message m = waiting.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(((TextMessage) m).getText()).isEqualTo("wake");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
    }

    @Test
    void aMessageListenerGetsNonPersistentMessages() throws Exception {
        Session listening = connection.createSession();
        List<String> heard = new CopyOnWriteArrayList<>();
        listening.createConsumer(queue).setMessageListener(m -> {
            try {
                heard.add(((TextMessage) m).getText() + "/" + m.getJMSDeliveryMode());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        MessageProducer p = session.createProducer(queue);
        p.send(session.createTextMessage("a"), DeliveryMode.NON_PERSISTENT, 4, 0);
        p.send(session.createTextMessage("b"), DeliveryMode.PERSISTENT, 4, 0);

        await().atMost(Duration.ofSeconds(20)).until(() -> heard.size() == 2);
        assertThat(heard).containsExactlyInAnyOrder("a/" + DeliveryMode.NON_PERSISTENT, "b/" + DeliveryMode.PERSISTENT);
        assertThat(bufferedIn("Q")).isZero();
    }

    @Test
    void aBrowserShowsThePersistentMessagesThenTheNonPersistentOnesAndLeavesThemAll() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.send(session.createTextMessage("p1"), DeliveryMode.PERSISTENT, 4, 0);
        p.send(session.createTextMessage("n1"), DeliveryMode.NON_PERSISTENT, 4, 0);
        p.send(session.createTextMessage("n2"), DeliveryMode.NON_PERSISTENT, 4, 0);
        p.send(session.createTextMessage("p2"), DeliveryMode.PERSISTENT, 4, 0);

        QueueBrowser b = session.createBrowser(queue);
        List<String> shown = new ArrayList<>();
        for (Object o : Collections.list(b.getEnumeration())) {
            Message m = (Message) o;
            shown.add(((TextMessage) m).getText() + (m.getJMSDeliveryMode() == DeliveryMode.NON_PERSISTENT ? "*" : ""));
        }
        assertThat(shown).containsExactly("p1", "p2", "n1*", "n2*");
        assertThat(bufferedIn("Q")).isEqualTo(2);
        assertThat(storedIn("Q")).isEqualTo(2);
    }

    @Test
    void durableAndSharedSubscriptionsEachReceiveANonPersistentPublication() throws Exception {
        MessageConsumer durable = session.createDurableSubscriber(topic, "d1");
        MessageConsumer shared = session.createSharedConsumer(topic, "s1");
        MessageProducer p = session.createProducer(topic);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(session.createTextMessage("news"));

        assertThat(bufferedIn("T")).isEqualTo(1);
        assertThat(store.admin().bufferedQueues().get(0).subscriberMessages()).hasSize(2);
        Message d = durable.receive(5_000);
        Message s = shared.receive(5_000);
        assertThat(((TextMessage) d).getText()).isEqualTo("news");
        assertThat(((TextMessage) s).getText()).isEqualTo("news");
        assertThat(d.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(s.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(bufferedIn("T")).isZero(); // each subscription's copy removed when it received it
    }

    @Test
    void aJmsContextProducerSendsNonPersistentAndItsConsumerReceivesIt() {
        try (JMSContext context = store.factory().createContext()) {
            context.createProducer().setDeliveryMode(DeliveryMode.NON_PERSISTENT).send(queue, "ctx");
            assertThat(bufferedIn("Q")).isEqualTo(1);
            JMSConsumer c = context.createConsumer(queue);
            assertThat(c.receiveBody(String.class, 5_000)).isEqualTo("ctx");
        }
        assertThat(bufferedIn("Q")).isZero();
    }

    @Test
    void inATransactedSessionANonPersistentSendBelongsToTheTransaction() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = tx.createProducer(queue);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(tx.createTextMessage("rolled back"));
        assertThat(session.createConsumer(queue).receiveNoWait()).as("not visible before commit").isNull();
        tx.rollback();
        p.send(tx.createTextMessage("committed"));
        tx.commit();

        assertThat(bufferedIn("Q")).as("kept with the transaction's other work, in the store").isZero();
        Message m = session.createConsumer(queue).receive(5_000);
        assertThat(((TextMessage) m).getText()).isEqualTo("committed");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(session.createConsumer(queue).receiveNoWait()).isNull();
    }

    @Test
    void aTransactedConsumerReceivesANonPersistentMessageAtMostOnce() throws Exception {
        MessageProducer p = session.createProducer(queue);
        p.send(session.createTextMessage("once"), DeliveryMode.NON_PERSISTENT, 4, 0);
        p.send(session.createTextMessage("again"), DeliveryMode.PERSISTENT, 3, 0);
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer c = tx.createConsumer(queue);
        assertThat(((TextMessage) c.receive(5_000)).getText()).isEqualTo("once");
        assertThat(((TextMessage) c.receive(5_000)).getText()).isEqualTo("again");
        tx.rollback();

        // the persistent one comes back (redelivered); the buffered one was removed at its receive
        Message back = c.receive(5_000);
        assertThat(((TextMessage) back).getText()).isEqualTo("again");
        assertThat(back.getJMSRedelivered()).isTrue();
        tx.commit();
        assertThat(c.receiveNoWait()).isNull();
    }

    @Test
    void aClientAcknowledgeRecoverDoesNotBringANonPersistentMessageBack() throws Exception {
        session.createProducer(queue).send(session.createTextMessage("gone"), DeliveryMode.NON_PERSISTENT, 4, 0);
        Session client = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c = client.createConsumer(queue);
        assertThat(((TextMessage) c.receive(5_000)).getText()).isEqualTo("gone");
        client.recover();
        assertThat(c.receiveNoWait()).isNull();
    }

    @Test
    void aNonPersistentSendToAQueueWhoseTableGroupsByTransactionIsStoredAsThatTableHoldsNoBufferedMessages()
            throws Exception {
        store.admin().createQueueTable("G_T", io.aqueduct.api.QueueTableProperties.create()
                .payloadType(io.aqueduct.api.PayloadType.RAW).messageGrouping(io.aqueduct.api.MessageGrouping.TRANSACTIONAL));
        store.admin().createQueue("G", "G_T", io.aqueduct.api.QueueProperties.create());
        store.admin().startQueue("G", true, true);
        Queue grouped = session.createQueue("G");
        session.createProducer(grouped).send(session.createTextMessage("kept"), DeliveryMode.NON_PERSISTENT, 4, 0);

        assertThat(bufferedIn("G")).isZero();
        assertThat(storedIn("G")).isEqualTo(1);
        Message m = session.createConsumer(grouped).receive(5_000);
        assertThat(((TextMessage) m).getText()).isEqualTo("kept");
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
    }

    @Test
    void aBufferedMessageEnqueuedThroughTheAqApiIsReceivedAsNonPersistent() throws Exception {
        try (EngineSession s = store.engine.openSession(null)) {
            s.enqueue("Q", EnqueueOptions.create().deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED)
                    .visibility(Visibility.IMMEDIATE), io.aqueduct.api.Message.of(new byte[] {1, 2, 3}));
        }
        Message m = session.createConsumer(queue).receive(5_000);
        assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(m.getBody(byte[].class)).containsExactly(1, 2, 3);
    }

    @Test
    void aNonPersistentSendThatFindsTheMemoryFullIsAResourceAllocationException() throws Exception {
        connection.close();
        store.close();
        store = JmsStore.open(AqClock.system(), b -> b.maxBufferedBytes(4_096).bufferedEnqueueWaitMillis(0));
        queue = store.queue("Q");
        connection = (AqueductConnection) store.factory().createConnection();
        session = connection.createSession();
        MessageProducer p = session.createProducer(queue);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        jakarta.jms.BytesMessage big = session.createBytesMessage();
        big.writeBytes(new byte[8_192]);

        assertThatThrownBy(() -> p.send(big)).isInstanceOf(ResourceAllocationException.class)
                .hasMessageContaining("25307")
                .satisfies(e -> assertThat(((ResourceAllocationException) e).getErrorCode()).isEqualTo("AQ-25307"));
        try (JMSContext context = store.factory().createContext()) {
            assertThatThrownBy(() -> context.createProducer().setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                    .send(queue, new byte[8_192])).isInstanceOf(ResourceAllocationRuntimeException.class);
        }
        assertThat(bufferedIn("Q")).isZero();
        p.setDeliveryMode(DeliveryMode.PERSISTENT);
        p.send(big); // a persistent message is not bounded by the buffered memory
        assertThat(storedIn("Q")).isEqualTo(1);
    }
}
