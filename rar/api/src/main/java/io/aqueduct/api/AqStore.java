package io.aqueduct.api;

/**
 * An open Aqueduct store in this JVM: queue sessions, administration, and {@link #close()} to shut
 * it down. {@link AqStores#open(java.util.Map)} gives one to code that does not compile against the
 * engine (the JMS provider's JNDI context); in Java SE the engine itself is one.
 */
public interface AqStore extends AqConnectionFactory, AutoCloseable {

    /** The administrative interface (AQ's DBMS_AQADM); each operation commits on its own. */
    QueueAdmin admin();

    /** Shuts the store down; open sessions' work is rolled back. Closing twice does nothing. */
    @Override
    void close();
}
