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
    private final Map<String, io.aqueduct.engine.transform.Transformation> transformations = new ConcurrentHashMap<>();
    /** Non-null on a store several nodes share: queues select in the database. */
    private final SharedStoreSelection shared;
    private final java.util.function.LongConsumer publisher;

    /** The catalog of a store one JVM owns: queues keep ready indexes in memory. */
    public Catalog() {
        this(null, null);
    }

    /** The catalog of a store; on a shared one ({@code dialect.shared()}) changes are published to the other nodes. */
    public Catalog(io.aqueduct.engine.store.Dialect dialect, java.util.function.LongConsumer publisher) {
        this.shared = dialect != null && dialect.shared() ? new SharedStoreSelection(dialect) : null;
        this.publisher = this.shared == null ? null : publisher;
    }

    /** A transformation by qualified name, or null. */
    public io.aqueduct.engine.transform.Transformation transformation(String qualifiedName) {
        return transformations.get(qualifiedName);
    }

    public void putTransformation(io.aqueduct.engine.transform.Transformation t) {
        transformations.put(t.qualifiedName(), t);
    }

    public void removeTransformation(String qualifiedName) {
        transformations.remove(qualifiedName);
    }

    public Collection<io.aqueduct.engine.transform.Transformation> transformations() {
        return transformations.values();
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
        QueueRuntime r = new QueueRuntime(q, listeners, shared, publisher);
        queues.put(q.qualifiedName(), r);
        queuesById.put(q.id(), r);
        return r;
    }

    public void removeQueue(QueueRuntime r) {
        queues.remove(r.meta().qualifiedName());
        queuesById.remove(r.meta().id());
        r.markDropped();
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
