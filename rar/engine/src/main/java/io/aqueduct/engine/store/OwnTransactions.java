package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The engine's own connection and the transactions it runs on it (administration, retry
 * accounting, sequence blocks, recovery), one at a time. A broken connection is replaced: work that
 * failed with it is tried once more on a fresh one, since nothing of it was committed.
 */
public final class OwnTransactions implements AutoCloseable {
    private final Store store;
    private final ReentrantLock lock = new ReentrantLock();
    private StoreConnection connection;
    private volatile boolean closed;

    public OwnTransactions(Store store) {
        this.store = store;
    }

    /** Opens the connection now (a start fails early when the store cannot be reached). */
    public void open() {
        lock.lock();
        try {
            connection();
        } finally {
            lock.unlock();
        }
    }

    public Dialect dialect() {
        return store.dialect();
    }

    /**
     * JDBC work that reads, then inserts what it did not find, in a transaction of its own: when another
     * node inserted the same key between the read and the insert (an integrity violation), the work runs
     * once more, reads that row and ends as its caller says an existing one ends.
     */
    public void readThenInsert(StoreConnection.SqlWork work) {
        try {
            run(c -> {
                c.jdbc(work);
                return null;
            });
        } catch (RuntimeException e) {
            if (!StoreConnection.isIntegrityViolation(e)) {
                throw e;
            }
            run(c -> {
                c.jdbc(work);
                return null;
            });
        }
    }

    /**
     * Runs work in a transaction of its own and commits it; a lock timeout or deadlock is tried
     * again, a broken connection once on a fresh one.
     */
    public <T> T run(Function<StoreConnection, T> work) {
        if (closed) {
            throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine is closed.");
        }
        lock.lock();
        try {
            for (int attempt = 1;; attempt++) {
                StoreConnection c = connection();
                T result;
                try {
                    result = work.apply(c);
                } catch (RuntimeException e) {
                    if (c.broken()) {
                        // nothing was committed: once more on a fresh connection (the server may be back already)
                        replace();
                        if (attempt >= 2) {
                            throw e;
                        }
                        continue;
                    }
                    c.rollback();
                    if (attempt >= 5 || !c.isTransient(e)) {
                        throw e;
                    }
                    continue;
                }
                try {
                    c.commit();
                } catch (AqException e) {
                    if (c.broken()) {
                        replace();
                        throw new AqException(AqError.COMMIT_OUTCOME_UNKNOWN, "The connection to the Aqueduct store broke while"
                                + " it committed; whether the change was made is not known. Look before you repeat it.", e);
                    }
                    throw e;
                }
                return result;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The XA branches the database holds prepared (in doubt), listed through the own connection. */
    public Xid[] preparedBranches() {
        lock.lock();
        try {
            Xid[] xids = connection().xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            return xids == null ? new Xid[0] : xids;
        } catch (XAException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot list the XA branches in doubt in the Aqueduct store: " + e, e);
        } finally {
            lock.unlock();
        }
    }

    /** The connection, opened again after it broke (throws STORE_UNAVAILABLE while the store is down). */
    private StoreConnection connection() {
        if (connection == null) {
            connection = store.open();
        }
        return connection;
    }

    private void replace() {
        StoreConnection broken = connection;
        connection = null;
        if (broken != null) {
            broken.closeQuietly();
        }
    }

    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            if (connection != null) {
                connection.closeQuietly();
                connection = null;
            }
        } finally {
            lock.unlock();
        }
    }
}
