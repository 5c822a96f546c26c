package io.aqueduct.engine.session;

import io.aqueduct.engine.store.StoreConnection;
import java.util.Objects;
import java.util.function.Consumer;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The store database's own XAResource for a session's connection, wrapped with the engine's
 * hooks; the one XAResource a transaction manager (or the resource adapter's container) sees for
 * a queue session. Prepare, commit, rollback and recover mean what the database means; after the
 * database has committed a branch the engine makes its messages available and wakes waiters, after
 * it has rolled one back it releases locks and counts the failed attempts of removed messages.
 *
 * <p>What a container needs of it besides:
 * <ul>
 * <li>Every Xid is copied into an {@link XidKey} (a value) before anything keys on it or hands it to
 * the database: the engine's branch bookkeeping is a map keyed by Xid, and PostgreSQL's driver
 * compares the Xids of one branch's calls with {@code equals}, whatever Xid class the transaction
 * manager uses (some implement neither {@code equals} nor {@code hashCode}).</li>
 * <li>{@link #isSameRM} is true only for the same session's resource (see there).</li>
 * <li>Its owner hears every XAException before it is thrown ({@code onFailure}): a managed
 * connection tells its pool when the store connection under it is gone.</li>
 * </ul>
 */
final class AqXaResource implements XAResource {
    private final EngineSession session;
    /** The session's connection when this resource was made (a session replaces a broken one). */
    private final StoreConnection connection;
    private final XAResource database;
    private final SessionContext context;
    private final Branches branches;
    private final TransactionCompletion completion;
    private final Consumer<XAException> onFailure;

    AqXaResource(EngineSession session, StoreConnection connection, Consumer<XAException> onFailure) {
        this.session = session;
        this.connection = connection;
        this.database = connection.xaResource();
        this.context = session.context();
        this.branches = context.branches();
        this.completion = context.completion();
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
    }

    XAResource database() {
        return database;
    }

    /** The owner hears the failure first; a failing listener does not replace the XAException. */
    private XAException failed(XAException e) {
        try {
            onFailure.accept(e);
        } catch (RuntimeException listenerFailed) {
            e.addSuppressed(listenerFailed);
        }
        return e;
    }

    /** The transaction manager's Xid as a value; a missing one is refused as the database would. */
    private static XidKey key(Xid xid) throws XAException {
        if (xid == null || xid.getGlobalTransactionId() == null || xid.getBranchQualifier() == null) {
            throw new XAException(XAException.XAER_INVAL);
        }
        return XidKey.of(xid);
    }

    /** The branch is over: its owner's connection is free of it. */
    private SessionTransaction ended(XidKey xid) {
        SessionTransaction branch = branches.remove(xid);
        if (branch != null && branch.prepared && branch.owner != null) {
            branch.owner.preparedBranches.decrementAndGet();
        }
        return branch;
    }

    // ------------------------------------------------ the XAResource: Xid copied, every failure heard

    @Override
    public void start(Xid xid, int flags) throws XAException {
        try {
            startBranch(key(xid), flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        try {
            endBranch(key(xid), flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            return prepareBranch(key(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            commitBranch(key(xid), onePhase);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            rollbackBranch(key(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        try {
            forgetBranch(key(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        try {
            return recoverBranches(flag);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    /**
     * True only for this session's resource (this one, or another of the same session on the same
     * connection: MariaDB's driver makes a new XAResource object per call), never for another
     * session's, on every store. Two queue sessions in one
     * transaction then get branches of their own: a transaction manager told that two sessions are
     * one resource manager would {@code TMJOIN} the first session's database branch from the second
     * session's connection while the first is still associated with it, which Derby refuses (and
     * PostgreSQL and MariaDB cannot do at all: they tie a branch to its connection). A branch of its
     * own costs a second prepare, nothing else.
     */
    @Override
    public boolean isSameRM(XAResource other) {
        return other == this || (other instanceof AqXaResource aq && aq.session == session && aq.connection == connection);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        try {
            return database.getTransactionTimeout();
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        try {
            return database.setTransactionTimeout(seconds);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public String toString() {
        return "Aqueduct XAResource[" + database + "]";
    }

    // ------------------------------------------------ the engine's hooks, on the Xid's value

    private void startBranch(XidKey xid, int flags) throws XAException {
        database.start(xid, flags);
        SessionTransaction branch = (flags & (TMJOIN | TMRESUME)) != 0 ? branches.get(xid) : null;
        if (branch == null) {
            branch = session.newBranchTransaction();
            branches.put(xid, branch);
        }
        session.joinBranch(branch);
    }

    private void endBranch(XidKey xid, int flags) throws XAException {
        try {
            database.end(xid, flags);
        } finally {
            session.leaveBranch();
        }
    }

    /** A branch doomed by a failed unit of work is rolled back instead of prepared or committed. */
    private void refuseIfRollbackOnly(XidKey xid) throws XAException {
        SessionTransaction branch = branches.get(xid);
        if (branch != null && branch.rollbackOnly) {
            rollbackBranch(xid);
            throw new XAException(XAException.XA_RBROLLBACK);
        }
    }

    private int prepareBranch(XidKey xid) throws XAException {
        refuseIfRollbackOnly(xid);
        journalBeforePrepare(xid);
        int vote;
        try {
            vote = database.prepare(xid);
        } catch (XAException e) {
            // the database's own message rarely says what to change (PostgreSQL: "prepared transactions are disabled")
            String cause = context.store().dialect().prepareFailureCause(e);
            if (cause == null) {
                throw e;
            }
            XAException named = new XAException("Aqueduct could not prepare its XA branch: " + cause);
            named.errorCode = e.errorCode;
            named.initCause(e);
            throw named;
        }
        SessionTransaction prepared = branches.get(xid);
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
    private void journalBeforePrepare(XidKey xid) throws XAException {
        AttemptJournal journal = context.attemptJournal();
        SessionTransaction branch = branches.get(xid);
        if (journal == null || branch == null || (branch.enqueued.isEmpty() && branch.journalSlots.isEmpty())) {
            return;
        }
        try {
            branch.journalSlots.add(journal.prepared(branch.key, xid));
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

    private void commitBranch(XidKey xid, boolean onePhase) throws XAException {
        if (onePhase) {
            refuseIfRollbackOnly(xid);
        }
        boolean switched = session.enterXaCommandMode();
        try {
            database.commit(xid, onePhase);
        } catch (XAException e) {
            XAException notNow = stillInDoubt(xid, e);
            if (notNow != null) {
                throw notNow;
            }
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
    private XAException connectionLostDuringCommit(XidKey xid, boolean onePhase, XAException cause) {
        SessionTransaction branch = branches.get(xid);
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

    private void rollbackBranch(XidKey xid) throws XAException {
        boolean switched = session.enterXaCommandMode();
        try {
            database.rollback(xid);
        } catch (XAException e) {
            SessionTransaction branch = branches.get(xid);
            if (branch != null && !branch.prepared && session.connectionGone()) {
                // an unprepared branch ends with its connection: the database rolled it back already
                ended(xid);
                completion.afterConnectionLost(branch, false);
                return;
            }
            XAException notNow = stillInDoubt(xid, e);
            if (notNow != null) {
                throw notNow;
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

    /**
     * XAER_RMFAIL ("not now, try again") when the database said XAER_NOTA for a branch it still
     * lists as prepared; null otherwise. MariaDB does that for a branch whose dead owner's
     * connection the server has not let go of yet: its XA RECOVER lists the Xid, but XA COMMIT and
     * XA ROLLBACK from another connection answer "unknown" for a moment. Taken at its word, a
     * transaction manager would believe the branch finished while it stays in doubt.
     */
    private XAException stillInDoubt(XidKey xid, XAException e) {
        if (e.errorCode != XAException.XAER_NOTA) {
            return null;
        }
        try {
            Xid[] listed = database.recover(TMSTARTRSCAN | TMENDRSCAN);
            for (Xid x : listed == null ? new Xid[0] : listed) {
                if (XidKey.of(x).equals(xid)) {
                    XAException busy = new XAException(XAException.XAER_RMFAIL);
                    busy.initCause(e);
                    return busy;
                }
            }
        } catch (XAException unlisted) {
            // the database cannot say: keep its first answer
        }
        return null;
    }

    private Xid[] recoverBranches(int flag) throws XAException {
        boolean switched = session.enterXaCommandMode();
        try {
            return database.recover(flag);
        } finally {
            session.leaveXaCommandMode(switched);
        }
    }

    private void forgetBranch(XidKey xid) throws XAException {
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
}
