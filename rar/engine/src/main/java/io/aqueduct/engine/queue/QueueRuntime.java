package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.StoreConnection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A queue at run time: its settings, its subscribers, its dequeue selection and its waiters.
 * Selection is one seam ({@link DequeueSelection}): on a store of one JVM a ready index in memory
 * ({@link ReadyIndex}), on a store several nodes share the database ({@link SharedStoreSelection}),
 * where a change this node makes available is published to the other nodes and waiters look again
 * at least every second. Blocked dequeuers wait here and are woken when something changes.
 */
public final class QueueRuntime {
    private volatile QueueMeta meta;
    private volatile List<Subscriber> subscribers = List.of();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Listeners listeners;
    private final DequeueSelection selection;
    /** Transactions that enqueued into or dequeued from this queue and have not ended yet. */
    private int activeTransactions;
    private volatile boolean dropped;
    /** Counts changes, so that a waiter never misses one that came between its look and its wait. */
    private long version;

    /** A queue of a store one JVM owns. */
    public QueueRuntime(QueueMeta meta, Listeners listeners) {
        this(meta, listeners, null, null);
    }

    /** A queue of the store {@code dialect} speaks to; on a shared one, {@code publisher} tells the other nodes of a change. */
    QueueRuntime(QueueMeta meta, Listeners listeners, Dialect dialect, LongConsumer publisher) {
        this.listeners = listeners;
        this.meta = meta;
        this.selection = dialect != null && dialect.shared()
                ? new SharedStoreSelection(dialect, this::wakeAll, () -> publisher.accept(this.meta.id()))
                : new ReadyIndex(ReadyEntry.order(meta.table().sortOrder()), lock, this::bump);
    }

    private final QueueMetrics metrics = new QueueMetrics();

    /** What this queue's transactions did on this engine since it started. */
    public QueueMetrics metrics() {
        return metrics;
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

    /** {@code row}: the message as its claim read it, when the claim read it whole (else null: read it). */
    public record Found(ReadyEntry entry, io.aqueduct.engine.store.MessageEntity row) implements Pick {
        public Found(ReadyEntry entry) {
            this(entry, null);
        }
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
     * (which may read the store) is tested through {@link Request#condition()}.
     */
    public Pick pick(Request r) {
        return selection.pick(meta, r);
    }

    /** A message a take consumed, with its row as the store gave it. */
    public record Taken(ReadyEntry entry, io.aqueduct.engine.store.MessageEntity row) {
    }

    /**
     * Can plain REMOVE dequeues {@link #take} here: lock, consume and read up to an array's worth at
     * the head of the queue in a few statements? On a shared store ({@link Dialect#takes()}); the
     * ready index claims in memory.
     */
    public boolean takes() {
        return selection instanceof SharedStoreSelection shared && shared.takes();
    }

    /**
     * Consumes up to {@code max} available messages of a single-consumer queue after {@code after}
     * (from the head when null), in dequeue order, on the transaction of {@code connection}: the
     * plain REMOVE dequeue without id, correlation, condition, group or retention ({@link #takes()}).
     * {@code cursor} is the session's for this position: what a single-message take read ahead.
     */
    public List<Taken> take(StoreConnection connection, ReadyEntry after, long now, int max, TakeCursor cursor) {
        return ((SharedStoreSelection) selection).take(meta, connection, after, now, max, cursor);
    }

    /**
     * Is there a message a new transaction of {@code consumer} could dequeue now (waiting without
     * claiming)? {@code probe} gives a connection of the caller's outside its transaction, where a
     * look needs one (a shared store).
     */
    public boolean hasAvailable(String consumer, Predicate<String> correlation, long now, Supplier<StoreConnection> probe) {
        return selection.hasAvailable(meta, consumer, correlation, now, probe);
    }

    /** See {@link DequeueSelection#claimForTimeManager}. */
    public List<ReadyEntry> claimForTimeManager(ReadyEntry row, Object timeManager) {
        return selection.claimForTimeManager(row, timeManager);
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
        selection.addAll(entries);
    }

    /** One consumer's part of a message is gone for good (removal committed, moved, purged). */
    public void remove(ReadyEntry e) {
        selection.remove(e.msgid, e.consumer);
    }

    public void remove(String msgid, String consumer) {
        selection.remove(msgid, consumer);
    }

    /** A consumer is gone (subscriber removed): it leaves the selection; returns what it had pending. */
    public List<ReadyEntry> dropLane(String consumer) {
        return selection.dropLane(consumer);
    }

    /**
     * Brings the selection in line with the table after work the engine did not see (a branch
     * recovered after a restart): adds what is missing, drops what is gone, leaves held messages be.
     */
    public void resynchronize(List<ReadyEntry> inTable) {
        selection.resynchronize(inTable);
    }

    /** The holder's transaction ended without consuming the message: it is available again. */
    public void release(ReadyEntry e, Object claimant) {
        selection.release(e, claimant);
    }

    /** Hands a held message to another holder (a rolled-back dequeue to its retry accounting). */
    public void transfer(ReadyEntry e, Object from, Object to) {
        selection.transfer(e, from, to);
    }

    /** The transaction ended: the groups it was consuming are free for others. */
    public void transactionEnded(Object claimant) {
        selection.transactionEnded(claimant);
        lock.lock();
        try {
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

    /** The longest a waiter may sleep before it looks again (see {@link DequeueSelection#recheckWithin}). */
    public long recheckWithin(long millis) {
        return selection.recheckWithin(millis);
    }

    /** Waits until the queue changed since {@code seen}, or {@code millis} pass. */
    public void awaitChange(long seen, long millis) throws InterruptedException {
        millis = selection.recheckWithin(millis);
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
            selection.clear();
            bump();
        } finally {
            lock.unlock();
        }
    }

    public boolean dropped() {
        return dropped;
    }

    /** Entries in the ready index, over all lanes (committed, dequeueable now or held); 0 where the database selects. */
    public int readyCount() {
        return selection.indexedCount();
    }
}
