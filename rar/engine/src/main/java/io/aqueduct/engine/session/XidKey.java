package io.aqueduct.engine.session;

import java.util.Arrays;
import java.util.Objects;
import javax.transaction.xa.Xid;

/**
 * An Xid by value: a copy of a transaction manager's Xid, with {@code equals} / {@code hashCode} on
 * format id, global transaction id and branch qualifier.
 *
 * <p>The engine's XAResource copies every Xid it is given into one of these before anything keys
 * on it or hands it to the database: transaction managers' own Xid classes need not implement
 * {@code equals} / {@code hashCode} (nor stay unchanged after the call), while the engine's branch
 * bookkeeping is a map keyed by Xid, and some drivers keep the Xid of {@code start} and compare
 * later calls' Xids with {@code equals} (PostgreSQL's {@code PGXAConnection}: {@code end},
 * {@code prepare}, {@code commit}, {@code rollback}; MariaDB's pinned XAResource). Derby copies it into
 * a value of its own ({@code XAXactId}) and needs nothing.
 *
 * <p>The arrays are copied on the way in, and {@link #getGlobalTransactionId()} /
 * {@link #getBranchQualifier()} hand out copies; the record accessors return the key's own arrays,
 * for the engine to read (never to change).
 */
public record XidKey(int formatId, byte[] globalTransactionId, byte[] branchQualifier) implements Xid {

    public XidKey {
        globalTransactionId = Objects.requireNonNull(globalTransactionId, "globalTransactionId").clone();
        branchQualifier = Objects.requireNonNull(branchQualifier, "branchQualifier").clone();
    }

    /** The Xid as a value (the same object when it is one already). */
    public static XidKey of(Xid xid) {
        if (xid instanceof XidKey k) {
            return k;
        }
        return new XidKey(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
    }

    @Override
    public int getFormatId() {
        return formatId;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return globalTransactionId.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return branchQualifier.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XidKey k && k.formatId == formatId && Arrays.equals(k.globalTransactionId, globalTransactionId)
                && Arrays.equals(k.branchQualifier, branchQualifier);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(globalTransactionId)) + Arrays.hashCode(branchQualifier);
    }

    @Override
    public String toString() {
        return "Xid[" + formatId + ":" + hex(globalTransactionId) + ":" + hex(branchQualifier) + "]";
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}
