package io.aqueduct.engine;

import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.engine.propagation.Propagator;
import io.aqueduct.engine.propagation.ScheduleAdministration;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.store.ScheduleEntity;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers one {@link PropagationScheduleMXBean} per propagation schedule of the store in the platform MBean
 * server, following the schedules the propagator reads (so also those another node of a shared store created),
 * unregisters a schedule's bean when it is gone (or its queue dropped) and all of them when the engine closes.
 * A failure to register is logged, never thrown: monitoring must not stop propagation.
 */
final class ScheduleMBeans {
    private static final Logger LOG = Logger.getLogger(ScheduleMBeans.class.getName());
    /** The statistics read from the store are reused this long, for every schedule's bean (as QueueMBeans'). */
    private static final long FIGURES_MAX_AGE_NANOS = 1_000_000_000L;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String store;
    private final String node;
    private final Catalog catalog;
    private final ScheduleAdministration schedules;
    /** Registered beans by schedule key (queue id, destination). */
    private final Map<Key, ObjectName> registered = new HashMap<>();
    private boolean closed;
    private Map<Key, PropagationSchedule> figures;
    private long figuresAt;
    /** Guards the figures apart from registration (a slow read must not hold up the propagator). */
    private final Object figuresLock = new Object();

    private record Key(long queueId, String destination) {
    }

    ScheduleMBeans(String store, String node, Catalog catalog, ScheduleAdministration schedules) {
        this.store = QueueMBeans.storeName(store);
        this.node = node;
        this.catalog = catalog;
        this.schedules = schedules;
    }

    void listen(Propagator propagator) {
        propagator.onSchedules(this::follow);
        catalog.onQueues(q -> {
        }, this::queueDropped);
    }

    static ObjectName name(String store, String node, String qualifiedQueue, String destination) throws JMException {
        return new ObjectName("io.aqueduct:type=PropagationSchedule,store=" + ObjectName.quote(QueueMBeans.storeName(store))
                + ",node=" + node + ",queue=" + ObjectName.quote(qualifiedQueue) + ",destination=" + ObjectName.quote(destination));
    }

    /** The store's schedules now: registers the new ones, unregisters those gone. */
    private synchronized void follow(List<ScheduleEntity> rows) {
        if (closed) {
            return;
        }
        Set<Key> seen = new HashSet<>();
        for (ScheduleEntity s : rows) {
            Key key = new Key(s.queueId, s.destination);
            QueueRuntime q = catalog.queue(s.queueId);
            if (q == null) {
                continue; // its queue is being dropped
            }
            seen.add(key);
            if (!registered.containsKey(key)) {
                String queue = q.meta().qualifiedName();
                try {
                    ObjectName name = name(store, node, queue, s.destination);
                    server.registerMBean(new Bean(queue, s.destination), name);
                    registered.put(key, name);
                } catch (JMException | RuntimeException e) {
                    LOG.log(Level.WARNING, "Aqueduct: the MBean of the propagation schedule from " + queue + " to "
                            + s.destination + " is not registered", e);
                }
            }
        }
        registered.keySet().removeIf(key -> {
            if (seen.contains(key)) {
                return false;
            }
            unregister(registered.get(key));
            return true;
        });
    }

    private synchronized void queueDropped(QueueRuntime q) {
        long id = q.meta().id();
        registered.keySet().removeIf(key -> {
            if (key.queueId() != id) {
                return false;
            }
            unregister(registered.get(key));
            return true;
        });
    }

    private void unregister(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.FINE, "Aqueduct: unregistering " + name, e);
        }
    }

    synchronized void close() {
        closed = true;
        registered.values().forEach(this::unregister);
        registered.clear();
    }

    /** A schedule's statistics from one read of all of them, read again when older than a second or without it. */
    private PropagationSchedule figures(String queue, String destination) {
        synchronized (figuresLock) {
            long now = System.nanoTime();
            Key key = key(queue, destination);
            if (figures == null || now - figuresAt > FIGURES_MAX_AGE_NANOS || key == null || !figures.containsKey(key)) {
                Map<Key, PropagationSchedule> read = new HashMap<>();
                for (PropagationSchedule s : schedules.list()) {
                    Key k = key(s.qualifiedQueue(), s.destination());
                    if (k != null) {
                        read.put(k, s);
                    }
                }
                figures = read;
                figuresAt = now;
            }
            PropagationSchedule s = key == null ? null : figures.get(key);
            if (s == null) {
                throw new IllegalStateException("The propagation schedule from " + queue + " to " + destination + " is gone.");
            }
            return s;
        }
    }

    private Key key(String queue, String destination) {
        QueueRuntime q = catalog.queue(queue);
        return q == null ? null : new Key(q.meta().id(), destination);
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }

    private final class Bean implements PropagationScheduleMXBean {
        private final String queue;
        private final String destination;

        Bean(String queue, String destination) {
            this.queue = queue;
            this.destination = destination;
        }

        private PropagationSchedule s() {
            return figures(queue, destination);
        }

        @Override
        public String getQueue() {
            return queue;
        }

        @Override
        public String getDestination() {
            return destination;
        }

        @Override
        public boolean isDisabled() {
            return s().disabled();
        }

        @Override
        public String getProcessName() {
            return s().processName();
        }

        @Override
        public String getStartTime() {
            return time(s().startTime());
        }

        @Override
        public Long getWindowSeconds() {
            return s().windowSeconds();
        }

        @Override
        public String getNextTime() {
            return s().nextTime();
        }

        @Override
        public long getLatencySeconds() {
            return s().latencySeconds();
        }

        @Override
        public String getLastRun() {
            return time(s().lastRun());
        }

        @Override
        public String getCurrentStart() {
            return time(s().currentStart());
        }

        @Override
        public String getNextRun() {
            return time(s().nextRun());
        }

        @Override
        public double getTotalTimeSeconds() {
            return s().totalTimeSeconds();
        }

        @Override
        public long getTotalNumber() {
            return s().totalNumber();
        }

        @Override
        public long getTotalBytes() {
            return s().totalBytes();
        }

        @Override
        public long getMaxNumber() {
            return s().maxNumber();
        }

        @Override
        public long getMaxBytes() {
            return s().maxBytes();
        }

        @Override
        public double getAverageNumber() {
            return s().averageNumber();
        }

        @Override
        public double getAverageSize() {
            return s().averageSize();
        }

        @Override
        public double getAverageTimeSeconds() {
            return s().averageTimeSeconds();
        }

        @Override
        public int getFailures() {
            return s().failures();
        }

        @Override
        public String getLastErrorTime() {
            return time(s().lastErrorTime());
        }

        @Override
        public String getLastErrorMessage() {
            return s().lastErrorMessage();
        }
    }
}
