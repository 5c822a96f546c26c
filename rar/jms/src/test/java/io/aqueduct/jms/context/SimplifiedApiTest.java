package io.aqueduct.jms.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.jms.client.JmsStore;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.XAJMSContext;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** JMSContext, JMSProducer and JMSConsumer over the real classic provider and a real engine. */
class SimplifiedApiTest {
    private static final long WAIT = 5_000;

    private JmsStore store;
    private Queue orders;
    private JMSContext context;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        orders = store.queue("ORDERS");
        context = store.factory().createContext();
    }

    @AfterEach
    void close() {
        // null when JmsStore.open skipped the test (a server store that is not configured)
        if (context != null) {
            context.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void eachBodyTypeMakesTheRoundTrip() {
        JMSConsumer consumer = context.createConsumer(orders);

        context.createProducer().send(orders, "text").send(orders, Map.<String, Object>of("n", 7))
                .send(orders, new byte[] {1, 2}).send(orders, (java.io.Serializable) List.of("a", "b"));

        assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("text");
        assertThat(consumer.receiveBody(Map.class, WAIT)).containsEntry("n", 7);
        assertThat(consumer.receiveBody(byte[].class, WAIT)).containsExactly(1, 2);
        assertThat(consumer.receiveBody(List.class, WAIT)).containsExactly("a", "b");
    }

    @Test
    void aNullBodySendsAMessageOfThatTypeWithoutABody() throws Exception {
        JMSConsumer consumer = context.createConsumer(orders);

        context.createProducer().send(orders, (String) null).send(orders, (Map<String, Object>) null)
                .send(orders, (byte[]) null).send(orders, (java.io.Serializable) null);

        assertThat(((TextMessage) consumer.receive(WAIT)).getText()).isNull();
        assertThat(((MapMessage) consumer.receive(WAIT)).getMapNames().hasMoreElements()).isFalse();
        assertThat(((BytesMessage) consumer.receive(WAIT)).getBodyLength()).isZero();
        assertThat(((ObjectMessage) consumer.receive(WAIT)).getObject()).isNull();
    }

    @Test
    void receiveBodyOfTheWrongTypeLeavesTheMessageForTheNextReceive() throws Exception {
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, "first").send(orders, "second");

        assertThatThrownBy(() -> consumer.receiveBody(byte[].class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class);

        Message again = consumer.receive(WAIT);
        assertThat(((TextMessage) again).getText()).isEqualTo("first");
        assertThat(again.getJMSRedelivered()).as("not a redelivery").isFalse();
        assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("second");
    }

    @Test
    void aMessageWhoseBodyWasRefusedIsNotAcknowledgedSoItOutlivesTheContext() {
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, "kept");

        assertThatThrownBy(() -> consumer.receiveBody(Map.class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class);
        context.close();

        context = store.factory().createContext();
        assertThat(context.createConsumer(orders).receiveBody(String.class, WAIT)).isEqualTo("kept");
    }

    @Test
    void inClientAcknowledgeARefusedBodyCountsAsDeliveredAndRecoverBringsItBack() throws Exception {
        context.close();
        context = store.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, "first").send(orders, "second");

        assertThatThrownBy(() -> consumer.receiveBody(byte[].class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class);
        assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("second");

        context.recover();
        Message redelivered = consumer.receive(WAIT);
        assertThat(((TextMessage) redelivered).getText()).isEqualTo("first");
        assertThat(redelivered.getJMSRedelivered()).isTrue();
    }

    @Test
    void receiveBodyRefusesAStreamMessageAPlainMessageAndAMessageWithoutBody() {
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, context.createStreamMessage()).send(orders, context.createMessage())
                .send(orders, (String) null);

        assertThatThrownBy(() -> consumer.receiveBody(Object.class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class)
                .hasMessageContaining("StreamMessage");
        assertThat(consumer.receive(WAIT)).isInstanceOf(jakarta.jms.StreamMessage.class);
        assertThatThrownBy(() -> consumer.receiveBody(Object.class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class);
        assertThat(consumer.receive(WAIT)).isNotInstanceOf(TextMessage.class);
        assertThatThrownBy(() -> consumer.receiveBody(String.class, WAIT)).isInstanceOf(MessageFormatRuntimeException.class)
                .hasMessageContaining("no body");
    }

    @Test
    void theProducersHeadersPropertiesAndOptionsOverrideTheMessagesOwn() throws Exception {
        Queue replies = context.createTemporaryQueue();
        TextMessage message = context.createTextMessage("order");
        message.setJMSType("old");
        message.setStringProperty("region", "north");

        context.createProducer().setProperty("region", "south").setProperty("lines", 3).setJMSType("new")
                .setJMSCorrelationID("c-1").setJMSReplyTo(replies).setPriority(7)
                .setDeliveryMode(DeliveryMode.NON_PERSISTENT).send(orders, message);

        Message received = context.createConsumer(orders).receive(WAIT);
        assertThat(received.getStringProperty("region")).isEqualTo("south");
        assertThat(received.getIntProperty("lines")).isEqualTo(3);
        assertThat(received.getJMSType()).isEqualTo("new");
        assertThat(received.getJMSCorrelationID()).isEqualTo("c-1");
        assertThat(received.getJMSReplyTo()).isEqualTo(replies);
        assertThat(received.getJMSPriority()).isEqualTo(7);
        assertThat(received.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
    }

    @Test
    void aTimeToLiveGivesTheMessageAnExpiration() throws Exception {
        context.createProducer().setTimeToLive(60_000).send(orders, "soon stale");

        assertThat(context.createConsumer(orders).receive(WAIT).getJMSExpiration()).isGreaterThan(System.currentTimeMillis());
    }

    @Test
    void resendingAReceivedMessageWithProducerPropertiesIsMessageNotWriteable() {
        context.createProducer().send(orders, "once");
        Message received = context.createConsumer(orders).receive(WAIT);

        assertThatThrownBy(() -> context.createProducer().setProperty("hop", 2).send(orders, received))
                .isInstanceOf(MessageNotWriteableRuntimeException.class);
    }

    @Test
    void clientAcknowledgeAcknowledgesEverythingTheContextConsumed() {
        context.close();
        context = store.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, "a").send(orders, "b").send(orders, "c");
        consumer.receive(WAIT);
        consumer.receive(WAIT);

        context.acknowledge();
        context.close();

        context = store.factory().createContext();
        JMSConsumer next = context.createConsumer(orders);
        assertThat(next.receiveBody(String.class, WAIT)).isEqualTo("c");
        assertThat(next.receiveNoWait()).isNull();
    }

    @Test
    void unacknowledgedClientAcknowledgedMessagesComeBackAfterClose() {
        context.close();
        context = store.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        context.createProducer().send(orders, "a");
        context.createConsumer(orders).receive(WAIT);
        context.close();

        context = store.factory().createContext();
        assertThat(context.createConsumer(orders).receiveBody(String.class, WAIT)).isEqualTo("a");
    }

    @Test
    void aTransactedContextSendsOnCommitAndRedeliversOnRollback() throws Exception {
        context.close();
        context = store.factory().createContext(JMSContext.SESSION_TRANSACTED);
        JMSConsumer consumer = context.createConsumer(orders);

        context.createProducer().send(orders, "t");
        assertThat(consumer.receiveNoWait()).as("not yet committed").isNull();
        context.commit();

        assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("t");
        context.rollback();
        Message again = consumer.receive(WAIT);
        assertThat(again.getJMSRedelivered()).isTrue();
        context.commit();
        assertThat(consumer.receiveNoWait()).isNull();
    }

    @Test
    void withoutAutoStartNothingIsDeliveredUntilStart() {
        context.setAutoStart(false);
        JMSConsumer consumer = context.createConsumer(orders);
        context.createProducer().send(orders, "waiting");

        assertThat(consumer.receive(300)).isNull();
        context.start();
        assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("waiting");
    }

    @Test
    void aListenerReceivesAndAnAutoAcknowledgedListenerThatThrowsGetsTheMessageAgain() {
        List<String> seen = new CopyOnWriteArrayList<>();
        context.createConsumer(orders).setMessageListener(m -> {
            String text = body(m);
            seen.add(text + (redelivered(m) ? " again" : ""));
            if (seen.size() == 1) {
                throw new IllegalArgumentException("the first attempt fails");
            }
        });

        context.createProducer().send(orders, "x");

        await().atMost(Duration.ofMillis(WAIT)).until(() -> seen.size() >= 2);
        assertThat(seen).containsExactly("x", "x again");
    }

    @Test
    void aListenerCannotCloseOrStopItsOwnContext() {
        AtomicReference<RuntimeException> onClose = new AtomicReference<>();
        AtomicReference<RuntimeException> onStop = new AtomicReference<>();
        context.createConsumer(orders).setMessageListener(m -> {
            onClose.set(thrownBy(context::close));
            onStop.set(thrownBy(context::stop));
        });

        context.createProducer().send(orders, "close yourself");

        await().atMost(Duration.ofMillis(WAIT)).until(() -> onStop.get() != null);
        assertThat(onClose.get()).isInstanceOf(IllegalStateRuntimeException.class);
        assertThat(onStop.get()).isInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void anAsynchronousSendCompletesAndItsListenerCannotCloseOrCommitTheContext() {
        context.close();
        context = store.factory().createContext(JMSContext.SESSION_TRANSACTED);
        AtomicReference<Message> completed = new AtomicReference<>();
        List<RuntimeException> refused = new CopyOnWriteArrayList<>();
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                refused.add(thrownBy(context::close));
                refused.add(thrownBy(context::commit));
                refused.add(thrownBy(context::rollback));
                completed.set(message);
            }

            @Override
            public void onException(Message message, Exception exception) {
            }
        };

        context.createProducer().setAsync(listener).send(orders, "async");

        await().atMost(Duration.ofMillis(WAIT)).until(() -> completed.get() != null);
        assertThat(refused).hasSize(3).allMatch(e -> e instanceof IllegalStateRuntimeException);
        context.commit();
        assertThat(context.createConsumer(orders).receiveBody(String.class, WAIT)).isEqualTo("async");
    }

    @Test
    void contextsMadeWithCreateContextShareTheConnectionUntilTheLastCloses() {
        JMSContext second = context.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        context.close();

        second.createProducer().send(orders, "still open");
        assertThat(second.createConsumer(orders).receiveBody(String.class, WAIT)).isEqualTo("still open");
        second.close();
    }

    @Test
    void anInvalidSelectorIsInvalidSelectorRuntimeException() {
        assertThatThrownBy(() -> context.createConsumer(orders, "region = ")).isInstanceOf(InvalidSelectorRuntimeException.class);
    }

    @Test
    void aSelectorPicksByTheProducersProperties() {
        JMSConsumer south = context.createConsumer(orders, "region = 'south'");
        context.createProducer().setProperty("region", "north").send(orders, "n").setProperty("region", "south").send(orders, "s");

        assertThat(south.receiveBody(String.class, WAIT)).isEqualTo("s");
    }

    @Test
    void aDurableConsumerKeepsWhatIsPublishedWhileItIsClosed() throws Exception {
        Topic news = store.topic("NEWS");
        context.setClientID("reader");
        context.createDurableConsumer(news, "daily").close();

        context.createProducer().send(news, "while away");

        assertThat(context.createDurableConsumer(news, "daily").receiveBody(String.class, WAIT)).isEqualTo("while away");
    }

    @Test
    void anXaContextIsTransactedAndItsWorkIsCommittedThroughItsXaResource() throws Exception {
        XAJMSContext xa = store.xaFactory().createXAContext();
        try {
            assertThat(xa.getTransacted()).isTrue();
            assertThat(xa.getSessionMode()).isEqualTo(JMSContext.SESSION_TRANSACTED);
            assertThat(xa.getContext()).isSameAs(xa);
            assertThatThrownBy(xa::commit).isInstanceOf(TransactionInProgressRuntimeException.class);
            assertThatThrownBy(xa::rollback).isInstanceOf(TransactionInProgressRuntimeException.class);

            XAResource resource = xa.getXAResource();
            Xid xid = new TestXid(1);
            resource.start(xid, XAResource.TMNOFLAGS);
            xa.createProducer().send(orders, "in the global transaction");
            resource.end(xid, XAResource.TMSUCCESS);
            JMSConsumer consumer = context.createConsumer(orders);
            assertThat(consumer.receiveNoWait()).as("before the transaction commits").isNull();
            resource.commit(xid, true);

            assertThat(consumer.receiveBody(String.class, WAIT)).isEqualTo("in the global transaction");
        } finally {
            xa.close();
        }
    }

    private record TestXid(int id) implements Xid {
        @Override
        public int getFormatId() {
            return 4711;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return ("gtrid-" + id).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {1};
        }
    }

    @Test
    void anUnknownSessionModeFromTheFactoryIsRefused() {
        assertThatThrownBy(() -> store.factory().createContext(99)).isExactlyInstanceOf(JMSRuntimeException.class)
                .hasMessageContaining("Session mode 99");
    }

    private static RuntimeException thrownBy(Runnable r) {
        try {
            r.run();
            return new RuntimeException("nothing was thrown");
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static String body(Message m) {
        try {
            return m.getBody(String.class);
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean redelivered(Message m) {
        try {
            return m.getJMSRedelivered();
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
