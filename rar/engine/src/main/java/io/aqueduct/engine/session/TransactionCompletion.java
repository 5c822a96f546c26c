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
        if (wakeTimeManager) {
            engine.timeManager().wake();
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
        if (!failed.isEmpty()) {
            countFailedAttempts(engine, failed, accounting);
        }
        engine.timeManager().wake();
    }

    private enum Outcome {
        READY, WAITING, MOVED, EXCEEDED, GONE
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

    private static void countFailedAttempts(AqueductEngine engine, List<SessionTransaction.Held> failed, Object accounting) {
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
                    MessageEntity m = em.find(MessageEntity.class, h.entry().msgid, lock);
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
            }
        }
    }
}
