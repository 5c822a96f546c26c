package io.aqueduct.engine.session;

import io.aqueduct.api.MessageState;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.store.ConsumerStateEntity;
import io.aqueduct.engine.store.MessageEntity;
import jakarta.persistence.EntityManager;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's after-commit and after-rollback hooks: applies a transaction's outcome to the ready
 * indexes and the time manager, and counts the failed attempt of every message a rolled-back
 * transaction had removed (retry_count + 1, then READY, WAITING for the retry delay, or moved to the
 * exception queue past max_retries), in a transaction of its own.
 */
public final class TransactionCompletion {
    private TransactionCompletion() {
    }

    public static void afterCommit(AqueductEngine engine, SessionTransaction tx) {
        long now = engine.clock().millis();
        boolean wakeTimeManager = false;
        java.util.Map<QueueRuntime, List<ReadyEntry>> added = new java.util.LinkedHashMap<>();
        for (SessionTransaction.Enqueued e : tx.enqueued) {
            if (e.entry() != null) {
                added.computeIfAbsent(e.queue(), k -> new ArrayList<>()).add(e.entry());
            }
            if (e.dueAt() != null) {
                engine.timeManager().schedule(e.dueAt());
            }
        }
        added.forEach(QueueRuntime::addAll); // a transaction's messages appear together
        for (SessionTransaction.Held h : tx.held) {
            if (h.removed()) {
                h.queue().remove(h.entry());
                if (h.entry().consumer != null) {
                    engine.timeManager().checkCompletion(h.entry().msgid); // was it the last consumer?
                }
                if (h.retentionDue() != null) {
                    engine.timeManager().schedule(h.retentionDue());
                }
            } else {
                h.queue().release(h.entry(), tx);
                wakeTimeManager |= h.entry().expiresAt <= now;
            }
        }
        for (QueueRuntime q : tx.touched) {
            q.transactionEnded(tx);
        }
        if (engine.attemptLedger() != null && !tx.attempts.isEmpty()) {
            engine.attemptLedger().forget(tx.attempts); // consumed: nothing to count
        }
        forgetJournal(engine, tx);
        if (wakeTimeManager) {
            engine.timeManager().wake();
        }
    }

    /** The transaction's journal records are settled; a recovered branch's messages come back into the index. */
    private static void forgetJournal(AqueductEngine engine, SessionTransaction tx) {
        if (engine.attemptJournal() != null && !tx.journalSlots.isEmpty()) {
            engine.attemptJournal().free(tx.journalSlots);
        }
        if (tx.recovered) {
            engine.branchResolved(tx.recoveredMessages);
        }
    }

    public static void afterRollback(AqueductEngine engine, SessionTransaction tx) {
        Object accounting = new Object();
        List<SessionTransaction.Held> failed = new ArrayList<>();
        for (SessionTransaction.Held h : tx.held) {
            if (h.removed()) {
                h.queue().transfer(h.entry(), tx, accounting);
                failed.add(h);
            } else {
                h.queue().release(h.entry(), tx);
            }
        }
        for (QueueRuntime q : tx.touched) {
            q.transactionEnded(tx);
        }
        try {
            if (!failed.isEmpty()) {
                countFailedAttempts(engine, failed, accounting, false, true);
            }
        } finally {
            if (engine.attemptLedger() != null && !tx.attempts.isEmpty()) {
                engine.attemptLedger().forget(tx.attempts);
            }
            forgetJournal(engine, tx);
        }
        engine.timeManager().wake();
    }

