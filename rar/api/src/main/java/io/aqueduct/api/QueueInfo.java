package io.aqueduct.api;

/** A queue as the catalog shows it (DBA_QUEUES). Retention {@link QueueProperties#INFINITE} = forever. */
public record QueueInfo(String owner, String name, String queueTable, long qid, QueueType queueType,
        int maxRetries, long retryDelaySeconds, boolean enqueueEnabled, boolean dequeueEnabled,
        long retentionSeconds, String comment) {
}
