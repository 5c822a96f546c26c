package io.aqueduct.engine.store;

import java.security.SecureRandom;

/**
 * Who this engine is among the nodes of a store, chosen at random for each start: it prefixes the
 * engine's message ids and transaction ids, names the node in the attempt ledger and marks its own
 * signals on a shared store. One identity, so that a message id, a transaction id and a ledger row
 * of the same node can be told apart from another node's the same way.
 */
public record NodeIdentity(long value) {

    public static NodeIdentity random() {
        return new NodeIdentity(new SecureRandom().nextLong());
    }

    /** The identity as 16 hex digits (ledger rows, signal payloads, transaction ids). */
    public String tag() {
        return String.format("%016x", value);
    }
}
