package io.aqueduct.engine.session;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;

/**
 * The attempt journal of a Derby store: what transactions in flight hold, in a memory-mapped file
 * beside the database, so that a JVM killed mid-transaction leaves a record the next start reads.
 * A REMOVE attempt is written before the message is handed out and cleared when its transaction
 * ends; an XA branch writes its Xid and the messages it enqueued before it is prepared.
 *
 * <p>Writes go to the page cache, never forced to disk: they cost no fsync and survive kill -9 (the
 * kernel keeps the dirty pages), but an operating-system crash may lose the last ones, as
 * PostgreSQL's UNLOGGED attempt ledger loses its rows in a server crash. A lost record means one
 * failed attempt not counted, never a message lost. An in-memory Derby store keeps the journal in
 * memory: nothing of it outlives the JVM, and nothing needs to.
 */
public final class AttemptJournal implements AutoCloseable {
    static final byte FREE = 0;
    /** A REMOVE attempt in flight: queue id, msgid, consumer. */
    public static final byte ATTEMPT = 1;
    /** A message an XA branch enqueued, written when the branch prepares: queue id, msgid. */
    static final byte ENQUEUED = 2;
    /** An XA branch about to prepare: its Xid. */
    static final byte PREPARED = 3;

    private static final int SLOT = 512;
    private static final int INITIAL_SLOTS = 1024;
    private static final int MAX_CONSUMER_BYTES = SLOT - 64;
    private static final int XID_PART = 64;

    private final FileChannel channel;
    private ByteBuffer buffer;
    private int slots;
    private final BitSet used = new BitSet();
    private final List<Entry> leftBehind = new ArrayList<>();

    /** A record: what kind, which transaction, and what it holds. */
    public record Entry(int slot, byte kind, long tx, long queueId, String msgid, String consumer, XidKey xid) {
    }

    private AttemptJournal(FileChannel channel, ByteBuffer buffer) {
        this.channel = channel;
        this.buffer = buffer;
        this.slots = buffer.capacity() / SLOT;
    }

