package io.aqueduct.engine.queue;

import io.aqueduct.api.MessageState;
import io.aqueduct.engine.store.MessageEntity;

/**
 * Where an unserviceable or expired message goes, and the one way it is moved there: its own
 * exception queue when it named one of its table, else its table's default one; EXPIRED there.
 */
public final class ExceptionQueues {
    private final Catalog catalog;

    public ExceptionQueues(Catalog catalog) {
        this.catalog = catalog;
    }

    public QueueRuntime of(MessageEntity m, QueueMeta from) {
        if (m.exceptionQueue != null) {
            QueueRuntime own = catalog.queue(m.exceptionQueueSchema + "." + m.exceptionQueue);
            if (own != null && own.meta().isException() && own.meta().table().id() == from.table().id()) {
                return own;
            }
        }
        QueueRuntime fallback = catalog.queue(from.table().owner() + "." + from.table().defaultExceptionQueueName());
        if (fallback == null) {
            throw new IllegalStateException("Queue table " + from.table().qualifiedName() + " has lost its default exception queue");
        }
        return fallback;
    }

    /**
     * Moves the (managed) row to its exception queue as EXPIRED, recording the queue it came from (so
     * that it can be requeued there), in the caller's transaction; returns that queue.
     */
    public QueueRuntime move(MessageEntity m, QueueMeta from) {
        QueueRuntime target = of(m, from);
        if (!from.isException()) {
            m.originalQueueSchema = from.owner();
            m.originalQueue = from.name();
        }
        m.queueId = target.meta().id();
        m.state = MessageState.EXPIRED.code();
        m.timeManagerInfo = null;
        return target;
    }
}
