package io.aqueduct.engine.session;

import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one transaction of a session did to the queues, so that its end can be applied to the
 * in-memory side: committed enqueues become available and wake dequeuers, committed removals leave
 * the ready index, locks are released, and rolled-back removals count a failed attempt. The object
 * itself is the claimant that holds the messages in the ready indexes.
 */
public final class SessionTransaction {
    final String id;
    final List<Enqueued> enqueued = new ArrayList<>();
    final List<Held> held = new ArrayList<>();
    final Set<QueueRuntime> touched = new LinkedHashSet<>();
    /** Messages this transaction enqueued, per queue (the metrics count them after the commit). */
    final Map<QueueRuntime, Integer> enqueuedMessages = new HashMap<>();
    final Map<QueueRuntime, GroupHead> groupHeads = new HashMap<>();
    /** Queues this transaction enqueued messages for remote consumers into (propagation is told after the commit). */
    final Set<QueueRuntime> propagatable = new LinkedHashSet<>();
    /** Messages this transaction took a consumer's part of outside a dequeue (propagation): completed after the commit. */
    final List<String> partsTaken = new ArrayList<>();
    /** Notifications (not RELIABLE) of what this transaction makes available, kept once it commits. */
    final List<io.aqueduct.engine.notification.Notifier.Pending> notifications = new ArrayList<>();
    /** This transaction wrote RELIABLE notifications: the notification loop looks once it commits. */
    boolean notificationRows;
    /** Keys of this transaction's REMOVE attempts in the attempt ledger (shared stores). */
    final List<String> attempts = new ArrayList<>();
    /** This transaction's key in the attempt journal (Derby): unique across JVM runs with high probability. */
    final long key = KEY_BASE + KEYS.incrementAndGet();
    /** Slots of this transaction's records in the attempt journal (Derby). */
    final List<Integer> journalSlots = new ArrayList<>();
    /**
     * A branch an earlier JVM prepared (read back from the attempt journal at start): its messages
     * are kept out of the ready index until the transaction manager decides, then read back in.
     */
    final List<String> recoveredMessages = new ArrayList<>();
    boolean recovered;
    /** The session whose connection an XA branch works on (null for local transactions and recovered branches). */
    EngineSession owner;
    /** The branch was prepared (it survives its connection: a lost connection leaves it in doubt, not rolled back). */
    volatile boolean prepared;
    /** When it was prepared (System.nanoTime): a branch the database stops listing long after was ended elsewhere. */
    volatile long preparedAtNanos;
    /** The connection broke during this transaction's commit: whether it committed must be found out. */
    boolean lostDuringCommit;
    /** A unit of work failed half-way in a global transaction (no savepoint undid it): the branch must roll back. */
    volatile boolean rollbackOnly;

    private static final long KEY_BASE = (long) new java.security.SecureRandom().nextInt() << 32;
    private static final java.util.concurrent.atomic.AtomicLong KEYS = new java.util.concurrent.atomic.AtomicLong();

    /** A message this transaction enqueued: its ready entry when READY, its next due instant. */
    record Enqueued(QueueRuntime queue, String msgid, ReadyEntry entry, Long dueAt) {
    }

    /** A message this transaction holds (LOCKED or REMOVE); retentionDue when it stays PROCESSED. */
    record Held(QueueRuntime queue, ReadyEntry entry, boolean removed, Long retentionDue) {
    }

    /** The first message of this transaction in a grouped queue: the group's order and timing. */
    record GroupHead(long seq, long orderMs, int priority, long readyAt, long expiration) {
    }

    SessionTransaction(String id) {
        this.id = id;
    }

    /** A branch an earlier JVM prepared, rebuilt from its attempt-journal records (Derby, at start). */
    public static SessionTransaction recovered(io.aqueduct.engine.queue.Catalog catalog, List<AttemptJournal.Entry> records) {
        SessionTransaction tx = new SessionTransaction("recovered." + records.get(0).tx());
        tx.recovered = true;
        for (AttemptJournal.Entry r : records) {
            tx.journalSlots.add(r.slot());
            if (r.msgid() == null) {
                continue;
            }
            if (!tx.recoveredMessages.contains(r.msgid())) {
                tx.recoveredMessages.add(r.msgid());
            }
            QueueRuntime q = catalog.queue(r.queueId());
            if (r.kind() == AttemptJournal.ATTEMPT && q != null) {
                // its outcome: consumed on commit, a failed attempt counted on rollback
                tx.held.add(new Held(q, new ReadyEntry(r.msgid(), 0, 0, 0, 0, null, Long.MAX_VALUE, r.consumer()), true, null));
            }
        }
        return tx;
    }

    /** The messages a recovered branch holds. */
    public List<String> recoveredMessages() {
        return recoveredMessages;
    }

    public String id() {
        return id;
    }

    void touch(QueueRuntime q) {
        if (touched.add(q)) {
            q.transactionStarted();
        }
    }

    boolean isEmpty() {
        return touched.isEmpty();
    }

    @Override
    public String toString() {
        return "transaction " + id;
    }
}
