package io.aqueduct.api;

/** A queue table as the catalog shows it (DBA_QUEUE_TABLES). */
public record QueueTableInfo(String owner, String name, PayloadType payloadType, String objectType,
        SortOrder sortOrder, boolean multipleConsumers, MessageGrouping messageGrouping, String comment) {
}
