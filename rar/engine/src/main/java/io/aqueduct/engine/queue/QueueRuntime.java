package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Navigation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import io.aqueduct.engine.store.StoreConnection;

/**
 * A queue at run time: its settings, its subscribers and its ready index, the messages that can be
 * dequeued now in dequeue order (what Oracle's message cache does for TxEventQ). A single-consumer
 * queue has one lane of messages; a multi-consumer queue has a lane per consumer. Dequeuers pick
 * and claim from a lane under one short lock, so the database is asked for a message by key, never
 * searched; blocked dequeuers wait on the queue and are woken when a message becomes available.
 *
 * <p>On a store several nodes share, the database is the truth instead: picks select and claim in
 * it ({@link SharedStoreSelection}), nothing is indexed here, a change this node makes available is
 * published to the other nodes, and waiters look again at least every {@value #SHARED_RECHECK_MS}
 * ms (a node that died released its locks without a word).
 */
public final class QueueRuntime {
    private static final String SINGLE = "";
    /** On a shared store, the longest a waiter goes without looking at the table again. */
    public static final long SHARED_RECHECK_MS = 1000;

    private volatile QueueMeta meta;
    private volatile List<Subscriber> subscribers = List.of();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Comparator<ReadyEntry> order;
    private final Listeners listeners;
    private final Map<String, Lane> lanes = new HashMap<>();
    /** Transactions that enqueued into or dequeued from this queue and have not ended yet. */
    private int activeTransactions;
    private volatile boolean dropped;
    /** Counts changes, so that a waiter never misses one that came between its look and its wait. */
    private long version;
    /** Non-null on a shared store: selection in the database. */
    private final SharedStoreSelection shared;
    /** Tells the other nodes of a change (shared store only). */
    private final LongConsumer publisher;

    /** One consumer's messages (the only lane of a single-consumer queue). */
    private final class Lane {
        final NavigableSet<ReadyEntry> ready = new TreeSet<>(order);
        final Map<String, ReadyEntry> byId = new HashMap<>();
        /** Transaction groups being consumed, by group: consumed by one transaction at a time. */
        final Map<Long, Object> groupOwners = new HashMap<>();
    }

    public QueueRuntime(QueueMeta meta, Listeners listeners) {
        this(meta, listeners, null, null);
    }

    QueueRuntime(QueueMeta meta, Listeners listeners, SharedStoreSelection shared, LongConsumer publisher) {
        this.listeners = listeners;
        this.meta = meta;
        this.order = ReadyEntry.order(meta.table().sortOrder());
        this.shared = shared;
        this.publisher = publisher;
    }

    /** Is the store shared by several nodes (selection in the database, no ready index here)? */
    public boolean shared() {
        return shared != null;
    }

