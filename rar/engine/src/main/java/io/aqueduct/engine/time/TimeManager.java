package io.aqueduct.engine.time;

import io.aqueduct.api.MessageState;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.ExceptionQueues;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntries;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.Outage;
import io.aqueduct.engine.store.Store;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.StoreConnection;
import io.aqueduct.engine.store.Statements;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * AQ's time manager: moves WAITING messages to READY when their delay or retry delay ends,
 * expired READY messages to their exception queue, and purges processed messages when their
 * retention ends. Each message's next due instant is its TIME_MANAGER_INFO column; the manager
 * sleeps until the earliest one (or until told of an earlier one), never on a fixed interval.
 */
public final class TimeManager implements DueWork, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TimeManager.class.getName());
    private static final int BATCH = 200;
    /** On a shared store, the longest the time manager sleeps without looking at the table (other nodes add work). */
    private static final long SHARED_RECHECK_MS = 1000;

    private final Store store;
    private final Catalog catalog;
    private final AqClock clock;
    private final ExceptionQueues exceptionQueues;
    /** Messages in-doubt branches hold (Derby, after a crash): passed by until their branch ends. */
    private final java.util.Set<String> inDoubt;
    /** Shared-store housekeeping run with each beat (attempts of dead nodes, branches ended elsewhere). */
    private final List<java.util.function.LongConsumer> beatWork = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final ReentrantLock processing = new ReentrantLock();
    private long nextDue = Long.MAX_VALUE;
    private boolean signalled;
    private volatile boolean running;
    private volatile boolean started;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private StoreConnection connection;
    /** Messages whose consumers may all be done (see {@link #checkCompletion}). */
    private final java.util.Queue<String> completions = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** Told of what becomes available (notifications); set once the notifier exists. */
    private volatile Availability availability;

    public void availability(Availability availability) {
        this.availability = availability;
    }

    /** Notification rows and in-memory notifications of the batch being processed. */
    private final List<Object> notificationRows = new ArrayList<>();
    private final List<Object> notifyLater = new ArrayList<>();

    /** {@code inDoubt}: a live view of the messages in-doubt branches hold. */
    public TimeManager(Store store, Catalog catalog, AqClock clock, java.util.Set<String> inDoubt) {
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.exceptionQueues = new ExceptionQueues(catalog);
        this.inDoubt = inDoubt;
    }

    /**
     * On a shared store: {@code work} runs with each beat of this node (at most every
     * {@value #BEAT_EVERY_MS} ms), given the current time; a failure ends the round like any other.
     */
    public void onBeat(java.util.function.LongConsumer work) {
        beatWork.add(work);
    }

    /** Due work kept in memory (buffered messages): given the time, it does what is due and returns its next due instant. */
    private final List<java.util.function.LongUnaryOperator> inMemoryWork = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code work} runs in each round, before the store's work, on this manager's clock. */
    public void inMemoryWork(java.util.function.LongUnaryOperator work) {
        inMemoryWork.add(work);
    }

    private boolean inDoubt(String msgid) {
        return !inDoubt.isEmpty() && inDoubt.contains(msgid);
    }

    /** Runs the time manager's loop where the engine runs its loops (in a container, the WorkManager). */
    public void start(io.aqueduct.engine.store.Background background) {
        running = true;
        started = true;
        background.start("aqueduct-time-manager", () -> {
            inLoop = true;
            try {
                loop();
            } finally {
                inLoop = false;
                stopped.countDown();
            }
        });
    }

    public boolean isRunning() {
        return running;
    }

    /** Something becomes due at {@code epochMillis}; wake up earlier if that is sooner than planned. */
    @Override
    public void schedule(long epochMillis) {
        lock.lock();
        try {
            if (epochMillis < nextDue) {
                nextDue = epochMillis;
                signalled = true;
                wakeUp.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Look again now (the clock jumped, a held message was released). */
    @Override
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
        Outage outage = new Outage(LOG, "The Aqueduct time manager");
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
                long pause = outage.failed(e);
                lock.lock();
                try {
                    // real time: the store is away, not the queues' clock; a commit (the store is back) wakes it early
                    if (!signalled) {
                        wakeUp.await(pause, TimeUnit.MILLISECONDS);
                    }
                    signalled = false;
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    lock.unlock();
                }
                continue;
            }
            lock.lock();
            try {
                if (next < nextDue || nextDue <= clock.millis()) {
                    nextDue = next;
                }
                while (running && !signalled) {
                    long wait = nextDue == Long.MAX_VALUE ? Long.MAX_VALUE : nextDue - clock.millis();
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
     * Does all work due by now and returns the next due instant (epoch ms, Long.MAX_VALUE when
     * nothing is pending). The background thread calls it; tests driving a manual clock may too.
     */
    public long runDue() {
        processing.lock();
        try {
            // in-memory work first: it needs no store, so an outage of the store does not hold it up
            long inMemoryNext = Long.MAX_VALUE;
            for (java.util.function.LongUnaryOperator work : inMemoryWork) {
                inMemoryNext = Math.min(inMemoryNext, work.applyAsLong(clock.millis()));
            }
            return Math.min(inMemoryNext, runDueOnce());
        } catch (RuntimeException e) {
            if (connection != null && connection.broken()) {
                connection.closeQuietly(); // the next round opens a fresh one
                connection = null;
            }
            throw e;
        } finally {
            processing.unlock();
        }
    }

    private long runDueOnce() {
        if (connection == null) {
            connection = store.open();
        }
        long now = clock.millis();
        while (true) {
            Batch batch = processBatch(now);
            if ((batch.seen < BATCH && completions.isEmpty()) || batch.done == 0) {
                break;
            }
        }
        settleWhatWaited();
        beatAndRecover(now);
        return nextDueAfter(now);
    }

    private record Batch(int seen, int done) {
    }

    /** When this node last beat (shared store): at most every {@value #BEAT_EVERY_MS} ms. */
    private long lastBeat = Long.MIN_VALUE;
    private static final long BEAT_EVERY_MS = 500;

    /**
     * On a shared store: this node's beat (the work registered with {@link #onBeat}: telling the
     * other nodes it is alive, counting the attempts of nodes that are not), and every
     * {@value #SWEEP_EVERY_MS} ms a fresh look at the catalog and at messages nobody completed.
     */
    private void beatAndRecover(long now) {
        if (!store.dialect().shared() || (lastBeat != Long.MIN_VALUE && now >= lastBeat && now - lastBeat < BEAT_EVERY_MS)) {
            return;
        }
        lastBeat = now;
        for (java.util.function.LongConsumer work : beatWork) {
            work.accept(now);
        }
        if (lastSweep == Long.MIN_VALUE || now < lastSweep || now - lastSweep >= SWEEP_EVERY_MS) {
            lastSweep = now;
            catalog.refresh(); // in case a catalog signal was lost
            sweepUncompleted();
        }
    }

    private long lastSweep = Long.MIN_VALUE;
    private static final long SWEEP_EVERY_MS = 10_000;

    /**
     * Multi-consumer messages every consumer is done with but nobody completed (the node of the last
     * consumer died between its commit and the completion): completed here.
     */
    private void sweepUncompleted() {
        @SuppressWarnings("unchecked")
        List<Object> msgids = connection.work(em -> em.createNativeQuery(store.dialect().sql("time.uncompletedMessages", BATCH))
                .setParameter(1, MessageState.READY.code()).setParameter(2, io.aqueduct.api.QueueType.EXCEPTION.name())
                .setParameter(3, ConsumerStates.READY).setParameter(4, ConsumerStates.WAITING).getResultList());
        connection.commit();
        for (Object id : msgids) {
            completions.add(((String) id).trim());
        }
    }

    /** What a batch did, applied to the ready indexes once it has committed. */
    private record Change(QueueRuntime from, List<ReadyEntry> claimed, QueueRuntime to, List<ReadyEntry> added) {
    }

    private Batch processBatch(long now) {
        List<Change> changes = new ArrayList<>();
        // taken before the transaction and given back if it fails, so that no completion is lost with it
        List<String> completing = new ArrayList<>();
        for (String id; completing.size() < BATCH && (id = completions.poll()) != null;) {
            completing.add(id);
        }
        int seen;
        try {
            seen = connection.work(em -> {
                changes.clear();
                notificationRows.clear();
                notifyLater.clear();
                // Derby reads dirty (the conditional updates re-check); a shared store locks the rows it
                // takes and skips those another node's time manager or a dequeuer holds
                io.aqueduct.engine.store.Dialect dialect = store.dialect();
                // rows in-doubt branches hold (Derby) are left out, or a batch full of them would starve the rest
                List<String> passed = inDoubt.stream().limit(1000).toList();
                jakarta.persistence.Query due = em.createNativeQuery(passed.isEmpty() ? dialect.sql("time.dueMessages", BATCH)
                        : Statements.ids(dialect.sql("time.dueMessagesPassingBy", BATCH), passed.size()))
                        .setParameter(1, now);
                for (int i = 0; i < passed.size(); i++) {
                    due.setParameter(i + 2, passed.get(i));
                }
                @SuppressWarnings("unchecked")
                List<Object[]> rows = due.getResultList();
                for (Object[] row : rows) {
                    process(em, row, now, changes);
                }
                // consumers of multi-consumer queues whose retry delay is over
                @SuppressWarnings("unchecked")
                List<Object[]> parts = em.createNativeQuery(dialect.sql("time.dueConsumerParts", BATCH))
                        .setParameter(1, now).getResultList();
                for (Object[] part : parts) {
                    retryDelayOver(em, ((String) part[0]).trim(), ((String) part[1]).trim(), ((String) part[2]).trim(), now, changes);
                }
                completeMessages(em, completing, now, changes);
                for (Object row : notificationRows) {
                    em.persist(row);
                }
                return Math.max(rows.size(), parts.size());
            });
            connection.commit();
        } catch (RuntimeException e) {
            try {
                connection.rollback();
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed); // a broken connection: its transaction is gone anyway
            }
            for (Change c : changes) {
                if (c.claimed() != null) {
                    c.claimed().forEach(entry -> c.from().release(entry, this));
                }
            }
            completions.addAll(completing);
            throw e;
        }
        java.util.Map<QueueRuntime, List<ReadyEntry>> added = new java.util.LinkedHashMap<>();
        for (Change c : changes) {
            if (c.claimed() != null) {
                c.claimed().forEach(c.from()::remove);
            }
            if (c.to() != null && c.to() != c.from()) {
                c.from().metrics().movedToExceptionQueue(true); // the one move the time manager makes: at expiration
            }
            if (c.to() != null) {
                added.computeIfAbsent(c.to(), k -> new ArrayList<>()).addAll(c.added());
            }
        }
        added.forEach(QueueRuntime::addAll); // a group whose delay ended appears at once
        Availability a = availability;
        if (a != null && (!notifyLater.isEmpty() || !notificationRows.isEmpty())) {
            a.committed(List.copyOf(notifyLater), !notificationRows.isEmpty()); // after the indexes: a listener can dequeue it
        }
        return new Batch(seen, changes.size());
    }

    private void process(EntityManager em, Object[] row, long now, List<Change> changes) {
        String msgid = ReadyEntries.msgid(row);
        if (inDoubt(msgid)) {
            return; // an in-doubt branch holds its row (Derby reads it dirty): its transaction manager decides first
        }
        QueueRuntime q = catalog.queue(ReadyEntries.queueId(row));
        if (q == null) {
            return;
        }
        boolean multi = q.meta().table().multipleConsumers() && !q.meta().isException();
        Long due = ReadyEntries.timeManagerInfo(row);
        int state = ReadyEntries.state(row);
        if (state == MessageState.WAITING.code()) {
            long expiration = ReadyEntries.expiration(row);
            Long expiresAt = expiration >= 0 ? due + expiration * 1000 : null;
            int n = em.createQuery("UPDATE MessageEntity m SET m.state = :ready, m.timeManagerInfo = :exp"
                    + " WHERE m.msgid = :id AND m.state = :waiting AND m.timeManagerInfo <= :now")
                    .setParameter("ready", MessageState.READY.code()).setParameter("exp", expiresAt)
                    .setParameter("id", msgid).setParameter("waiting", MessageState.WAITING.code())
                    .setParameter("now", now).executeUpdate();
            if (n == 1) {
                ReadyEntry entry = ReadyEntries.entry(row, expiresAt == null ? Long.MAX_VALUE : expiresAt);
                List<ReadyEntry> added = new ArrayList<>();
                if (multi) {
                    for (String consumer : pendingLocalConsumers(em, msgid)) {
                        added.add(entry.forConsumer(consumer, entry.expiresAt));
                        available(q, msgid, consumer, now);
                    }
                } else {
                    added.add(entry);
                    available(q, msgid, null, now);
                }
                changes.add(new Change(q, null, q, added));
            }
        } else if (state == MessageState.READY.code()) {
            List<ReadyEntry> claimed = q.claimForTimeManager(ReadyEntries.entry(row), this);
            if (claimed == null || (claimed.isEmpty() && !multi)) {
                return; // a transaction holds it (it will wake us when it lets go) or it is not committed yet
            }
            MessageEntity m = em.find(MessageEntity.class, msgid);
            if (m == null || m.state != MessageState.READY.code()) {
                claimed.forEach(e -> q.release(e, this));
                return;
            }
            if (multi) {
                long pending = em.createQuery("SELECT COUNT(c) FROM ConsumerStateEntity c WHERE c.msgid = :id"
                        + " AND c.state IN (:ready, :waiting)", Long.class).setParameter("id", msgid)
                        .setParameter("ready", ConsumerStates.READY).setParameter("waiting", ConsumerStates.WAITING)
                        .getSingleResult();
                if (pending == 0) {
                    claimed.forEach(e -> q.release(e, this));
                    checkCompletion(msgid); // every consumer took it in time
                    return;
                }
                // expired: every consumer that has not taken it by now has missed it
                em.createQuery("UPDATE ConsumerStateEntity c SET c.state = :expired, c.timeManagerInfo = NULL"
                        + " WHERE c.msgid = :id AND c.state IN (:ready, :waiting)")
                        .setParameter("expired", ConsumerStates.EXPIRED).setParameter("id", msgid)
                        .setParameter("ready", ConsumerStates.READY).setParameter("waiting", ConsumerStates.WAITING)
                        .executeUpdate();
            }
            QueueRuntime exceptionQueue = exceptionQueues.move(m, q.meta());
            changes.add(new Change(q, claimed, exceptionQueue, List.of(ReadyEntries.entry(row, Long.MAX_VALUE))));
        } else if (state == MessageState.PROCESSED.code()) {
            int n = em.createQuery("DELETE FROM MessageEntity m WHERE m.msgid = :id AND m.state = :processed"
                    + " AND m.timeManagerInfo <= :now")
                    .setParameter("id", msgid).setParameter("processed", MessageState.PROCESSED.code())
                    .setParameter("now", now).executeUpdate();
            if (n == 1) {
                em.createQuery("DELETE FROM ConsumerStateEntity c WHERE c.msgid = :id").setParameter("id", msgid).executeUpdate();
                changes.add(new Change(q, null, null, null));
            }
        }
    }

    /** Message {@code msgid} becomes available to {@code consumer} in this batch: its notifications are planned. */
    private void available(QueueRuntime q, String msgid, String consumer, long now) {
        Availability a = availability;
        if (a != null && a.watched(q.meta().id())) {
            a.available(q.meta().id(), msgid, consumer, now, notificationRows, notifyLater);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> pendingLocalConsumers(EntityManager em, String msgid) {
        return em.createQuery("SELECT c.consumer FROM ConsumerStateEntity c WHERE c.msgid = :id AND c.state = :ready"
                + " AND c.address IS NULL").setParameter("id", msgid).setParameter("ready", ConsumerStates.READY)
                .getResultList();
    }

    /** A consumer's retry delay is over: its part of the message is READY again for it. */
    private void retryDelayOver(EntityManager em, String id, String msgid, String consumer, long now, List<Change> changes) {
        if (inDoubt(msgid)) {
            return;
        }
        int n = em.createQuery("UPDATE ConsumerStateEntity c SET c.state = :ready, c.timeManagerInfo = NULL"
                + " WHERE c.id = :id AND c.state = :waiting AND c.timeManagerInfo <= :now")
                .setParameter("ready", ConsumerStates.READY).setParameter("id", id)
                .setParameter("waiting", ConsumerStates.WAITING).setParameter("now", now).executeUpdate();
        if (n == 0) {
            return;
        }
        List<Object[]> rows = em.createQuery(ReadyEntries.SELECT + " WHERE m.msgid = :id AND m.state = :ready", Object[].class)
                .setParameter("id", msgid).setParameter("ready", MessageState.READY.code()).getResultList();
        if (rows.isEmpty()) {
            return;
        }
        QueueRuntime q = catalog.queue(ReadyEntries.queueId(rows.get(0)));
        if (q != null) {
            changes.add(new Change(q, null, q, List.of(ReadyEntries.entry(rows.get(0)).forConsumer(consumer,
                    ReadyEntries.entry(rows.get(0)).expiresAt))));
            available(q, msgid, consumer, now);
        }
    }

    /** Messages of multi-consumer queues that a consumer finished: done when nobody has them pending. */
    private void completeMessages(EntityManager em, List<String> msgids, long now, List<Change> changes) {
        for (String msgid : msgids) {
            if (inDoubt(msgid)) {
                continue; // the branch's resolution asks again
            }
            MessageEntity m = em.find(MessageEntity.class, msgid);
            // a WAITING one too: propagation may deliver a message before its delay ends (the destination waits the rest)
            if (m == null || (m.state != MessageState.READY.code() && m.state != MessageState.WAITING.code())) {
                continue;
            }
            long pending = em.createQuery("SELECT COUNT(c) FROM ConsumerStateEntity c WHERE c.msgid = :id"
                    + " AND c.state IN (:ready, :waiting)", Long.class).setParameter("id", msgid)
                    .setParameter("ready", ConsumerStates.READY).setParameter("waiting", ConsumerStates.WAITING)
                    .getSingleResult();
            if (pending > 0) {
                continue;
            }
            QueueRuntime q = catalog.queue(m.queueId);
            long retention = q == null ? 0 : q.meta().retentionSeconds();
            if (retention == 0) {
                em.createQuery("DELETE FROM ConsumerStateEntity c WHERE c.msgid = :id").setParameter("id", msgid).executeUpdate();
                em.remove(m);
            } else {
                m.state = MessageState.PROCESSED.code();
                m.timeManagerInfo = retention < 0 ? null : now + retention * 1000;
            }
            changes.add(new Change(q, null, null, null));
        }
    }

    /** Settling work that waits for the store (see {@link DueWork#settleLater}). */
    private record Settling(String what, Runnable settle) {
    }

    private final java.util.Queue<Settling> unsettled = new java.util.concurrent.ConcurrentLinkedQueue<>();

    @Override
    public void settleLater(String what, Runnable settle) {
        unsettled.add(new Settling(what, settle));
        wake();
    }

    private void settleWhatWaited() {
        for (Settling s; (s = unsettled.peek()) != null;) {
            try {
                s.settle().run();
            } catch (AqException e) {
                if (e.errorCode() == AqError.STORE_UNAVAILABLE || e.errorCode() == AqError.COMMIT_OUTCOME_UNKNOWN) {
                    throw e; // the store is still away: the loop backs off and tries again
                }
                // anything else would fail every round and hold up all due work: give this one up
                LOG.log(Level.WARNING, "Aqueduct could not settle " + s.what() + "; given up", e);
            }
            unsettled.remove(s);
        }
    }

    /** A consumer removed its part of a multi-consumer message: look whether the message is done. */
    @Override
    public void checkCompletion(String msgid) {
        completions.add(msgid);
        wake();
    }

    private long nextDueAfter(long now) {
        io.aqueduct.engine.store.Dialect dialect = store.dialect();
        Object[] mins = connection.work(em -> new Object[] {
            em.createNativeQuery(dialect.sql("time.nextDueMessage")).setParameter(1, now).getSingleResult(),
            em.createNativeQuery(dialect.sql("time.nextDueConsumerPart")).setParameter(1, now).getSingleResult()});
        connection.commit();
        long next = Long.MAX_VALUE;
        for (Object min : mins) {
            if (min != null) {
                next = Math.min(next, ((Number) min).longValue());
            }
        }
        if (store.dialect().shared()) {
            // another node may have enqueued a delayed message, or died before its due work: look again soon
            next = Math.min(next, now + SHARED_RECHECK_MS);
        }
        return completions.isEmpty() ? next : now;
    }

    @Override
    public void close() {
        running = false;
        wake();
        if (started) {
            try {
                stopped.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processing.lock();
        try {
            if (connection != null) {
                connection.close();
                connection = null;
            }
        } finally {
            processing.unlock();
        }
    }
}
