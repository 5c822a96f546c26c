package io.aqueduct.api;

/** A privilege on every queue (DBMS_AQADM.GRANT_SYSTEM_PRIVILEGE). */
public enum SystemPrivilege {
    /** Enqueue into any queue. */
    ENQUEUE_ANY,
    /** Dequeue from any queue. */
    DEQUEUE_ANY,
    /** Every administrative operation on any schema's queue tables, queues and transformations, agents and links. */
    MANAGE_ANY
}
