package io.aqueduct.engine.session;

import io.aqueduct.api.MessageState;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.ExceptionQueues;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.store.ConsumerStateEntity;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.time.DueWork;
import jakarta.persistence.EntityManager;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * AQ's retry accounting: a failed dequeue attempt (a rollback after a REMOVE, an attempt a dead
 * node or a killed JVM left unfinished) adds one to the message's retry count (its consumer's, on a
 * multi-consumer queue) and makes it READY again, WAITING for the queue's retry delay, or moves it
 * to its exception queue past max_retries; counted in a transaction of its own.
 */
public final class RetryAccounting {
    private final OwnTransactions own;
    private final Catalog catalog;
    private final ExceptionQueues exceptionQueues;
    private final AqClock clock;
    private final DueWork dueWork;
    /** Null on a store of one JVM. */
    private final AttemptLedger ledger;

    private final io.aqueduct.engine.notification.Notifier notifier;

    public RetryAccounting(OwnTransactions own, Catalog catalog, AqClock clock, DueWork dueWork, AttemptLedger ledger,
            io.aqueduct.engine.notification.Notifier notifier) {
        this.notifier = notifier;
        this.own = own;
        this.catalog = catalog;
        this.exceptionQueues = new ExceptionQueues(catalog);
        this.clock = clock;
        this.dueWork = dueWork;
        this.ledger = ledger;
    }

    /**
     * Counts the attempts a dead node left in the attempt ledger, as its after-rollback hook would
     * have: a message whose row is still locked (the dead node's transaction is not rolled back
     * yet, or it is an XA branch in doubt) is left for a later round.
     */
    public void countAttemptsLeftBy(List<AttemptLedger.Left> left) {
        List<SessionTransaction.Held> failed = new ArrayList<>();
        List<String> orphans = new ArrayList<>();
        Object accounting = new Object();
        for (AttemptLedger.Left a : left) {
            QueueRuntime q = catalog.queue(a.queueId());
            if (q == null) {
                orphans.add(a.id());
                continue;
            }
            failed.add(new SessionTransaction.Held(q, new ReadyEntry(a.msgid(), 0, 0, 0, 0, null, Long.MAX_VALUE, a.consumer()),
                    true, null));
        }
        if (!failed.isEmpty()) {
            countFailed(failed, accounting, true, true);
        }
        if (!orphans.isEmpty()) {
            ledger.forget(orphans); // their queue is gone
        }
    }