    /** A branch prepared this long ago that the database no longer lists was ended through another node. */
    private static final long ENDED_ELSEWHERE_AFTER_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    /**
     * Shared stores: a branch this node prepared may be committed or rolled back through another
     * node's resource (a transaction manager recovering through any node). This node learns it when
     * the database stops listing the branch: its outcome is then applied from the rows, so that the
     * messages it held come back (their attempt counted) or are consumed. Called by the time manager.
     */
    public static void settleBranchesEndedElsewhere(AqueductEngine engine) {
        long before = System.nanoTime() - ENDED_ELSEWHERE_AFTER_NANOS;
        List<java.util.Map.Entry<XidKey, SessionTransaction>> candidates = new ArrayList<>();
        for (java.util.Map.Entry<XidKey, SessionTransaction> e : engine.xaBranches().entrySet()) {
            if (e.getValue().prepared && e.getValue().preparedAtNanos - before < 0) {
                candidates.add(e);
            }
        }
        if (candidates.isEmpty()) {
            return;
        }
        java.util.Set<XidKey> listed = new java.util.HashSet<>();
        try (EngineSession s = engine.openSession(null)) {
            javax.transaction.xa.Xid[] xids = s.xaResource().recover(
                    javax.transaction.xa.XAResource.TMSTARTRSCAN | javax.transaction.xa.XAResource.TMENDRSCAN);
            for (javax.transaction.xa.Xid x : xids == null ? new javax.transaction.xa.Xid[0] : xids) {
                listed.add(XidKey.of(x));
            }
        } catch (javax.transaction.xa.XAException e) {
            throw new io.aqueduct.api.AqException(io.aqueduct.api.AqError.STORE_FAILURE,
                    "Cannot list the store's in-doubt branches: " + e, e);
        }
        for (java.util.Map.Entry<XidKey, SessionTransaction> e : candidates) {
            SessionTransaction branch = e.getValue();
            if (!listed.contains(e.getKey()) && engine.xaBranches().remove(e.getKey(), branch)) {
                if (branch.owner != null) {
                    branch.owner.preparedBranches.decrementAndGet();
                }
                afterConnectionLost(engine, branch, true); // "lost" to this node: the rows tell which way it went
            }
        }
    }

    /** What became of a transaction whose connection broke. */
    public enum Lost {
        /** It committed (its connection broke after the database had committed it). */
        COMMITTED,
        /** It rolled back: the database ends a transaction whose connection goes. */
        ROLLED_BACK,
        /** Everything it touched is gone from the table: it committed, or it rolled back and others consumed it since. */
        AMBIGUOUS
    }

    /**
     * The connection of {@code tx} broke (during its commit when {@code duringCommit}). Its outcome
     * is found and applied now if the store answers, else by the time manager once it does; returns
     * the outcome, or null while it is not known. Until then the messages it removed stay held: on a
     * shared store their attempt records keep other dequeuers away, so an attempt is counted before
     * anyone else gets the message.
     */
    public static Lost afterConnectionLost(AqueductEngine engine, SessionTransaction tx, boolean duringCommit) {
        tx.lostDuringCommit = duringCommit;
        for (SessionTransaction.Held h : tx.held) {
            if (!h.removed()) {
                h.queue().release(h.entry(), tx); // LOCKED: nothing to count, whatever the outcome
            }
        }
        tx.held.removeIf(h -> !h.removed());
        for (QueueRuntime q : tx.touched) {
            q.transactionEnded(tx);
        }
        tx.touched.clear();
        try {
            return resolveLost(engine, tx);
        } catch (RuntimeException e) {
            engine.timeManager().resolveLater(tx);
            return null;
        }
    }

    /** Finds and applies the outcome of a transaction whose connection broke; throws while the store cannot be reached. */
    public static Lost resolveLost(AqueductEngine engine, SessionTransaction tx) {
        Lost outcome = tx.lostDuringCommit ? outcomeOf(engine, tx) : Lost.ROLLED_BACK;
        List<SessionTransaction.Held> removed = new ArrayList<>(tx.held);
        if (outcome == Lost.ROLLED_BACK && !removed.isEmpty()) {
            countFailedAttempts(engine, removed, tx, false, true); // the claims are the transaction's own
        } else {
            java.util.Map<QueueRuntime, List<ReadyEntry>> added = new java.util.LinkedHashMap<>();
            for (SessionTransaction.Enqueued e : outcome == Lost.COMMITTED ? tx.enqueued : List.<SessionTransaction.Enqueued>of()) {
                if (e.entry() != null) {
                    added.computeIfAbsent(e.queue(), k -> new ArrayList<>()).add(e.entry());
                }
                if (e.dueAt() != null) {
                    engine.timeManager().schedule(e.dueAt());
                }
            }
            added.forEach(QueueRuntime::addAll);
            for (SessionTransaction.Held h : removed) {
                h.queue().remove(h.entry());
                if (h.entry().consumer != null) {
                    engine.timeManager().checkCompletion(h.entry().msgid);
                }
            }
        }
        if (engine.attemptLedger() != null && !tx.attempts.isEmpty()) {
            engine.attemptLedger().forget(tx.attempts);
        }
        forgetJournal(engine, tx);
        engine.timeManager().wake();
        return outcome;
    }

