package io.aqueduct.api;

/** What a dequeue does with the message it finds. */
public enum DequeueMode {
    /** Read the message, leave it available to everyone. */
    BROWSE,
    /** Read the message and hide it from other dequeuers until this transaction ends. */
    LOCKED,
    /** Read the message and consume it (the default). */
    REMOVE,
    /** Consume the message without reading its payload. */
    REMOVE_NODATA
}
