package io.aqueduct.connector.xa;

import java.util.Arrays;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XAResource the container sees for one queue session: the engine's (the store database's
 * own, with the engine's hooks), with two container-facing guarantees added.
 *
 * <ul>
 * <li>Xids are copied into a value object before they reach the engine, so that the engine's
 * per-branch bookkeeping (a map keyed by Xid) works whatever Xid class the transaction manager
 * uses (some implement neither {@code equals} nor {@code hashCode}).</li>
 * <li>{@link #isSameRM} is true only for the same session's resource: two queue sessions in one
 * transaction then get two branches of their own instead of a {@code TMJOIN} of one database
 * branch from a second connection while the first is still associated (which Derby refuses).</li>
 * </ul>
 */
public final class BranchXaResource implements XAResource {
    private final XAResource delegate;
    private final java.util.function.Consumer<XAException> onFailure;

    public BranchXaResource(XAResource delegate) {
        this(delegate, e -> { });
    }

    /** {@code onFailure} hears every XAException before it is thrown (a managed connection tells its pool). */
    public BranchXaResource(XAResource delegate, java.util.function.Consumer<XAException> onFailure) {
        this.delegate = delegate;
        this.onFailure = onFailure;
    }

    private XAException failed(XAException e) {
        onFailure.accept(e);
        return e;
    }

    public XAResource delegate() {
        return delegate;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        try {
            delegate.start(ValueXid.of(xid), flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        try {
            delegate.end(ValueXid.of(xid), flags);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        try {
            return delegate.prepare(ValueXid.of(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            delegate.commit(ValueXid.of(xid), onePhase);
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            delegate.rollback(ValueXid.of(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        try {
            delegate.forget(ValueXid.of(xid));
        } catch (XAException e) {
            throw failed(e);
        }
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return delegate.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this || (other instanceof BranchXaResource b && b.delegate == delegate);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }

    @Override
    public String toString() {
        return "Aqueduct XAResource[" + delegate + "]";
    }

    /** An Xid with value equality. */
    static final class ValueXid implements Xid {
        private final int formatId;
        private final byte[] gtrid;
        private final byte[] bqual;
        private final int hash;

        private ValueXid(int formatId, byte[] gtrid, byte[] bqual) {
            this.formatId = formatId;
            this.gtrid = gtrid;
            this.bqual = bqual;
            this.hash = 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
        }

        static Xid of(Xid xid) {
            if (xid == null || xid instanceof ValueXid) {
                return xid;
            }
            return new ValueXid(xid.getFormatId(), xid.getGlobalTransactionId().clone(), xid.getBranchQualifier().clone());
        }

        @Override
        public int getFormatId() {
            return formatId;
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
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof Xid x)) {
                return false;
            }
            return formatId == x.getFormatId() && Arrays.equals(gtrid, x.getGlobalTransactionId())
                    && Arrays.equals(bqual, x.getBranchQualifier());
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return "Xid[" + formatId + ":" + hex(gtrid) + ":" + hex(bqual) + "]";
        }

        private static String hex(byte[] b) {
            StringBuilder sb = new StringBuilder();
            for (byte x : b) {
                sb.append(String.format("%02x", x));
            }
            return sb.toString();
        }
    }
}
