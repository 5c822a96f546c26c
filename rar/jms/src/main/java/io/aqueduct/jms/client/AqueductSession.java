package io.aqueduct.jms.client;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Visibility;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import io.aqueduct.jms.message.JmsBytesMessage;
import io.aqueduct.jms.message.JmsMapMessage;
import io.aqueduct.jms.message.JmsMessage;
import io.aqueduct.jms.message.JmsObjectMessage;
import io.aqueduct.jms.message.JmsStreamMessage;
import io.aqueduct.jms.message.JmsTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionRolledBackException;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A JMS session over one AQ queue session. Transacted: sends and receives are the queue session's
 * local transaction, ended by commit / rollback. Not transacted: a send is its own transaction
 * (AQ visibility IMMEDIATE); a receive is committed at once (AUTO / DUPS_OK, a listener's after
 * onMessage returns) or by {@code acknowledge()} (CLIENT); {@code recover()} rolls back what was
 * not acknowledged, so AQ redelivers it (counting an attempt, as AQ's JMS does: past the queue's
 * max_retries a message moves to its exception queue).
 *
 * <p>Asynchronous delivery: one daemon thread per session with listeners, delivering serially.
 */
public class AqueductSession implements Session, QueueSession, TopicSession {
    private static final Logger LOG = Logger.getLogger(AqueductSession.class.getName());
    /** The session whose CompletionListener this thread is running. */
    private static final ThreadLocal<AqueductSession> COMPLETING = new ThreadLocal<>();

    /** Which API created the session: the domain-specific ones refuse the other domain's methods. */
    enum Domain { ANY, QUEUE, TOPIC }

    final AqueductConnection connection;
    final int mode;
    final io.aqueduct.api.QueueSession aq;
    /** Guards the queue session: the application's thread and the delivery thread share it. */
    final ReentrantLock lock = new ReentrantLock();
    private volatile Domain domain = Domain.ANY;
    private volatile boolean closed;
    final CopyOnWriteArrayList<AqueductConsumer> consumers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<AqueductProducer> producers = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<AqueductBrowser> browsers = new CopyOnWriteArrayList<>();
    private final Object deliveryMonitor = new Object();
    private volatile Thread deliveryThread; // the thread running the delivery loop, while it runs
    private boolean deliveryRunning;
    private java.util.concurrent.CountDownLatch deliveryEnded = new java.util.concurrent.CountDownLatch(0);
    private volatile MessageListener distinguishedListener;
    private final ConcurrentLinkedQueue<ConnectionConsumerImpl.Load> loads = new ConcurrentLinkedQueue<>();
    private final Completions completions = new Completions();

    AqueductSession(AqueductConnection connection, int mode, io.aqueduct.api.QueueSession aq) {
        this.connection = connection;
        this.mode = mode;
        this.aq = aq;
    }

    AqueductSession domain(Domain d) {
        this.domain = d;
        return this;
    }

