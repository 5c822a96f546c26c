package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.StorableText;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.RemoteAddress;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.ScheduleEntity;
import io.aqueduct.engine.time.AqClock;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * DBMS_AQADM's propagation schedules: SCHEDULE_PROPAGATION, UNSCHEDULE_PROPAGATION,
 * ALTER_PROPAGATION_SCHEDULE, ENABLE_ / DISABLE_PROPAGATION_SCHEDULE and the schedules with their
 * statistics. Every call is checked before anything is written, and may be made while the
 * schedule runs: the node running it picks the change up at its next batch.
 */
public final class ScheduleAdministration {
    /** The NEXT_TIME column's size. */
    private static final int MAX_NEXT_TIME_CHARS = 200;

    private final OwnTransactions own;
    private final Catalog catalog;
    private final DatabaseLinks links;
    private final AqClock clock;
    private final String defaultSchema;
    /** Tells the propagator (and, on a shared store, the other nodes) that schedules changed. */
    private final Runnable changed;

    public ScheduleAdministration(OwnTransactions own, Catalog catalog, DatabaseLinks links, AqClock clock,
            String defaultSchema, Runnable changed) {
        this.own = own;
        this.catalog = catalog;
        this.links = links;
        this.clock = clock;
        this.defaultSchema = defaultSchema;
        this.changed = changed;
    }

