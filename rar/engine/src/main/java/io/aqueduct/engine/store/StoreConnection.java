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
    /** The connection was lost (server stopped, network, killed): its transaction is gone; it must be replaced. */
    private volatile boolean broken;

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
            throw failure(e);
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
    /** The connection is known to be gone (a check found it invalid). */
    public void markBroken() {
        broken = true;
    }

    /** Was the connection lost? Then whatever its transaction held is rolled back, and it must be replaced. */
    public boolean broken() {
        return broken;
    }

    /**
     * The API's view of a failure on this connection: {@link AqError#STORE_UNAVAILABLE} when the
     * connection is gone (and it is marked broken), else {@link AqError#STORE_FAILURE}. No
     * persistence-provider or JDBC exception leaves the engine.
     */
    public AqException failure(Throwable e) {
        if (e instanceof AqException aq) {
            return aq;
        }
        SQLException sql = sqlCause(e);
        if (sql != null && store.dialect().isConnectionLost(sql)) {
            broken = true;
            return unavailable(sql);
        }
        return storeFailure(e);
    }

    /** The store cannot be reached. */
    public static AqException unavailable(Throwable cause) {
        return new AqException(AqError.STORE_UNAVAILABLE, "The Aqueduct store cannot be reached (" + rootMessage(cause)
                + "). Work not yet committed in this session is rolled back; the session works again once the store is back.",
                cause);
    }

    private static SQLException sqlCause(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SQLException sql) {
                return sql;
            }
            if (c instanceof org.eclipse.persistence.exceptions.DatabaseException db && db.getInternalException() instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /** A failure of the store's own making (JDBC, the persistence provider), as opposed to the engine's or the caller's. */
    private static boolean fromStore(RuntimeException e) {
        return e instanceof PersistenceException || e instanceof org.eclipse.persistence.exceptions.EclipseLinkException
                || sqlCause(e) != null;
    }

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
                } catch (RuntimeException | Error e) {
                    // an Error too (out of memory while a huge payload is written): the unit must not stay open
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
            throw failure(e);
        } catch (AqException e) {
            throw e;
        } catch (RuntimeException e) {
            if (fromStore(e)) {
                throw failure(e);
            }
            throw e;
        }
    }

    /** Runs JDBC work (DDL, views) on the connection, inside its transaction. */
    public void jdbc(SqlWork work) {
        try {
            work.run(connection);
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    public interface SqlWork {
        void run(Connection c) throws SQLException;
    }

    public void commit() {
        try {
            connection.commit();
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    public void rollback() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** Closes the connection without a word: it broke, or it is being abandoned. */
    public void closeQuietly() {
        try {
            close();
        } catch (RuntimeException ignored) {
            // a broken connection may refuse even its close
        }
    }

    /**
     * Is this failure an integrity constraint violation (SQLState class 23, on all three databases)?
     * On a shared store, another node inserted the same key between this node's read and its insert.
     */
    public static boolean isIntegrityViolation(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
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
        SQLException sql = sqlCause(e);
        String state = sql == null ? null : sql.getSQLState();
        if (sql instanceof java.sql.SQLNonTransientConnectionException || sql instanceof java.sql.SQLRecoverableException
                || (state != null && state.startsWith("08"))) {
            return unavailable(e);
        }
        return new AqException(AqError.STORE_FAILURE, "The Aqueduct store failed: " + rootMessage(e), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    @Override
    public void close() {
        if (broken) {
            try {
                xaConnection.close(); // nothing to roll back: the database did when the connection went
            } catch (SQLException ignored) {
                // it is gone already
            }
            return;
        }
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
