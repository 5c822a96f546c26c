package io.aqueduct.connector.outbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.session.EngineSession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;

/**
 * One pooled queue session: an engine session on one store connection. Its XAResource is the
 * session's ({@link EngineSession#xaResource(java.util.function.Consumer)}: the store database's own
 * with the engine's hooks, Xids by value, {@code isSameRM} true only for this session), unwrapped;
 * its handles are what applications hold.
 */
public final class AqManagedConnection implements ManagedConnection {
    private final jakarta.resource.spi.ManagedConnectionFactory factory;
    private final EngineSession session;
    private final String user;
    private final Set<AqSessionHandle> handles = new CopyOnWriteArraySet<>();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private XAResource xaResource;
    private PrintWriter logWriter;
    private volatile boolean broken;
    private volatile boolean destroyed;
    /** A container-managed local transaction (a LocalTransaction pool) is active: the session's work is its. */
    private volatile boolean inLocalTransaction;
    private boolean destroyWhenClosed;

    /**
     * @param factory the factory that made it (the native one, or the JMS one): a pool matches
     *        connections to the factory that asks
     */
    public AqManagedConnection(jakarta.resource.spi.ManagedConnectionFactory factory, EngineSession session, String user) {
        this.factory = factory;
        this.session = session;
        this.user = user;
    }

    public jakarta.resource.spi.ManagedConnectionFactory factory() {
        return factory;
    }

    /** The AQ user its session works as. */
    public String user() {
        return user;
    }

    EngineSession session() {
        return session;
    }

    /** Neither broken nor destroyed: a pool may hand it out again. */
    public boolean usable() {
        return !broken && !destroyed;
    }

    /** Outside a container: destroyed when its handle closes (no pool keeps it). */
    public void destroyWhenClosed() {
        this.destroyWhenClosed = true;
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        if (destroyed) {
            throw new jakarta.resource.spi.IllegalStateException("This Aqueduct managed connection is destroyed.");
        }
        AqSessionHandle h = new AqSessionHandle(this);
        handles.add(h);
        return h;
    }

    @Override
    public void associateConnection(Object connection) throws ResourceException {
        if (!(connection instanceof AqSessionHandle h)) {
            throw new ResourceException("Not an Aqueduct session handle: " + connection);
        }
        h.owner().handles.remove(h);
        h.associate(this);
        handles.add(h);
    }

    /** An application closed its handle: the connection goes back to the pool. */
    void handleClosed(AqSessionHandle h) {
        handles.remove(h);
        fire(ConnectionEvent.CONNECTION_CLOSED, h, null);
        if (destroyWhenClosed && handles.isEmpty()) {
            destroy();
        }
    }

    /**
     * Called with every failure a handle sees: when the database connection itself broke, the
     * pool is told so that it replaces this connection.
     */
    void failed(RuntimeException e, AqSessionHandle h) {
        if (broken || destroyed) {
            return; // the pool heard of it already (or let go of this connection): one event per managed connection
        }
        if (e instanceof AqException aq && (aq.errorCode() == AqError.STORE_UNAVAILABLE
                || aq.errorCode() == AqError.COMMIT_OUTCOME_UNKNOWN
                || (aq.errorCode() == AqError.STORE_FAILURE && session.connectionGone()))) {
            // the store connection under this session broke: the pool replaces the whole managed connection
            broken = true;
            fire(ConnectionEvent.CONNECTION_ERROR_OCCURRED, h, e);
        }
    }

    /** The XAResource failed: when the store connection under it is gone, the pool is told, as for a handle's failure. */
    void xaFailed(javax.transaction.xa.XAException e) {
        if (broken || destroyed) {
            return;
        }
        if ((e.errorCode == javax.transaction.xa.XAException.XAER_RMFAIL || e.errorCode == javax.transaction.xa.XAException.XAER_RMERR)
                && session.connectionGone()) {
            broken = true;
            fire(ConnectionEvent.CONNECTION_ERROR_OCCURRED, null, e);
        }
    }

    void localTransactionEvent(int type) {
        fire(type, null, null);
    }

    private void fire(int type, AqSessionHandle h, Exception e) {
        ConnectionEvent event = e == null ? new ConnectionEvent(this, type) : new ConnectionEvent(this, type, e);
        if (h != null) {
            event.setConnectionHandle(h);
        }
        for (ConnectionEventListener l : listeners) {
            switch (type) {
                case ConnectionEvent.CONNECTION_CLOSED -> l.connectionClosed(event);
                case ConnectionEvent.CONNECTION_ERROR_OCCURRED -> l.connectionErrorOccurred(event);
                case ConnectionEvent.LOCAL_TRANSACTION_STARTED -> l.localTransactionStarted(event);
                case ConnectionEvent.LOCAL_TRANSACTION_COMMITTED -> l.localTransactionCommitted(event);
                case ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK -> l.localTransactionRolledback(event);
                default -> throw new IllegalArgumentException("event " + type);
            }
        }
    }

    /**
     * Whether the container has this connection in a transaction now: an XA branch of its session,
     * or a local transaction it began (a pool with LocalTransaction support) and has not ended.
     */
    boolean inContainerTransaction() {
        return inLocalTransaction || session.inGlobalTransaction();
    }

    /** Back to the pool: the handles are invalid, the next user starts at the head of every queue. */
    @Override
    public void cleanup() throws ResourceException {
        inLocalTransaction = false;
        for (AqSessionHandle h : handles) {
            h.invalidate();
        }
        handles.clear();
        if (destroyed && broken) {
            return;
        }
        try {
            session.rollbackLocalWork();
            session.resetPositions();
        } catch (RuntimeException e) {
            broken = true;
            throw new ResourceException("Aqueduct could not clean up a queue session: " + e.getMessage(), e);
        }
    }

    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        try {
            cleanup();
        } catch (ResourceException e) {
            if (logWriter != null) {
                logWriter.println("Aqueduct: cleaning up a destroyed session failed: " + e);
            }
        }
        try {
            session.close();
        } catch (RuntimeException e) {
            // the connection may already be gone (that is often why it is destroyed)
            if (logWriter != null) {
                logWriter.println("Aqueduct: closing a destroyed session failed: " + e);
            }
        }
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public synchronized XAResource getXAResource() {
        if (xaResource == null) {
            xaResource = session.xaResource(this::xaFailed); // the engine's, which tells xaFailed of every XAException
        }
        return xaResource;
    }

    @Override
    public LocalTransaction getLocalTransaction() {
        return new LocalTransaction() {
            @Override
            public void begin() {
                // the session's transaction begins with its first unit of work
                inLocalTransaction = true;
                localTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_STARTED);
            }

            @Override
            public void commit() throws ResourceException {
                inLocalTransaction = false;
                try {
                    session.commit();
                } catch (RuntimeException e) {
                    failed(e, null);
                    throw new ResourceException("Aqueduct could not commit: " + e.getMessage(), e);
                }
                localTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_COMMITTED);
            }

            @Override
            public void rollback() throws ResourceException {
                inLocalTransaction = false;
                try {
                    session.rollback();
                } catch (RuntimeException e) {
                    failed(e, null);
                    throw new ResourceException("Aqueduct could not roll back: " + e.getMessage(), e);
                }
                localTransactionEvent(ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK);
            }
        };
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "Aqueduct";
            }

            @Override
            public String getEISProductVersion() {
                return "0.1";
            }

            @Override
            public int getMaxConnections() {
                return 0; // no limit of its own: the pool decides
            }

            @Override
            public String getUserName() {
                return user;
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }
}
