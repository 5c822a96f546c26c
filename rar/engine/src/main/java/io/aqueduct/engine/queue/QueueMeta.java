package io.aqueduct.engine.queue;

import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueType;

/** A queue's settings as the engine keeps them in memory (immutable; replaced when altered). */
public record QueueMeta(long id, String owner, String name, QueueTableMeta table, QueueType type, int maxRetries,
        long retryDelaySeconds, long retentionSeconds, boolean enqueueEnabled, boolean dequeueEnabled, String comment) {

    public String qualifiedName() {
        return owner + "." + name;
    }

    public boolean isException() {
        return type == QueueType.EXCEPTION;
    }

    /** The state in which a message of this queue can be dequeued: READY, or EXPIRED in an exception queue. */
    public int availableState() {
        return isException() ? io.aqueduct.api.MessageState.EXPIRED.code() : io.aqueduct.api.MessageState.READY.code();
    }

    public QueueInfo info() {
        return new QueueInfo(owner, name, table.name(), id, type, maxRetries, retryDelaySeconds, enqueueEnabled,
                dequeueEnabled, retentionSeconds, comment);
    }
}
