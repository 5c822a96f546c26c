package io.aqueduct.console;

import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

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
    private final Clock clock;
    private volatile Snapshot last = new Snapshot(null, List.of(), Map.of(), null);
    private volatile Instant lastAsked = Instant.EPOCH;
    private boolean failing;

    /** One poll's figures: when, every queue's statistics and change count, or the failure of the last poll. */
    public record Snapshot(Instant time, List<QueueStatistics> queues, Map<String, Long> changes, String failure) {
    }

    public StatisticsPoller(Supplier<QueueSession> sessions, Clock clock) {
        this.sessions = sessions;
        this.clock = clock;
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
            Map<String, Long> changes = new LinkedHashMap<>();
            for (QueueStatistics s : queues) {
                try {
                    changes.put(s.qualifiedName(), session.queueVersion(s.qualifiedName()));
                } catch (AqException e) {
                    // dropped since the statistics were read: it goes from the next poll
                }
            }
            last = new Snapshot(clock.instant(), queues, changes, null);
            if (failing) {
                LOG.info("Aqueduct console: the statistics poll works again");
                failing = false;
            }
        } catch (RuntimeException e) {
            last = new Snapshot(last.time(), last.queues(), last.changes(), String.valueOf(e.getMessage()));
            if (!failing) {
                LOG.log(Level.WARNING, "Aqueduct console: the statistics poll failed; it goes on every period", e);
                failing = true;
            }
        }
    }
}
