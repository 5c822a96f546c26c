package io.aqueduct.jms.client;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.Visibility;
import io.aqueduct.jms.destination.AqueductQueue;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;

import java.util.ArrayDeque;
import java.util.Enumeration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Browses a queue: AQ's BROWSE mode, committed messages in dequeue order, read a page at a time.
 * Each enumeration walks on a queue session of its own, so it has its own position. A locked
 * browser (AQ's extension) browses in LOCKED mode in its JMS session's transaction instead: the
 * messages it shows stay locked until that session commits or rolls back.
 */
public final class AqueductBrowser implements QueueBrowser {
    private static final Logger LOG = Logger.getLogger(AqueductBrowser.class.getName());
    private static final int PAGE = 50;

    private final AqueductSession session;
    private final AqueductQueue queue;
    private final String selector;
    private final boolean locked;
    private final CopyOnWriteArrayList<Walk> walks = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    AqueductBrowser(AqueductSession session, AqueductQueue queue, String selector, boolean locked) {
        this.session = session;
        this.queue = queue;
        this.selector = selector == null || selector.isBlank() ? null : selector;
        this.locked = locked;
    }

    /** Checks the selector (and the queue) now: a malformed selector is InvalidSelectorException at creation. */
    void validate() throws JMSException {
        session.lock.lock();
        try {
            session.aq.dequeueArray(queue.queueName(), options(Navigation.FIRST_MESSAGE, DequeueMode.BROWSE), 1);
        } catch (AqException e) {
            throw JmsErrors.ofSelector(e, selector);
        } finally {
            session.lock.unlock();
        }
    }

    private DequeueOptions options(Navigation navigation, DequeueMode mode) {
        return DequeueOptions.create().mode(mode).navigation(navigation).waitSeconds(DequeueOptions.NO_WAIT).selector(selector);
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return queue;
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector;
    }

    /** Whether this browser locks what it shows (AQ's locked browsing). */
    public boolean isLocked() {
        return locked;
    }

    @Override
    public Enumeration<?> getEnumeration() throws JMSException {
        checkOpen();
        Walk w = new Walk(locked ? null : session.connection.openQueueSession());
        walks.add(w);
        return w;
    }

    @Override
    public void close() throws JMSException {
        closed = true;
        for (Walk w : walks) {
            w.end();
        }
        session.browserClosed(this);
    }

    void closeQuietly() {
        try {
            close();
        } catch (JMSException | RuntimeException e) {
            LOG.log(Level.FINE, "closing a browser", e);
        }
    }

    private void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("queue browser");
        }
        session.checkOpen();
    }

    /** One enumeration: pages of messages; ends (and releases its queue session) when the queue has no more. */
    private final class Walk implements Enumeration<jakarta.jms.Message> {
        private final io.aqueduct.api.QueueSession own; // null: the JMS session's (locked browsing)
        private final ArrayDeque<Message> page = new ArrayDeque<>();
        /** Locked browsing: the ids shown, as the session's own receives move the position the walk shares. */
        private final java.util.Set<String> shown = new java.util.HashSet<>();
        private boolean first = true;
        /** Past the persistent messages: now the buffered (NON_PERSISTENT) ones, which AQ browses one at a time. */
        private boolean buffered;
        private boolean done;

        Walk(io.aqueduct.api.QueueSession own) {
            this.own = own;
        }

        @Override
        public synchronized boolean hasMoreElements() {
            if (page.isEmpty() && !done) {
                fill();
            }
            return !page.isEmpty();
        }

        @Override
        public synchronized jakarta.jms.Message nextElement() {
            if (!hasMoreElements()) {
                throw new NoSuchElementException("The browser has shown every message.");
            }
            try {
                return session.connection.mapping.toJms(page.poll(), queue);
            } catch (JMSException e) {
                throw new IllegalStateException("A browsed message cannot be read: " + e.getMessage(), e);
            }
        }

        private void fill() {
            if (closed || session.isClosed()) {
                end();
                return;
            }
            DequeueOptions o = options(first ? Navigation.FIRST_MESSAGE : Navigation.NEXT_MESSAGE,
                    locked ? DequeueMode.LOCKED : DequeueMode.BROWSE);
            if (buffered) {
                o.deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE);
            }
            int size = buffered ? 1 : PAGE; // AQ dequeues buffered messages one at a time
            List<Message> got;
            try {
                got = browse(o, size);
            } catch (AqException e) {
                if (!buffered && e.errorCode() == AqError.END_OF_GROUP) {
                    // a queue table with transactional grouping: this group is shown, on to the next one
                    got = browse(o.navigation(Navigation.NEXT_TRANSACTION), size);
                } else if (buffered && e.errorCode() == AqError.BUFFERED_NOT_SUPPORTED) {
                    got = List.of(); // a queue table with transactional grouping holds no buffered messages
                } else {
                    throw e;
                }
            }
            first = false;
            if (got.isEmpty() && !buffered && !locked) {
                // the persistent messages are shown; then the buffered ones (a locked browser locks,
                // and a buffered message is in no transaction that could hold a lock: it shows persistent ones only)
                buffered = true;
                first = true;
                fill();
                return;
            }
            for (Message m : got) {
                if (own != null || shown.add(String.valueOf(m.id()))) {
                    page.add(m);
                }
            }
            if (got.isEmpty()) {
                end();
            } else if (page.isEmpty()) {
                fill(); // every one shown already (a receive took the position back): go on from there
            }
        }

        private List<Message> browse(DequeueOptions o, int size) {
            if (own != null) {
                return own.dequeueArray(queue.queueName(), o, size);
            }
            session.lock.lock();
            try {
                return session.aq.dequeueArray(queue.queueName(), o, size);
            } finally {
                session.lock.unlock();
            }
        }

        synchronized void end() {
            done = true;
            if (own != null) {
                try {
                    own.close();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "closing a browse session", e);
                }
            }
            walks.remove(this);
        }
    }
}