    /**
     * Did a transaction whose connection broke during its commit commit? Its rows tell: a message it
     * enqueued is there (committed), or a message it removed is still available to dequeue (rolled
     * back); when neither can be seen, it cannot be told.
     */
    private static Lost outcomeOf(AqueductEngine engine, SessionTransaction tx) {
        return engine.inOwnTransaction(c -> c.work(em -> {
            for (SessionTransaction.Enqueued e : tx.enqueued) {
                if (em.find(MessageEntity.class, e.msgid()) != null) {
                    return Lost.COMMITTED;
                }
            }
            for (SessionTransaction.Held h : tx.held) {
                MessageEntity m = em.find(MessageEntity.class, h.entry().msgid);
                if (m == null) {
                    continue;
                }
                QueueMeta q = h.queue().meta();
                if (h.entry().consumer == null) {
                    if (m.queueId == q.id() && m.state == q.availableState()) {
                        return Lost.ROLLED_BACK;
                    }
                    if (tx.id.equals(m.dequeueTransaction)) {
                        return Lost.COMMITTED; // kept by retention, with this transaction's id
                    }
                } else {
                    ConsumerStateEntity part = em.find(ConsumerStateEntity.class, ConsumerStateEntity.id(m.msgid, h.entry().consumer));
                    if (part != null && part.state == ConsumerStates.READY) {
                        return Lost.ROLLED_BACK;
                    }
                    if (part != null && tx.id.equals(part.dequeueTransaction)) {
                        return Lost.COMMITTED;
                    }
                }
            }
            return tx.enqueued.isEmpty() && tx.held.isEmpty() ? Lost.COMMITTED : Lost.AMBIGUOUS;
        }));
    }

    /**
     * Counts the attempts a dead node left in the attempt ledger, as its after-rollback hook would
     * have: a message whose row is still locked (the dead node's transaction is not rolled back
     * yet, or it is an XA branch in doubt) is left for a later round.
     */
    public static void countAttemptsLeftBy(AqueductEngine engine, List<AttemptLedger.Left> left) {
        List<SessionTransaction.Held> failed = new ArrayList<>();
        List<String> orphans = new ArrayList<>();
        Object accounting = new Object();
        for (AttemptLedger.Left a : left) {
            QueueRuntime q = engine.catalog().queue(a.queueId());
            if (q == null) {
                orphans.add(a.id());
                continue;
            }
            failed.add(new SessionTransaction.Held(q, new ReadyEntry(a.msgid(), 0, 0, 0, 0, null, Long.MAX_VALUE, a.consumer()),
                    true, null));
        }
        if (!failed.isEmpty()) {
            countFailedAttempts(engine, failed, accounting, true, true);
        }
        if (!orphans.isEmpty()) {
            engine.attemptLedger().forget(orphans); // their queue is gone
        }
    }

    /**
     * Counts the attempts a JVM killed mid-transaction left in the attempt journal (Derby, at start,
     * before the ready indexes are filled: they read the outcome from the table). A message its
     * transaction consumed after all (committed before the journal was cleared) is gone and counts nothing.
     */
    public static void countAttemptsAtStart(AqueductEngine engine, List<AttemptJournal.Entry> attempts) {
        List<SessionTransaction.Held> failed = new ArrayList<>();
        for (AttemptJournal.Entry a : attempts) {
            QueueRuntime q = engine.catalog().queue(a.queueId());
            if (q != null) {
                failed.add(new SessionTransaction.Held(q, new ReadyEntry(a.msgid(), 0, 0, 0, 0, null, Long.MAX_VALUE, a.consumer()),
                        true, null));
            }
        }
        if (!failed.isEmpty()) {
            countFailedAttempts(engine, failed, new Object(), false, false);
        }
    }

