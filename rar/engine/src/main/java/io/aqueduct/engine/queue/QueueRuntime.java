package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Navigation;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * A queue at run time: its settings and its ready index, the messages that can be dequeued now in
 * dequeue order (what Oracle's message cache does for TxEventQ). Dequeuers pick and claim from it
 * under one short lock, so the database is asked for a message by key, never searched; blocked
 * dequeuers wait on it and are woken when a message becomes available.
 */
public final class QueueRuntime {
    private volatile QueueMeta meta;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final NavigableSet<ReadyEntry> ready;
    private final Map<String, ReadyEntry> byId = new HashMap<>();
    /** Transaction groups being consumed, by group: consumed by one transaction at a time. */
    private final Map<Long, Object> groupOwners = new HashMap<>();
    /** Transactions that enqueued into or dequeued from this queue and have not ended yet. */
    private int activeTransactions;
    private volatile boolean dropped;
    /** Counts changes, so that a waiter never misses one that came between its look and its wait. */
    private long version;

    public QueueRuntime(QueueMeta meta) {
        this.meta = meta;
        this.ready = new TreeSet<>(ReadyEntry.order(meta.table().sortOrder()));
    }

    public QueueMeta meta() {
        return meta;
    }

    public void meta(QueueMeta meta) {
        lock.lock();
        try {
            this.meta = meta;
            bump(); // a stopped queue must turn its waiters away
        } finally {
            lock.unlock();
        }
    }

    /** What a dequeue asks for. {@code position} is the session's last message here, null at the start. */
    public record Request(Object claimant, DequeueMode mode, Navigation navigation, ReadyEntry position,
            String msgid, Predicate<String> correlation, long now) {
    }

    /** What a pick found. */
    public sealed interface Pick permits Found, EndOfGroup, Nothing, Held {
    }

    public record Found(ReadyEntry entry) implements Pick {
    }

    public record EndOfGroup() implements Pick {
    }

    public record Nothing() implements Pick {
    }

    /** The message asked for by id is there but another transaction holds it. */
    public record Held() implements Pick {
    }

    /** Finds the message a dequeue should get and, unless it only browses, claims it. */
    public Pick pick(Request r) {
        lock.lock();
        try {
            if (r.msgid() != null) {
                ReadyEntry e = byId.get(r.msgid());
                if (e == null || e.expiresAt <= r.now()) {
                    return new Nothing();
                }
                if (e.claimant != null && e.claimant != r.claimant()
                        && !(r.mode() == DequeueMode.BROWSE && e.claim == ReadyEntry.Claim.LOCKED)) {
                    return new Held();
                }
                if (e.claimant == r.claimant() && e.claim == ReadyEntry.Claim.REMOVE) {
                    return new Nothing();
                }
                claim(e, r);
                return new Found(e);
            }
            boolean grouped = meta.table().transactionalGrouping() && r.correlation() == null;
            ReadyEntry position = r.navigation() == Navigation.FIRST_MESSAGE ? null : r.position();
            Iterable<ReadyEntry> candidates = position == null ? ready : ready.tailSet(position, false);
            for (ReadyEntry e : candidates) {
                if (grouped && position != null) {
                    if (r.navigation() == Navigation.NEXT_MESSAGE && e.groupSeq != position.groupSeq) {
                        return new EndOfGroup();
                    }
                    if (r.navigation() == Navigation.NEXT_TRANSACTION && e.groupSeq == position.groupSeq) {
                        continue;
                    }
                }
                if (eligible(e, r)) {
                    claim(e, r);
                    return new Found(e);
                }
            }
            if (grouped && position != null && r.navigation() == Navigation.NEXT_MESSAGE) {
                return new EndOfGroup();
            }
            return new Nothing();
        } finally {
            lock.unlock();
        }
    }

    /** Is there a message a new transaction could dequeue now (for waiting without claiming)? */
    public boolean hasAvailable(Predicate<String> correlation, long now) {
        lock.lock();
        try {
            Request probe = new Request(new Object(), DequeueMode.REMOVE, Navigation.FIRST_MESSAGE, null, null, correlation, now);
            for (ReadyEntry e : ready) {
                if (eligible(e, probe)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private boolean eligible(ReadyEntry e, Request r) {
        if (e.expiresAt <= r.now()) {
            return false; // the time manager is about to move it to the exception queue
        }
        if (r.correlation() != null && (e.correlation == null || !r.correlation().test(e.correlation))) {
            return false;
        }
        boolean browse = r.mode() == DequeueMode.BROWSE;
        if (e.claimant == null) {
            Object groupOwner = meta.table().transactionalGrouping() ? groupOwners.get(e.groupSeq) : null;
            return browse || groupOwner == null || groupOwner == r.claimant();
        }
        if (e.claimant == r.claimant()) {
            return e.claim == ReadyEntry.Claim.LOCKED; // consumed by this transaction already otherwise
        }
        return browse && e.claim == ReadyEntry.Claim.LOCKED;
    }

    private void claim(ReadyEntry e, Request r) {
        if (r.mode() == DequeueMode.BROWSE) {
            return;
        }
        e.claimant = r.claimant();
        e.claim = r.mode() == DequeueMode.LOCKED && e.claim != ReadyEntry.Claim.REMOVE
                ? ReadyEntry.Claim.LOCKED : ReadyEntry.Claim.REMOVE;
        if (meta.table().transactionalGrouping()) {
            groupOwners.put(e.groupSeq, r.claimant());
        }
    }

    /** Claims a message for the time manager (expiry); false when a dequeuer holds it. */
    public ReadyEntry claimForTimeManager(String msgid, Object timeManager) {
        lock.lock();
        try {
            ReadyEntry e = byId.get(msgid);
            if (e == null || e.claimant != null) {
                return null;
            }
            e.claimant = timeManager;
            e.claim = ReadyEntry.Claim.TIME_MANAGER;
            return e;
        } finally {
            lock.unlock();
        }
    }

    /** A message became available (enqueue committed, delay or retry delay over, rollback). */
    public void add(ReadyEntry e) {
        lock.lock();
        try {
            ReadyEntry old = byId.put(e.msgid, e);
            if (old != null) {
                ready.remove(old);
            }
            ready.add(e);
            bump();
        } finally {
            lock.unlock();
        }
    }

    /** A message is gone for good (removal committed, moved, purged). */
    public void remove(String msgid) {
        lock.lock();
        try {
            ReadyEntry e = byId.remove(msgid);
            if (e != null) {
                ready.remove(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Brings the index in line with the table after work the engine did not see (a branch
     * recovered after a restart): adds what is missing, drops what is gone, leaves held messages be.
     */
    public void resynchronize(Map<String, ReadyEntry> inTable) {
        lock.lock();
        try {
            byId.values().removeIf(e -> {
                if (e.claimant == null && !inTable.containsKey(e.msgid)) {
                    ready.remove(e);
                    return true;
                }
                return false;
            });
            for (ReadyEntry e : inTable.values()) {
                if (!byId.containsKey(e.msgid)) {
                    byId.put(e.msgid, e);
                    ready.add(e);
                }
            }
            bump();
        } finally {
            lock.unlock();
        }
    }

    /** The holder's transaction ended without consuming the message: it is available again. */
    public void release(ReadyEntry e, Object claimant) {
        lock.lock();
        try {
            if (e.claimant == claimant) {
                e.claimant = null;
                e.claim = null;
                bump();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Hands a held message to another holder (a rolled-back dequeue to its retry accounting). */
    public void transfer(ReadyEntry e, Object from, Object to) {
        lock.lock();
        try {
            if (e.claimant == from) {
                e.claimant = to;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The transaction ended: the groups it was consuming are free for others. */
    public void transactionEnded(Object claimant) {
        lock.lock();
        try {
            groupOwners.values().removeIf(owner -> owner == claimant);
            activeTransactions--;
            bump();
        } finally {
            lock.unlock();
        }
    }

    public void transactionStarted() {
        lock.lock();
        try {
            activeTransactions++;
        } finally {
            lock.unlock();
        }
    }

    /** The change count now; pass it to {@link #awaitChange} after looking at the queue. */
    public long version() {
        lock.lock();
        try {
            return version;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the queue changed since {@code seen}, or {@code millis} pass. */
    public void awaitChange(long seen, long millis) throws InterruptedException {
        lock.lock();
        try {
            if (version != seen || millis <= 0) {
                return;
            }
            if (millis == Long.MAX_VALUE) {
                changed.await();
            } else {
                changed.await(millis, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    private void bump() {
        version++;
        changed.signalAll();
    }

    /** Waits until no transaction is working on the queue. */
    public void awaitQuiet() throws InterruptedException {
        lock.lock();
        try {
            while (activeTransactions > 0) {
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    public boolean busy() {
        lock.lock();
        try {
            return activeTransactions > 0;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter (the clock jumped, the queue was stopped or dropped). */
    public void wakeAll() {
        lock.lock();
        try {
            bump();
        } finally {
            lock.unlock();
        }
    }

    public void markDropped() {
        lock.lock();
        try {
            dropped = true;
            ready.clear();
            byId.clear();
            bump();
        } finally {
            lock.unlock();
        }
    }

    public boolean dropped() {
        return dropped;
    }

    /** Messages in the ready index (committed, dequeueable now or held by a transaction). */
    public int readyCount() {
        lock.lock();
        try {
            return ready.size();
        } finally {
            lock.unlock();
        }
    }
}
