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
    /** On a shared store: the last number of the block of sequence numbers this node is using. */
    private long sequenceBlockEnd = -1;
    /** On a shared store: the first numbers of blocks reserved ahead, not yet used (ascending). */
    private final java.util.ArrayDeque<Long> reservedBlocks = new java.util.ArrayDeque<>();
    /** How many blocks the next reservation takes: doubles while the node uses them fast, back to 1 when not. */
    private int blocksPerReservation = 1;
    /** When (System.nanoTime) the last reservation was made. */
    private long lastReservationNanos;
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
                // several nodes number their messages: each takes blocks of the database's sequence
                if (reservedBlocks.isEmpty()) {
                    reserveBlocks();
                }
                next = reservedBlocks.poll();
                sequenceBlockEnd = next + own.dialect().sequenceBlockSize() - 1;
            }
            sequence.set(next);
            return next;
        }
    }

    /**
     * Reserves blocks in a transaction of their own: one while the node enqueues little, more at a
     * time (up to {@link #MAX_BLOCKS_PER_RESERVATION}) while it used the last ones up within a second,
     * so that a busy node (array enqueues of hundreds) does not pay a round trip and a commit every
     * block. Numbers a node reserved and never used are only a gap: nothing relies on the sequence
     * being dense, only on its numbers being unique and increasing on one node.
     */
    private void reserveBlocks() {
        long now = System.nanoTime();
        boolean busy = lastReservationNanos != 0 && now - lastReservationNanos < BUSY_NANOS;
        blocksPerReservation = busy ? Math.min(blocksPerReservation * 2, MAX_BLOCKS_PER_RESERVATION) : 1;
        int blocks = blocksPerReservation;
        long[] first = own.run(c -> {
            long[][] got = new long[1][];
            c.jdbc(conn -> got[0] = own.dialect().reserveSequenceBlocks(conn, blocks));
            return got[0];
        });
        for (long f : first) {
            reservedBlocks.add(f);
        }
        lastReservationNanos = System.nanoTime();
    }

    static final int MAX_BLOCKS_PER_RESERVATION = 32;
    private static final long BUSY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

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
