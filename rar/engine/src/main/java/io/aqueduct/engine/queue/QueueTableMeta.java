package io.aqueduct.engine.queue;

import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.SortOrder;

/** A queue table as the engine keeps it in memory (immutable; replaced when altered). */
public record QueueTableMeta(long id, String owner, String name, PayloadType payloadType, String objectType,
        SortOrder sortOrder, boolean multipleConsumers, MessageGrouping grouping, String comment) {

    public String qualifiedName() {
        return owner + "." + name;
    }

    public String defaultExceptionQueueName() {
        return "AQ$_" + name + "_E";
    }

    public boolean transactionalGrouping() {
        return grouping == MessageGrouping.TRANSACTIONAL;
    }

    public QueueTableInfo info() {
        return new QueueTableInfo(owner, name, payloadType, objectType, sortOrder, multipleConsumers, grouping, comment);
    }
}
