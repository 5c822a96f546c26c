package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqException;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.store.Background;
import io.aqueduct.engine.store.NodeIdentity;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.Outage;
import io.aqueduct.engine.store.ScheduleEntity;
import io.aqueduct.engine.time.AqClock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * AQ's propagation job: runs the schedules of the store, each on one node at a time. It sleeps until
 * the next thing due (a window's start or end, a latency's end, a backoff's end) or until told
 * that a commit added messages for remote consumers, then moves what its schedules' windows let it
 * move ({@link ScheduleRun}). A failure that may pass is retried after 30 s, 60 s, 120 s, ...;
 * the 16th in a row disables the schedule. On a shared store a node holds a schedule by a lease it
 * renews while it runs it; another node takes a schedule whose lease ran out (its node died).
 */
public final class Propagator implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Propagator.class.getName());
    /** Failures in a row after which a schedule is disabled (AQ's 16). */
    public static final int MAX_FAILURES = 16;
    /** The first retry's delay; each next one doubles (AQ's 30 s, 60 s, 120 s, ...). */
    public static final long FIRST_RETRY_MS = 30_000;
    /** How long a node holds a schedule without renewing (shared stores): another takes it over after that. */
    static final long LEASE_MS = 5_000;
    /** On a shared store, the longest the propagator sleeps (renewing its leases, noticing other nodes' work). */
    private static final long SHARED_RECHECK_MS = 1_000;
    /** The longest one schedule runs before the others get a turn. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final OwnTransactions own;
    private final Catalog catalog;
    private final AqClock clock;
    private final NodeIdentity node;
    private final boolean shared;
    private final ScheduleRun runner;
    private final DatabaseLinks links;
    private final String instance;
    /** When a commit first added messages for remote consumers of a queue, not yet propagated (by queue id). */
    private final Map<Long, Long> pendingSince = new ConcurrentHashMap<>();
    /** Shared stores: when this node tries its buffered messages of a schedule it does not hold again, after a failure. */
    private final Map<String, Long> bufferedRetry = new HashMap<>();
    /**
     * The queues that had a schedule when the schedules were last read: another node's commit on any
     * other queue wakes nothing here (each would otherwise cost a read of the schedules). A schedule
     * created since wakes the propagator itself (here, or by the catalog signal on the other nodes).
     */
    private volatile java.util.Set<Long> scheduledQueues = java.util.Set.of();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final ReentrantLock processing = new ReentrantLock();
    private boolean signalled;
    private volatile boolean running;
    private volatile boolean started;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** The failure each schedule was last reported for (logged once per stretch of failures). */
    private final Map<String, String> reported = new HashMap<>();

    /**
     * @param localSessions opens a session on this store (as the propagator's user)
     */
    public Propagator(OwnTransactions own, Catalog catalog, AqClock clock, NodeIdentity node, boolean shared,
            Function<String, EngineSession> localSessions, DatabaseLinks links,
            io.aqueduct.engine.transform.TransformationCatalog transformations,
            io.aqueduct.engine.payload.DeserializationFilter filter, java.util.Set<String> inDoubt, String user) {
        this.own = own;
        this.catalog = catalog;
        this.clock = clock;
        this.node = node;
        this.shared = shared;
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException | RuntimeException e) {
            host = "localhost";
        }
        this.instance = ProcessHandle.current().pid() + "@" + host;
        this.runner = new ScheduleRun(catalog, clock, node, localSessions, links, transformations, filter, inDoubt, user);
        this.links = links;
    }

    /** Told the store's schedules each time the propagator reads them. */
    private volatile java.util.function.Consumer<List<ScheduleEntity>> schedulesRead = schedules -> {
    };

    /**
     * {@code listener} is given the store's schedules (also other nodes') each time the propagator reads
     * them: at each round, on a shared store at least every second. It must not throw.
     */
    public void onSchedules(java.util.function.Consumer<List<ScheduleEntity>> listener) {
        this.schedulesRead = listener;
    }

    /** Runs the propagation loop where the engine runs its loops (in a container, the WorkManager). */
    public void start(Background background) {
        running = true;
        started = true;
        background.start("aqueduct-propagation", () -> {
            inLoop = true;
            try {
                loop();
            } finally {
                inLoop = false;
                stopped.countDown();
            }
        });
    }

    /** A commit added messages for remote consumers of queue {@code queueId}. */
    public void messagesFor(long queueId) {
        pendingSince.putIfAbsent(queueId, clock.millis());
        if (scheduledQueues.contains(queueId)) {
            wake(); // else no schedule moves them yet (creating one runs the schedules anyway)
        }
    }

    /** Look again now (a schedule changed, the clock moved, another node signalled). */
    public void wake() {
        lock.lock();
        try {
            signalled = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The loop's thread is in the loop (started, not ended): for health checks. */
    private volatile boolean inLoop;
    /** The loop's last round failed (the store away): for health checks. */
    private volatile boolean failing;

    /** Is the loop's thread in its loop (it may be asleep until the next thing due)? */
    public boolean loopAlive() {
        return inLoop;
    }

    /** Did the loop's last round fail (it backs off and tries again)? */
    public boolean loopFailing() {
        return failing;
    }

    private void loop() {
        Outage outage = new Outage(LOG, "Aqueduct propagation");
        while (running) {
            long next;
            try {
                next = runDue();
                outage.succeeded();
                failing = false;
            } catch (RuntimeException e) {
                failing = true;
                if (!running) {
                    return;
                }
                if (!pause(outage.failed(e))) {
                    return;
                }
                continue;
            }
            lock.lock();
            try {
                while (running && !signalled) {
                    long wait = next == Long.MAX_VALUE ? Long.MAX_VALUE : next - clock.millis();
                    if (wait <= 0) {
                        break;
                    }
                    if (wait == Long.MAX_VALUE) {
                        wakeUp.await();
                    } else {
                        wakeUp.await(wait, TimeUnit.MILLISECONDS);
                    }
                }
                signalled = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * After a failure of the loop itself (the store is away): waits in real time, not on the queues'
     * clock, or until woken (a commit: the store is back). False when interrupted.
     */
    private boolean pause(long millis) {
        lock.lock();
        try {
            if (!signalled) {
                wakeUp.await(millis, TimeUnit.MILLISECONDS);
            }
            signalled = false;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs every schedule that is due and returns when something is next due (epoch ms;
     * Long.MAX_VALUE: nothing planned). The loop calls it; tests driving a manual clock may too.
     */
    public long runDue() {
        processing.lock();
        try {
            long now = clock.millis();
            List<ScheduleEntity> schedules = own.run(c -> c.work(em -> em.createQuery(
                    "SELECT s FROM ScheduleEntity s ORDER BY s.queueId, s.destination", ScheduleEntity.class).getResultList()));
            scheduledQueues = schedules.stream().map(s -> s.queueId).collect(java.util.stream.Collectors.toUnmodifiableSet());
            schedulesRead.accept(schedules);
            long next = Long.MAX_VALUE;
            for (ScheduleEntity s : schedules) {
                next = Math.min(next, runSchedule(s, now));
            }
            if (shared) {
                next = Math.min(next, now + SHARED_RECHECK_MS);
            }
            return next;
        } finally {
            processing.unlock();
        }
    }

    private long runSchedule(ScheduleEntity s, long now) {
        if (s.isDisabled()) {
            return Long.MAX_VALUE;
        }
        QueueRuntime q = catalog.queue(s.queueId);
        if (q == null) {
            return Long.MAX_VALUE; // its queue is being dropped (the drop removes the schedule)
        }
        if (!hold(s, now)) {
            long holder = s.leaseUntil == null ? now + LEASE_MS : Math.max(now, s.leaseUntil);
            return Math.min(holder, bufferedElsewhere(s, q, now));
        }
        Expression nextTime;
        try {
            nextTime = Windows.compile(s.nextTime);
        } catch (AqException e) {
            nextTime = null; // checked when stored; a next_time this version cannot read ends the windows
        }
        Windows.Window w = Windows.current(s.startMs, s.duration, nextTime, s.currentStartMs, now);
        if (w == null || !w.contains(now)) {
            Long nextRun = w == null ? null : w.start();
            if (s.currentStartMs != null || !java.util.Objects.equals(s.nextRunMs, nextRun)) {
                update(s, e -> {
                    e.currentStartMs = null;
                    e.nextRunMs = nextRun;
                });
            }
            return nextRun == null ? Long.MAX_VALUE : nextRun;
        }
        if (s.currentStartMs == null || s.currentStartMs != w.start()) {
            update(s, e -> {
                e.currentStartMs = w.start();
                e.windowNumber = 0;
                e.windowBytes = 0;
                if (e.failures == 0) {
                    e.nextRunMs = null;
                }
            });
            s.currentStartMs = w.start();
        }
        long windowEnd = w.end() == null ? Long.MAX_VALUE : w.end();
        if (s.failures > 0 && s.nextRunMs != null && s.nextRunMs > now) {
            return s.nextRunMs; // backing off after a failure
        }
        Long since = pendingSince.get(s.queueId);
        if (s.latency > 0 && since != null && now < since + s.latency * 1000) {
            return Math.min(since + s.latency * 1000, windowEnd); // AQ's latency: new messages wait at most this long
        }
        pendingSince.remove(s.queueId, since);
        long sliceStart = System.nanoTime();
        try {
            // this node's buffered messages first: they hold memory their producers may be waiting for
            while (true) {
                ScheduleRun.Outcome outcome = runner.bufferedBatch(s, q, clock.millis());
                if (outcome.applicationError() != null) {
                    noteApplicationError(s, outcome.applicationError());
                }
                if (!outcome.more() || clock.millis() >= windowEnd) {
                    break;
                }
                if (System.nanoTime() - sliceStart > SLICE_NANOS || !running && started) {
                    succeeded(s);
                    return now; // more to move: after the other schedules have had a turn
                }
            }
            while (true) {
                ScheduleRun.Outcome outcome = runner.batch(s, q, clock.millis());
                if (outcome.applicationError() != null) {
                    noteApplicationError(s, outcome.applicationError());
                }
                if (!outcome.more()) {
                    break;
                }
                if (System.nanoTime() - sliceStart > SLICE_NANOS || !running && started) {
                    succeeded(s);
                    return now; // more to move: after the other schedules have had a turn
                }
                if (clock.millis() >= windowEnd) {
                    break;
                }
            }
            succeeded(s);
        } catch (ScheduleRun.ScheduleLost lost) {
            return now; // another node holds it now (or it was dropped): look again
        } catch (RuntimeException e) {
            if (!running && started) {
                runner.failed(s.destination);
                return now; // stopping: what failed is the engine going away, not the schedule
            }
            return failed(s, w, nextTime, e, clock.millis());
        }
        return windowEnd;
    }

    /**
     * A shared store's node that does not hold the schedule still propagates the buffered messages in its
     * own memory (no other node can see them), inside the schedule's windows and after its latency. Its
     * failures are its own: logged, retried after {@link #FIRST_RETRY_MS}, not counted in the schedule's
     * row (the holding node keeps that for the persistent messages).
     */
    private long bufferedElsewhere(ScheduleEntity s, QueueRuntime q, long now) {
        Expression nextTime;
        try {
            nextTime = Windows.compile(s.nextTime);
        } catch (AqException e) {
            nextTime = null;
        }
        Windows.Window w = Windows.current(s.startMs, s.duration, nextTime, s.currentStartMs, now);
        if (w == null || !w.contains(now)) {
            return w == null ? Long.MAX_VALUE : w.start();
        }
        String key = s.queueId + "/" + s.destination;
        Long retry = bufferedRetry.get(key);
        if (retry != null && retry > now) {
            return retry;
        }
        Long since = pendingSince.get(s.queueId);
        if (s.latency > 0 && since != null && now < since + s.latency * 1000) {
            return since + s.latency * 1000;
        }
        pendingSince.remove(s.queueId, since);
        long sliceStart = System.nanoTime();
        try {
            while (runner.bufferedBatch(s, q, clock.millis()).more()) {
                if (System.nanoTime() - sliceStart > SLICE_NANOS || !running && started) {
                    return now;
                }
            }
            if (bufferedRetry.remove(key) != null) {
                LOG.info("Aqueduct propagation of buffered messages from queue " + name(s) + " to " + s.destination
                        + " works again on this node.");
            }
            return Long.MAX_VALUE;
        } catch (RuntimeException e) {
            runner.failed(s.destination);
            long at = clock.millis() + FIRST_RETRY_MS;
            if (bufferedRetry.put(key, at) == null) {
                LOG.log(Level.WARNING, "Aqueduct propagation of buffered messages from queue " + name(s) + " to "
                        + s.destination + " failed on this node: " + ScheduleRun.describe(e) + " They stay in memory; it"
                        + " tries again at " + java.time.Instant.ofEpochMilli(at) + ".", e instanceof AqException ? null : e);
            }
            return at;
        }
    }

    /**
     * Takes or keeps the schedule for this node. On a store of one JVM the engine always runs all of
     * them; on a shared store the lease decides, renewed at half its length.
     */
    private boolean hold(ScheduleEntity s, long now) {
        String me = node.tag();
        boolean mine = me.equals(s.nodeName);
        if (!shared) {
            if (!mine) {
                update(s, e -> {
                    e.nodeName = me;
                    e.nodeInstance = instance;
                    e.sessionId = runner.sessionId();
                    e.leaseUntil = null;
                });
                s.nodeName = me;
            }
            return true;
        }
        if (mine && s.leaseUntil != null && s.leaseUntil - now > LEASE_MS / 2) {
            return true;
        }
        if (!mine && s.nodeName != null && s.leaseUntil != null && s.leaseUntil > now) {
            return false; // another node runs it
        }
        long until = now + LEASE_MS;
        String previous = s.nodeName;
        Long previousLease = s.leaseUntil;
        boolean taken = own.run(c -> c.work(em -> em.createQuery("UPDATE ScheduleEntity s SET s.nodeName = :me,"
                + " s.nodeInstance = :inst, s.sessionId = :sid, s.leaseUntil = :until WHERE s.queueId = :q"
                + " AND s.destination = :d AND (s.nodeName IS NULL OR s.nodeName = :me OR s.leaseUntil IS NULL"
                + " OR s.leaseUntil <= :now)").setParameter("me", me).setParameter("inst", instance)
                .setParameter("sid", runner.sessionId()).setParameter("until", until).setParameter("q", s.queueId)
                .setParameter("d", s.destination).setParameter("now", now).executeUpdate() == 1));
        if (taken) {
            if (!mine && previous != null) {
                LOG.info("Aqueduct propagation from queue " + name(s) + " to " + s.destination + " taken over from node "
                        + previous + " (its lease ended " + (previousLease == null ? "" : java.time.Instant.ofEpochMilli(previousLease))
                        + ")");
            }
            s.nodeName = me;
            s.leaseUntil = until;
        }
        return taken;
    }

    private void succeeded(ScheduleEntity s) {
        String key = s.queueId + "/" + s.destination;
        if (reported.remove(key) != null) {
            LOG.info("Aqueduct propagation from queue " + name(s) + " to " + s.destination + " works again.");
        }
        // the batch that moved something reset the failures in its own transaction; one that moved nothing resets them here
        if (s.failures > 0) {
            update(s, e -> {
                e.failures = 0;
                e.lastErrorMessage = null;
                e.nextRunMs = null;
            });
            s.failures = 0;
        }
    }

    /**
     * A failure that may pass: counted; the next try after 30 s, doubling with each failure in a
     * row, in the next window if that is beyond this one; the 16th disables the schedule.
     */
    private long failed(ScheduleEntity s, Windows.Window w, Expression nextTime, RuntimeException e, long now) {
        runner.failed(s.destination);
        String message = ScheduleRun.describe(e);
        int failures = s.failures + 1;
        boolean disable = failures >= MAX_FAILURES;
        long retryAt = now + FIRST_RETRY_MS * (1L << Math.min(failures - 1, 20));
        Long nextRun;
        if (disable) {
            nextRun = null;
        } else if (w.end() != null && retryAt >= w.end()) {
            nextRun = Windows.after(nextTime, w.end()); // beyond this window: at the start of the next one
        } else {
            nextRun = retryAt;
        }
        try {
            update(s, x -> {
                x.failures = failures;
                x.lastErrorMs = now;
                x.lastErrorMessage = truncate(message);
                x.nextRunMs = nextRun;
                if (disable) {
                    x.disabled = 1;
                }
            });
        } catch (RuntimeException alsoFailed) {
            e.addSuppressed(alsoFailed);
            throw e; // the store itself is away: the loop backs off and the schedule is tried again
        }
        String key = s.queueId + "/" + s.destination;
        if (disable) {
            LOG.log(Level.SEVERE, "Aqueduct propagation from queue " + name(s) + " to " + s.destination + " failed "
                    + failures + " times in a row and is now disabled: " + message + " Fix the cause, then enable the"
                    + " schedule (enablePropagationSchedule).", e);
        } else if (!message.equals(reported.put(key, message))) {
            // an AQ error says what is wrong in its message; a stack trace only for the unexpected
            LOG.log(Level.WARNING, "Aqueduct propagation from queue " + name(s) + " to " + s.destination + " failed ("
                    + failures + " in a row): " + message + " It tries again "
                    + (nextRun == null ? "in the next window" : "at " + java.time.Instant.ofEpochMilli(nextRun)) + ".",
                    e instanceof AqException && e.getCause() == null ? null : e);
            LOG.log(Level.FINE, "Aqueduct propagation failure", e);
        }
        return nextRun == null ? Long.MAX_VALUE : nextRun;
    }

    private void noteApplicationError(ScheduleEntity s, String message) {
        long now = clock.millis();
        update(s, x -> {
            x.lastErrorMs = now;
            x.lastErrorMessage = truncate(message);
        });
    }

    private static String truncate(String message) {
        return message.length() <= 4000 ? message : message.substring(0, 3997) + "...";
    }

    private String name(ScheduleEntity s) {
        QueueRuntime q = catalog.queue(s.queueId);
        return q == null ? "#" + s.queueId : q.meta().qualifiedName();
    }

    /** Changes the schedule's row in a transaction of its own (skipped if it was dropped meanwhile). */
    private void update(ScheduleEntity s, java.util.function.Consumer<ScheduleEntity> change) {
        own.run(c -> c.work(em -> {
            ScheduleEntity row = em.find(ScheduleEntity.class, new ScheduleEntity.Key(s.queueId, s.destination));
            if (row != null) {
                change.accept(row);
            }
            return null;
        }));
    }

    /** This node's name, as the schedules' PROCESS_NAME shows it while this node runs them. */
    public String nodeName() {
        return node.tag();
    }

    /** Stops the loop and lets go of the schedules this node held, so that another node takes them at once. */
    @Override
    public void close() {
        running = false;
        wake();
        links.stopCalls(); // a batch waiting for another server's answer ends now, not after its timeout
        if (started) {
            try {
                stopped.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processing.lock();
        try {
            try {
                own.run(c -> c.work(em -> em.createQuery("UPDATE ScheduleEntity s SET s.nodeName = NULL, s.nodeInstance = NULL,"
                        + " s.sessionId = NULL, s.leaseUntil = NULL WHERE s.nodeName = :me").setParameter("me", node.tag())
                        .executeUpdate()));
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Aqueduct propagation could not release its schedules (their leases run out)", e);
            }
            runner.close();
        } finally {
            processing.unlock();
        }
    }
}
