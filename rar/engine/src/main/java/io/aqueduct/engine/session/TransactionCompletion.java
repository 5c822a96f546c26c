package io.aqueduct.engine.session;

import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.store.ConsumerStateEntity;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.time.DueWork;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The engine's after-commit and after-rollback hooks: applies a transaction's outcome to the ready
 * indexes and the time manager; after a rollback the failed attempts of the messages it had removed
 * are counted ({@link RetryAccounting}). Also finds the outcome of transactions whose connection broke.
 */
public final class TransactionCompletion {
    private final OwnTransactions own;
    private final AqClock clock;
    private final DueWork dueWork;
    private final RetryAccounting retries;
    private final Branches branches;
    /** Null on a store of one JVM. */
    private final AttemptLedger ledger;
    /** Null on a shared store. */
    private final AttemptJournal journal;
    /** The branches the database lists as prepared (asked through a session's resource). */
    private final Supplier<Set<XidKey>> preparedInStore;

    public TransactionCompletion(OwnTransactions own, AqClock clock, DueWork dueWork, RetryAccounting retries,
            Branches branches, AttemptLedger ledger, AttemptJournal journal, Supplier<Set<XidKey>> preparedInStore) {
        this.own = own;
        this.clock = clock;
        this.dueWork = dueWork;
        this.retries = retries;
        this.branches = branches;
        this.ledger = ledger;
        this.journal = journal;
        this.preparedInStore = preparedInStore;
    }

    /** Told, after a commit, of each queue that got messages for remote consumers (propagation's wake-up). */
    private volatile java.util.function.LongConsumer propagationNotice;

    public void onPropagatableMessages(java.util.function.LongConsumer notice) {
        this.propagationNotice = notice;
    }

    /** A buffered enqueue (no commit to wait for) added messages for remote consumers of queue {@code queueId}. */
    void propagatable(long queueId) {
        java.util.function.LongConsumer notice = propagationNotice;
        if (notice != null) {
            notice.accept(queueId);
        }
    }

    /** Told, after a commit, of the notifications the transaction planned. */
    private volatile io.aqueduct.engine.notification.Notifier notifier;

    public void notifier(io.aqueduct.engine.notification.Notifier notifier) {
        this.notifier = notifier;
    }

    public void afterCommit(SessionTransaction tx) {
        long now = clock.millis();
        boolean wakeTimeManager = false;
        java.util.Map<QueueRuntime, List<ReadyEntry>> added = new java.util.LinkedHashMap<>();
        for (SessionTransaction.Enqueued e : tx.enqueued) {
            if (e.entry() != null) {
                added.computeIfAbsent(e.queue(), k -> new ArrayList<>()).add(e.entry());
            }
            if (e.dueAt() != null) {
                dueWork.schedule(e.dueAt());
            }
        }
        added.forEach(QueueRuntime::addAll); // a transaction's messages appear together
        tx.enqueuedMessages.forEach((q, n) -> q.metrics().enqueued(n));
        for (SessionTransaction.Held h : tx.held) {
            if (h.removed()) {
                h.queue().metrics().dequeued(latency(h.entry(), now));
                h.queue().remove(h.entry());
                if (h.entry().consumer != null) {
                    dueWork.checkCompletion(h.entry().msgid); // was it the last consumer?
                }
                if (h.retentionDue() != null) {
                    dueWork.schedule(h.retentionDue());
                }
            } else {
                h.queue().release(h.entry(), tx);
                wakeTimeManager |= h.entry().expiresAt <= now;
            }
        }
        for (QueueRuntime q : tx.touched) {
            q.transactionEnded(tx);
        }
        for (String msgid : tx.partsTaken) {
            dueWork.checkCompletion(msgid); // was it the last consumer?
        }
        if (!tx.propagatable.isEmpty()) {
            java.util.function.LongConsumer notice = propagationNotice;
            if (notice != null) {
                tx.propagatable.forEach(q -> notice.accept(q.meta().id()));
            }
        }
        if (ledger != null && !tx.attempts.isEmpty()) {
            ledger.forget(tx.attempts); // consumed: nothing to count
        }
        notifyCommitted(tx);
        forgetJournal(tx);
        if (wakeTimeManager) {
            dueWork.wake();
        }
    }

    /** Enqueue to dequeue (a transaction group member's from its head's enqueue); -1 for an entry rebuilt without it. */
    private static long latency(ReadyEntry e, long now) {
        return e.orderMs > 0 ? Math.max(0, now - e.orderMs) : -1;
    }

    /** The notifications a committed transaction planned are due (after the ready indexes show its messages). */
    private void notifyCommitted(SessionTransaction tx) {
        io.aqueduct.engine.notification.Notifier n = notifier;
        if (n != null && (!tx.notifications.isEmpty() || tx.notificationRows)) {
            n.committedInMemory(tx.notifications, tx.notificationRows);
        }
    }

    /**
     * The transaction's attempt records go, but those of the attempts {@code counted}: the count took
     * them out in its own transaction. Never take those out again later: the message's next attempt
     * has the same key, and taking its record out would let a third dequeue have the message before
     * the second attempt is counted (and see one attempt too few).
     */
    private void forgetAttempts(SessionTransaction tx, List<SessionTransaction.Held> counted) {
        if (ledger == null || tx.attempts.isEmpty()) {
            return;
        }
        List<String> left = new ArrayList<>(tx.attempts);
        for (SessionTransaction.Held h : counted) {
            left.remove(AttemptLedger.id(h.entry().msgid, h.entry().consumer));
        }
        if (!left.isEmpty()) {
            ledger.forget(left);
        }
    }

