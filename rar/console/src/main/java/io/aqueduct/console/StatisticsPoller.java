package io.aqueduct.console;

import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The statistics every open console page shows, read by one background poll instead of by each page's request: a
 * statistics read may wait for the row locks of transactions in flight (on Derby up to its lock timeout), and a page
 * must not hang on it; with many pages open the store is read once per period, not once per page. The poll runs only
 * while a page has asked for figures in the last {@link #IDLE}; a failed poll keeps the last figures (marked with
 * the failure) and the next one tries again.
 */
public final class StatisticsPoller {
    private static final Logger LOG = Logger.getLogger(StatisticsPoller.class.getName());
    /** A poll is skipped when no page asked for this long. */
    static final Duration IDLE = Duration.ofSeconds(30);

    private final Supplier<QueueSession> sessions;
    private final Supplier<Map<String, Counters>> counters;
    private final Clock clock;
    private volatile Snapshot last = new Snapshot(null, List.of(), Map.of(), null);
    private volatile Instant lastAsked = Instant.EPOCH;
    private boolean failing;

    /**
     * One poll's figures: when, every queue's statistics, its counters since the engine started (absent when the
     * engine's MBeans are not in this JVM), or the failure of the last poll.
     */
    public record Snapshot(Instant time, List<QueueStatistics> queues, Map<String, Counters> counters, String failure) {
    }

    /** A queue's counters since its engine started (docs/metrics.md), summed over this JVM's engines of the queue. */
    public record Counters(long enqueued, long dequeued, long failedAttempts) {
        Counters plus(Counters o) {
            return new Counters(enqueued + o.enqueued, dequeued + o.dequeued, failedAttempts + o.failedAttempts);
        }
    }

    public StatisticsPoller(Supplier<QueueSession> sessions, Supplier<Map<String, Counters>> counters, Clock clock) {
        this.sessions = sessions;
        this.counters = counters;
        this.clock = clock;
    }

    /**
     * The counters of the engine's queue MBeans ({@code io.aqueduct:type=Queue,...}, docs/metrics.md) in this JVM's
     * platform MBean server, by qualified queue name: the adapter's engine runs in the console's server. JMX is
     * the JDK's: the console still needs nothing of the engine but its documented names.
     */
    public static Map<String, Counters> platformCounters() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Counters> all = new LinkedHashMap<>();
        try {
            for (ObjectName name : server.queryNames(new ObjectName("io.aqueduct:type=Queue,*"), null)) {
                try {
                    String raw = name.getKeyProperty("name");
                    String queue = raw.startsWith("\"") ? ObjectName.unquote(raw) : raw;
                    Counters c = new Counters(((Number) server.getAttribute(name, "Enqueued")).longValue(),
                            ((Number) server.getAttribute(name, "Dequeued")).longValue(),
                            ((Number) server.getAttribute(name, "FailedAttempts")).longValue());
                    all.merge(queue, c, Counters::plus);
                } catch (JMException | RuntimeException e) {
                    // a queue dropped (its MBean unregistered) while it was read: it is absent from this poll
                }
            }
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
        return all;
    }

    /** The last figures (a page asking keeps the poll running). */
    public Snapshot latest() {
        lastAsked = clock.instant();
        return last;
    }

    /** One scheduled run: never throws, so that the schedule goes on. */
    public void poll() {
        if (Duration.between(lastAsked, clock.instant()).compareTo(IDLE) > 0) {
            return;
        }
        try (QueueSession session = sessions.get()) {
            List<QueueStatistics> queues = session.admin().queueStatistics();
            last = new Snapshot(clock.instant(), queues, counters.get(), null);
            if (failing) {
                LOG.info("Aqueduct console: the statistics poll works again");
                failing = false;
            }
        } catch (RuntimeException e) {
            last = new Snapshot(last.time(), last.queues(), last.counters(), String.valueOf(e.getMessage()));
            if (!failing) {
                LOG.log(Level.WARNING, "Aqueduct console: the statistics poll failed; it goes on every period", e);
                failing = true;
            }
        }
    }
}
