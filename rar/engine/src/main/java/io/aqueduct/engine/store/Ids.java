package io.aqueduct.engine.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The numbers and ids an engine hands out: message sequence numbers (unique in the store,
 * increasing in enqueue order on this node), message ids and transaction ids (unique without asking
 * the database: this node's identity and a counter).
 */
public final class Ids {
    private final NodeIdentity node;
    private final OwnTransactions own;
    private final AtomicLong sequence = new AtomicLong();
    /** On a shared store: the last number of the block of sequence numbers this node reserved. */
    private long sequenceBlockEnd = -1;
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong messages = new AtomicLong();

    public Ids(NodeIdentity node, OwnTransactions own) {
        this.node = node;
        this.own = own;
    }

    /** On a store of one JVM: numbering goes on after the highest sequence the store holds. */
    public void continueAfter(long highestSequence) {
        sequence.set(highestSequence);
    }

    public long nextSequence() {
        if (!own.dialect().shared()) {
            return sequence.incrementAndGet();
        }
        synchronized (sequence) {
            long next = sequence.get() + 1;
            if (next > sequenceBlockEnd) {
                // several nodes number their messages: each takes a block of the database's sequence at a time
                next = own.run(c -> {
                    long[] first = new long[1];
                    c.jdbc(conn -> first[0] = own.dialect().reserveSequenceBlock(conn));
                    return first[0];
                });
                sequenceBlockEnd = next + own.dialect().sequenceBlockSize() - 1;
            }
            sequence.set(next);
            return next;
        }
    }

    public String nextTransactionId() {
        return node.tag() + "." + transactions.incrementAndGet();
    }

    /** 16 bytes: the node's identity and a counter. */
    public byte[] nextMessageId() {
        long n = messages.incrementAndGet();
        long prefix = node.value();
        byte[] id = new byte[16];
        for (int i = 0; i < 8; i++) {
            id[i] = (byte) (prefix >>> (56 - 8 * i));
            id[8 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return id;
    }
}
