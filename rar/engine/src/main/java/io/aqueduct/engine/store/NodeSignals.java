package io.aqueduct.engine.store;

import java.util.function.LongConsumer;

/**
 * Wake-ups between the nodes (JVMs) sharing one store: a node that made messages available in a
 * queue (an enqueue committed, a lock released, a delay ended) tells the others, whose waiting
 * dequeuers look again. A signal carries no data: the database stays the only truth, so a lost
 * signal costs latency (waiters also look again on their own after a short while), never a message.
 */
public interface NodeSignals extends AutoCloseable {
    /** Queue id that means "the catalog changed" (queues created, altered, started, stopped, dropped). */
    long CATALOG = 0;
    /** Queue id that means "signals may have been missed": look at every queue. */
    long ALL = -1;

    /**
     * Starts receiving: {@code receiver} gets the id of each queue another node changed, or
     * {@link #CATALOG} / {@link #ALL}. The long-running loops run where the engine runs its loops
     * ({@code background}: in a container, the resource adapter's WorkManager).
     */
    void start(LongConsumer receiver, Background background);

    /** Tells the other nodes that this node changed a queue; called after the change committed. Never blocks. */
    void publish(long queueId);

    @Override
    void close();
}
