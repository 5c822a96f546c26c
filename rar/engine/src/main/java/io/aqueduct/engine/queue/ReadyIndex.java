package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.store.StoreConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The selection of a store one JVM owns: a ready index of the messages that can be dequeued now,
 * in dequeue order (what Oracle's message cache does for TxEventQ). A single-consumer queue has one
 * lane; a multi-consumer queue a lane per consumer. Dequeuers pick and claim from a lane under the
 * queue's lock, so the database is asked for a message by key, never searched.
 */
final class ReadyIndex implements DequeueSelection {
    private static final String SINGLE = "";

    private final Comparator<ReadyEntry> order;
    /** The queue's lock: a change here and the waiters' wake-up are one step. */
    private final ReentrantLock lock;
    /** Tells the queue's waiters of a change; called holding the lock. */
    private final Runnable changed;
    private final Map<String, Lane> lanes = new HashMap<>();

    /** One consumer's messages (the only lane of a single-consumer queue). */
    private final class Lane {
        final NavigableSet<ReadyEntry> ready = new TreeSet<>(order);
        final Map<String, ReadyEntry> byId = new HashMap<>();
        /** Transaction groups being consumed, by group: consumed by one transaction at a time. */
        final Map<Long, Object> groupOwners = new HashMap<>();
    }

    ReadyIndex(Comparator<ReadyEntry> order, ReentrantLock lock, Runnable changed) {
        this.order = order;
        this.lock = lock;
        this.changed = changed;
    }

    private Lane lane(String consumer) {
        return lanes.computeIfAbsent(consumer == null ? SINGLE : consumer, k -> new Lane());
    }

    @Override
    public QueueRuntime.Pick pick(QueueMeta meta, QueueRuntime.Request r) {
        lock.lock();
        try {
            Lane lane = lane(r.consumer());
            if (r.msgid() != null) {
                return pickById(meta, lane, r);
            }
            return CandidateWalk.walk(meta, r, new CandidateWalk.Candidates() {
                @Override
                public Iterable<ReadyEntry> after(ReadyEntry position, Long onlyGroup, Long notGroup) {
                    return position == null ? lane.ready : lane.ready.tailSet(position, false);
                }

                @Override
                public boolean available(ReadyEntry e) {
                    return ReadyIndex.available(meta, lane, e, r);
                }

                @Override
                public boolean take(ReadyEntry e) {
                    claim(meta, lane, e, r);
                    return true;
                }
            });
        } finally {
            lock.unlock();
        }
    }

    private QueueRuntime.Pick pickById(QueueMeta meta, Lane lane, QueueRuntime.Request r) {
        ReadyEntry e = lane.byId.get(r.msgid());
        if (e == null || e.expiresAt <= r.now()) {
            return new QueueRuntime.Nothing();
        }
        if (e.claimant != null && e.claimant != r.claimant()
                && !(r.mode() == DequeueMode.BROWSE && e.claim == ReadyEntry.Claim.LOCKED)) {
            return new QueueRuntime.Held();
        }
        if (e.claimant == r.claimant() && e.claim == ReadyEntry.Claim.REMOVE) {
            return new QueueRuntime.Nothing();
        }
        claim(meta, lane, e, r);
        return new QueueRuntime.Found(e);
    }

    @Override
    public boolean hasAvailable(QueueMeta meta, String consumer, Predicate<String> correlation, long now,
            Supplier<StoreConnection> probe) {
        lock.lock();
        try {
            Lane lane = lane(consumer);
            QueueRuntime.Request look = new QueueRuntime.Request(new Object(), consumer, DequeueMode.REMOVE,
                    Navigation.FIRST_MESSAGE, null, null, correlation, null, now, null);
            for (ReadyEntry e : lane.ready) {
                if (e.expiresAt > now && (correlation == null || (e.correlation != null && correlation.test(e.correlation)))
                        && available(meta, lane, e, look)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Free for this request: nobody holds it (nor its group), or it only browses past a LOCKED hold. */
    private static boolean available(QueueMeta meta, Lane lane, ReadyEntry e, QueueRuntime.Request r) {
        boolean browse = r.mode() == DequeueMode.BROWSE;
        if (e.claimant == null) {
            Object groupOwner = meta.table().transactionalGrouping() ? lane.groupOwners.get(e.groupSeq) : null;
            return browse || groupOwner == null || groupOwner == r.claimant();
        }
        if (e.claimant == r.claimant()) {
            return e.claim == ReadyEntry.Claim.LOCKED; // consumed by this transaction already otherwise
        }
        return browse && e.claim == ReadyEntry.Claim.LOCKED;
    }

    private static void claim(QueueMeta meta, Lane lane, ReadyEntry e, QueueRuntime.Request r) {
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

    @Override
    public List<ReadyEntry> claimForTimeManager(ReadyEntry row, Object timeManager) {
        lock.lock();
        try {
            List<ReadyEntry> parts = new ArrayList<>();
            for (Lane lane : lanes.values()) {
                ReadyEntry e = lane.byId.get(row.msgid);
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

    @Override
    public void addAll(List<ReadyEntry> entries) {
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
            changed.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void remove(String msgid, String consumer) {
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

    @Override
    public List<ReadyEntry> dropLane(String consumer) {
        lock.lock();
        try {
            Lane lane = lanes.remove(consumer);
            changed.run();
            return lane == null ? List.of() : new ArrayList<>(lane.ready);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void resynchronize(List<ReadyEntry> inTable) {
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
            changed.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void release(ReadyEntry e, Object claimant) {
        lock.lock();
        try {
            if (e.claimant == claimant) {
                e.claimant = null;
                e.claim = null;
                changed.run();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
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

    @Override
    public void transactionEnded(Object claimant) {
        lock.lock();
        try {
            for (Lane lane : lanes.values()) {
                lane.groupOwners.values().removeIf(owner -> owner == claimant);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void clear() {
        lock.lock();
        try {
            lanes.clear();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int indexedCount() {
        lock.lock();
        try {
            return lanes.values().stream().mapToInt(l -> l.ready.size()).sum();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long recheckWithin(long millis) {
        return millis; // every change here wakes the waiters
    }
}
