package io.aqueduct.engine.store;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Is the store reachable? A cheap probe for monitoring: JDBC's {@code isValid} on a connection of its own
 * (so that neither administration nor a long statistics count holds it up), bounded by a timeout. A
 * connection that fails the probe is dropped; the next probe opens a fresh one (the server may be back).
 */
public final class StoreProbe implements AutoCloseable {
    private final Store store;
    private final ReentrantLock lock = new ReentrantLock();
    private StoreConnection connection;
    private volatile boolean closed;

    public StoreProbe(Store store) {
        this.store = store;
    }

    /**
     * True when the store answered within {@code timeoutSeconds}. False when it did not, when the
     * connection failed, or when another probe is still waiting for the store after that long (the
     * opening of a new connection is bounded by the driver's connect timeout only).
     */
    public boolean reachable(int timeoutSeconds) {
        try {
            if (closed || !lock.tryLock(timeoutSeconds, TimeUnit.SECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            if (closed) {
                return false;
            }
            if (connection == null) {
                connection = store.open();
            }
            if (connection.connection().isValid(timeoutSeconds)) {
                return true;
            }
            discard();
            return false;
        } catch (SQLException | RuntimeException e) {
            discard();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void discard() {
        StoreConnection c = connection;
        connection = null;
        if (c != null) {
            c.closeQuietly();
        }
    }

    @Override
    public void close() {
        closed = true;
        lock.lock();
        try {
            discard();
        } finally {
            lock.unlock();
        }
    }
}
