package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.store.Outage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAResource;

/**
 * Delivery to one activated MDB: {@code maxSessions} workers, each with its own queue session.
 * A worker waits (outside any transaction) until its queue has a message, then dequeues it
 * (REMOVE) and calls the MDB inside one XA transaction of the container: the MDB's rollback is a
 * failed attempt, counted by the engine's after-rollback hook.
 */
public final class DeliveryActivation {
    private static final Logger LOG = Logger.getLogger(DeliveryActivation.class.getName());
    private static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = AqMessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AqueductEngine engine;
    private final WorkManager workManager;
    private final MessageEndpointFactory factory;
    private final AqActivationSpec spec;
    private final String queue;
    private final String correlation;
    private final String consumer;
    private final String condition;
    private volatile boolean running;
    private CountDownLatch workers;

    public DeliveryActivation(AqueductEngine engine, WorkManager workManager, MessageEndpointFactory factory,
            AqActivationSpec spec) throws ResourceException {
        this.engine = engine;
        this.workManager = workManager;
        this.factory = factory;
        this.spec = spec;
        this.queue = spec.getQueueName().trim();
        this.correlation = spec.blankToNull(spec.getCorrelation());
        this.consumer = spec.blankToNull(spec.getConsumerName());
        this.condition = spec.blankToNull(spec.getCondition());
        checkQueue();
    }

    /** The queue must exist and fit the consumer name, or the deployment fails naming the problem. */
    private void checkQueue() throws ResourceException {
        try (EngineSession probe = engine.openSession(null)) {
            if (!probe.queueExists(queue)) {
                throw new ResourceException("Invalid Aqueduct activation config: queueName '" + queue
                        + "' names no existing queue (AQ-24010). Create and start the queue first.");
            }
            var meta = probe.admin().queue(queue);
            var table = probe.admin().queueTable(meta.owner() + "." + meta.queueTable());
            if (table.multipleConsumers() && consumer == null && meta.queueType() != io.aqueduct.api.QueueType.EXCEPTION) {
                throw new ResourceException("Invalid Aqueduct activation config: queue '" + queue
                        + "' is a multi-consumer queue; set consumerName to the subscriber to consume as.");
            }
            if (!table.multipleConsumers() && consumer != null) {
                throw new ResourceException("Invalid Aqueduct activation config: queue '" + queue
                        + "' is a single-consumer queue; leave consumerName empty.");
            }
        } catch (AqException e) {
            throw new ResourceException("Invalid Aqueduct activation config: queueName '" + queue + "': " + e.getMessage(), e);
        }
    }

