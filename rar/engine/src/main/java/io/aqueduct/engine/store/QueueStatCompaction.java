package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Folds V$AQ's delta rows ({@link QueueStatCounters}): each queue and state's committed deltas become one row, so
 * that a poll reads a few rows per queue however many messages moved since the queue was made. A fold is one
 * transaction (delete the rows folded, insert their sum): readers see it whole or not at all. It takes only
 * committed rows and never waits for an enqueue or dequeue in flight, nor they for it: on the shared stores it
 * locks the rows it folds skipping those locked (an uncommitted delta, another node's fold); on Derby it reads
 * committed rows (waiting, not the writers, for one in flight) and takes {@link Dialect#statCountersFolds()} only to
 * delete and insert, so that V$AQ's reads, which see uncommitted rows there, never see a fold half done. A row
 * deleted by someone else meanwhile (a dropped queue) rolls the fold back; a dropped queue's rows are not summed.
 * The loop runs where the engine runs its loops and supervises itself.
 */
public final class QueueStatCompaction implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(QueueStatCompaction.class.getName());
    /** The pause between folds. */
    static final long INTERVAL_MS = 1000;
    /** The delta rows one fold takes at most (a transaction of bounded size). */
    static final int BATCH = 5000;

    private final Store store;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);

    /** Starts the folding loop on {@code background}. */
    public QueueStatCompaction(Store store, Background background) {
        this.store = store;
        background.start("aqueduct-stat-compaction", () -> {
            try {
                loop();
            } finally {
                ended.countDown();
            }
        });
    }

    private void loop() {
        Outage outage = new Outage(LOG, "The folding of Aqueduct's V$AQ counters");
        long pause = INTERVAL_MS;
        while (true) {
            try {
                if (closing.await(pause, TimeUnit.MILLISECONDS)) {
                    return;
                }
                int folded;
                do {
                    try (StoreConnection c = store.open()) {
                        folded = fold(c.connection(), store.dialect());
                    }
                } while (folded == BATCH && closing.getCount() > 0);
                outage.succeeded();
                pause = INTERVAL_MS;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | SQLException | Error e) {
                // supervised: a store away, a lock timeout, anything: log (once per outage), back off, fold again
                try {
                    pause = outage.failed(e);
                } catch (RuntimeException | Error logging) {
                    LOG.log(Level.SEVERE, "Aqueduct's V$AQ folding failed", e);
                    pause = Outage.MAX_MS;
                }
            }
        }
    }

    /**
     * One fold on {@code c} (not in auto-commit; committed or rolled back here): returns how many delta rows it
     * read (at most {@link #BATCH}).
     */
    public static int fold(Connection c, Dialect dialect) throws SQLException {
        record Key(long qid, int state) {
        }
        Map<Key, long[]> sums = new HashMap<>();
        Map<Key, List<Long>> ids = new HashMap<>();
        int rows = 0;
        try {
            try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.foldRead", BATCH));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    Key k = new Key(rs.getLong(2), rs.getInt(3));
                    long[] sum = sums.computeIfAbsent(k, x -> new long[2]);
                    sum[0] += rs.getLong(4);
                    sum[1] += rs.getLong(5);
                    ids.computeIfAbsent(k, x -> new ArrayList<>()).add(rs.getLong(1));
                }
            }
            if (rows == 0) {
                c.rollback();
                return 0;
            }
            Lock lock = dialect.statCountersFolds() == null ? null : dialect.statCountersFolds().writeLock();
            if (lock != null) {
                lock.lock();
            }
            try {
                Set<Long> queues = new HashSet<>();
                try (PreparedStatement ps = c.prepareStatement(dialect.sql("statistics.queueIds")); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        queues.add(rs.getLong(1));
                    }
                }
                int deletes = 0;
                try (PreparedStatement delete = c.prepareStatement(dialect.sql("statistics.foldDelete"));
                        PreparedStatement insert = c.prepareStatement(dialect.sql("statistics.foldInsert"))) {
                    for (Map.Entry<Key, List<Long>> e : ids.entrySet()) {
                        Key k = e.getKey();
                        long[] sum = sums.get(k);
                        boolean keep = queues.contains(k.qid()) && (sum[0] != 0 || sum[1] != 0);
                        if (keep && e.getValue().size() == 1) {
                            continue; // already one row
                        }
                        for (long id : e.getValue()) {
                            delete.setLong(1, id);
                            delete.addBatch();
                            deletes++;
                        }
                        if (keep) {
                            insert.setLong(1, k.qid());
                            insert.setInt(2, k.state());
                            insert.setLong(3, sum[0]);
                            insert.setLong(4, sum[1]);
                            insert.addBatch();
                        }
                    }
                    if (deletes > 0) {
                        for (int n : delete.executeBatch()) {
                            if (n == 0) {
                                c.rollback(); // a row went meanwhile (its queue dropped): fold again later
                                return rows;
                            }
                        }
                        insert.executeBatch();
                    }
                }
                c.commit();
            } finally {
                if (lock != null) {
                    lock.unlock();
                }
            }
            return rows;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @Override
    public void close() {
        closing.countDown();
        try {
            ended.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
