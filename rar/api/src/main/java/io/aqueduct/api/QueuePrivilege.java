package io.aqueduct.api;

/** A privilege on one queue (DBMS_AQADM.GRANT_QUEUE_PRIVILEGE): enqueue, dequeue, or both. */
public enum QueuePrivilege {
    /** Enqueue into the queue (enqueue, array enqueue). */
    ENQUEUE,
    /** Dequeue from the queue in every mode (remove, browse, locked), array dequeue, LISTEN, waits. */
    DEQUEUE,
    /** ENQUEUE and DEQUEUE. */
    ALL
}