    public void start() throws ResourceException {
        running = true;
        int n = spec.getMaxSessions();
        workers = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            EngineSession session = engine.openSession(spec.blankToNull(spec.getUser()));
            try {
                workManager.scheduleWork(new Worker(session), WorkManager.INDEFINITE, null, null);
            } catch (WorkException e) {
                session.close();
                running = false;
                throw new ResourceException("The WorkManager refused Aqueduct's delivery work: " + e.getMessage(), e);
            }
        }
    }

    /** Stops delivery: workers finish the message in hand (or roll it back) and leave. */
    public void stop() {
        running = false;
        wakeQueue();
        try {
            if (workers != null && !workers.await(30, TimeUnit.SECONDS)) {
                LOG.warning("Aqueduct: delivery to " + queue + " did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void wakeQueue() {
        try (EngineSession s = engine.openSession(null)) {
            s.wakeWaiters(queue);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "waking the delivery workers", e);
        }
    }

    private final class Worker implements Work {
        /** The worker's session; replaced after its store connection broke. */
        private EngineSession session;
        private XAResource xa;

        Worker(EngineSession session) {
            this.session = session;
        }

        /**
         * Delivers until stopped. A failure (the store away, a broken connection) never ends the
         * worker: it backs off (0.5 s doubling to 10 s), logs once per outage and once when delivery
         * works again, and continues on a fresh session when its connection went.
         */
        @Override
        public void run() {
            DequeueOptions options = DequeueOptions.create().mode(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)
                    .waitSeconds(DequeueOptions.NO_WAIT).correlation(correlation).consumerName(consumer)
                    .condition(condition);
            Outage outage = new Outage(LOG, "Aqueduct delivery from " + queue + " to " + factory.getEndpointClass().getName());
            try {
                while (running && !engine.isClosed()) {
                    try {
                        if (session != null && session.connectionBroken()) {
                            closeQuietly(session); // its XAResource belongs to the connection that broke
                            session = null;
                            xa = null;
                        }
                        if (session == null) {
                            session = engine.openSession(spec.blankToNull(spec.getUser()));
                        }
                        if (xa == null) {
                            xa = session.xaResource();
                        }
                        if (!session.awaitAvailable(queue, consumer, correlation, Long.MAX_VALUE, () -> !running)) {
                            continue;
                        }
                        if (!running) {
                            break;
                        }
                        long seen = session.queueVersion(queue);
                        if (!deliverOne(xa, options)) {
                            // another worker took it, or the condition accepts nothing yet: wait for the queue
                            // to change (the winner's commit, a new message); the bound retries an unavailable MDB
                            session.awaitQueueChange(queue, seen, 1_000);
                        }
                        outage.succeeded();
                    } catch (RuntimeException e) {
                        if (!running || engine.isClosed()) {
                            break;
                        }
                        long pause = outage.failed(e);
                        if (session != null && session.connectionGone()) {
                            closeQuietly(session);
                            session = null;
                            xa = null;
                        }
                        pause(pause);
                    }
                }
            } finally {
                closeQuietly(session);
                workers.countDown();
            }
        }

        private void closeQuietly(EngineSession s) {
            if (s == null) {
                return;
            }
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing a delivery session", e);
            }
        }

        /** One attempt: true when a message was dequeued and handed to the MDB (whatever it then did). */
        private boolean deliverOne(XAResource xa, DequeueOptions options) {
            boolean transacted;
            try {
                transacted = factory.isDeliveryTransacted(ON_MESSAGE);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
            MessageEndpoint endpoint;
            try {
                endpoint = factory.createEndpoint(transacted ? xa : null);
            } catch (UnavailableException e) {
                LOG.log(Level.FINE, "Aqueduct: the MDB for " + queue + " is unavailable", e);
                pause(500);
                return false;
            }
            try {
                return transacted ? deliverInTransaction(endpoint, options) : deliverLocally(endpoint, options);
            } finally {
                endpoint.release();
            }
        }

        /** The dequeue and the MDB's work in the container's XA transaction, begun by beforeDelivery. */
        private boolean deliverInTransaction(MessageEndpoint endpoint, DequeueOptions options) {
            boolean delivered = false;
            try {
                endpoint.beforeDelivery(ON_MESSAGE);
            } catch (NoSuchMethodException | ResourceException e) {
                if (session.connectionGone()) {
                    // the container could not enlist the session's XAResource: its store connection is gone.
                    // run() replaces the session (backing off, logging the outage once); else this worker fails here for ever
                    throw new AqException(AqError.STORE_UNAVAILABLE, "The delivery session's store connection is gone ("
                            + e.getMessage() + ")", e);
                }
                LOG.log(Level.WARNING, "Aqueduct: delivery from " + queue + " could not begin", e);
                pause(500);
                return false;
            }
            try {
                Message m = dequeue(options);
                if (m != null) {
                    delivered = true;
                    try {
                        ((AqMessageListener) endpoint).onMessage(m);
                    } catch (RuntimeException e) {
                        // a system exception: the container marks the transaction rollback-only and
                        // afterDelivery rolls it back, a failed attempt for the message
                        LOG.log(Level.FINE, "Aqueduct: the MDB for " + queue + " failed on " + m.id()
                                + "; the delivery is rolled back", e);
                    }
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Aqueduct: dequeue from " + queue + " failed; the delivery is rolled back", e);
            } finally {
                try {
                    endpoint.afterDelivery();
                } catch (ResourceException | RuntimeException e) {
                    LOG.log(Level.FINE, "Aqueduct: the delivery transaction for " + queue + " did not commit", e);
                }
            }
            return delivered;
        }

        /** The MDB is not transacted (bean-managed or NOT_SUPPORTED): the session's own transaction. */
        private boolean deliverLocally(MessageEndpoint endpoint, DequeueOptions options) {
            Message m;
            try {
                m = dequeue(options);
            } catch (RuntimeException e) {
                session.rollback();
                throw e;
            }
            if (m == null) {
                session.rollback();
                return false;
            }
            try {
                ((AqMessageListener) endpoint).onMessage(m);
            } catch (RuntimeException e) {
                session.rollback(); // a failed attempt
                return true;
            }
            session.commit();
            return true;
        }

        private Message dequeue(DequeueOptions options) {
            try {
                return session.dequeue(queue, options);
            } catch (AqException e) {
                if (e.errorCode() == AqError.NO_MESSAGE) {
                    return null; // another worker took it first
                }
                throw e;
            }
        }

        @Override
        public void release() {
            running = false;
            wakeQueue();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
