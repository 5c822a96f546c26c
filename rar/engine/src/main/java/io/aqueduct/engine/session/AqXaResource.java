package io.aqueduct.engine.session;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The store database's own XAResource for a session's connection, wrapped with the engine's
 * hooks. Prepare, commit, rollback and recover mean what the database means; after the database
 * has committed a branch the engine makes its messages available and wakes waiters, after it has
 * rolled one back it releases locks and counts the failed attempts of removed messages.
 */
final class AqXaResource implements XAResource {
    private final EngineSession session;
    private final XAResource database;
    private final SessionContext context;
    private final Branches branches;
    private final TransactionCompletion completion;

    AqXaResource(EngineSession session, XAResource database) {
        this.session = session;
        this.database = database;
        this.context = session.context();
        this.branches = context.branches();
        this.completion = context.completion();
    }

    XAResource database() {
        return database;
    }

    /** The branch is over: its owner's connection is free of it. */
    private SessionTransaction ended(Xid xid) {
        SessionTransaction branch = branches.remove(XidKey.of(xid));
        if (branch != null && branch.prepared && branch.owner != null) {
            branch.owner.preparedBranches.decrementAndGet();
        }
        return branch;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        database.start(xid, flags);
        SessionTransaction branch = (flags & (TMJOIN | TMRESUME)) != 0 ? branches.get(XidKey.of(xid)) : null;
        if (branch == null) {
            branch = session.newBranchTransaction();
            branches.put(XidKey.of(xid), branch);
        }
        session.joinBranch(branch);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        try {
            database.end(xid, flags);
        } finally {
            session.leaveBranch();
        }
    }

    /** A branch doomed by a failed unit of work is rolled back instead of prepared or committed. */
    private void refuseIfRollbackOnly(Xid xid) throws XAException {
        SessionTransaction branch = branches.get(XidKey.of(xid));
        if (branch != null && branch.rollbackOnly) {
            rollback(xid);
            throw new XAException(XAException.XA_RBROLLBACK);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        refuseIfRollbackOnly(xid);
        journalBeforePrepare(xid);
        int vote = database.prepare(xid);
        SessionTransaction prepared = branches.get(XidKey.of(xid));
        if (prepared != null && vote != XA_RDONLY) {
            prepared.prepared = true; // from now on it outlives its connection
            prepared.preparedAtNanos = System.nanoTime();
            if (prepared.owner != null) {
                prepared.owner.preparedBranches.incrementAndGet();
            }
        }
        if (vote == XA_RDONLY) {
            // nothing written: the branch is over now (it may still have held LOCKED messages)
            SessionTransaction branch = ended(xid);
            if (branch != null) {
                completion.afterCommit(branch);
            }
        }
        return vote;
    }

    /**
     * Derby: the branch's Xid and the messages it enqueued go into the attempt journal before the
     * database prepares it, so that an engine started after a crash knows which messages an in-doubt
     * branch holds (its REMOVE attempts are there already).
     */
    private void journalBeforePrepare(Xid xid) throws XAException {
        AttemptJournal journal = context.attemptJournal();
        SessionTransaction branch = branches.get(XidKey.of(xid));
        if (journal == null || branch == null || (branch.enqueued.isEmpty() && branch.journalSlots.isEmpty())) {
            return;
        }
        try {
            branch.journalSlots.add(journal.prepared(branch.key, XidKey.of(xid)));
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (SessionTransaction.Enqueued e : branch.enqueued) {
                if (seen.add(e.msgid())) {
                    branch.journalSlots.add(journal.enqueued(branch.key, e.queue().meta().id(), e.msgid()));
                }
            }
        } catch (RuntimeException e) {
            XAException x = new XAException(XAException.XAER_RMERR);
            x.initCause(e);
            throw x;
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        if (onePhase) {
            refuseIfRollbackOnly(xid);
        }
        boolean switched = session.enterXaCommandMode();
        try {
            database.commit(xid, onePhase);
        } catch (XAException e) {
            if (onePhase && e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND) {
                SessionTransaction branch = ended(xid);
                if (branch != null) {
                    completion.afterRollback(branch);
                }
            } else if (session.connectionGone()) {
                XAException lost = connectionLostDuringCommit(xid, onePhase, e);
                if (lost == null) {
                    return; // it had committed; the engine's side is applied
                }
                throw lost;
            }
            throw e;
        } finally {
            session.leaveXaCommandMode(switched);
        }
        SessionTransaction branch = ended(xid);
        if (branch != null) {
            completion.afterCommit(branch);
        } else {
            branches.resynchronize(); // a branch recovered after a restart: the indexes learn from the table
        }
    }

    /**
     * The connection went during a commit. A prepared branch survives it: the transaction manager
     * commits it again later (XAER_RMFAIL), through any resource, and the engine's side is applied
     * then. A one-phase commit's outcome is found from the rows: committed, rolled back
     * (XA_RBCOMMFAIL) or not to be known (XA_HEURHAZ).
     */
    private XAException connectionLostDuringCommit(Xid xid, boolean onePhase, XAException cause) {
        SessionTransaction branch = branches.get(XidKey.of(xid));
        XAException x;
        if (!onePhase || branch == null || branch.prepared) {
            x = new XAException(XAException.XAER_RMFAIL);
        } else {
            ended(xid);
            TransactionCompletion.Lost outcome = completion.afterConnectionLost(branch, true);
            if (outcome == TransactionCompletion.Lost.COMMITTED) {
                return null;
            }
            x = new XAException(outcome == TransactionCompletion.Lost.ROLLED_BACK ? XAException.XA_RBCOMMFAIL : XAException.XA_HEURHAZ);
        }
        x.initCause(cause);
        return x;
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        boolean switched = session.enterXaCommandMode();
        try {
            database.rollback(xid);
        } catch (XAException e) {
            SessionTransaction branch = branches.get(XidKey.of(xid));
            if (branch != null && !branch.prepared && session.connectionGone()) {
                // an unprepared branch ends with its connection: the database rolled it back already
                ended(xid);
                completion.afterConnectionLost(branch, false);
                return;
            }
            if (e.errorCode != XAException.XAER_NOTA && (e.errorCode < XAException.XA_RBBASE || e.errorCode > XAException.XA_RBEND)) {
                throw e; // the branch is still there as it was (a prepared one survives its connection): nothing to count yet
            }
            // unknown to the database, or rolled back already: the engine's side ends below
        } finally {
            session.leaveXaCommandMode(switched);
        }
        SessionTransaction branch = ended(xid);
        if (branch != null) {
            completion.afterRollback(branch);
        } else {
            branches.resynchronize();
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        boolean switched = session.enterXaCommandMode();
        try {
            database.forget(xid);
        } finally {
            session.leaveXaCommandMode(switched);
        }
        SessionTransaction branch = ended(xid);
        if (branch != null) {
            // ended heuristically by the database's administrator: which way, the rows tell (as after a lost commit)
            completion.afterConnectionLost(branch, true);
        }
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        boolean switched = session.enterXaCommandMode();
        try {
            return database.recover(flag);
        } finally {
            session.leaveXaCommandMode(switched);
        }
    }

    /**
     * What the database answers, unless the store cannot join a branch from another connection
     * (PostgreSQL, MariaDB): then each session is its own resource manager and a transaction
     * manager gives it a branch of its own rather than a TMJOIN the database would refuse.
     */
    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        XAResource o = other instanceof AqXaResource aq ? aq.database : other;
        if (!context.store().dialect().xaJoinAcrossConnections()) {
            return o == database;
        }
        return database.isSameRM(o);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return database.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return database.setTransactionTimeout(seconds);
    }
}
