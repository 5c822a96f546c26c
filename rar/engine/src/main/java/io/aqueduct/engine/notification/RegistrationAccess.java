package io.aqueduct.engine.notification;

import io.aqueduct.engine.queue.QueueMeta;

/** What REGISTER and UNREGISTER ask of the engine's privileges; each refuses with 1031 (INSUFFICIENT_PRIVILEGES). */
public interface RegistrationAccess {
    /** {@code user} registers on {@code queue}: AQ asks that it may dequeue from it. */
    void checkDequeue(String user, QueueMeta queue);

    /**
     * {@code user} replaces or unregisters ({@code what}) a registration {@code registeredBy} made: allowed to
     * that same user, an administrator or a holder of MANAGE_ANY.
     */
    void checkMayChange(String user, String registeredBy, String what);
}