    private enum Outcome {
        READY, WAITING, MOVED, EXCEEDED, GONE, STILL_HELD
    }

    /**
     * A consumer's failed attempt on a multi-consumer queue: its own retry count and retry delay;
     * the message goes to the exception queue only when no consumer has it pending any more and at
     * least one has exceeded max_retries.
     */
    private static void consumerFailed(AqueductEngine engine, EntityManager em, MessageEntity m, SessionTransaction.Held h,
            QueueMeta q, long now, List<Outcome> outcomes, List<QueueRuntime> targets, List<Long> dues) {
        ConsumerStateEntity part = em.find(ConsumerStateEntity.class, ConsumerStateEntity.id(m.msgid, h.entry().consumer),
                engine.store().dialect().shared() ? jakarta.persistence.LockModeType.PESSIMISTIC_WRITE
                        : jakarta.persistence.LockModeType.NONE);
        if (part == null || part.state != ConsumerStates.READY) {
            outcomes.add(Outcome.GONE);
            targets.add(null);
            dues.add(null);
            return;
        }
        part.retryCount++;
        if (part.retryCount <= q.maxRetries()) {
            if (q.retryDelaySeconds() > 0) {
                long due = now + q.retryDelaySeconds() * 1000;
                part.state = ConsumerStates.WAITING;
                part.timeManagerInfo = due;
                outcomes.add(Outcome.WAITING);
                dues.add(due);
            } else {
                outcomes.add(Outcome.READY);
                dues.add(null);
            }
            targets.add(null);
            return;
        }
        part.state = ConsumerStates.EXPIRED;
        em.flush();
        long pending = ((Number) em.createNativeQuery("SELECT COUNT(*) FROM AQ_MESSAGE_CONSUMER WHERE MSGID = ?"
                + " AND STATE IN (0, 1)" + engine.store().dialect().dirtyReadSuffix())
                .setParameter(1, m.msgid).getSingleResult()).longValue();
        if (pending > 0) {
            outcomes.add(Outcome.EXCEEDED);
            targets.add(null);
            dues.add(null);
            return;
        }
        QueueRuntime exceptionQueue = ExceptionQueues.of(engine, m, q);
        m.queueId = exceptionQueue.meta().id();
        m.state = MessageState.EXPIRED.code();
        m.timeManagerInfo = null;
        outcomes.add(Outcome.MOVED);
        targets.add(exceptionQueue);
        dues.add(null);
    }

    /**
     * Counts one failed attempt of each message, in a transaction of its own. {@code leftByDeadNode}:
     * the attempts come from the ledger, and a message still locked by someone is skipped.
     */
    /** Is the message (the consumer's part) locked by a transaction, so that its dead holder is not rolled back yet? */
    private static boolean stillHeld(AqueductEngine engine, EntityManager em, SessionTransaction.Held h) {
        String lock = engine.store().dialect().lockSkipLockedSuffix();
        String consumer = h.entry().consumer;
        String table = consumer == null ? "AQ_MESSAGE WHERE MSGID = ?" : "AQ_MESSAGE_CONSUMER WHERE ID = ?";
        String key = consumer == null ? h.entry().msgid : ConsumerStateEntity.id(h.entry().msgid, consumer);
        boolean lockedNow = !em.createNativeQuery("SELECT 1 FROM " + table + lock).setParameter(1, key).getResultList().isEmpty();
        if (lockedNow) {
            return false; // ours now: count it
        }
        long exists = ((Number) em.createNativeQuery("SELECT COUNT(*) FROM " + table).setParameter(1, key).getSingleResult())
                .longValue();
        return exists > 0; // there but locked by another transaction; gone means consumed
    }

