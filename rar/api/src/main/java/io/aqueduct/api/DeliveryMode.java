package io.aqueduct.api;

/**
 * AQ's delivery mode (DBMS_AQ.PERSISTENT, BUFFERED, PERSISTENT_OR_BUFFERED): whether a message is
 * written to the store or kept in the memory of the engine that enqueued it (buffered messaging,
 * docs/buffered.md).
 */
public enum DeliveryMode {
    /** Written to the store in the caller's transaction (or its own, IMMEDIATE): it survives a restart. The default. */
    PERSISTENT,
    /**
     * Kept in the memory of this engine only: visible at once, part of no transaction, much faster, and
     * lost when the JVM stops. Enqueue with {@link Visibility#IMMEDIATE}.
     */
    BUFFERED,
    /** Dequeue only: the next message in the queue's order, whether persistent or buffered. */
    PERSISTENT_OR_BUFFERED
}
