package io.aqueduct.jms.context;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XASession;

import java.util.Objects;

import javax.transaction.xa.XAResource;

/**
 * A JMSContext whose session is an XASession: a transaction manager drives its work through
 * {@link #getXAResource()}, so {@link #commit()} and {@link #rollback()} refuse, and the session
 * mode is SESSION_TRANSACTED.
 */
public final class AqueductXAJMSContext extends AqueductJMSContext implements XAJMSContext {

    private AqueductXAJMSContext(SharedConnection shared) {
        super(shared, SESSION_TRANSACTED);
    }

    /** A context over {@code connection}, which it owns from now on (see {@link AqueductJMSContext#create}). */
    public static XAJMSContext create(XAConnection connection) {
        Objects.requireNonNull(connection, "connection");
        return new AqueductXAJMSContext(new SharedConnection(connection));
    }

    @Override
    Session openSession() throws JMSException {
        return ((XAConnection) shared().connection()).createXASession();
    }

    /** This context: it is the JMSContext the application server hands out. */
    @Override
    public JMSContext getContext() {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return ((XASession) session()).getXAResource();
    }

    @Override
    public boolean getTransacted() {
        checkOpen();
        return true;
    }

    @Override
    public void commit() {
        checkOpen();
        throw new TransactionInProgressRuntimeException("An XAJMSContext's work is committed by its transaction manager,"
                + " through getXAResource(), not by commit().");
    }

    @Override
    public void rollback() {
        checkOpen();
        throw new TransactionInProgressRuntimeException("An XAJMSContext's work is rolled back by its transaction manager,"
                + " through getXAResource(), not by rollback().");
    }
}