    // ------------------------------------------------------------------ messages

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new JmsBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new JmsMapMessage();
    }

    @Override
    public jakarta.jms.Message createMessage() throws JMSException {
        checkOpen();
        return new JmsMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return new JmsObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        checkOpen();
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(object);
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new JmsStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new JmsTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return new JmsTextMessage(text);
    }

    // ------------------------------------------------------------------ transactions and acknowledgement

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return transactedNow();
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return transactedNow() ? SESSION_TRANSACTED : mode;
    }

    /**
     * Whether the session's work now belongs to a transaction: its own local one (transacted), or
     * in a container the container's, when it enlisted the queue session in one that is active.
     */
    boolean transactedNow() {
        return connection.factory.inContainer() ? aq.inGlobalTransaction() : mode == SESSION_TRANSACTED;
    }

    /** In a container's transaction commit, rollback and recover belong to the container. */
    private void checkNotInContainerTransaction(String what) throws TransactionInProgressException {
        if (connection.factory.inContainer() && aq.inGlobalTransaction()) {
            throw new TransactionInProgressException(what + " is not allowed in a container transaction: the container"
                    + " commits or rolls back the session's work with the transaction.");
        }
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkNotCompleting("commit");
        checkNotInContainerTransaction("commit()");
        if (mode != SESSION_TRANSACTED) {
            throw new jakarta.jms.IllegalStateException("commit() is for transacted sessions; this session is not transacted.");
        }
        completions.awaitIdle();
        lock.lock();
        try {
            aq.commit();
        } catch (AqException e) {
            if (e.errorCode() == AqError.COMMIT_OUTCOME_UNKNOWN) {
                throw JmsErrors.of(e);
            }
            rollbackQuietly();
            throw JmsErrors.link(new TransactionRolledBackException("The transaction was rolled back: " + e.getMessage(),
                    JmsErrors.code(e)), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkNotCompleting("rollback");
        checkNotInContainerTransaction("rollback()");
        if (mode != SESSION_TRANSACTED) {
            throw new jakarta.jms.IllegalStateException("rollback() is for transacted sessions; this session is not transacted.");
        }
        completions.awaitIdle();
        lock.lock();
        try {
            aq.rollback();
        } catch (AqException e) {
            throw JmsErrors.of(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        checkNotInContainerTransaction("recover()");
        if (mode == SESSION_TRANSACTED) {
            throw new jakarta.jms.IllegalStateException("recover() is for sessions that are not transacted; use rollback().");
        }
        lock.lock();
        try {
            aq.rollback(); // what was delivered and not acknowledged is delivered again
        } catch (AqException e) {
            throw JmsErrors.of(e);
        } finally {
            lock.unlock();
        }
    }

    /** CLIENT_ACKNOWLEDGE: acknowledges every message the session consumed. */
    void acknowledgeAll() throws JMSException {
        if (closed) {
            throw new jakarta.jms.IllegalStateException("The session that received this message is closed; its"
                    + " unacknowledged messages will be delivered again.");
        }
        if (mode != CLIENT_ACKNOWLEDGE || transactedNow()) {
            return; // in a container's transaction the transaction acknowledges
        }
        lock.lock();
        try {
            aq.commit();
        } catch (AqException e) {
            throw JmsErrors.of(e);
        } finally {
            lock.unlock();
        }
    }

    private void rollbackQuietly() {
        try {
            aq.rollback();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "rollback after a failed commit", e);
        }
    }

    // ------------------------------------------------------------------ sending (called by producers)

    /** Enqueues {@code m} to {@code d}; returns its message id. */
    MessageId enqueue(AqueductDestination d, JmsMessage m, long deliveryDelay, long timeToLive) throws JMSException {
        AqueductConnection.QueueShape shape = connection.shape(d);
        if (shape.exceptionQueue()) {
            throw new InvalidDestinationException("AQ queue " + d.queueName() + " is an exception queue: messages move"
                    + " there, nobody sends to it.");
        }
        Message aqMessage = connection.mapping.toAq(m, shape.payloadType(), deliveryDelay, timeToLive,
                connection.connectionId, connection.clientIdOrNull(), connection.user);
        lock.lock();
        try {
            checkOpen();
            EnqueueOptions options = enqueueOptions(m.getJMSDeliveryMode());
            try {
                return aq.enqueue(d.queueName(), options, aqMessage);
            } catch (AqException e) {
                if (e.errorCode() != AqError.BUFFERED_NOT_SUPPORTED) {
                    throw e;
                }
                // a queue table with transactional grouping holds no buffered messages (25292): a
                // NON_PERSISTENT message may be kept more safely than asked, so it is stored
                return aq.enqueue(d.queueName(), options.deliveryMode(io.aqueduct.api.DeliveryMode.PERSISTENT), aqMessage);
            }
        } catch (AqException e) {
            if (e.errorCode() == AqError.NO_RECIPIENTS && d instanceof AqueductTopic) {
                // JMS: a message published while no subscription wants it is delivered to nobody, not refused
                return unsentId();
            }
            if (e.errorCode() == AqError.QUEUE_NOT_FOUND) {
                connection.forget(d);
            }
            throw JmsErrors.of(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * How a send is enqueued. Outside a transaction a NON_PERSISTENT message is an AQ buffered message
     * (in memory, visible at once). In a transaction (a transacted session, or a container's) every
     * send is AQ visibility ON_COMMIT, which AQ refuses for buffered messages (24097): the JMS
     * specification makes all sends of a transaction one atomic unit whatever their delivery mode,
     * so a NON_PERSISTENT send there is enqueued persistent, in the transaction (still read as
     * JMSDeliveryMode NON_PERSISTENT: the mode travels with the message).
     */
    private EnqueueOptions enqueueOptions(int jmsDeliveryMode) {
        if (transactedNow()) {
            return EnqueueOptions.create().visibility(Visibility.ON_COMMIT);
        }
        EnqueueOptions options = EnqueueOptions.create().visibility(Visibility.IMMEDIATE);
        return jmsDeliveryMode == jakarta.jms.DeliveryMode.NON_PERSISTENT
                ? options.deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED) : options;
    }

    /** A message id for a message published to no subscription: unique, as every JMSMessageID is. */
    private static MessageId unsentId() {
        byte[] id = new byte[16];
        UNSENT_IDS.nextBytes(id);
        return MessageId.of(id);
    }

    private static final java.security.SecureRandom UNSENT_IDS = new java.security.SecureRandom();

    /** Runs {@code send} for an asynchronous send and then its listener, on the session's completion thread, in order. */
    void sendAsync(Runnable send) {
        completions.submit(send);
    }

    static void checkNotInCompletionListener(AqueductConnection c, String operation) throws jakarta.jms.IllegalStateException {
        AqueductSession s = COMPLETING.get();
        if (s != null && s.connection == c) {
            throw new jakarta.jms.IllegalStateException("A CompletionListener must not call " + operation
                    + " on its own connection, session or producer.");
        }
    }

    void checkNotCompleting(String operation) throws jakarta.jms.IllegalStateException {
        if (COMPLETING.get() == this) {
            throw new jakarta.jms.IllegalStateException("A CompletionListener must not call " + operation + " on its own session.");
        }
    }

    /** The session's asynchronous sends and their listeners: one at a time, in order, in the background. */
    private final class Completions {
        private final java.util.ArrayDeque<Runnable> queue = new java.util.ArrayDeque<>();
        private boolean draining;
        private int pending;

        synchronized void submit(Runnable send) {
            queue.add(send);
            pending++;
            if (!draining) {
                draining = true;
                connection.factory.runInBackground("aqueduct-jms-completions", this::drain);
            }
        }

        private void drain() {
            COMPLETING.set(AqueductSession.this);
            try {
                while (true) {
                    Runnable next;
                    synchronized (this) {
                        next = queue.poll();
                        if (next == null) {
                            draining = false;
                            return;
                        }
                    }
                    try {
                        next.run();
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "A CompletionListener threw", e);
                    } finally {
                        synchronized (this) {
                            pending--;
                            notifyAll();
                        }
                    }
                }
            } finally {
                COMPLETING.remove();
            }
        }

        /** Waits until every asynchronous send so far has completed (commit, rollback and close do). */
        synchronized void awaitIdle() throws JMSException {
            while (pending > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new JMSException("Interrupted while waiting for asynchronous sends to complete.");
                }
            }
        }
    }

    // ------------------------------------------------------------------ receiving (called by consumers)

    /**
     * One dequeue for {@code c}, acknowledged as the session's mode says when it is a synchronous
     * receive; null when no message is there now.
     */
    JmsMessage dequeue(AqueductDestination from, DequeueOptions options, boolean forListener, String selector)
            throws JMSException {
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            List<Message> got;
            try {
                got = aq.dequeueArray(from.queueName(), options, 1);
            } catch (AqException e) {
                throw JmsErrors.ofSelector(e, selector);
            }
            if (got.isEmpty()) {
                return null;
            }
            JmsMessage m;
            try {
                m = connection.mapping.toJms(got.get(0), from);
            } catch (JMSException | RuntimeException e) {
                // a message the provider cannot read: not delivered; in a transaction the rollback counts it
                if (!transactedNow()) {
                    rollbackQuietly();
                }
                throw e instanceof JMSException j ? j : JmsErrors.of((RuntimeException) e);
            }
            if (mode == CLIENT_ACKNOWLEDGE) {
                m.setAcknowledger(ignored -> acknowledgeAll());
            }
            if (!forListener && autoAcknowledges()) {
                try {
                    aq.commit();
                } catch (AqException e) {
                    throw JmsErrors.of(e);
                }
            }
            return m;
        } finally {
            lock.unlock();
        }
    }

    /** AUTO_ACKNOWLEDGE / DUPS_OK outside a transaction: the session commits each delivery itself. */
    boolean autoAcknowledges() {
        return !transactedNow() && (mode == AUTO_ACKNOWLEDGE || mode == DUPS_OK_ACKNOWLEDGE);
    }

    /** After a listener's onMessage: acknowledge it (AUTO / DUPS_OK), or have it delivered again when it threw. */
    void afterListener(boolean threw) {
        if (!autoAcknowledges() || closed) {
            return;
        }
        lock.lock();
        try {
            if (threw) {
                aq.rollback(); // delivered again, JMSRedelivered set (AQ counts the attempt)
            } else {
                aq.commit();
            }
        } catch (AqException e) {
            connection.report(JmsErrors.of(e));
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ asynchronous delivery

    /** A consumer's listener was set or removed, or the connection started: delivery runs while any listener is set. */
    void listenersChanged() {
        synchronized (deliveryMonitor) {
            if (!deliveryRunning && !closed && consumers.stream().anyMatch(AqueductConsumer::hasListener)) {
                deliveryRunning = true;
                deliveryEnded = new java.util.concurrent.CountDownLatch(1);
                connection.factory.runInBackground("aqueduct-jms-delivery", this::deliver);
            }
            deliveryMonitor.notifyAll();
        }
        wakeConsumers();
    }

    void connectionStarted() {
        listenersChanged();
    }

    boolean hasListeners() {
        return consumers.stream().anyMatch(AqueductConsumer::hasListener);
    }

    /** The delivery loop: supervised (catches, reports, backs off, resumes) until the session closes. */
    private void deliver() {
        deliveryThread = Thread.currentThread();
        AqueductConnection.DELIVERING.set(connection);
        long pause = 0;
        try {
            while (!closed) {
                List<AqueductConsumer> active = consumers.stream().filter(AqueductConsumer::hasListener).toList();
                if (active.isEmpty()) {
                    synchronized (deliveryMonitor) {
                        if (!closed && !hasListeners()) {
                            deliveryMonitor.wait(500);
                        }
                    }
                    continue;
                }
                long[] seen = new long[active.size()];
                boolean delivered = false;
                if (!connection.enterDelivery(Long.MAX_VALUE, () -> closed)) {
                    continue;
                }
                try {
                    for (int i = 0; i < active.size() && !closed; i++) {
                        seen[i] = aq.queueVersion(active.get(i).queue);
                        delivered |= active.get(i).deliverToListener();
                    }
                    pause = 0;
                } catch (JMSException | RuntimeException e) {
                    if (closed) {
                        break;
                    }
                    JMSException j = e instanceof JMSException je ? je : JmsErrors.of((RuntimeException) e);
                    LOG.log(Level.WARNING, "Aqueduct JMS: asynchronous delivery failed; it resumes", e);
                    connection.report(j);
                    pause = Math.min(5_000, Math.max(100, pause * 2));
                } finally {
                    connection.leaveDelivery();
                }
                if (pause > 0) {
                    synchronized (deliveryMonitor) { // backing off; close wakes it
                        if (!closed) {
                            deliveryMonitor.wait(pause);
                        }
                    }
                } else if (!delivered && !closed) {
                    // one queue: wait for it to change; several: a short wait on each in turn
                    long bound = active.size() == 1 ? 1_000 : 100;
                    for (int i = 0; i < active.size() && !closed; i++) {
                        aq.awaitQueueChange(active.get(i).queue, seen[i], bound);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.log(Level.SEVERE, "Aqueduct JMS: the delivery thread of a session ended unexpectedly", e);
            }
        } finally {
            AqueductConnection.DELIVERING.remove();
            synchronized (deliveryMonitor) {
                deliveryThread = null;
                deliveryRunning = false;
                deliveryEnded.countDown();
                if (!closed && hasListeners()) {
                    listenersChanged(); // ended by a failure: start again
                }
            }
        }
    }

    private void wakeConsumers() {
        for (AqueductConsumer c : consumers) {
            try {
                aq.wakeWaiters(c.queue);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "waking the waits on " + c.queue, e);
            }
        }
    }

    // ------------------------------------------------------------------ producers, consumers, browsers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        return producer(destination);
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        return producer(queue);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return producer(topic);
    }

    private AqueductProducer producer(Destination destination) throws JMSException {
        checkOpen();
        AqueductDestination d = destination == null ? null : destination(destination);
        if (d != null) {
            connection.shape(d); // exists, and of the kind named
        }
        AqueductProducer p = new AqueductProducer(this, d);
        producers.add(p);
        return p;
    }

    void producerClosed(AqueductProducer p) {
        producers.remove(p);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return consumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return consumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        return consumer(destination, messageSelector, noLocal);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return consumer(requireDestination(queue), null, false);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String messageSelector) throws JMSException {
        return consumer(requireDestination(queue), messageSelector, false);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return consumer(requireDestination(topic), null, false);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal) throws JMSException {
        return consumer(requireDestination(topic), messageSelector, noLocal);
    }

    private AqueductConsumer consumer(Destination destination, String selector, boolean noLocal) throws JMSException {
        checkOpen();
        AqueductDestination d = destination(requireDestination(destination));
        checkTemporaryOwner(d);
        connection.shape(d);
        AqueductConsumer c = d instanceof AqueductTopic t
                ? AqueductConsumer.onTopic(this, t, Subscriptions.nonDurable(this, t, selector, noLocal), selector)
                : AqueductConsumer.onQueue(this, (AqueductQueue) d, selector);
        return added(c);
    }

    AqueductConsumer added(AqueductConsumer c) throws JMSException {
        consumers.add(c);
        if (closed) {
            c.close();
            throw JmsErrors.closed("session");
        }
        return c;
    }

    void consumerClosed(AqueductConsumer c) {
        consumers.remove(c);
    }

    boolean hasConsumerOn(AqueductDestination d) {
        return consumers.stream().anyMatch(c -> c.destination.equals(d));
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return durable(topic, name, null, false, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        return durable(topic, name, messageSelector, noLocal, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return durable(topic, name, null, false, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        return durable(topic, name, messageSelector, noLocal, false);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return durable(topic, name, null, false, true);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        return durable(topic, name, messageSelector, false, true);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return shared(topic, sharedSubscriptionName, null);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        return shared(topic, sharedSubscriptionName, messageSelector);
    }

    private AqueductConsumer durable(Topic topic, String name, String selector, boolean noLocal, boolean shared)
            throws JMSException {
        checkOpen();
        checkDomain(Domain.TOPIC, "durable subscriptions");
        AqueductTopic t = topic(topic);
        checkTemporaryOwner(t);
        connection.shape(t);
        Subscriptions.Subscription s = Subscriptions.durable(this, t, name, selector, noLocal, shared);
        return added(AqueductConsumer.onTopic(this, t, s, selector));
    }

    private AqueductConsumer shared(Topic topic, String name, String selector) throws JMSException {
        checkOpen();
        checkDomain(Domain.TOPIC, "shared subscriptions");
        AqueductTopic t = topic(topic);
        checkTemporaryOwner(t);
        connection.shape(t);
        Subscriptions.Subscription s = Subscriptions.sharedNonDurable(this, t, name, selector);
        return added(AqueductConsumer.onTopic(this, t, s, selector));
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        checkDomain(Domain.TOPIC, "unsubscribe");
        Subscriptions.unsubscribe(this, name);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return browser(queue, null, false);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        return browser(queue, messageSelector, false);
    }

    /**
     * AQ's locked browsing: the browsed messages are locked (AQ dequeue mode LOCKED) in this
     * session's transaction until it commits or rolls back, so that the browsing session can then
     * remove exactly the ones it chose (e.g. with receiveNoData).
     */
    public QueueBrowser createBrowser(Queue queue, String messageSelector, boolean locked) throws JMSException {
        return browser(queue, messageSelector, locked);
    }

    private QueueBrowser browser(Queue queue, String selector, boolean locked) throws JMSException {
        checkOpen();
        checkDomain(Domain.QUEUE, "createBrowser");
        AqueductQueue q = (AqueductQueue) destination(requireDestination(queue));
        connection.shape(q);
        AqueductBrowser b = new AqueductBrowser(this, q, selector, locked);
        b.validate();
        browsers.add(b);
        return b;
    }

    void browserClosed(AqueductBrowser b) {
        browsers.remove(b);
    }

    // ------------------------------------------------------------------ destinations

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        checkOpen();
        checkDomain(Domain.QUEUE, "createQueue");
        return new AqueductQueue(queueName);
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        checkOpen();
        checkDomain(Domain.TOPIC, "createTopic");
        return new AqueductTopic(topicName);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        checkDomain(Domain.QUEUE, "createTemporaryQueue");
        return connection.createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        checkDomain(Domain.TOPIC, "createTemporaryTopic");
        return connection.createTemporaryTopic();
    }

    private void checkDomain(Domain needed, String operation) throws jakarta.jms.IllegalStateException {
        if (domain != Domain.ANY && domain != needed) {
            throw new jakarta.jms.IllegalStateException(operation + " is not available on a "
                    + (domain == Domain.QUEUE ? "QueueSession" : "TopicSession") + ".");
        }
    }

    private void checkTemporaryOwner(AqueductDestination d) throws JMSException {
        if ((d instanceof jakarta.jms.TemporaryQueue || d instanceof jakarta.jms.TemporaryTopic) && !connection.owns(d)) {
            throw new InvalidDestinationException("Temporary destination " + d.queueName() + " belongs to another"
                    + " connection (or was deleted): only the connection that created it can consume from it.");
        }
    }

    static Destination requireDestination(Destination d) throws InvalidDestinationException {
        if (d == null) {
            throw new InvalidDestinationException("The destination is null.");
        }
        return d;
    }

    /** An Aqueduct destination for {@code d}; another provider's Queue or Topic is taken by its name. */
    static AqueductDestination destination(Destination d) throws JMSException {
        if (d instanceof AqueductDestination a) {
            return a;
        }
        if (d instanceof Queue q) {
            return new AqueductQueue(q.getQueueName());
        }
        if (d instanceof Topic t) {
            return new AqueductTopic(t.getTopicName());
        }
        throw new InvalidDestinationException("A destination must be a Queue or a Topic, not " + d.getClass().getName() + ".");
    }

    private static AqueductTopic topic(Topic t) throws JMSException {
        return (AqueductTopic) destination(requireDestination(t));
    }

    // ------------------------------------------------------------------ application-server facilities

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return distinguishedListener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        connection.refuseInContainer("Session.setMessageListener", "use a message-driven bean");
        distinguishedListener = listener;
    }

    /** A connection consumer gives this session messages to deliver to its distinguished listener in {@link #run()}. */
    void load(ConnectionConsumerImpl.Load load) {
        loads.add(load);
    }

    /**
     * Delivers the messages connection consumers loaded to the session's distinguished listener
     * (an application server's ServerSession calls it), each dequeued in this session.
     */
    @Override
    public void run() {
        MessageListener l = distinguishedListener;
        for (ConnectionConsumerImpl.Load load = loads.poll(); load != null; load = loads.poll()) {
            if (l == null || closed) {
                continue;
            }
            try {
                load.deliver(this, l);
            } catch (JMSException | RuntimeException e) {
                LOG.log(Level.WARNING, "Aqueduct JMS: a connection consumer's delivery failed", e);
                connection.report(e instanceof JMSException j ? j : JmsErrors.of((RuntimeException) e));
            }
        }
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() throws JMSException {
        checkNotCompleting("close");
        if (closed) {
            return;
        }
        closed = true;
        java.util.concurrent.CountDownLatch ended;
        synchronized (deliveryMonitor) {
            ended = deliveryEnded;
            deliveryMonitor.notifyAll();
        }
        wakeConsumers();
        if (deliveryThread != Thread.currentThread()) {
            try {
                ended.await(); // a listener in progress completes first
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        completions.awaitIdle();
        for (AqueductConsumer c : consumers) {
            c.closeQuietly(); // before the lock: a receive in progress needs it to see the session closed and return
        }
        lock.lock();
        try {
            for (AqueductBrowser b : browsers) {
                b.closeQuietly();
            }
            producers.clear();
            if (deliveryThread == Thread.currentThread() && autoAcknowledges()) {
                try {
                    aq.commit(); // closed by its own listener: the message it is given is still acknowledged
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "acknowledging at session close", e);
                }
            } else if (rollsBackOnClose()) {
                try {
                    aq.rollback(); // a transaction or unacknowledged messages: delivered again
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "rollback at session close", e);
                }
            }
            try {
                aq.close();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the queue session", e);
            }
        } finally {
            lock.unlock();
            connection.sessionClosed(this);
        }
    }

    boolean isClosed() {
        return closed || connection.isClosed();
    }

    /**
     * Whether close rolls back the session's own work: an XA session's branch is the transaction
     * manager's, and so is a container session's while its transaction is active.
     */
    boolean rollsBackOnClose() {
        return !(connection.factory.inContainer() && aq.inGlobalTransaction());
    }

    void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("session");
        }
        connection.checkOpen();
    }
}
