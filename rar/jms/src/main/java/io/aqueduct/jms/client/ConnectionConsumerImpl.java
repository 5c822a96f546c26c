package io.aqueduct.jms.client;

import io.aqueduct.api.DequeueOptions;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.destination.AqueductTopic;
import io.aqueduct.jms.message.JmsMessage;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import jakarta.jms.ServerSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A connection consumer (the application-server facility of JMS 8.2): it watches its destination
 * and, when a message is there, loads a delivery into a server session's session and starts it;
 * the session dequeues in its own transaction in {@link AqueductSession#run()}.
 */
final class ConnectionConsumerImpl implements ConnectionConsumer {
    private static final Logger LOG = Logger.getLogger(ConnectionConsumerImpl.class.getName());

    private final AqueductConnection connection;
    private final AqueductDestination destination;
    private final String subscriptionName;
    private final boolean durable;
    private final boolean shared;
    private final String selector;
    private final ServerSessionPool pool;
    private final int maxMessages;
    private AqueductSession watcher; // waits for messages; owns the topic subscription
    private Subscriptions.Subscription subscription;
    private volatile Thread thread;
    private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean closed;

    ConnectionConsumerImpl(AqueductConnection connection, Destination destination, String subscriptionName, boolean durable,
            boolean shared, String selector, ServerSessionPool pool, int maxMessages) throws JMSException {
        this.connection = connection;
        this.destination = AqueductSession.destination(AqueductSession.requireDestination(destination));
        this.subscriptionName = subscriptionName;
        this.durable = durable;
        this.shared = shared;
        this.selector = selector == null || selector.isBlank() ? null : selector;
        this.pool = pool;
        this.maxMessages = maxMessages;
    }

    void begin() throws JMSException {
        connection.shape(destination);
        watcher = connection.open(Session.AUTO_ACKNOWLEDGE);
        try {
            if (destination instanceof AqueductTopic t) {
                subscription = durable ? Subscriptions.durable(watcher, t, subscriptionName, selector, false, shared)
                        : subscriptionName != null ? Subscriptions.sharedNonDurable(watcher, t, subscriptionName, selector)
                        : Subscriptions.nonDurable(watcher, t, selector, false);
            }
        } catch (JMSException e) {
            watcher.close();
            throw e;
        }
        connection.factory.runInBackground("aqueduct-jms-connection-consumer", () -> {
            thread = Thread.currentThread();
            try {
                watch();
            } finally {
                ended.countDown();
            }
        });
    }

    private String consumerName() {
        return subscription == null ? null : subscription.consumerName();
    }

    /** Supervised: hands out server sessions while messages are there; logs, backs off and resumes on failure. */
    private void watch() {
        long pause = 0;
        while (!closed && !connection.isClosed()) {
            try {
                if (pause > 0) {
                    synchronized (this) { // backing off; close wakes it
                        if (!closed) {
                            wait(pause);
                        }
                    }
                }
                if (!connection.enterDelivery(Long.MAX_VALUE, () -> closed)) {
                    continue;
                }
                long seen;
                boolean available;
                try {
                    seen = watcher.aq.queueVersion(destination.queueName());
                    available = watcher.aq.awaitAvailable(destination.queueName(), consumerName(), null, 1_000, () -> closed);
                } finally {
                    connection.leaveDelivery();
                }
                if (available && !closed) {
                    ServerSession serverSession = pool.getServerSession();
                    Session s = serverSession.getSession();
                    if (!(s instanceof AqueductSession session)) {
                        throw new JMSException("The ServerSessionPool gave a session of another provider ("
                                + s.getClass().getName() + "); it must give Aqueduct sessions.");
                    }
                    session.load(new Load(destination, AqueductConsumer.optionsFor(subscription, selector), selector, maxMessages));
                    serverSession.start();
                    // give the session time to take what it was started for before another is handed out
                    watcher.aq.awaitQueueChange(destination.queueName(), seen, 200);
                }
                pause = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (JMSException | RuntimeException e) {
                if (closed) {
                    return;
                }
                pause = Math.min(5_000, Math.max(200, pause * 2));
                LOG.log(Level.WARNING, "Aqueduct JMS: a connection consumer on " + destination.queueName()
                        + " failed; it resumes in " + pause + " ms", e);
                connection.report(e instanceof JMSException j ? j : JmsErrors.of((RuntimeException) e));
            }
        }
    }

    @Override
    public ServerSessionPool getServerSessionPool() throws JMSException {
        if (closed) {
            throw JmsErrors.closed("connection consumer");
        }
        return pool;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            watcher.aq.wakeWaiters(destination.queueName());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "waking a connection consumer", e);
        }
        if (thread != Thread.currentThread()) {
            try {
                ended.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (subscription != null) {
            subscription.consumerClosed();
        }
        try {
            watcher.close();
        } catch (JMSException e) {
            LOG.log(Level.FINE, "closing a connection consumer's session", e);
        }
        connection.connectionConsumerClosed(this);
    }

    /** Up to maxMessages messages of one destination, dequeued and delivered by the session that runs it. */
    record Load(AqueductDestination destination, DequeueOptions options, String selector, int maxMessages) {
        void deliver(AqueductSession session, MessageListener listener) throws JMSException {
            for (int i = 0; i < maxMessages; i++) {
                JmsMessage m = session.dequeue(destination, options.copy(), true, selector);
                if (m == null) {
                    return;
                }
                boolean threw = false;
                try {
                    listener.onMessage(m);
                } catch (RuntimeException e) {
                    threw = true;
                    LOG.log(Level.WARNING, "A server session's MessageListener threw", e);
                }
                session.afterListener(threw);
            }
        }
    }
}
