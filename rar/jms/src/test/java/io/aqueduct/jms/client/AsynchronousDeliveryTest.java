package io.aqueduct.jms.client;

import jakarta.jms.CompletionListener;
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

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class AsynchronousDeliveryTest {
    private JmsStore store;
    private Connection connection;
    private Queue queue;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("EVENTS");
        connection = store.factory().createConnection();
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

    @Test
    void aListenerGetsMessagesInOrderOnceTheConnectionStarts() throws Exception {
        send("1", "2", "3");
        List<String> got = new CopyOnWriteArrayList<>();
        connection.createSession().createConsumer(queue).setMessageListener(m -> got.add(text(m)));
        Thread.onSpinWait();
        assertThat(got).isEmpty(); // not started: nothing is delivered
        connection.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 3);
        assertThat(got).containsExactly("1", "2", "3");
        send("4");
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 4);
    }

    @Test
    void aListenerThatThrowsGetsTheMessageAgainMarkedRedelivered() throws Exception {
        send("poison-once");
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Boolean> redelivered = new AtomicReference<>();
        connection.createSession().createConsumer(queue).setMessageListener(m -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("first attempt fails");
            }
            try {
                redelivered.set(m.getJMSRedelivered());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        connection.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> redelivered.get() != null);
        assertThat(redelivered.get()).isTrue();
        assertThat(calls.get()).isEqualTo(2);
    }

    @Test
    void stopWaitsForTheListenerInProgressAndHoldsFurtherDeliveries() throws Exception {
        send("slow", "held");
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = new CopyOnWriteArrayList<>();
        connection.createSession().createConsumer(queue).setMessageListener(m -> {
            inListener.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.add(text(m));
        });
        connection.start();
        assertThat(inListener.await(10, TimeUnit.SECONDS)).isTrue();
        Thread stopper = new Thread(() -> {
            try {
                connection.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.start();
        // stop() waits while the listener holds its message
        await().atMost(Duration.ofSeconds(5)).until(() -> stopper.getState() == Thread.State.WAITING
                || stopper.getState() == Thread.State.TIMED_WAITING);
        assertThat(stopper.isAlive()).isTrue();
        assertThat(done).isEmpty();
        release.countDown();
        stopper.join(10_000);
        assertThat(stopper.isAlive()).isFalse(); // returned once the listener finished
        assertThat(done).containsExactly("slow");
        assertThat(connection.createSession().createConsumer(store.queue("OTHER")).receive(300)).isNull();
        assertThat(done).containsExactly("slow"); // stopped: "held" waits
        connection.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> done.size() == 2);
    }

    @Test
    void aListenerMayNotStopOrCloseItsOwnConnection() throws Exception {
        send("x");
        AtomicReference<Throwable> stop = new AtomicReference<>();
        AtomicReference<Throwable> close = new AtomicReference<>();
        connection.createSession().createConsumer(queue).setMessageListener(m -> {
            try {
                connection.stop();
            } catch (Exception e) {
                stop.set(e);
            }
            try {
                connection.close();
            } catch (Exception e) {
                close.set(e);
            }
        });
        connection.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> close.get() != null);
        assertThat(stop.get()).isInstanceOf(jakarta.jms.IllegalStateException.class);
        assertThat(close.get()).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void aSynchronousReceiveIsRefusedInASessionWithAListener() throws Exception {
        Session s = connection.createSession();
        s.createConsumer(queue).setMessageListener(m -> { });
        MessageConsumer other = s.createConsumer(queue);
        assertThatThrownBy(() -> other.receiveNoWait()).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void anAsynchronousSendCompletesOnAnotherThreadInOrder() throws Exception {
        Session s = connection.createSession();
        MessageProducer p = s.createProducer(queue);
        List<String> completed = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> callbackThread = new AtomicReference<>();
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                callbackThread.set(Thread.currentThread());
                try {
                    completed.add(((TextMessage) message).getText() + " " + message.getJMSMessageID().startsWith("ID:"));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
                completed.add("failed");
            }
        };
        for (int i = 0; i < 5; i++) {
            p.send(s.createTextMessage("m" + i), listener);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> completed.size() == 5);
        assertThat(completed).containsExactly("m0 true", "m1 true", "m2 true", "m3 true", "m4 true");
        assertThat(callbackThread.get()).isNotEqualTo(Thread.currentThread());
        connection.start();
        MessageConsumer c = s.createConsumer(queue);
        for (int i = 0; i < 5; i++) {
            assertThat(text(c.receive(5_000))).isEqualTo("m" + i);
        }
    }

    @Test
    void aCompletionListenerMayNotCloseItsSession() throws Exception {
        Session s = connection.createSession();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        s.createProducer(queue).send(s.createTextMessage("x"), new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    s.close();
                } catch (Exception e) {
                    refused.set(e);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> refused.get() != null);
        assertThat(refused.get()).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void closingTheConnectionEndsAReceiveWaitingOnAnotherThread() throws Exception {
        connection.start();
        MessageConsumer c = connection.createSession().createConsumer(queue);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread receiver = new Thread(() -> {
            try {
                result.set(java.util.Optional.ofNullable(c.receive()));
            } catch (Exception e) {
                result.set(e);
            }
        });
        receiver.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> receiver.getState() == Thread.State.TIMED_WAITING
                || receiver.getState() == Thread.State.WAITING);
        connection.close();
        receiver.join(5_000);
        assertThat(result.get()).isEqualTo(java.util.Optional.empty());
    }

    @Test
    void closingAConsumerEndsItsReceiveInProgressWithNull() throws Exception {
        connection.start();
        MessageConsumer c = connection.createSession().createConsumer(queue);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread receiver = new Thread(() -> {
            try {
                result.set(java.util.Optional.ofNullable(c.receive()));
            } catch (Exception e) {
                result.set(e);
            }
        });
        receiver.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> receiver.getState() == Thread.State.TIMED_WAITING
                || receiver.getState() == Thread.State.WAITING);
        c.close();
        receiver.join(5_000);
        assertThat(result.get()).isEqualTo(java.util.Optional.empty());
    }

    private static String text(Message m) {
        try {
            return ((TextMessage) m).getText();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