    private static void countFailedAttempts(AqueductEngine engine, List<SessionTransaction.Held> failed, Object accounting,
            boolean leftByDeadNode, boolean applyToIndex) {
        long now = engine.clock().millis();
        List<Outcome> outcomes = new ArrayList<>();
        List<QueueRuntime> targets = new ArrayList<>();
        List<Long> dues = new ArrayList<>();
        try {
            engine.inOwnTransaction(c -> c.work(em -> {
                outcomes.clear();
                targets.clear();
                dues.clear();
                // on a shared store another node may take the message the moment it was released: lock it first
                jakarta.persistence.LockModeType lock = engine.store().dialect().shared()
                        ? jakarta.persistence.LockModeType.PESSIMISTIC_WRITE : jakarta.persistence.LockModeType.NONE;
                for (SessionTransaction.Held h : failed) {
                    if (leftByDeadNode && stillHeld(engine, em, h)) {
                        outcomes.add(Outcome.STILL_HELD);
                        targets.add(null);
                        dues.add(null);
                        continue;
                    }
                    MessageEntity m = em.find(MessageEntity.class, h.entry().msgid, lock);
                    if (engine.attemptLedger() != null) {
                        // the record goes with the count, in one transaction: a node dying now loses neither
                        // (the message is locked first: whoever holds it never waits for the ledger)
                        em.createNativeQuery("DELETE FROM AQ_ATTEMPT WHERE ID = ?")
                                .setParameter(1, AttemptLedger.id(h.entry().msgid, h.entry().consumer)).executeUpdate();
                    }
                    QueueMeta q = h.queue().meta();
                    if (m == null || m.queueId != q.id() || m.state != q.availableState()) {
                        outcomes.add(Outcome.GONE);
                        targets.add(null);
                        dues.add(null);
                        continue;
                    }
                    if (h.entry().consumer != null) {
                        consumerFailed(engine, em, m, h, q, now, outcomes, targets, dues);
                        continue;
                    }
                    m.retryCount++;
                    if (q.isException()) {
                        outcomes.add(Outcome.READY); // already where unserviceable messages end
                        targets.add(null);
                        dues.add(null);
                    } else if (m.retryCount > q.maxRetries()) {
                        QueueRuntime exceptionQueue = ExceptionQueues.of(engine, m, q);
                        m.queueId = exceptionQueue.meta().id();
                        m.state = MessageState.EXPIRED.code();
                        m.timeManagerInfo = null;
                        outcomes.add(Outcome.MOVED);
                        targets.add(exceptionQueue);
                        dues.add(null);
                    } else if (q.retryDelaySeconds() > 0) {
                        long due = now + q.retryDelaySeconds() * 1000;
                        m.state = MessageState.WAITING.code();
                        m.delay = LocalDateTime.ofEpochSecond(due / 1000, (int) (due % 1000) * 1_000_000, ZoneOffset.UTC);
                        m.timeManagerInfo = due;
                        outcomes.add(Outcome.WAITING);
                        targets.add(null);
                        dues.add(due);
                    } else {
                        outcomes.add(Outcome.READY);
                        targets.add(null);
                        dues.add(null);
                    }
                }
                return null;
            }));
        } catch (RuntimeException e) {
            // the attempt could not be counted; the messages must not stay hidden for that
            for (SessionTransaction.Held h : failed) {
                h.queue().release(h.entry(), accounting);
            }
            throw e;
        }
        if (!applyToIndex) {
            return; // the indexes are filled from the table afterwards
        }
        for (int i = 0; i < failed.size(); i++) {
            SessionTransaction.Held h = failed.get(i);
            switch (outcomes.get(i)) {
                case READY -> h.queue().release(h.entry(), accounting);
                case WAITING -> {
                    h.queue().remove(h.entry());
                    engine.timeManager().schedule(dues.get(i));
                }
                case MOVED -> {
                    h.queue().remove(h.entry());
                    targets.get(i).add(h.entry().forConsumer(null, Long.MAX_VALUE));
                }
                case EXCEEDED -> h.queue().remove(h.entry()); // others still have it pending
                case GONE -> h.queue().remove(h.entry());
                case STILL_HELD -> {
                    // a later round of the time manager looks again
                }
            }
        }
    }
}
