package io.aqueduct.connector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import javax.transaction.xa.Xid;

/**
 * A transaction manager's Xid. Deliberately without {@code equals} / {@code hashCode}, as some
 * transaction managers' Xids are: the adapter must not rely on Xid identity.
 */
final class TestXid implements Xid {
    static final int FORMAT_ID = 0x4151_5443; // "AQTC"
    private static final AtomicLong NEXT = new AtomicLong();
    private static final String RUN = Long.toHexString(System.nanoTime()) + "-" + ProcessHandle.current().pid();

    private final byte[] gtrid;
    private final byte[] bqual;

    private TestXid(byte[] gtrid, byte[] bqual) {
        this.gtrid = gtrid;
        this.bqual = bqual;
    }

    static TestXid next() {
        long n = NEXT.incrementAndGet();
        return new TestXid(("aqueduct-connector-test-" + RUN + "-" + n).getBytes(StandardCharsets.US_ASCII),
                ("b" + n).getBytes(StandardCharsets.US_ASCII));
    }

    /** The same branch: format id, global transaction id and branch qualifier equal. */
    static boolean same(Xid a, Xid b) {
        return a.getFormatId() == b.getFormatId() && Arrays.equals(a.getGlobalTransactionId(), b.getGlobalTransactionId())
                && Arrays.equals(a.getBranchQualifier(), b.getBranchQualifier());
    }

    @Override
    public int getFormatId() {
        return FORMAT_ID;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return bqual.clone();
    }

    @Override
    public String toString() {
        return new String(gtrid, StandardCharsets.US_ASCII) + "/" + new String(bqual, StandardCharsets.US_ASCII);
    }
}
