package io.aqueduct.engine.queue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The queue tables and queues of the store, in memory; the administration keeps it in step. */
public final class Catalog {
    private final Map<String, QueueTableMeta> tables = new ConcurrentHashMap<>();
    private final Map<String, QueueRuntime> queues = new ConcurrentHashMap<>();
    private final Map<Long, QueueRuntime> queuesById = new ConcurrentHashMap<>();
    private final Listeners listeners = new Listeners();
    private volatile java.util.function.BooleanSupplier refresher = () -> false;
    /** The store's dialect (null: a store of one JVM, in tests): a shared store's queues select in the database. */
    private final io.aqueduct.engine.store.Dialect dialect;
    private final java.util.function.LongConsumer publisher;

    /** The catalog of a store one JVM owns: queues keep ready indexes in memory. */
    public Catalog() {
        this(null, null);
    }

    /** The catalog of a store; on a shared one ({@code dialect.shared()}) changes are published to the other nodes. */
    public Catalog(io.aqueduct.engine.store.Dialect dialect, java.util.function.LongConsumer publisher) {
        this.dialect = dialect;
        this.publisher = dialect != null && dialect.shared() ? publisher : null;
    }

    /**
     * Re-reads the catalog from the store when several nodes share it (another node may have changed
     * it); returns whether it did. A lookup that misses asks for it before it reports "no such queue".
     */
    public boolean refresh() {
        return refresher.getAsBoolean();
    }

    /** What {@link #refresh} does (set once by whoever loads the catalog). */
    public void refresher(java.util.function.BooleanSupplier refresher) {
        this.refresher = refresher;
    }

    /** LISTEN's waiters, woken by a change in any queue. */
    public Listeners listeners() {
        return listeners;
    }

    public QueueTableMeta table(String qualifiedName) {
        return tables.get(qualifiedName);
    }

    public QueueRuntime queue(String qualifiedName) {
        return queues.get(qualifiedName);
    }

    public QueueRuntime queue(long qid) {
        return queuesById.get(qid);
    }

    public void putTable(QueueTableMeta t) {
        tables.put(t.qualifiedName(), t);
    }

    public void removeTable(String qualifiedName) {
        tables.remove(qualifiedName);
    }

    public QueueRuntime putQueue(QueueMeta q) {
        QueueRuntime existing = queuesById.get(q.id());
        if (existing != null) {
            existing.meta(q);
            return existing;
        }
        QueueRuntime r = new QueueRuntime(q, listeners, dialect, publisher);
        queues.put(q.qualifiedName(), r);
        queuesById.put(q.id(), r);
        queueAdded.accept(r);
        return r;
    }

    public void removeQueue(QueueRuntime r) {
        // only if the name still maps to this runtime: a refresh may already have put a new queue under it
        queues.remove(r.meta().qualifiedName(), r);
        queuesById.remove(r.meta().id(), r);
        r.markDropped();
        queueRemoved.accept(r);
    }

    private volatile java.util.function.Consumer<QueueRuntime> queueAdded = r -> { };
    private volatile java.util.function.Consumer<QueueRuntime> queueRemoved = r -> { };

    /**
     * Who hears of queues entering and leaving the catalog (the engine's MBeans), added to those before; set
     * before the catalog loads. A listener must not throw.
     */
    public void onQueues(java.util.function.Consumer<QueueRuntime> added, java.util.function.Consumer<QueueRuntime> removed) {
        this.queueAdded = this.queueAdded.andThen(added);
        this.queueRemoved = this.queueRemoved.andThen(removed);
    }

    public Collection<QueueRuntime> queues() {
        return queuesById.values();
    }

    public Collection<QueueTableMeta> tables() {
        return tables.values();
    }

    public List<QueueRuntime> queuesOf(long queueTableId) {
        List<QueueRuntime> out = new ArrayList<>();
        for (QueueRuntime r : queuesById.values()) {
            if (r.meta().table().id() == queueTableId) {
                out.add(r);
            }
        }
        return out;
    }
}
