package io.aqueduct.api;

/** Whether the messages enqueued in one transaction form a group dequeued together. */
public enum MessageGrouping {
    NONE,
    TRANSACTIONAL
}
