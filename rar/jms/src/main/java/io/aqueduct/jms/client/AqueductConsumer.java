package io.aqueduct.jms.client;

import io.aqueduct.api.AqException;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Navigation;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import io.aqueduct.jms.message.JmsMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A message consumer: on a queue it dequeues as the queue's only consumer (with the selector
 * evaluated by the engine), on a topic as the subscriber its subscription names. Navigation
 * (AQ's FIRST_MESSAGE / NEXT_MESSAGE / NEXT_TRANSACTION) and {@link #receiveNoData()} are AQ
 * extensions, as in AQ's JMS.
 */
public final class AqueductConsumer implements QueueReceiver, TopicSubscriber {
    private static final Logger LOG = Logger.getLogger(AqueductConsumer.class.getName());
    /** AQ navigation modes, under the names of Oracle's AQjmsConstants. */
    public static final int NAVIGATION_FIRST_MESSAGE = 1;
    public static final int NAVIGATION_NEXT_MESSAGE = 2;
    public static final int NAVIGATION_NEXT_TRANSACTION = 3;

    final AqueductSession session;
    final AqueductDestination destination;
    final String queue;
    private final String selector;
    private final Subscriptions.Subscription subscription; // topics only
    private final boolean noLocal;
    private volatile MessageListener listener;
    private volatile boolean closed;
    private volatile Navigation navigation = Navigation.FIRST_MESSAGE;
    /** The thread running this consumer's listener, when it is. */
    private volatile Thread inListener;
    private int receiving; // receives in progress, guarded by this

    private AqueductConsumer(AqueductSession session, AqueductDestination destination, String selector,
            Subscriptions.Subscription subscription, boolean noLocal) {
        this.session = session;
        this.destination = destination;
        this.queue = destination.queueName();
        this.selector = selector;
        this.subscription = subscription;
        this.noLocal = noLocal;
    }

    static AqueductConsumer onQueue(AqueductSession session, AqueductQueue queue, String selector) throws JMSException {
        AqueductConsumer c = new AqueductConsumer(session, queue, blankToNull(selector), null, false);
        c.validate();
        return c;
    }

    static AqueductConsumer onTopic(AqueductSession session, AqueductTopic topic, Subscriptions.Subscription s,
            String selector) {
        // a subscription's rule holds the selector: its subscriber is given only matching messages
        return new AqueductConsumer(session, topic, blankToNull(selector), s, s.noLocal());
    }

    /** A queue consumer's selector and queue, checked at creation: a malformed selector is refused here. */
    private void validate() throws JMSException {
        session.lock.lock();
        try {
            session.aq.dequeueArray(queue, DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                    .waitSeconds(DequeueOptions.NO_WAIT).selector(selector), 1);
        } catch (AqException e) {
            throw selectorError(e);
        } finally {
            session.lock.unlock();
        }
    }

    JMSException selectorError(AqException e) {
        return JmsErrors.ofSelector(e, selector);
    }

    /** A consumer whose messages a connection consumer hands to a server session (application servers). */
    static DequeueOptions optionsFor(Subscriptions.Subscription s, String selector) {
        // NON_PERSISTENT messages are AQ buffered ones: a consumer takes either kind, in the queue's order
        DequeueOptions o = DequeueOptions.create().mode(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT).deliveryMode(DeliveryMode.PERSISTENT_OR_BUFFERED);
        return s != null ? o.consumerName(s.consumerName()) : o.selector(selector);
    }

    private DequeueOptions options(DequeueMode mode) {
        return optionsFor(subscription, selector).mode(mode).navigation(navigation);
    }

    // ------------------------------------------------------------------ synchronous receive

    @Override
    public Message receive() throws JMSException {
        return take(Long.MAX_VALUE, DequeueMode.REMOVE);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        if (timeout < 0) {
            throw new JMSException("A receive timeout is 0 (no limit) or positive milliseconds, not " + timeout + ".");
        }
        // 0, or a timeout beyond any deadline in nanoseconds: no limit
        return take(timeout == 0 || timeout > Long.MAX_VALUE / 4_000_000 ? Long.MAX_VALUE
                : System.nanoTime() + timeout * 1_000_000, DequeueMode.REMOVE);
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return take(System.nanoTime(), DequeueMode.REMOVE);
    }

    /**
     * AQ's receiveNoData: removes the next message without reading it (dequeue mode
     * REMOVE_NODATA), e.g. one a locked browser chose. Returns whether there was one to remove.
     */
    public boolean receiveNoData() throws JMSException {
        return take(System.nanoTime(), DequeueMode.REMOVE_NODATA) != null;
    }

    /** AQ's receiveNoData waiting up to {@code timeout} ms (0: no limit) for a message to remove. */
    public boolean receiveNoData(long timeout) throws JMSException {
        if (timeout < 0) {
            throw new JMSException("A receive timeout is 0 (no limit) or positive milliseconds, not " + timeout + ".");
        }
        return take(timeout == 0 || timeout > Long.MAX_VALUE / 4_000_000 ? Long.MAX_VALUE
                : System.nanoTime() + timeout * 1_000_000, DequeueMode.REMOVE_NODATA) != null;
    }

    /** Receives counted, so that close waits for those in progress (MessageConsumer.close says it blocks until they return). */
    private Message take(long deadlineNanos, DequeueMode mode) throws JMSException {
        synchronized (this) {
            receiving++;
        }
        try {
            return receiveNow(deadlineNanos, mode);
        } finally {
            synchronized (this) {
                receiving--;
                notifyAll();
            }
        }
    }

    private Message receiveNow(long deadlineNanos, DequeueMode mode) throws JMSException {
        checkOpen();
        if (listener != null || session.hasListeners()) {
            throw new jakarta.jms.IllegalStateException("This session delivers messages to a MessageListener;"
                    + " a synchronous receive is not allowed on it.");
        }
        session.connection.markUsed();
        boolean blocking = deadlineNanos - System.nanoTime() > 0;
        while (true) {
            if (closed || session.isClosed()) {
                return null;
            }
            if (!session.connection.enterDelivery(deadlineNanos, () -> closed || session.isClosed())) {
                return null;
            }
            long seen;
            JmsMessage m;
            try {
                seen = session.aq.queueVersion(queue);
                m = closed ? null : session.dequeue(destination, options(mode), false, selector);
                if (m == null && blocking && !closed && navigation != Navigation.FIRST_MESSAGE) {
                    // AQ: a blocking receive that reaches the end of the queue goes back to its start
                    m = session.dequeue(destination, options(mode).navigation(Navigation.FIRST_MESSAGE), false, selector);
                }
            } catch (AqException e) {
                throw JmsErrors.of(e);
            } finally {
                session.connection.leaveDelivery();
            }
            if (m != null) {
                return m;
            }
            long left = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            // rounded up: a receive(timeout) never returns before its timeout
            long remaining = left == Long.MAX_VALUE ? Long.MAX_VALUE : (left + 999_999) / 1_000_000;
            // woken by a change of the queue (a commit, a release, a message becoming ready) or the bound,
            // which also lets a delay that ends by time alone be noticed
            session.aq.awaitQueueChange(queue, seen, Math.min(remaining, 500));
        }
    }

    // ------------------------------------------------------------------ asynchronous delivery

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        session.connection.refuseInContainer("MessageConsumer.setMessageListener", "use a message-driven bean");
        session.connection.markUsed();
        this.listener = listener;
        session.listenersChanged();
    }

    boolean hasListener() {
        return listener != null && !closed;
    }

    /** One message to the listener, on the session's delivery thread; false when none was there. */
    boolean deliverToListener() throws JMSException {
        MessageListener l = listener;
        if (l == null) {
            return false;
        }
        boolean threw = false;
        inListener = Thread.currentThread(); // before the check: a close from now on waits for this delivery
        try {
            if (closed) {
                return false;
            }
            JmsMessage m = session.dequeue(destination, options(DequeueMode.REMOVE), true, selector);
            if (m == null && navigation != Navigation.FIRST_MESSAGE) {
                // a listener waits as a blocking receive does: at the end of the queue it goes back to its start
                m = session.dequeue(destination, options(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE), true, selector);
            }
            if (m == null) {
                return false;
            }
            try {
                l.onMessage(m);
            } catch (RuntimeException e) {
                threw = true;
                LOG.log(Level.WARNING, "A JMS MessageListener on " + queue + " threw; "
                        + (session.autoAcknowledges() ? "the message is delivered again" : "the session goes on"), e);
            }
        } finally {
            synchronized (this) {
                inListener = null;
                notifyAll(); // a close on another thread waits for this
            }
        }
        session.afterListener(threw);
        return true;
    }

    // ------------------------------------------------------------------ AQ extensions

    /** AQ navigation: {@link #NAVIGATION_FIRST_MESSAGE}, {@link #NAVIGATION_NEXT_MESSAGE}, {@link #NAVIGATION_NEXT_TRANSACTION}. */
    public void setNavigationMode(int mode) throws JMSException {
        checkOpen();
        navigation = switch (mode) {
            case NAVIGATION_FIRST_MESSAGE -> Navigation.FIRST_MESSAGE;
            case NAVIGATION_NEXT_MESSAGE -> Navigation.NEXT_MESSAGE;
            case NAVIGATION_NEXT_TRANSACTION -> Navigation.NEXT_TRANSACTION;
            default -> throw new JMSException("Navigation mode " + mode + " is not FIRST_MESSAGE (1), NEXT_MESSAGE (2)"
                    + " or NEXT_TRANSACTION (3).");
        };
    }

    public int getNavigationMode() throws JMSException {
        checkOpen();
        return switch (navigation) {
            case FIRST_MESSAGE -> NAVIGATION_FIRST_MESSAGE;
            case NEXT_MESSAGE -> NAVIGATION_NEXT_MESSAGE;
            case NEXT_TRANSACTION -> NAVIGATION_NEXT_TRANSACTION;
        };
    }

    // ------------------------------------------------------------------ MessageConsumer / QueueReceiver / TopicSubscriber

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        if (!(destination instanceof Queue q)) {
            throw new jakarta.jms.IllegalStateException("This consumer receives from a topic.");
        }
        return q;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        if (!(destination instanceof Topic t)) {
            throw new jakarta.jms.IllegalStateException("This consumer receives from a queue.");
        }
        return t;
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return noLocal;
    }

    /**
     * Closes the consumer. From its own listener the listener completes normally first; a receive
     * in progress on another thread returns null.
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        listener = null;
        synchronized (this) { // a listener in progress on another thread completes first (MessageConsumer.close)
            while (inListener != null && inListener != Thread.currentThread()) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        try {
            session.aq.wakeWaiters(queue);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "waking receives on " + queue, e);
        }
        synchronized (this) { // a receive in progress on another thread returns (null) first
            while (receiving > 0) {
                try {
                    wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        session.consumerClosed(this);
        if (subscription != null) {
            session.lock.lock();
            try {
                subscription.consumerClosed();
            } finally {
                session.lock.unlock();
            }
        }
    }

    void closeQuietly() {
        try {
            close();
        } catch (JMSException | RuntimeException e) {
            LOG.log(Level.FINE, "closing a consumer", e);
        }
    }

    boolean isClosed() {
        return closed;
    }

    private void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("message consumer");
        }
        session.checkOpen();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
