package io.aqueduct.console.metrics;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.ObjectName;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * MicroProfile Metrics over the engine's MBeans: one gauge per figure of each queue, MDB activation and propagation
 * schedule MBean of this JVM, in the application registry (Payara: {@code /metrics?scope=application}). MBeans come
 * and go with queues, activations and schedules: the gauges follow them every {@value #SYNC_SECONDS} s. Names,
 * units and tags: docs/metrics.md.
 */
@ApplicationScoped
public class MetricsBridge {
    private static final Logger LOG = Logger.getLogger(MetricsBridge.class.getName());
    static final long SYNC_SECONDS = 5;

    /** One gauge: its metric name, unit, description and the MBean attribute it reads (scaled). */
    record Figure(String metric, String unit, String description, String attribute, double scale, Tag extra) {
        Figure(String metric, String unit, String description, String attribute) {
            this(metric, unit, description, attribute, 1, null);
        }
    }

    static final List<Figure> QUEUE = List.of(
            new Figure("aqueduct.queue.messages", MetricUnits.NONE, "Messages in the queue by state (V$AQ)", "Waiting", 1,
                    new Tag("state", "waiting")),
            new Figure("aqueduct.queue.messages", MetricUnits.NONE, "Messages in the queue by state (V$AQ)", "Ready", 1,
                    new Tag("state", "ready")),
            new Figure("aqueduct.queue.messages", MetricUnits.NONE, "Messages in the queue by state (V$AQ)", "Expired", 1,
                    new Tag("state", "expired")),
            new Figure("aqueduct.queue.oldest.ready", MetricUnits.SECONDS,
                    "How long the READY message that has waited longest has waited", "OldestReadySeconds"),
            new Figure("aqueduct.queue.average.wait", MetricUnits.SECONDS, "V$AQ AVERAGE_WAIT of the READY messages",
                    "AverageWaitSeconds"),
            new Figure("aqueduct.queue.buffered.messages", MetricUnits.NONE,
                    "Buffered messages of the queue in this engine's memory (V$BUFFERED_QUEUES NUM_MSGS)", "BufferedMessages"),
            new Figure("aqueduct.queue.buffered.memory", MetricUnits.BYTES,
                    "Memory of the queue's buffered messages, counted against the engine's limit", "BufferedBytes"),
            new Figure("aqueduct.queue.enqueued", MetricUnits.NONE, "Messages enqueued by this engine since it started", "Enqueued"),
            new Figure("aqueduct.queue.dequeued", MetricUnits.NONE, "Messages dequeued (REMOVE, committed) by this engine since it started",
                    "Dequeued"),
            new Figure("aqueduct.queue.expired", MetricUnits.NONE, "Messages that reached their expiration since start",
                    "Expirations"),
            new Figure("aqueduct.queue.moved", MetricUnits.NONE, "Messages moved to the exception queue since start",
                    "MovedToExceptionQueue"),
            new Figure("aqueduct.queue.failed.attempts", MetricUnits.NONE, "REMOVE dequeues rolled back since start",
                    "FailedAttempts"),
            new Figure("aqueduct.queue.dequeue.latency.average", MetricUnits.SECONDS,
                    "Average time from enqueue to dequeue of the dequeues since start", "DequeueLatencyAverageMillis", 0.001, null),
            new Figure("aqueduct.queue.dequeue.latency.max", MetricUnits.SECONDS,
                    "Longest time from enqueue to dequeue of the dequeues since start", "DequeueLatencyMaxMillis", 0.001, null));

    static final List<Figure> ACTIVATION = List.of(
            new Figure("aqueduct.activation.deliveries", MetricUnits.NONE, "Messages handed to the MDB since activation", "Deliveries"),
            new Figure("aqueduct.activation.failures", MetricUnits.NONE, "Deliveries that failed since activation", "Failures"),
            new Figure("aqueduct.activation.in.flight", MetricUnits.NONE, "Messages in the MDB's hands now", "InFlight"),
            new Figure("aqueduct.activation.sessions", MetricUnits.NONE, "Delivery workers configured (maxSessions)", "Sessions"),
            new Figure("aqueduct.activation.workers.running", MetricUnits.NONE, "Delivery workers in their loop now",
                    "WorkersRunning"),
            new Figure("aqueduct.activation.workers.failing", MetricUnits.NONE, "Delivery workers backing off after a failure",
                    "WorkersFailing"));

    static final List<Figure> SCHEDULE = List.of(
            new Figure("aqueduct.schedule.messages", MetricUnits.NONE, "Messages propagated (TOTAL_NUMBER)", "TotalNumber"),
            new Figure("aqueduct.schedule.propagated", MetricUnits.BYTES, "Bytes propagated (TOTAL_BYTES)", "TotalBytes"),
            new Figure("aqueduct.schedule.time", MetricUnits.SECONDS, "Time spent propagating (TOTAL_TIME)", "TotalTimeSeconds"),
            new Figure("aqueduct.schedule.failures", MetricUnits.NONE, "Failures in a row (FAILURES)", "Failures"),
            new Figure("aqueduct.schedule.disabled", MetricUnits.NONE, "1 when the schedule is disabled", "Disabled"));

    private final AqueductBeans beans = new AqueductBeans();
    /** The metrics registered per MBean. */
    private final Map<ObjectName, List<MetricID>> registered = new HashMap<>();

    @Inject
    MetricRegistry registry;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> syncing;

    /** Created with the application, not at the first scrape: its gauges exist before anyone asks. */
    void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        // the observer's call creates the bean
    }

    @PostConstruct
    void start() {
        sync();
        syncing = scheduler.scheduleWithFixedDelay(this::sync, SYNC_SECONDS, SYNC_SECONDS, TimeUnit.SECONDS);
    }

    @PreDestroy
    synchronized void stop() {
        if (syncing != null) {
            syncing.cancel(false);
        }
        registered.values().forEach(ids -> ids.forEach(registry::remove));
        registered.clear();
    }

    /** Registers the gauges of MBeans that appeared and removes those of MBeans gone; never throws (a supervised task). */
    synchronized void sync() {
        try {
            Set<ObjectName> seen = new HashSet<>();
            follow(AqueductBeans.QUEUES, QUEUE, seen, n -> List.of(new Tag("queue", AqueductBeans.key(n, "name")),
                    new Tag("store", AqueductBeans.key(n, "store")), new Tag("node", AqueductBeans.key(n, "node"))));
            follow(AqueductBeans.ACTIVATIONS, ACTIVATION, seen, n -> List.of(new Tag("queue", AqueductBeans.key(n, "queue")),
                    new Tag("endpoint", AqueductBeans.key(n, "endpoint")), new Tag("activation", AqueductBeans.key(n, "id"))));
            follow(AqueductBeans.SCHEDULES, SCHEDULE, seen, n -> List.of(new Tag("queue", AqueductBeans.key(n, "queue")),
                    new Tag("destination", AqueductBeans.key(n, "destination")), new Tag("store", AqueductBeans.key(n, "store")),
                    new Tag("node", AqueductBeans.key(n, "node"))));
            registered.entrySet().removeIf(e -> {
                if (seen.contains(e.getKey())) {
                    return false;
                }
                e.getValue().forEach(registry::remove);
                return true;
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct console: the metrics could not follow the engine's MBeans (tried again in "
                    + SYNC_SECONDS + " s)", e);
        }
    }

    private void follow(String pattern, List<Figure> figures, Set<ObjectName> seen,
            java.util.function.Function<ObjectName, List<Tag>> tagsOf) {
        for (ObjectName name : beans.query(pattern)) {
            seen.add(name);
            if (registered.containsKey(name)) {
                continue;
            }
            List<MetricID> ids = new ArrayList<>();
            for (Figure f : figures) {
                List<Tag> tags = new ArrayList<>(tagsOf.apply(name));
                if (f.extra() != null) {
                    tags.add(f.extra());
                }
                Tag[] array = tags.toArray(Tag[]::new);
                Metadata metadata = Metadata.builder().withName(f.metric()).withUnit(f.unit()).withDescription(f.description())
                        .build();
                try {
                    registry.gauge(metadata, () -> beans.number(name, f.attribute()) * f.scale(), array);
                    ids.add(new MetricID(f.metric(), array));
                } catch (RuntimeException e) {
                    // another application of this server (the console deployed twice) registered it: that one serves it
                    LOG.log(Level.FINE, "Aqueduct console: metric " + f.metric() + " " + tags + " not registered", e);
                }
            }
            registered.put(name, ids);
        }
    }
}