    /** The transaction's journal records are settled; a recovered branch's messages come back into the index. */
    private void forgetJournal(SessionTransaction tx) {
        if (journal != null && !tx.journalSlots.isEmpty()) {
            journal.free(tx.journalSlots);
        }
        if (tx.recovered) {
            branches.resolved(tx.recoveredMessages);
        }
    }

    public void afterRollback(SessionTransaction tx) {
        Object accounting = new Object();
        List<SessionTransaction.Held> failed = new ArrayList<>();
        for (SessionTransaction.Held h : tx.held) {
            if (h.removed()) {
                h.queue().transfer(h.entry(), tx, accounting);
                h.queue().metrics().failedAttempts(1);
                failed.add(h);
            } else {
                h.queue().release(h.entry(), tx);
            }
        }
        for (QueueRuntime q : tx.touched) {
            q.transactionEnded(tx);
        }
        boolean counted = false;
        try {
            if (!failed.isEmpty()) {
                retries.countFailed(failed, accounting, false, true);
            }
            counted = true;
        } finally {
            forgetAttempts(tx, counted ? failed : List.of());
            forgetJournal(tx);
        }
        dueWork.wake();
    }

    /** A branch prepared this long ago that the database no longer lists was ended through another node. */
    private static final long ENDED_ELSEWHERE_AFTER_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

    /**
     * Shared stores: a branch this node prepared may be committed or rolled back through another
     * node's resource (a transaction manager recovering through any node). This node learns it when
     * the database stops listing the branch: its outcome is then applied from the rows, so that the
     * messages it held come back (their attempt counted) or are consumed. Called by the time manager.
     */
    public void settleBranchesEndedElsewhere() {
        long before = System.nanoTime() - ENDED_ELSEWHERE_AFTER_NANOS;
        List<java.util.Map.Entry<XidKey, SessionTransaction>> candidates = new ArrayList<>();
        for (java.util.Map.Entry<XidKey, SessionTransaction> e : branches.entries()) {
            if (e.getValue().prepared && e.getValue().preparedAtNanos - before < 0) {
                candidates.add(e);
            }
        }
        if (candidates.isEmpty()) {
            return;
        }
        Set<XidKey> listed = preparedInStore.get();
        for (java.util.Map.Entry<XidKey, SessionTransaction> e : candidates) {
            SessionTransaction branch = e.getValue();
            if (!listed.contains(e.getKey()) && branches.remove(e.getKey(), branch)) {
                if (branch.owner != null) {
                    branch.owner.preparedBranches.decrementAndGet();
                }
                afterConnectionLost(branch, true); // "lost" to this node: the rows tell which way it went
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
    public Lost afterConnectionLost(SessionTransaction tx, boolean duringCommit) {
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
            return resolveLost(tx);
        } catch (RuntimeException e) {
            dueWork.settleLater(tx + " after its connection broke (its dequeue attempts are counted once it is known)",
                    () -> resolveLost(tx));
            return null;
        }
    }

    /** Finds and applies the outcome of a transaction whose connection broke; throws while the store cannot be reached. */
    public Lost resolveLost(SessionTransaction tx) {
        Lost outcome = tx.lostDuringCommit ? outcomeOf(tx) : Lost.ROLLED_BACK;
        List<SessionTransaction.Held> removed = new ArrayList<>(tx.held);
        if (outcome == Lost.ROLLED_BACK && !removed.isEmpty()) {
            removed.forEach(h -> h.queue().metrics().failedAttempts(1));
            retries.countFailed(removed, tx, false, true); // the claims are the transaction's own
        } else {
            java.util.Map<QueueRuntime, List<ReadyEntry>> added = new java.util.LinkedHashMap<>();
            for (SessionTransaction.Enqueued e : outcome == Lost.COMMITTED ? tx.enqueued : List.<SessionTransaction.Enqueued>of()) {
                if (e.entry() != null) {
                    added.computeIfAbsent(e.queue(), k -> new ArrayList<>()).add(e.entry());
                }
                if (e.dueAt() != null) {
                    dueWork.schedule(e.dueAt());
                }
            }
            added.forEach(QueueRuntime::addAll);
            if (outcome == Lost.COMMITTED) {
                notifyCommitted(tx); // its RELIABLE rows committed with it; the in-memory ones are kept now
                tx.enqueuedMessages.forEach((q, n) -> q.metrics().enqueued(n));
            }
            long now = clock.millis();
            for (SessionTransaction.Held h : removed) {
                h.queue().metrics().dequeued(latency(h.entry(), now));
                h.queue().remove(h.entry());
                if (h.entry().consumer != null) {
                    dueWork.checkCompletion(h.entry().msgid);
                }
            }
        }
        forgetAttempts(tx, outcome == Lost.ROLLED_BACK ? removed : List.of());
        forgetJournal(tx);
        dueWork.wake();
        return outcome;
    }

    /**
     * Did a transaction whose connection broke during its commit commit? Its rows tell: a message it
     * enqueued is there (committed), or a message it removed is still available to dequeue (rolled
     * back); when neither can be seen, it cannot be told.
     */
    private Lost outcomeOf(SessionTransaction tx) {
        return own.run(c -> c.work(em -> {
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
}
