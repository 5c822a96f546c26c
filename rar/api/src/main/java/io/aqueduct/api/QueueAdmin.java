package io.aqueduct.api;

import java.util.List;

/**
 * AQ's administrative interface (DBMS_AQADM). Names are {@code [schema.]name}: letters, digits,
 * {@code _ $ #}, starting with a letter, case-insensitive (stored upper-case); queue and queue
 * table names at most 24 bytes, schema names at most 30. Administrative operations commit on
 * their own, as DDL does in AQ.
 */
public interface QueueAdmin {

    /** Creates a queue table and its default exception queue {@code AQ$_<table>_E}. */
    void createQueueTable(String queueTable, QueueTableProperties properties);

    /** Changes a queue table's comment. */
    void alterQueueTable(String queueTable, String comment);

    /** Drops a queue table; with {@code force} its queues are stopped and dropped first. */
    void dropQueueTable(String queueTable, boolean force);

    void createQueue(String queue, String queueTable, QueueProperties properties);

    /** Changes max_retries, retry_delay, retention_time and comment; null leaves one unchanged. */
    void alterQueue(String queue, Integer maxRetries, Long retryDelaySeconds, Long retentionSeconds, String comment);

    /** Drops a stopped queue and its messages. */
    void dropQueue(String queue);

    /** Enables enqueue and / or dequeue. An exception queue can only be started for dequeue. */
    void startQueue(String queue, boolean enqueue, boolean dequeue);

    /**
     * Disables enqueue and / or dequeue. With {@code wait} the call waits for the transactions
     * working on the queue to end; without it a busy queue is refused (24203).
     */
    void stopQueue(String queue, boolean enqueue, boolean dequeue, boolean wait);

    /**
     * Adds a subscriber to a multi-consumer queue: it receives the messages enqueued from now on
     * for which {@code rule} (a condition on message properties and payload, null = all) is true.
     * At most 1024 subscribers; two never share name, address and protocol.
     */
    void addSubscriber(String queue, Agent subscriber, String rule);

    /** Changes a subscriber's rule (null = every message). */
    void alterSubscriber(String queue, Agent subscriber, String rule);

    /** Removes a subscriber; its pending messages become UNDELIVERABLE to it. */
    void removeSubscriber(String queue, Agent subscriber);

    List<SubscriberInfo> subscribers(String queue);

    QueueTableInfo queueTable(String queueTable);

    QueueInfo queue(String queue);

    List<QueueTableInfo> queueTables();

    List<QueueInfo> queues();
}
