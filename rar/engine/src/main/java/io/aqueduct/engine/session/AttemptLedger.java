package io.aqueduct.engine.session;

import io.aqueduct.engine.store.NodeIdentity;
import io.aqueduct.engine.store.Statements;
import io.aqueduct.engine.store.Store;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.store.StoreConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The attempt ledger of a shared store. A REMOVE dequeue puts its attempt on record (outside its
 * transaction, in a table the database keeps in memory) once it has consumed the message in its
 * transaction and before the caller receives it; the record goes when
 * the transaction ends, or with the failed attempt it counts after a rollback. A node that dies
 * mid-transaction leaves its records behind; when its heartbeat is older than
 * {@value #NODE_TIMEOUT_MS} ms another node's time manager counts those attempts (retry count, retry
 * delay, exception queue), exactly as the dead node would have. Until then a dequeue passes such a
 * message by: it comes back with its attempt counted, not before.
 */
public final class AttemptLedger implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AttemptLedger.class.getName());
    /** A node whose heartbeat is older than this is dead (its time manager beats at least every second). */
    public static final long NODE_TIMEOUT_MS = 5000;
    /** Attempts put on record by one statement (the parameters stay far below every driver's limit). */
    static final int ROWS_PER_STATEMENT = 200;
    /**
     * How long the clearing loop lets settled attempts gather before it deletes them in one statement: a
     * record of a committed dequeue is harmless while its node lives (the message is gone), and a delete
     * per commit cost the database as much as the dequeue's own statements. A rollback's record goes with
     * its count, at once (RetryAccounting), not through here.
     */
    private static final long GATHER_MS = 20;
    private static final int FORGET_BATCH = 500;

    private final Store store;
    private final String nodeId;
    private final ReentrantLock writing = new ReentrantLock();
    private final LinkedBlockingQueue<String> finished = new LinkedBlockingQueue<>();
    private StoreConnection connection;
    /** Opened when the clearing loop has ended. */
    private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean running = true;
    /** Opened by close: ends a back-off at once instead of after its full wait. */
    private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);

    /** An attempt a dead node left behind. */
    public record Left(String id, String msgid, String consumer, long queueId) {
    }

    /**
     * Starts the loop that clears settled attempts where the engine runs its loops (in a container,
     * the resource adapter's WorkManager).
     */
    public AttemptLedger(Store store, NodeIdentity node, io.aqueduct.engine.store.Background background) {
        this.store = store;
        this.nodeId = node.tag();
        Runnable loop = () -> {
            try {
                while (true) {
                    try {
                        forgetLoop(); // returns when the engine closes
                        return;
                    } catch (RuntimeException | Error e) {
                        // supervised: log, pause, start again (uncleared records are harmless while this node lives)
                        LOG.log(Level.SEVERE, "Aqueduct's attempt ledger failed clearing settled attempts; it starts"
                                + " again in 1 s", e);
                        if (closing.await(1, TimeUnit.SECONDS)) {
                            return;
                        }
                    }
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            } finally {
                ended.countDown();
            }
        };
        background.start("aqueduct-attempt-ledger", loop);
    }

    /** The ledger key of a message (a consumer's part of it); the dequeue selection tests it too. */
    public static String id(String msgid, String consumer) {
        return msgid + "/" + (consumer == null ? "" : consumer);
    }

    /**
     * Puts REMOVE attempts on record before the messages are handed out (an array dequeue's in one
     * multi-row statement per {@value #ROWS_PER_STATEMENT}, one round trip each); their keys go to
     * {@code ids} before the first statement is sent, so that a write whose outcome is unknown (its
     * connection lost after the server ran it) still has its record taken out when the transaction ends.
     * {@code own} is a connection of the session's own in auto-commit (sessions do not queue for one).
     */
    void begin(StoreConnection own, long queueId, List<ReadyEntry> entries, List<String> ids) {
        for (ReadyEntry e : entries) {
            ids.add(id(e.msgid, e.consumer));
        }
        try {
            for (int from = 0; from < entries.size(); from += ROWS_PER_STATEMENT) {
                List<ReadyEntry> part = entries.subList(from, Math.min(entries.size(), from + ROWS_PER_STATEMENT));
                String sql = Statements.rows(store.dialect().sql("ledger.recordAttempts"), part.size(), 5);
                try (PreparedStatement ps = own.connection().prepareStatement(sql)) {
                    int i = 1;
                    for (ReadyEntry e : part) {
                        ps.setString(i++, id(e.msgid, e.consumer));
                        ps.setString(i++, e.msgid);
                        ps.setString(i++, e.consumer);
                        ps.setLong(i++, queueId);
                        ps.setString(i++, nodeId);
                    }
                    ps.executeUpdate();
                }
            }
        } catch (SQLException ex) {
            throw own.failure(ex);
        }
    }

    /** A connection for a session's ledger records: the store's, in auto-commit. */
    StoreConnection openConnection() {
        StoreConnection c = store.open();
        try {
            c.connection().setAutoCommit(true);
        } catch (SQLException e) {
            c.close();
            throw StoreConnection.storeFailure(e);
        }
        return c;
    }

    /** The transaction ended and its attempts are settled: their records go (in the background). */
    void forget(Collection<String> ids) {
        finished.addAll(ids);
    }

    /** The time manager's beat: this node is alive at {@code now}. */
    public void heartbeat(long now) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement(store.dialect().sql("ledger.heartbeat"))) {
                ps.setString(1, nodeId);
                ps.setLong(2, now);
                ps.executeUpdate();
            }
        });
    }

    /** Attempts of nodes that are gone (no heartbeat for {@value #NODE_TIMEOUT_MS} ms, or none at all). */
    public List<Left> leftByDeadNodes(long now) {
        List<Left> out = new ArrayList<>();
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement(store.dialect().sql("ledger.leftByDeadNodes", 100))) {
                ps.setString(1, nodeId);
                ps.setLong(2, now - NODE_TIMEOUT_MS);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Left(rs.getString(1), rs.getString(2).trim(), rs.getString(3), rs.getLong(4)));
                    }
                }
            }
        });
        return out;
    }

    private interface Work {
        void run(Connection c) throws SQLException;
    }

    /** Ledger writes go straight in (auto-commit) on a connection of the ledger's own. */
    private void write(Work work) {
        writing.lock();
        try {
            if (connection == null) {
                connection = store.open();
                connection.connection().setAutoCommit(true);
            }
            work.run(connection.connection());
        } catch (SQLException e) {
            StoreConnection broken = connection;
            connection = null;
            closeQuietly(broken);
            throw StoreConnection.storeFailure(e);
        } finally {
            writing.unlock();
        }
    }

    private void forgetLoop() {
        io.aqueduct.engine.store.Outage outage = new io.aqueduct.engine.store.Outage(LOG, "The Aqueduct attempt ledger");
        while (running || !finished.isEmpty()) {
            List<String> batch = new ArrayList<>();
            try {
                String first = finished.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                if (finished.size() < FORGET_BATCH - 1 && running) {
                    closing.await(GATHER_MS, TimeUnit.MILLISECONDS);
                }
                finished.drainTo(batch, FORGET_BATCH - 1);
                write(c -> {
                    try (PreparedStatement ps = c.prepareStatement(Statements.ids(store.dialect().sql("ledger.forgetAttempts"),
                            batch.size()))) {
                        for (int i = 0; i < batch.size(); i++) {
                            ps.setString(i + 1, batch.get(i));
                        }
                        ps.executeUpdate();
                    }
                });
                outage.succeeded();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a record left behind is only counted if this node is taken for dead; it is not
                finished.addAll(batch);
                if (!running) {
                    return; // closing while the store is away: the records stay, as a dead node's would
                }
                try {
                    // the store is away: back off instead of spinning, but leave as soon as the engine closes
                    if (closing.await(outage.failed(e), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private static void closeQuietly(StoreConnection c) {
        if (c != null) {
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // abandoned
            }
        }
    }

    /** Clears what is settled, then leaves: a node that closes is not dead, its record goes. */
    @Override
    public void close() {
        running = false;
        closing.countDown();
        try {
            ended.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            write(c -> {
                try (PreparedStatement ps = c.prepareStatement(store.dialect().sql("ledger.leaveNode"))) {
                    ps.setString(1, nodeId);
                    ps.executeUpdate();
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Aqueduct could not remove its node record", e);
        }
        writing.lock();
        try {
            closeQuietly(connection);
            connection = null;
        } finally {
            writing.unlock();
        }
    }
}
