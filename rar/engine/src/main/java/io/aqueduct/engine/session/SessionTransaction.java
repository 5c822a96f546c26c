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
    final Map<QueueRuntime, GroupHead> groupHeads = new HashMap<>();
    /** Keys of this transaction's REMOVE attempts in the attempt ledger (shared stores). */
    final List<String> attempts = new ArrayList<>();
    /** A unit of work failed half-way in a global transaction (no savepoint undid it): the branch must roll back. */
    volatile boolean rollbackOnly;

    /** A message this transaction enqueued: its ready entry when READY, its next due instant. */
    record Enqueued(QueueRuntime queue, ReadyEntry entry, Long dueAt) {
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
