package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.function.Function;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;

/**
 * One physical connection of the store's XA data source and the entity manager working on it. A
 * unit of work ({@link #work}) flushes into the connection's current transaction; {@link #commit()}
 * / {@link #rollback()} end a local transaction, or the database's {@link #xaResource()} ends a
 * global one.
 */
public final class StoreConnection implements AutoCloseable {
    private final Store store;
    private final XAConnection xaConnection;
    private final Connection connection;
    private EntityManager em;
    /** Between XA start and end the database allows no savepoints (Derby: XJ058). */
    private boolean inGlobalTransaction;

    StoreConnection(Store store, XAConnection xaConnection, Connection connection) {
        this.store = store;
        this.xaConnection = xaConnection;
        this.connection = connection;
    }

    void attach(EntityManager em) {
        this.em = em;
    }

    public Connection connection() {
        return connection;
    }

    public Dialect dialect() {
        return store.dialect();
    }

    /** The database's own XAResource for this connection. */
    public XAResource xaResource() {
        try {
            return xaConnection.getXAResource();
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }

    public void inGlobalTransaction(boolean inGlobal) {
        this.inGlobalTransaction = inGlobal;
    }

    public boolean inGlobalTransaction() {
        return inGlobalTransaction;
    }

    /**
     * Runs one unit of work inside the connection's transaction. If it fails, what it wrote is
     * undone (a savepoint) and the rest of the transaction stays as it was. In a global
     * transaction there are no savepoints: the caller must then make the branch roll back.
     */
    public <T> T work(Function<EntityManager, T> body) {
        return work(body, true);
    }

    /**
     * As {@link #work(Function)}; {@code atomic = false} skips the savepoint for a unit that writes
     * at most one statement (the database undoes a failed statement by itself).
     */
    public <T> T work(Function<EntityManager, T> body, boolean atomic) {
        try {
            return Store.bind(connection, () -> {
                Savepoint sp = inGlobalTransaction || !atomic ? null : connection.setSavepoint();
                em.getTransaction().begin();
                try {
                    T result = body.apply(em);
                    em.getTransaction().commit(); // a flush: the session owns the real transaction
                    if (sp != null) {
                        connection.releaseSavepoint(sp);
                    }
                    return result;
                } catch (RuntimeException e) {
                    if (em.getTransaction().isActive()) {
                        em.getTransaction().rollback();
                    }
                    if (sp != null) {
                        try {
                            connection.rollback(sp);
                        } catch (SQLException suppressed) {
                            e.addSuppressed(suppressed);
                        }
                    }
                    throw e;
                } finally {
                    em.clear();
                }
            });
        } catch (SQLException e) {
            throw storeFailure(e);
        } catch (PersistenceException e) {
            throw storeFailure(e);
        }
    }

    /** Runs JDBC work (DDL, views) on the connection, inside its transaction. */
    public void jdbc(SqlWork work) {
        try {
            work.run(connection);
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }

    public interface SqlWork {
        void run(Connection c) throws SQLException;
    }

    public void commit() {
        try {
            connection.commit();
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }

    public void rollback() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }

    /** Is this failure a lock timeout or deadlock, so that the work may simply be tried again? */
    public boolean isTransient(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException sql && store.dialect().isTransient(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    public static AqException storeFailure(Throwable e) {
        if (e instanceof AqException aq) {
            return aq;
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new AqException(AqError.STORE_FAILURE, "The Aqueduct store failed: " + root.getMessage(), e);
    }

    @Override
    public void close() {
        try {
            if (em != null && em.isOpen()) {
                em.close();
            }
            try {
                if (!connection.isClosed() && !connection.getAutoCommit()) {
                    connection.rollback();
                }
            } finally {
                xaConnection.close();
            }
        } catch (SQLException e) {
            throw storeFailure(e);
        }
    }
}
