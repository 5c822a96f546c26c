package io.aqueduct.engine.session;

import java.util.Arrays;
import javax.transaction.xa.Xid;

/** An Xid by value: transaction managers' own Xid classes need not implement equals / hashCode. */
public record XidKey(int formatId, byte[] globalTransactionId, byte[] branchQualifier) {

    public static XidKey of(Xid xid) {
        return new XidKey(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
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
}
