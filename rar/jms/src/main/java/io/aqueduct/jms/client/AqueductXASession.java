package io.aqueduct.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicSession;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicSession;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XA session: between {@code start} and {@code end} of its XAResource (the queue session's
 * own) its sends and receives belong to the global transaction, which the transaction manager
 * commits or rolls back; commit / rollback here are refused (TransactionInProgressException).
 * Outside a global transaction it works as an AUTO_ACKNOWLEDGE session.
 */
public final class AqueductXASession extends AqueductSession implements XASession, XAQueueSession, XATopicSession {
    private final XAResource resource;
    private volatile boolean inBranch;

    AqueductXASession(AqueductConnection connection, io.aqueduct.api.QueueSession aq) {
        super(connection, Session.AUTO_ACKNOWLEDGE, aq);
        this.resource = new BranchAware();
    }

    @Override
    public Session getSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public QueueSession getQueueSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public TopicSession getTopicSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return resource;
    }

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return true;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return Session.SESSION_TRANSACTED;
    }

    @Override
    boolean transactedNow() {
        return inBranch;
    }

    @Override
    boolean rollsBackOnClose() {
        return !inBranch;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("An XA session's work is committed by its transaction manager,"
                + " through its XAResource.");
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("An XA session's work is rolled back by its transaction manager,"
                + " through its XAResource.");
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (inBranch) {
            throw new TransactionInProgressException("recover() is not available inside a global transaction.");
        }
        super.recover();
    }

    /**
     * The queue session's XAResource, noting whether a branch is active on this session: that
     * decides whether a send is part of a transaction or committed by itself. A new branch takes
     * the queue session's current XAResource: after the store's connection broke, the session
     * works on a new one.
     */
    private final class BranchAware implements XAResource {
        private volatile XAResource delegate;

        private XAResource delegate() {
            XAResource d = delegate;
            if (d == null) {
                d = delegate = aq.xaResource();
            }
            return d;
        }

        @Override
        public void start(Xid xid, int flags) throws XAException {
            lock.lock();
            try {
                if ((flags & (TMJOIN | TMRESUME)) == 0) {
                    try {
                        delegate = aq.xaResource();
                    } catch (RuntimeException e) {
                        XAException x = new XAException(XAException.XAER_RMFAIL); // the store is away: try again later
                        x.initCause(e);
                        throw x;
                    }
                }
                delegate().start(xid, flags);
                inBranch = true;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void end(Xid xid, int flags) throws XAException {
            lock.lock();
            try {
                delegate().end(xid, flags);
            } finally {
                inBranch = false;
                lock.unlock();
            }
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            return delegate().prepare(xid);
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            delegate().commit(xid, onePhase);
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            delegate().rollback(xid);
        }

        @Override
        public void forget(Xid xid) throws XAException {
            delegate().forget(xid);
        }

        @Override
        public Xid[] recover(int flag) throws XAException {
            return delegate().recover(flag);
        }

        @Override
        public boolean isSameRM(XAResource other) throws XAException {
            return delegate().isSameRM(other instanceof BranchAware b ? b.delegate() : other);
        }

        @Override
        public int getTransactionTimeout() throws XAException {
            return delegate().getTransactionTimeout();
        }

        @Override
        public boolean setTransactionTimeout(int seconds) throws XAException {
            return delegate().setTransactionTimeout(seconds);
        }
    }
}