    private void publish() {
        if (publisher != null) {
            publisher.accept(meta.id());
        }
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

    public List<Subscriber> subscribers() {
        return subscribers;
    }

    public void subscribers(List<Subscriber> subscribers) {
        this.subscribers = List.copyOf(subscribers);
    }

    private Lane lane(String consumer) {
        return lanes.computeIfAbsent(consumer == null ? SINGLE : consumer, k -> new Lane());
    }

    /**
     * What a dequeue asks for. {@code position} is the session's last message here, null at the
     * start; {@code connection} is the transaction's, where a shared store's claim is made.
     */
    public record Request(Object claimant, String consumer, DequeueMode mode, Navigation navigation, ReadyEntry position,
            String msgid, Predicate<String> correlation, Predicate<ReadyEntry> condition, long now, StoreConnection connection) {
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

    /**
     * Finds the message a dequeue should get and, unless it only browses, claims it. A condition
     * (which may read the store) is tested outside the lock by the caller: candidates failing it
     * are skipped through {@link Request#condition()} here only when it is cheap (in memory).
     */
    public Pick pick(Request r) {
        if (shared != null) {
            return shared.pick(meta, r);
        }
        lock.lock();
        try {
            Lane lane = lane(r.consumer());
            if (r.msgid() != null) {
                ReadyEntry e = lane.byId.get(r.msgid());
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
                claim(lane, e, r);
                return new Found(e);
            }
            boolean grouped = meta.table().transactionalGrouping() && r.correlation() == null && r.condition() == null;
            ReadyEntry position = r.navigation() == Navigation.FIRST_MESSAGE ? null : r.position();
            Iterable<ReadyEntry> candidates = position == null ? lane.ready : lane.ready.tailSet(position, false);
            for (ReadyEntry e : candidates) {
                if (grouped && position != null) {
                    if (r.navigation() == Navigation.NEXT_MESSAGE && e.groupSeq != position.groupSeq) {
                        return new EndOfGroup();
                    }
                    if (r.navigation() == Navigation.NEXT_TRANSACTION && e.groupSeq == position.groupSeq) {
                        continue;
                    }
                }
                if (eligible(lane, e, r)) {
                    claim(lane, e, r);
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

    /**
     * Is there a message a new transaction of {@code consumer} could dequeue now (waiting without
     * claiming)? On a shared store the look is a claim on {@code probe} (a connection of the
     * caller's, outside its transaction) that is rolled back at once: a message another node holds
     * does not count.
     */
    public boolean hasAvailable(String consumer, Predicate<String> correlation, long now,
            java.util.function.Supplier<StoreConnection> probe) {
        if (shared != null) {
            StoreConnection c = probe.get();
            try {
                return shared.pick(meta, new Request(new Object(), consumer, DequeueMode.LOCKED, Navigation.FIRST_MESSAGE, null,
                        null, correlation, null, now, c)) instanceof Found;
            } finally {
                c.rollback();
            }
        }
        lock.lock();
        try {
            Lane lane = lane(consumer);
            Request probeRequest = new Request(new Object(), consumer, DequeueMode.REMOVE, Navigation.FIRST_MESSAGE, null, null,
                    correlation, null, now, null);
            for (ReadyEntry e : lane.ready) {
                if (eligible(lane, e, probeRequest)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private boolean eligible(Lane lane, ReadyEntry e, Request r) {
        if (e.expiresAt <= r.now()) {
            return false; // the time manager is about to move it to the exception queue
        }
        if (r.correlation() != null && (e.correlation == null || !r.correlation().test(e.correlation))) {
            return false;
        }
        boolean browse = r.mode() == DequeueMode.BROWSE;
        boolean available;
        if (e.claimant == null) {
            Object groupOwner = meta.table().transactionalGrouping() ? lane.groupOwners.get(e.groupSeq) : null;
            available = browse || groupOwner == null || groupOwner == r.claimant();
        } else if (e.claimant == r.claimant()) {
            available = e.claim == ReadyEntry.Claim.LOCKED; // consumed by this transaction already otherwise
        } else {
            available = browse && e.claim == ReadyEntry.Claim.LOCKED;
        }
        return available && (r.condition() == null || r.condition().test(e));
    }

    private void claim(Lane lane, ReadyEntry e, Request r) {
        if (r.mode() == DequeueMode.BROWSE) {
            return;
        }
        e.claimant = r.claimant();
        e.claim = r.mode() == DequeueMode.LOCKED && e.claim != ReadyEntry.Claim.REMOVE
                ? ReadyEntry.Claim.LOCKED : ReadyEntry.Claim.REMOVE;
        if (meta.table().transactionalGrouping()) {
            lane.groupOwners.put(e.groupSeq, r.claimant());
        }
    }

    /**
     * Claims every consumer's part of a message for the time manager (expiry); null when a
     * dequeuer holds one of them; empty when the index has no part of it (not committed yet, or
     * only remote consumers have it pending).
     */
    public List<ReadyEntry> claimForTimeManager(String msgid, Object timeManager) {
        if (shared != null) {
            return List.of(); // the time manager's batch locked the row in the database
        }
        lock.lock();
        try {
            List<ReadyEntry> parts = new ArrayList<>();
            for (Lane lane : lanes.values()) {
                ReadyEntry e = lane.byId.get(msgid);
                if (e != null) {
                    if (e.claimant != null) {
                        return null;
                    }
                    parts.add(e);
                }
            }
            for (ReadyEntry e : parts) {
                e.claimant = timeManager;
                e.claim = ReadyEntry.Claim.TIME_MANAGER;
            }
            return parts;
        } finally {
            lock.unlock();
        }
    }

    /** A message became available (enqueue committed, delay or retry delay over, rollback). */
    public void add(ReadyEntry e) {
        addAll(List.of(e));
    }

    /**
     * Messages became available together (one transaction's enqueues, a group whose delay ended):
     * a dequeuer sees all of them or none, so a transaction group is never seen half-there.
     */
    public void addAll(List<ReadyEntry> entries) {
        if (shared != null) {
            wakeAll();
            publish();
            return;
        }
        lock.lock();
        try {
            for (ReadyEntry e : entries) {
                Lane lane = lane(e.consumer);
                ReadyEntry old = lane.byId.put(e.msgid, e);
                if (old != null) {
                    lane.ready.remove(old);
                }
                lane.ready.add(e);
            }
            bump();
        } finally {
            lock.unlock();
        }
    }

    /** One consumer's part of a message is gone for good (removal committed, moved, purged). */
    public void remove(ReadyEntry e) {
        remove(e.msgid, e.consumer);
    }

    public void remove(String msgid, String consumer) {
        if (shared != null) {
            return;
        }
        lock.lock();
        try {
            Lane lane = lanes.get(consumer == null ? SINGLE : consumer);
            ReadyEntry e = lane == null ? null : lane.byId.remove(msgid);
            if (e != null) {
                lane.ready.remove(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** A consumer is gone (subscriber removed): its lane leaves the index; returns what was pending. */
    public List<ReadyEntry> dropLane(String consumer) {
        if (shared != null) {
            wakeAll();
            return List.of();
        }
        lock.lock();
        try {
            Lane lane = lanes.remove(consumer);
            bump();
            return lane == null ? List.of() : new ArrayList<>(lane.ready);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Brings the index in line with the table after work the engine did not see (a branch
     * recovered after a restart): adds what is missing, drops what is gone, leaves held messages be.
     */
    public void resynchronize(List<ReadyEntry> inTable) {
        if (shared != null) {
            wakeAll();
            publish();
            return;
        }
        lock.lock();
        try {
            Map<String, Map<String, ReadyEntry>> fresh = new HashMap<>();
            for (ReadyEntry e : inTable) {
                fresh.computeIfAbsent(e.consumer == null ? SINGLE : e.consumer, k -> new HashMap<>()).put(e.msgid, e);
            }
            for (Map.Entry<String, Lane> l : lanes.entrySet()) {
                Map<String, ReadyEntry> keep = fresh.getOrDefault(l.getKey(), Map.of());
                Lane lane = l.getValue();
                lane.byId.values().removeIf(e -> {
                    if (e.claimant == null && !keep.containsKey(e.msgid)) {
                        lane.ready.remove(e);
                        return true;
                    }
                    return false;
                });
            }
            for (ReadyEntry e : inTable) {
                Lane lane = lane(e.consumer);
                if (!lane.byId.containsKey(e.msgid)) {
                    lane.byId.put(e.msgid, e);
                    lane.ready.add(e);
                }
            }
            bump();
        } finally {
            lock.unlock();
        }
    }

    /** The holder's transaction ended without consuming the message: it is available again. */
    public void release(ReadyEntry e, Object claimant) {
        if (shared != null) {
            wakeAll(); // the database lock went with the transaction
            publish();
            return;
        }
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
            for (Lane lane : lanes.values()) {
                lane.groupOwners.values().removeIf(owner -> owner == claimant);
            }
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
        if (shared != null) {
            millis = Math.min(millis, SHARED_RECHECK_MS);
        }
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
        listeners.changed();
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
            lanes.clear();
            bump();
        } finally {
            lock.unlock();
        }
    }

    public boolean dropped() {
        return dropped;
    }

    /** Entries in the ready index, over all lanes (committed, dequeueable now or held). */
    public int readyCount() {
        lock.lock();
        try {
            return lanes.values().stream().mapToInt(l -> l.ready.size()).sum();
        } finally {
            lock.unlock();
        }
    }
}
