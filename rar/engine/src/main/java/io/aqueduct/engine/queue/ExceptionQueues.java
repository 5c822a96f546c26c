package io.aqueduct.engine.session;

import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.store.MessageEntity;

/** Where an unserviceable or expired message goes: its own exception queue, else its table's default. */
public final class ExceptionQueues {
    private ExceptionQueues() {
    }

    public static QueueRuntime of(AqueductEngine engine, MessageEntity m, QueueMeta from) {
        if (m.exceptionQueue != null) {
            QueueRuntime own = engine.catalog().queue(m.exceptionQueueSchema + "." + m.exceptionQueue);
            if (own != null && own.meta().isException() && own.meta().table().id() == from.table().id()) {
                return own;
            }
        }
        QueueRuntime fallback = engine.catalog().queue(from.table().owner() + "." + from.table().defaultExceptionQueueName());
        if (fallback == null) {
            throw new IllegalStateException("Queue table " + from.table().qualifiedName() + " has lost its default exception queue");
        }
        return fallback;
    }
}
