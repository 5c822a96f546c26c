package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
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
 * failed attempt, counted by the engine's after-rollback hook. What is dequeued and how the
 * listener is called is the {@link DeliverySource}'s: the native listener's or a JMS one's. A
 * buffered message (the source's delivery mode includes them) is removed at its dequeue, outside
 * that transaction: when the MDB fails on it, it is lost (logged as a warning), as buffered
 * messages are when the JVM stops.
 */
public final class DeliveryActivation {
    private static final Logger LOG = Logger.getLogger(DeliveryActivation.class.getName());

    private final AqueductEngine engine;
    private final WorkManager workManager;
    private final MessageEndpointFactory factory;
    private final EndpointSpec spec;
    private final DeliverySource source;
    private final String queue;
    private final String correlation;
    private final String consumer;
    private final Method method;
    private volatile boolean running;
    private CountDownLatch workers;
    private final java.util.concurrent.atomic.LongAdder deliveries = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder failures = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    /** Workers in their delivery loop now (the WorkManager has started them and they have not ended). */
    private final java.util.concurrent.atomic.AtomicInteger workersRunning = new java.util.concurrent.atomic.AtomicInteger();
    /** Of those, workers whose last try failed (backing off: the store away, the MDB unavailable). */
    private final java.util.concurrent.atomic.AtomicInteger workersFailing = new java.util.concurrent.atomic.AtomicInteger();
    private javax.management.ObjectName mbean;
    private static final java.util.concurrent.atomic.AtomicLong ACTIVATIONS = new java.util.concurrent.atomic.AtomicLong();

    /** Checks what the spec names against the store (the deployment fails here, naming the problem). */
    public DeliveryActivation(AqueductEngine engine, WorkManager workManager, MessageEndpointFactory factory,
            EndpointSpec spec) throws ResourceException {
        this.engine = engine;
        this.workManager = workManager;
        this.factory = factory;
        this.spec = spec;
        this.source = spec.source(engine, factory);
        this.queue = source.queue();
        this.correlation = source.correlation();
        this.consumer = source.consumer();
        this.method = source.listenerMethod();
    }

    /** The queue delivered from. */
    public String queue() {
        return queue;
    }

    public void start() throws ResourceException {
        running = true;
        register();
        int n = spec.sessions();
        workers = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            EngineSession session = engine.openSession(spec.sessionUser());
            try {
                workManager.scheduleWork(new Worker(session), WorkManager.INDEFINITE, null, null);
            } catch (WorkException e) {
                session.close();
                for (int left = i; left < n; left++) {
                    workers.countDown(); // never started
                }
                stop();
                throw new ResourceException("The WorkManager refused Aqueduct's delivery work: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Stops delivery: workers finish the message in hand (or roll it back) and leave; then the
     * source lets go of what it holds (a non-durable JMS subscription ends).
     */
    public void stop() {
        running = false;
        wakeQueue();
        try {
            if (workers != null && !workers.await(30, TimeUnit.SECONDS)) {
                LOG.warning("Aqueduct: delivery to " + queue + " did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            unregister();
            try {
                source.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Aqueduct: releasing what the delivery from " + queue + " held failed", e);
            }
        }
    }

    /** This activation's MBean; monitoring that fails is logged, never a reason to refuse delivery. */
    private void register() {
        try {
            javax.management.ObjectName name = new javax.management.ObjectName("io.aqueduct:type=Activation,queue="
                    + javax.management.ObjectName.quote(queue) + ",endpoint="
                    + javax.management.ObjectName.quote(factory.getEndpointClass().getName()) + ",id=" + ACTIVATIONS.incrementAndGet());
            java.lang.management.ManagementFactory.getPlatformMBeanServer().registerMBean(new Bean(), name);
            mbean = name;
        } catch (javax.management.JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct: the MBean of the activation on " + queue + " is not registered", e);
        }
    }

    private void unregister() {
        javax.management.ObjectName name = mbean;
        mbean = null;
        if (name != null) {
            try {
                java.lang.management.ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (javax.management.JMException | RuntimeException e) {
                LOG.log(Level.FINE, "Aqueduct: unregistering " + name, e);
            }
        }
    }

    private final class Bean implements ActivationMXBean {
        @Override
        public String getQueue() {
            return queue;
        }

        @Override
        public String getEndpoint() {
            return factory.getEndpointClass().getName();
        }

        @Override
        public int getSessions() {
            return spec.sessions();
        }

        @Override
        public long getDeliveries() {
            return deliveries.sum();
        }

        @Override
        public long getFailures() {
            return failures.sum();
        }

        @Override
        public int getInFlight() {
            return inFlight.get();
        }

        @Override
        public int getWorkersRunning() {
            return workersRunning.get();
        }

        @Override
        public int getWorkersFailing() {
            return workersFailing.get();
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
        /**
         * The endpoint of the last delivery, kept for the next one while deliveries go well: a container
         * may deliver many messages through one endpoint (one pooled bean, one proxy), and creating one
         * per message cost a pool take, a proxy and a release each time. Released on any failure (the
         * container may have discarded its bean), when the session (its XAResource) is replaced, and when
         * the worker ends.
         */
        private MessageEndpoint endpoint;
        /** Whether the current delivery met a failure of any kind (its endpoint is then not reused). */
        private boolean failed;
        /** Asked once: whether the listener method is transacted does not change while the MDB is deployed. */
        private Boolean transacted;

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
            Outage outage = new Outage(LOG, "Aqueduct delivery from " + queue + " to " + factory.getEndpointClass().getName());
            workersRunning.incrementAndGet();
            boolean failing = false;
            try {
                while (running && !engine.isClosed()) {
                    try {
                        if (session != null && session.connectionBroken()) {
                            closeQuietly(session); // its XAResource belongs to the connection that broke
                            session = null;
                            xa = null;
                            releaseEndpoint(); // it was made for that XAResource
                        }
                        if (session == null) {
                            session = engine.openSession(spec.sessionUser());
                        }
                        if (xa == null) {
                            xa = session.xaResource();
                        }
                        if (!session.awaitAvailable(queue, consumer, correlation, source.deliveryMode(), Long.MAX_VALUE,
                                () -> !running)) {
                            continue;
                        }
                        if (!running) {
                            break;
                        }
                        long seen = session.queueVersion(queue);
                        if (!deliverOne(xa)) {
                            // another worker took it, or the condition accepts nothing yet: wait for the queue
                            // to change (the winner's commit, a new message); the bound retries an unavailable MDB
                            session.awaitQueueChange(queue, seen, 1_000);
                        }
                        outage.succeeded();
                        if (failing) {
                            failing = false;
                            workersFailing.decrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        if (!running || engine.isClosed()) {
                            break;
                        }
                        if (!failing) {
                            failing = true;
                            workersFailing.incrementAndGet();
                        }
                        long pause = outage.failed(e);
                        releaseEndpoint(); // what failed may have been the container's side
                        if (session != null && session.connectionGone()) {
                            closeQuietly(session);
                            session = null;
                            xa = null;
                        }
                        pause(pause);
                    }
                }
            } finally {
                if (failing) {
                    workersFailing.decrementAndGet();
                }
                workersRunning.decrementAndGet();
                releaseEndpoint();
                closeQuietly(session);
                workers.countDown();
            }
        }

        private void releaseEndpoint() {
            MessageEndpoint e = endpoint;
            endpoint = null;
            if (e == null) {
                return;
            }
            try {
                e.release();
            } catch (RuntimeException failed) {
                LOG.log(Level.FINE, "releasing a delivery endpoint", failed);
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
        private boolean deliverOne(XAResource xa) {
            if (transacted == null) {
                try {
                    transacted = factory.isDeliveryTransacted(method);
                } catch (NoSuchMethodException e) {
                    throw new IllegalStateException(e);
                }
            }
            if (endpoint == null) {
                try {
                    endpoint = factory.createEndpoint(transacted ? xa : null);
                } catch (UnavailableException e) {
                    LOG.log(Level.FINE, "Aqueduct: the MDB for " + queue + " is unavailable", e);
                    pause(500);
                    return false;
                }
            }
            failed = false;
            boolean completed = false;
            try {
                boolean delivered = transacted ? deliverInTransaction(endpoint) : deliverLocally(endpoint);
                completed = true;
                return delivered;
            } finally {
                if (!completed || failed) {
                    releaseEndpoint(); // the next delivery gets a fresh one
                }
            }
        }

        /** The dequeue and the MDB's work in the container's XA transaction, begun by beforeDelivery. */
        private boolean deliverInTransaction(MessageEndpoint endpoint) {
            boolean delivered = false;
            try {
                endpoint.beforeDelivery(method);
            } catch (NoSuchMethodException | ResourceException e) {
                if (session.connectionGone()) {
                    // the container could not enlist the session's XAResource: its store connection is gone.
                    // run() replaces the session (backing off, logging the outage once); else this worker fails here for ever
                    throw new AqException(AqError.STORE_UNAVAILABLE, "The delivery session's store connection is gone ("
                            + e.getMessage() + ")", e);
                }
                LOG.log(Level.WARNING, "Aqueduct: delivery from " + queue + " could not begin", e);
                pause(500);
                failed = true;
                return false;
            }
            try {
                Object m = source.take(session);
                if (m != null) {
                    delivered = true;
                    deliveries.increment();
                    inFlight.incrementAndGet();
                    try {
                        source.deliver(endpoint, m);
                    } catch (RuntimeException e) {
                        failed = true;
                        // a system exception: the container marks the transaction rollback-only and
                        // afterDelivery rolls it back, a failed attempt for the message
                        if (!lostBuffered(m, e)) {
                            LOG.log(Level.FINE, "Aqueduct: the MDB for " + queue + " failed on " + source.describe(m)
                                    + "; the delivery is rolled back", e);
                        }
                    }
                }
            } catch (RuntimeException e) {
                failed = true;
                LOG.log(Level.WARNING, "Aqueduct: dequeue from " + queue + " failed; the delivery is rolled back", e);
            } finally {
                try {
                    endpoint.afterDelivery();
                } catch (ResourceException | RuntimeException e) {
                    failed = true;
                    LOG.log(Level.FINE, "Aqueduct: the delivery transaction for " + queue + " did not commit", e);
                }
                if (delivered) {
                    inFlight.decrementAndGet();
                    if (failed) {
                        failures.increment();
                    }
                }
            }
            return delivered;
        }

        /** The MDB is not transacted (bean-managed or NOT_SUPPORTED): the session's own transaction. */
        private boolean deliverLocally(MessageEndpoint endpoint) {
            Object m;
            try {
                m = source.take(session);
            } catch (RuntimeException e) {
                session.rollback();
                throw e;
            }
            if (m == null) {
                session.rollback();
                return false;
            }
            deliveries.increment();
            inFlight.incrementAndGet();
            try {
                source.deliver(endpoint, m);
            } catch (RuntimeException e) {
                failed = true;
                failures.increment();
                session.rollback(); // a failed attempt
                lostBuffered(m, e);
                return true;
            } finally {
                inFlight.decrementAndGet();
            }
            try {
                session.commit();
            } catch (RuntimeException e) {
                failures.increment();
                throw e;
            }
            return true;
        }

        /**
         * A buffered message the MDB failed on is gone: it was removed at its dequeue, outside the
         * delivery's transaction, so the rollback does not deliver it again. Said aloud, once per message.
         */
        private boolean lostBuffered(Object m, RuntimeException e) {
            if (!source.buffered(m)) {
                return false;
            }
            LOG.log(Level.WARNING, "Aqueduct: the MDB for " + queue + " failed on buffered message " + source.describe(m)
                    + "; a buffered message is not part of the delivery's transaction and is not delivered again", e);
            return true;
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
