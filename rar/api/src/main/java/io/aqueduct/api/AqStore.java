package io.aqueduct.api;

/**
 * An open Aqueduct store in this JVM: queue sessions, administration, and {@link #close()} to shut
 * it down. {@link AqStores#open(java.util.Map)} gives one to code that does not compile against the
 * engine (the JMS provider's JNDI context); in Java SE the engine itself is one.
 */
public interface AqStore extends AqConnectionFactory, AutoCloseable {

    /** The administrative interface (AQ's DBMS_AQADM); each operation commits on its own. */
    QueueAdmin admin();

    /**
     * Binds the in-JVM target of the registrations whose address is {@code java:<name>}: from now on
     * their notifications go to {@code listener} (one bound name per store and JVM; binding again
     * replaces it). Registrations are stored but listeners are not: bind them again after a restart.
     * On a shared store a {@code java:} notification is delivered only by a node that has its name bound.
     */
    void bindNotificationListener(String name, AqNotificationListener listener);

    /** Unbinds {@code name}; its notifications wait (RELIABLE) or are dropped until it is bound again. */
    void unbindNotificationListener(String name);

    /** Shuts the store down; open sessions' work is rolled back. Closing twice does nothing. */
    @Override
    void close();
}
