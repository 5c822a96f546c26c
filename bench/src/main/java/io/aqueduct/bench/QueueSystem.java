package io.aqueduct.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * One queue implementation under test, on one store. A system is opened on a store (Derby: in a
 * fresh, empty directory; a server: its benchmark place, which the system empties of its own
 * tables first), hands out producers and consumers (each one thread's own session / connection)
 * and is closed at the end of the scenario. Payloads are opaque {@code byte[]}; the harness keeps a
 * unique counter in their first 8 bytes (see {@link Payloads}).
 */
public interface QueueSystem extends AutoCloseable {

    /** The system's name in the BENCH lines ({@code aqueduct}, {@code raw-jdbc}). */
    String name();

    /**
     * Creates the queue on {@code store}: on Derby a database in {@code dir} (empty, created by the
     * harness); on a server the system first drops what a previous run of it left there.
     */
    void open(BenchStore store, Path dir) throws Exception;

    Producer producer() throws Exception;

    Consumer consumer() throws Exception;

    @Override
    void close() throws Exception;

    /** Enqueues; every call ends with its own commit. On failure the transaction is rolled back. */
    interface Producer extends AutoCloseable {
        /** One message, one commit. */
        void enqueueCommit(byte[] payload) throws Exception;

        /** All messages in one call / transaction, one commit. */
        void enqueueBatchCommit(List<byte[]> payloads) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** Dequeues in REMOVE mode; every call that got something ends with its own commit. */
    interface Consumer extends AutoCloseable {
        /** One message, no wait; null when the queue is empty. */
        byte[] dequeueCommit() throws Exception;

        /** One message, waiting up to about a second for one; null when none came. */
        byte[] dequeueWaitCommit() throws Exception;

        /** Up to {@code max} messages in one transaction, no wait; empty when the queue is empty. */
        List<byte[]> dequeueBatchCommit(int max) throws Exception;

        /** Lost races and retried lock conflicts so far, or -1 when the system does not count them. */
        default long conflicts() {
            return -1;
        }

        @Override
        void close() throws Exception;
    }
}
