package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqException;
import io.aqueduct.engine.session.PropagatedMessage;
import java.util.List;

/**
 * Propagation's conversation with the store a database link reaches: another store of this JVM's
 * engines, or an Aqueduct servlet over HTTP. Each call is one transaction there, committed when it
 * returns (thrown: nothing of it happened there, or its outcome is unknown — the receipts decide at
 * the next batch).
 */
public interface LinkSession extends AutoCloseable {

    /**
     * A message for a destination queue, with the receipt that keeps it from arriving twice, and the
     * source transaction group it belongs to ({@code sourceGroup}, the sender's only: where a batch
     * may be cut into several requests without splitting a group; null where it arrived).
     */
    record Arrival(String receiptId, String queue, PropagatedMessage message, String sourceGroup) {
        Arrival withReceipt(String id) {
            return new Arrival(id, queue, message, sourceGroup);
        }
    }

    /** What became of an arrival: delivered now, delivered by an earlier batch (a receipt was there), or refused. */
    record Arrived(boolean present, AqException refused) {
        static final Arrived DELIVERED = new Arrived(false, null);
        static final Arrived PRESENT = new Arrived(true, null);

        boolean delivered() {
            return refused == null;
        }
    }

    /** A receipt left at the destination: its id and when it was written. */
    record Receipt(String id, long createdMs) {
    }

    /**
     * Delivers the arrivals not delivered before (no receipt of theirs is there), each with its
     * receipt, in one committed transaction; the outcome of each, in order. {@code source} names the
     * source queue and link, for the sweep.
     */
    List<Arrived> deliver(String source, List<Arrival> arrivals);

    /**
     * Delivers buffered arrivals (arriving BUFFERED, in the destination engine's memory) not delivered
     * before (their receipt, kept in that memory, is not there), in order; the outcome of each. Thrown:
     * those before the failure may have arrived, with their receipts.
     */
    List<Arrived> deliverBuffered(List<Arrival> arrivals);

    /** Removes the in-memory receipts of buffered deliveries the source has recorded. */
    void forgetBuffered(List<String> receiptIds);

    /** Removes receipts whose work is done (the source recorded the batch), committed. */
    void forget(List<String> receiptIds);

    /** Up to {@code max} receipts {@code source} left there, in id order after {@code after} ("" for the first). */
    List<Receipt> receipts(String source, String after, int max);

    boolean isClosed();

    @Override
    void close();
}
