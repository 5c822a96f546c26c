package io.aqueduct.engine.time;

import io.aqueduct.api.MessageState;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.ReadyEntries;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.session.ExceptionQueues;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.StoreConnection;
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
public final class TimeManager implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TimeManager.class.getName());
    private static final int BATCH = 200;
    /** After a failure (the database unreachable, say), look again this much later. */
    private static final long RETRY_AFTER_FAILURE_MS = 1000;

    private final AqueductEngine engine;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final ReentrantLock processing = new ReentrantLock();
    private long nextDue = Long.MAX_VALUE;
    private boolean signalled;
    private volatile boolean running;
    private volatile boolean started;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private StoreConnection connection;

    public TimeManager(AqueductEngine engine) {
        this.engine = engine;
    }

    /** Runs the time manager on a thread of its own. */
    public void start() {
        start(task -> {
            Thread t = new Thread(task, "aqueduct-time-manager");
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * Runs the time manager's loop as one long task of {@code executor} (in a container, the
     * resource adapter's WorkManager).
     */
    public void start(java.util.concurrent.Executor executor) {
        running = true;
        started = true;
        executor.execute(() -> {
            try {
                loop();
            } finally {
                stopped.countDown();
            }
        });
    }

    public boolean isRunning() {
        return running;
    }

    /** Something becomes due at {@code epochMillis}; wake up earlier if that is sooner than planned. */
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
    public void wake() {
        lock.lock();
        try {
            signalled = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        while (running) {
            long next;
            try {
                next = runDue();
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.log(Level.WARNING, "The Aqueduct time manager failed; it tries again shortly", e);
                next = engine.clock().millis() + RETRY_AFTER_FAILURE_MS;
            }
            lock.lock();
            try {
                if (next < nextDue || nextDue <= engine.clock().millis()) {
                    nextDue = next;
                }
                while (running && !signalled) {
                    long wait = nextDue == Long.MAX_VALUE ? Long.MAX_VALUE : nextDue - engine.clock().millis();
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
            if (connection == null) {
                connection = engine.store().open();
            }
            long now = engine.clock().millis();
            while (true) {
                Batch batch = processBatch(now);
                if (batch.seen < BATCH || batch.done == 0) {
                    break;
                }
            }
            return nextDueAfter(now);
        } finally {
            processing.unlock();
        }
    }

    private record Batch(int seen, int done) {
    }

    private record Change(QueueRuntime from, ReadyEntry claimed, QueueRuntime to, ReadyEntry entry) {
    }

    private Batch processBatch(long now) {
        List<Change> changes = new ArrayList<>();
        int seen;
        try {
            seen = connection.work(em -> {
                changes.clear();
                @SuppressWarnings("unchecked")
                List<Object[]> rows = em.createNativeQuery("SELECT " + ReadyEntries.SQL_COLUMNS
                        + " FROM AQ_MESSAGE WHERE TIME_MANAGER_INFO <= ? ORDER BY TIME_MANAGER_INFO"
                        + " FETCH FIRST " + BATCH + " ROWS ONLY" + engine.store().dialect().dirtyReadSuffix())
                        .setParameter(1, now).getResultList();
                for (Object[] row : rows) {
                    process(em, row, now, changes);
                }
                return rows.size();
            });
            connection.commit();
        } catch (RuntimeException e) {
            connection.rollback();
            for (Change c : changes) {
                if (c.claimed() != null) {
                    c.from().release(c.claimed(), this);
                }
            }
            throw e;
        }
        for (Change c : changes) {
            if (c.claimed() != null) {
                c.from().remove(c.claimed().msgid);
            }
            if (c.to() != null) {
                c.to().add(c.entry());
            }
        }
        return new Batch(seen, changes.size());
    }

    private void process(EntityManager em, Object[] row, long now, List<Change> changes) {
        String msgid = ReadyEntries.msgid(row);
        QueueRuntime q = engine.catalog().queue(ReadyEntries.queueId(row));
        if (q == null) {
            return;
        }
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
                changes.add(new Change(q, null, q, ReadyEntries.entry(row, expiresAt == null ? Long.MAX_VALUE : expiresAt)));
            }
        } else if (state == MessageState.READY.code()) {
            ReadyEntry claimed = q.claimForTimeManager(msgid, this);
            if (claimed == null) {
                return; // a transaction holds it (it will wake us when it lets go) or it is not committed yet
            }
            MessageEntity m = em.find(MessageEntity.class, msgid);
            if (m == null || m.state != MessageState.READY.code()) {
                q.release(claimed, this);
                return;
            }
            QueueRuntime exceptionQueue = ExceptionQueues.of(engine, m, q.meta());
            m.queueId = exceptionQueue.meta().id();
            m.state = MessageState.EXPIRED.code();
            m.timeManagerInfo = null;
            changes.add(new Change(q, claimed, exceptionQueue, new ReadyEntry(claimed.msgid, claimed.priority,
                    claimed.orderMs, claimed.groupSeq, claimed.seq, claimed.correlation, Long.MAX_VALUE)));
        } else if (state == MessageState.PROCESSED.code()) {
            int n = em.createQuery("DELETE FROM MessageEntity m WHERE m.msgid = :id AND m.state = :processed"
                    + " AND m.timeManagerInfo <= :now")
                    .setParameter("id", msgid).setParameter("processed", MessageState.PROCESSED.code())
                    .setParameter("now", now).executeUpdate();
            if (n == 1) {
                changes.add(new Change(q, null, null, null));
            }
        }
    }

    private long nextDueAfter(long now) {
        Object min = connection.work(em -> em.createNativeQuery("SELECT MIN(TIME_MANAGER_INFO) FROM AQ_MESSAGE"
                + " WHERE TIME_MANAGER_INFO > ?" + engine.store().dialect().dirtyReadSuffix())
                .setParameter(1, now).getSingleResult());
        connection.commit();
        return min == null ? Long.MAX_VALUE : ((Number) min).longValue();
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
