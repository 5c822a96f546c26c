package io.aqueduct.engine.propagation;

/** The Aqueduct store a database link reaches, as propagation uses it: sessions on it. */
public interface LinkedStore extends AutoCloseable {

    /** A session on the linked store, working as {@code user} (over HTTP: as the link's user). */
    LinkSession openSession(String user);

    /** Whether it can still be used (an engine closed under the link is opened again). */
    boolean isOpen();

    /** Lets go of the store: closes it if the link opened it, else leaves it to its owner. */
    @Override
    void close();

    /** Opens the store a link names; the engine's composition root knows how. */
    @FunctionalInterface
    interface Opener {
        /**
         * Opens (or finds, when this JVM has it open already) the store at {@code url}: a JDBC URL
         * or a Derby store directory.
         */
        LinkedStore open(String url, String user, String password);
    }
}