    /** The journal in {@code file}, created when absent; what an earlier JVM left in it is read now. */
    public static AttemptJournal open(Path file) {
        try {
            RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
            FileChannel ch = raf.getChannel();
            // one engine per Derby store: a second one (another adapter in this JVM) would read the first's
            // attempts in flight as left behind by a crash, and two ready indexes would disagree
            java.nio.channels.FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                ch.close();
                throw new AqException(AqError.STORE_FAILURE, "The Derby store " + file.getParent() + " is already open by"
                        + " another Aqueduct engine (another resource adapter in this server?). Give each its own store"
                        + " directory, or share a PostgreSQL or MariaDB store between them.");
            }
            long size = Math.max(ch.size(), (long) INITIAL_SLOTS * SLOT);
            size -= size % SLOT;
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
            AttemptJournal j = new AttemptJournal(ch, map);
            j.readLeftBehind();
            return j;
        } catch (IOException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot open the Aqueduct attempt journal " + file + ": "
                    + e.getMessage() + ". Check that the store's directory is writable.", e);
        }
    }

    /** A journal in memory (a store that does not outlive the JVM). */
    public static AttemptJournal inMemory() {
        return new AttemptJournal(null, ByteBuffer.allocate(INITIAL_SLOTS * SLOT));
    }

    private void readLeftBehind() {
        for (int i = 0; i < slots; i++) {
            int at = i * SLOT;
            byte kind = buffer.get(at);
            if (kind == FREE) {
                continue;
            }
            if (kind != ATTEMPT && kind != ENQUEUED && kind != PREPARED) {
                buffer.put(at, FREE); // not ours (a torn write of a crashed machine): nothing to learn from it
                continue;
            }
            used.set(i);
            long tx = buffer.getLong(at + 1);
            if (kind == PREPARED) {
                leftBehind.add(new Entry(i, kind, tx, 0, null, null, readXid(at + 9)));
            } else {
                long queueId = buffer.getLong(at + 9);
                String msgid = text(at + 17, 32);
                short n = buffer.getShort(at + 49);
                String consumer = n < 0 ? null : text(at + 51, n);
                leftBehind.add(new Entry(i, kind, tx, queueId, msgid, consumer, null));
            }
        }
    }

    /** The records an earlier JVM left behind (read once, at open). */
    public List<Entry> leftBehind() {
        return List.copyOf(leftBehind);
    }

    /** Puts a REMOVE attempt on record; returns its slot. */
    public synchronized int attempt(long tx, long queueId, String msgid, String consumer) {
        int slot = allocate();
        int at = slot * SLOT;
        buffer.putLong(at + 1, tx);
        buffer.putLong(at + 9, queueId);
        putText(at + 17, msgid, 32);
        if (consumer == null) {
            buffer.putShort(at + 49, (short) -1);
        } else {
            byte[] b = consumer.getBytes(StandardCharsets.UTF_8);
            if (b.length > MAX_CONSUMER_BYTES) {
                throw new AqException(AqError.NAME_TOO_LONG, "Consumer name of " + b.length + " bytes: the most is "
                        + MAX_CONSUMER_BYTES + ".");
            }
            buffer.putShort(at + 49, (short) b.length);
            buffer.put(at + 51, b);
        }
        buffer.put(at, ATTEMPT); // the kind last: a record is whole once it has one
        return slot;
    }

    /** Puts a message a branch enqueued on record (before the branch prepares); returns its slot. */
    public synchronized int enqueued(long tx, long queueId, String msgid) {
        int slot = allocate();
        int at = slot * SLOT;
        buffer.putLong(at + 1, tx);
        buffer.putLong(at + 9, queueId);
        putText(at + 17, msgid, 32);
        buffer.putShort(at + 49, (short) -1);
        buffer.put(at, ENQUEUED);
        return slot;
    }

    /** Puts a branch's Xid on record (before it prepares); returns its slot. */
    public synchronized int prepared(long tx, XidKey xid) {
        if (xid.globalTransactionId().length > XID_PART || xid.branchQualifier().length > XID_PART) {
            throw new IllegalArgumentException("An Xid part is longer than 64 bytes");
        }
        int slot = allocate();
        int at = slot * SLOT;
        buffer.putLong(at + 1, tx);
        int p = at + 9;
        buffer.putInt(p, xid.formatId());
        buffer.put(p + 4, (byte) xid.globalTransactionId().length);
        buffer.put(p + 5, xid.globalTransactionId());
        buffer.put(p + 5 + XID_PART, (byte) xid.branchQualifier().length);
        buffer.put(p + 6 + XID_PART, xid.branchQualifier());
        buffer.put(at, PREPARED);
        return slot;
    }

    /** The records' transactions ended and their outcome is applied: the slots are free again. */
    public synchronized void free(Collection<Integer> slotsToFree) {
        for (int slot : slotsToFree) {
            if (used.get(slot)) {
                buffer.put(slot * SLOT, FREE);
                used.clear(slot);
            }
        }
    }

    /** Records in use (tests). */
    public synchronized int inUse() {
        return used.cardinality();
    }

    private int allocate() {
        int slot = used.nextClearBit(0);
        if (slot >= slots) {
            grow();
        }
        used.set(slot);
        return slot;
    }

    private void grow() {
        int more = slots * 2;
        if (channel == null) {
            ByteBuffer bigger = ByteBuffer.allocate(more * SLOT);
            bigger.put(buffer.duplicate().clear());
            buffer = bigger;
        } else {
            try {
                buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, (long) more * SLOT);
            } catch (IOException e) {
                throw new AqException(AqError.STORE_FAILURE, "The Aqueduct attempt journal cannot grow: " + e.getMessage(), e);
            }
        }
        slots = more;
    }

    private XidKey readXid(int p) {
        int format = buffer.getInt(p);
        byte[] gtrid = new byte[Math.min(XID_PART, buffer.get(p + 4) & 0xff)];
        buffer.get(p + 5, gtrid);
        byte[] bqual = new byte[Math.min(XID_PART, buffer.get(p + 5 + XID_PART) & 0xff)];
        buffer.get(p + 6 + XID_PART, bqual);
        return new XidKey(format, gtrid, bqual);
    }

    private String text(int at, int length) {
        byte[] b = new byte[Math.max(0, Math.min(length, MAX_CONSUMER_BYTES))];
        buffer.get(at, b);
        return new String(b, StandardCharsets.UTF_8).trim();
    }

    private void putText(int at, String s, int width) {
        byte[] b = new byte[width];
        java.util.Arrays.fill(b, (byte) ' ');
        byte[] src = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(src, 0, b, 0, Math.min(width, src.length));
        buffer.put(at, b);
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                if (buffer instanceof MappedByteBuffer m) {
                    m.force(); // a clean stop leaves nothing for the kernel to write later
                }
                channel.close();
            } catch (IOException e) {
                // the kernel still writes the pages back
            }
        }
    }
}