    public void schedule(String queue, String destination, Instant startTime, Long durationSeconds, String nextTime,
            long latencySeconds) {
        QueueMeta q = sourceQueue(queue);
        String dest = destination(destination);
        long start = startTime == null ? clock.millis() : startTime.toEpochMilli();
        if (startTime != null && (start < 0 || start > 253_402_300_799_000L)) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid start time " + startTime
                    + ": give an instant between 1970 and the end of the year 9999 (null: now).");
        }
        checkTimes(start, durationSeconds, nextTime, latencySeconds);
        own.run(c -> c.work(em -> {
            if (em.find(ScheduleEntity.class, new ScheduleEntity.Key(q.id(), dest)) != null) {
                throw new AqException(AqError.SCHEDULE_EXISTS, "A propagation schedule for queue " + q.qualifiedName()
                        + " and destination " + dest + " already exists: alter it, or unschedule it first.");
            }
            ScheduleEntity s = new ScheduleEntity();
            s.queueId = q.id();
            s.destination = dest;
            s.startMs = start;
            s.duration = durationSeconds;
            s.nextTime = nextTime;
            s.latency = latencySeconds;
            em.persist(s);
            return null;
        }));
        changed.run();
    }

    public void unschedule(String queue, String destination) {
        QueueMeta q = anyQueue(queue);
        String dest = RemoteAddress.scheduleDestination(destination);
        own.run(c -> c.work(em -> {
            em.remove(existing(em, q, dest));
            return null;
        }));
        changed.run();
    }

    public void alter(String queue, String destination, Long durationSeconds, String nextTime, long latencySeconds) {
        QueueMeta q = anyQueue(queue);
        String dest = RemoteAddress.scheduleDestination(destination);
        long windowStart = own.run(c -> c.work(em -> {
            ScheduleEntity s = existing(em, q, dest);
            return s.currentStartMs != null ? s.currentStartMs : s.startMs;
        }));
        checkTimes(windowStart, durationSeconds, nextTime, latencySeconds);
        own.run(c -> c.work(em -> {
            ScheduleEntity s = existing(em, q, dest);
            s.duration = durationSeconds;
            s.nextTime = nextTime;
            s.latency = latencySeconds;
            s.nextRunMs = null;
            return null;
        }));
        changed.run();
    }

    public void enable(String queue, String destination) {
        QueueMeta q = anyQueue(queue);
        String dest = RemoteAddress.scheduleDestination(destination);
        own.run(c -> c.work(em -> {
            ScheduleEntity s = existing(em, q, dest);
            if (!s.isDisabled()) {
                throw new AqException(AqError.SCHEDULE_ALREADY_ENABLED, "Propagation from " + q.qualifiedName()
                        + " to " + dest + " is already enabled.");
            }
            s.disabled = 0;
            s.failures = 0; // disabled after failures: the administrator fixed the cause and starts over
            s.nextRunMs = null;
            return null;
        }));
        changed.run();
    }

    public void disable(String queue, String destination) {
        QueueMeta q = anyQueue(queue);
        String dest = RemoteAddress.scheduleDestination(destination);
        own.run(c -> c.work(em -> {
            ScheduleEntity s = existing(em, q, dest);
            if (s.isDisabled()) {
                throw new AqException(AqError.SCHEDULE_ALREADY_DISABLED, "Propagation from " + q.qualifiedName()
                        + " to " + dest + " is already disabled.");
            }
            s.disabled = 1;
            s.nextRunMs = null;
            return null;
        }));
        changed.run();
    }

    public List<PropagationSchedule> list() {
        List<ScheduleEntity> rows = own.run(c -> c.work(em -> em.createQuery("SELECT s FROM ScheduleEntity s",
                ScheduleEntity.class).getResultList()));
        return rows.stream().map(this::info).filter(java.util.Objects::nonNull)
                .sorted(Comparator.comparing(PropagationSchedule::schema).thenComparing(PropagationSchedule::queue)
                        .thenComparing(PropagationSchedule::destination))
                .toList();
    }

    public PropagationSchedule get(String queue, String destination) {
        QueueMeta q = anyQueue(queue);
        String dest = RemoteAddress.scheduleDestination(destination);
        return info(own.run(c -> c.work(em -> existing(em, q, dest))));
    }

    /** Drops a queue's schedules (the queue is being dropped): in the caller's transaction. */
    public static void dropSchedulesOf(EntityManager em, long queueId) {
        em.createQuery("DELETE FROM ScheduleEntity s WHERE s.queueId = :q").setParameter("q", queueId).executeUpdate();
    }

    private PropagationSchedule info(ScheduleEntity s) {
        QueueRuntime q = catalog.queue(s.queueId);
        if (q == null) {
            return null; // its queue was dropped a moment ago
        }
        QueueMeta m = q.meta();
        double seconds = s.totalTimeMs / 1000.0;
        return new PropagationSchedule(m.owner(), m.name(), s.destination, Instant.ofEpochMilli(s.startMs), s.duration,
                s.nextTime, s.latency, s.isDisabled(), s.nodeName, s.sessionId, s.nodeInstance, instant(s.lastRunMs),
                instant(s.currentStartMs), instant(s.nextRunMs), seconds, s.totalNumber, s.totalBytes, s.maxNumber,
                s.maxBytes, s.windows == 0 ? 0 : (double) s.totalNumber / s.windows,
                s.totalNumber == 0 ? 0 : (double) s.totalBytes / s.totalNumber,
                s.totalNumber == 0 ? 0 : seconds / s.totalNumber, s.failures, instant(s.lastErrorMs), s.lastErrorMessage);
    }

    private static Instant instant(Long ms) {
        return ms == null ? null : Instant.ofEpochMilli(ms);
    }

    private static ScheduleEntity existing(EntityManager em, QueueMeta q, String dest) {
        ScheduleEntity s = em.find(ScheduleEntity.class, new ScheduleEntity.Key(q.id(), dest));
        if (s == null) {
            throw new AqException(AqError.SCHEDULE_NOT_FOUND, "There is no propagation schedule for queue "
                    + q.qualifiedName() + " and destination " + dest + ".");
        }
        return s;
    }

    private void checkTimes(long start, Long durationSeconds, String nextTime, long latencySeconds) {
        if (latencySeconds < 0 || latencySeconds > Windows.MAX_SECONDS) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid latency " + latencySeconds
                    + ": the latency is a number of seconds, 0 (propagate at once) or more.");
        }
        if (nextTime != null) {
            StorableText.check(nextTime, "next_time");
            if (nextTime.isBlank() || nextTime.length() > MAX_NEXT_TIME_CHARS) {
                throw new AqException(AqError.INVALID_VALUE, "next_time must be a date expression of 1 to "
                        + MAX_NEXT_TIME_CHARS + " characters, such as SYSDATE + 1/24 (null: no next window).");
            }
        }
        Windows.check(start, durationSeconds, nextTime);
    }

    /** A schedule's source: an existing, multi-consumer, normal queue. */
    private QueueMeta sourceQueue(String queue) {
        QueueMeta q = anyQueue(queue);
        if (q.isException()) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + q.qualifiedName()
                    + " is an exception queue: messages are not propagated from exception queues.");
        }
        if (!q.table().multipleConsumers()) {
            throw new AqException(AqError.NOT_MULTI_CONSUMER, "Queue " + q.qualifiedName() + " is a single-consumer"
                    + " queue: propagation serves the remote subscribers of multi-consumer queues.");
        }
        return q;
    }

    private QueueMeta anyQueue(String queue) {
        QualifiedName qn = QualifiedName.forLookup(queue, defaultSchema, "queue");
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString());
        }
        if (q == null) {
            throw new AqException(AqError.QUEUE_NOT_FOUND, "Queue " + qn + " does not exist.");
        }
        return q.meta();
    }

    /** A destination that parses and, for a link, exists (2019 otherwise). */
    private String destination(String destination) {
        String dest = RemoteAddress.scheduleDestination(destination);
        if (!dest.equals(PropagationSchedule.LOCAL) && !links.exists(dest)) {
            throw new AqException(AqError.DATABASE_LINK_NOT_FOUND, "There is no database link " + dest
                    + ": create it first (createDatabaseLink), or give null to propagate within this store.");
        }
        return dest;
    }
}
