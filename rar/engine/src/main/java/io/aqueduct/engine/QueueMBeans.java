package io.aqueduct.engine;

import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueStatistics;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueMetrics;
import io.aqueduct.engine.queue.QueueRuntime;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers one {@link QueueMXBean} per queue of the catalog in the platform MBean server, as queues come
 * and go, and unregisters them all when the engine closes. A failure to register is logged, never thrown:
 * monitoring must not stop the queues.
 */
final class QueueMBeans {
    private static final Logger LOG = Logger.getLogger(QueueMBeans.class.getName());
    /**
     * The figures read from the store are reused for this long, for every queue's bean: a JMX console
     * reading 8 attributes of each of n queues counts the store once, not 8·n times.
     */
    private static final long FIGURES_MAX_AGE_NANOS = 1_000_000_000L;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String store;
    private final String node;
    private final QueueAdmin admin;
    private final Map<Long, ObjectName> registered = new ConcurrentHashMap<>();
    /** Which queue (id) a name is registered for: a queue dropped and created again elsewhere is seen created first. */
    private final Map<ObjectName, Long> owners = new ConcurrentHashMap<>();
    private volatile boolean closed;
    /** Every queue's figures (by queue id) from one count of the store, and when it was read; null: not yet. */
    private Map<Long, QueueStatistics> figures;
    private long figuresAt;
    /** Guards the figures apart from registration: a long count must not hold up a queue being created or dropped. */
    private final Object figuresLock = new Object();

    QueueMBeans(String store, String node, QueueAdmin admin) {
        this.store = storeName(store);
        this.node = node;
        this.admin = admin;
    }

    /** The store as the MBeans' names show it: a JDBC URL without its parameters, which may hold a password. */
    static String storeName(String store) {
        int query = store.indexOf('?');
        return query < 0 ? store : store.substring(0, query);
    }

    void listen(Catalog catalog) {
        catalog.onQueues(this::register, this::unregister);
    }

    static ObjectName name(String store, String node, String qualifiedQueue) throws JMException {
        return new ObjectName("io.aqueduct:type=Queue,store=" + ObjectName.quote(store) + ",node=" + node + ",name="
                + ObjectName.quote(qualifiedQueue));
    }

    private synchronized void register(QueueRuntime q) {
        if (closed) {
            return;
        }
        try {
            ObjectName name = name(store, node, q.meta().qualifiedName());
            Long previous = owners.remove(name);
            if (previous != null) {
                registered.remove(previous);
                server.unregisterMBean(name); // the queue of that name before it was dropped and created again
            }
            server.registerMBean(new Bean(q), name);
            registered.put(q.meta().id(), name);
            owners.put(name, q.meta().id());
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct: the MBean of queue " + q.meta().qualifiedName() + " is not registered", e);
        }
    }

    private synchronized void unregister(QueueRuntime q) {
        ObjectName name = registered.remove(q.meta().id());
        if (name != null && owners.remove(name, q.meta().id())) {
            try {
                server.unregisterMBean(name);
            } catch (JMException | RuntimeException e) {
                LOG.log(Level.FINE, "Aqueduct: unregistering " + name, e);
            }
        }
    }

    synchronized void close() {
        closed = true;
        for (ObjectName name : registered.values()) {
            try {
                server.unregisterMBean(name);
            } catch (JMException | RuntimeException e) {
                LOG.log(Level.FINE, "Aqueduct: unregistering " + name, e);
            }
        }
        registered.clear();
        owners.clear();
    }

    /** A queue's figures from the shared count, read again when older than FIGURES_MAX_AGE or without the queue. */
    private QueueStatistics figures(QueueRuntime queue) {
        long id = queue.meta().id();
        synchronized (figuresLock) {
            long now = System.nanoTime();
            if (figures == null || now - figuresAt > FIGURES_MAX_AGE_NANOS || !figures.containsKey(id)) {
                Map<Long, QueueStatistics> read = new java.util.HashMap<>();
                for (QueueStatistics s : admin.queueStatistics()) {
                    read.put(s.queueId(), s);
                }
                figures = read;
                figuresAt = now;
            }
            QueueStatistics f = figures.get(id);
            if (f != null) {
                return f;
            }
        }
        return admin.queueStatistics(queue.meta().qualifiedName()); // not in the catalog's list (yet)
    }

    private final class Bean implements QueueMXBean {
        private final QueueRuntime queue;

        Bean(QueueRuntime queue) {
            this.queue = queue;
        }

        private QueueStatistics figures() {
            return QueueMBeans.this.figures(queue);
        }

        private QueueMetrics metrics() {
            return queue.metrics();
        }

        /** The queue's buffered messages in this engine's memory (read from memory: cheap); none: zeros. */
        private BufferedQueueInfo buffered() {
            long id = queue.meta().id();
            for (BufferedQueueInfo b : admin.bufferedQueues()) {
                if (b.queueId() == id) {
                    return b;
                }
            }
            return new BufferedQueueInfo(queue.meta().owner(), queue.meta().name(), id, 0, 0, 0, 0, Map.of());
        }

        @Override
        public String getOwner() {
            return queue.meta().owner();
        }

        @Override
        public String getName() {
            return queue.meta().name();
        }

        @Override
        public long getQueueId() {
            return queue.meta().id();
        }

        @Override
        public long getWaiting() {
            return figures().waiting();
        }

        @Override
        public long getReady() {
            return figures().ready();
        }

        @Override
        public long getExpired() {
            return figures().expired();
        }

        @Override
        public double getTotalWaitSeconds() {
            return figures().totalWaitSeconds();
        }

        @Override
        public double getAverageWaitSeconds() {
            return figures().averageWaitSeconds();
        }

        @Override
        public double getOldestReadySeconds() {
            return figures().oldestReadySeconds();
        }

        @Override
        public long getEnqueued() {
            return metrics().enqueued();
        }

        @Override
        public long getDequeued() {
            return metrics().dequeued();
        }

        @Override
        public long getExpirations() {
            return metrics().expirations();
        }

        @Override
        public long getMovedToExceptionQueue() {
            return metrics().movedToExceptionQueue();
        }

        @Override
        public long getFailedAttempts() {
            return metrics().failedAttempts();
        }

        @Override
        public long getDequeueLatencyTotalMillis() {
            return metrics().latencyTotalMillis();
        }

        @Override
        public long getDequeueLatencyMaxMillis() {
            return metrics().latencyMaxMillis();
        }

        @Override
        public double getDequeueLatencyAverageMillis() {
            long n = metrics().latencyCount();
            return n == 0 ? 0 : (double) metrics().latencyTotalMillis() / n;
        }

        @Override
        public long getBufferedMessages() {
            return buffered().messages();
        }

        @Override
        public long getBufferedBytes() {
            return buffered().bytes();
        }

        @Override
        public long getBufferedEnqueued() {
            return buffered().enqueued();
        }

        @Override
        public long getBufferedExpired() {
            return buffered().expired();
        }
    }
}
