package io.aqueduct.api;

/** Whether an operation is part of the caller's transaction or commits on its own. */
public enum Visibility {
    /** Part of the caller's transaction: visible when it commits, gone if it rolls back (the default). */
    ON_COMMIT,
    /** In a transaction of its own, committed before the call returns. */
    IMMEDIATE
}
