package io.aqueduct.api;

/** Where a dequeue looks, relative to the session's position in the queue. */
public enum Navigation {
    /** Reset the position to the start of the queue. */
    FIRST_MESSAGE,
    /** The message after the current position; inside the current group on grouped queues. */
    NEXT_MESSAGE,
    /** The first message of the next transaction group. */
    NEXT_TRANSACTION
}