    /**
     * Counts the attempts a JVM killed mid-transaction left in the attempt journal (Derby, at start,
     * before the ready indexes are filled: they read the outcome from the table). A message its
     * transaction consumed after all (committed before the journal was cleared) is gone and counts nothing.
     */
    public void countAttemptsAtStart(List<AttemptJournal.Entry> attempts) {
        List<SessionTransaction.Held> failed = new ArrayList<>();
        for (AttemptJournal.Entry a : attempts) {
            QueueRuntime q = catalog.queue(a.queueId());
            if (q != null) {
                failed.add(new SessionTransaction.Held(q, new ReadyEntry(a.msgid(), 0, 0, 0, 0, null, Long.MAX_VALUE, a.consumer()),
                        true, null));
            }
        }
        if (!failed.isEmpty()) {
            countFailed(failed, new Object(), false, false);
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
    private void consumerFailed(EntityManager em, MessageEntity m, SessionTransaction.Held h,
            QueueMeta q, long now, List<Outcome> outcomes, List<QueueRuntime> targets, List<Long> dues) {
        ConsumerStateEntity part = em.find(ConsumerStateEntity.class, ConsumerStateEntity.id(m.msgid, h.entry().consumer),
                own.dialect().shared() ? jakarta.persistence.LockModeType.PESSIMISTIC_WRITE
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
        long pending = ((Number) em.createNativeQuery(own.dialect().sql("retry.pendingConsumers"))
                .setParameter(1, m.msgid).setParameter(2, ConsumerStates.READY).setParameter(3, ConsumerStates.WAITING)
                .getSingleResult()).longValue();
        if (pending > 0) {
            outcomes.add(Outcome.EXCEEDED);
            targets.add(null);
            dues.add(null);
            return;
        }
        QueueRuntime exceptionQueue = exceptionQueues.move(m, q);
        outcomes.add(Outcome.MOVED);
        targets.add(exceptionQueue);
        dues.add(null);
    }

    /** Is the message (the consumer's part) locked by a transaction, so that its dead holder is not rolled back yet? */
    private boolean stillHeld(EntityManager em, SessionTransaction.Held h) {
        String consumer = h.entry().consumer;
        String key = consumer == null ? h.entry().msgid : ConsumerStateEntity.id(h.entry().msgid, consumer);
        boolean lockedNow = !em.createNativeQuery(own.dialect().sql(consumer == null ? "retry.lockMessage" : "retry.lockConsumerPart"))
                .setParameter(1, key).getResultList().isEmpty();
        if (lockedNow) {
            return false; // ours now: count it
        }
        long exists = ((Number) em.createNativeQuery(own.dialect().sql(consumer == null ? "retry.messageExists"
                : "retry.consumerPartExists")).setParameter(1, key).getSingleResult()).longValue();
        return exists > 0; // there but locked by another transaction; gone means consumed
    }

    /**
     * Counts one failed attempt of each message, in a transaction of its own. {@code leftByDeadNode}:
     * the attempts come from the ledger, and a message still locked by someone is skipped;
     * {@code applyToIndex}: the ready indexes learn the outcome (not at start: they are filled from
     * the table afterwards).
     */
    /**
     * A message back for another attempt at once is available again to its consumer: its registrations
     * are notified again, the RELIABLE ones by rows of this transaction.
     */
    private void notifyAvailableAgain(EntityManager em, QueueMeta q, SessionTransaction.Held h, List<Outcome> outcomes,
            long now, List<io.aqueduct.engine.notification.Notifier.Pending> notifications,
            boolean[] rowsWritten) {
        Outcome o = outcomes.get(outcomes.size() - 1);
        if (o != Outcome.READY || !notifier.watched(q.id())) {
            return; // one WAITING for its retry delay is notified by the time manager when the delay ends
        }
        List<Object> rows = new ArrayList<>();
        notifier.plan(q.id(), h.entry().msgid, h.entry().consumer, now, rows, notifications);
        for (Object row : rows) {
            em.persist(row);
            rowsWritten[0] = true;
        }
    }

    void countFailed(List<SessionTransaction.Held> failed, Object accounting,
            boolean leftByDeadNode, boolean applyToIndex) {
        long now = clock.millis();
        List<Outcome> outcomes = new ArrayList<>();
        List<QueueRuntime> targets = new ArrayList<>();
        List<Long> dues = new ArrayList<>();
        List<io.aqueduct.engine.notification.Notifier.Pending> notifications = new ArrayList<>();
        boolean[] notificationRows = new boolean[1];
        try {
            own.run(c -> c.work(em -> {
                outcomes.clear();
                targets.clear();
                dues.clear();
                notifications.clear();
                notificationRows[0] = false;
                // on a shared store another node may take the message the moment it was released: lock it first
                jakarta.persistence.LockModeType lock = own.dialect().shared()
                        ? jakarta.persistence.LockModeType.PESSIMISTIC_WRITE : jakarta.persistence.LockModeType.NONE;
                for (SessionTransaction.Held h : failed) {
                    if (leftByDeadNode && stillHeld(em, h)) {
                        outcomes.add(Outcome.STILL_HELD);
                        targets.add(null);
                        dues.add(null);
                        continue;
                    }
                    MessageEntity m = em.find(MessageEntity.class, h.entry().msgid, lock);
                    if (ledger != null && h.entry().consumer != null) {
                        // a consumer's part is what its dequeuers lock: lock it before the record goes, or
                        // one holding it (taken in a race with this count) could wait for the record's key
                        // while this waits for the part
                        em.find(ConsumerStateEntity.class, ConsumerStateEntity.id(h.entry().msgid, h.entry().consumer), lock);
                    }
                    if (ledger != null) {
                        // the record goes with the count, in one transaction: a node dying now loses neither
                        // (the message is locked first: whoever holds it never waits for the ledger)
                        em.createNativeQuery(own.dialect().sql("ledger.forgetAttempt"))
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
                        consumerFailed(em, m, h, q, now, outcomes, targets, dues);
                        notifyAvailableAgain(em, q, h, outcomes, now, notifications, notificationRows);
                        continue;
                    }
                    m.retryCount++;
                    if (q.isException()) {
                        outcomes.add(Outcome.READY); // already where unserviceable messages end
                        targets.add(null);
                        dues.add(null);
                    } else if (m.retryCount > q.maxRetries()) {
                        QueueRuntime exceptionQueue = exceptionQueues.move(m, q);
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
                    notifyAvailableAgain(em, q, h, outcomes, now, notifications, notificationRows);
                }
                return null;
            }));
        } catch (RuntimeException e) {
            // the attempt could not be counted; the messages must not stay hidden for that, and they are
            // available again (as they were before the attempt): their registrations are told
            for (SessionTransaction.Held h : failed) {
                h.queue().release(h.entry(), accounting);
                notifier.availableAgain(h.queue().meta().id(), h.entry().msgid, h.entry().consumer);
            }
            throw e;
        }
        for (int i = 0; i < failed.size(); i++) {
            if (outcomes.get(i) == Outcome.MOVED) {
                failed.get(i).queue().metrics().movedToExceptionQueue(false);
            }
        }
        if (!applyToIndex) {
            notifier.committedInMemory(notifications, notificationRows[0]);
            return; // the indexes are filled from the table afterwards
        }
        for (int i = 0; i < failed.size(); i++) {
            SessionTransaction.Held h = failed.get(i);
            switch (outcomes.get(i)) {
                case READY -> h.queue().release(h.entry(), accounting);
                case WAITING -> {
                    h.queue().remove(h.entry());
                    dueWork.schedule(dues.get(i));
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
        notifier.committedInMemory(notifications, notificationRows[0]); // now that the indexes show them
    }
}
