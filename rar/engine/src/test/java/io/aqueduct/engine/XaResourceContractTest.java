package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.session.EngineSession;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a container relies on in a session's XAResource ({@code EngineSession.xaResource()}), the one
 * wrapper of the store database's resource: Xids are taken by value (a transaction manager's Xid
 * class needs no {@code equals} / {@code hashCode}, and may hand a fresh object to every call),
 * {@code isSameRM} is true only for the same session's resource, and the owner hears every
 * XAException before it is thrown.
 */
class XaResourceContractTest extends EngineFixture {
    private static final String Q = "XAC_Q";
    private static final String QT = "XAC_QT";
    private static final AtomicInteger TRANSACTIONS = new AtomicInteger();

    private final List<EngineSession> xaSessions = new ArrayList<>();

    /**
     * A transaction manager's Xid with neither {@code equals} nor {@code hashCode}, whose getters
     * hand out its own arrays (as some do): only a copy taken at each call identifies the branch.
     */
    static final class BareXid implements Xid {
        final int formatId;
        final byte[] gtrid;
        final byte[] bqual;

        BareXid(int formatId, byte[] gtrid, byte[] bqual) {
            this.formatId = formatId;
            this.gtrid = gtrid;
            this.bqual = bqual;
        }

        /** A new global transaction's first branch. */
        static BareXid next() {
            String g = "aqueduct-xac-" + TRANSACTIONS.incrementAndGet() + "-" + ProcessHandle.current().pid();
            return new BareXid(0x4158, g.getBytes(StandardCharsets.US_ASCII), "b1".getBytes(StandardCharsets.US_ASCII));
        }

        /** The same branch as another object (what a transaction manager may pass to the next call). */
        BareXid again() {
            return new BareXid(formatId, gtrid.clone(), bqual.clone());
        }

        /** Another branch of the same global transaction. */
        BareXid branch(String qualifier) {
            return new BareXid(formatId, gtrid.clone(), qualifier.getBytes(StandardCharsets.US_ASCII));
        }

        @Override
        public int getFormatId() {
            return formatId;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return gtrid;
        }

        @Override
        public byte[] getBranchQualifier() {
            return bqual;
        }
    }

    @BeforeEach
    void createQueue() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
    }

    @AfterEach
    void closeXaSessions() {
        for (EngineSession s : xaSessions) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // a branch may still be open when a test failed
            }
        }
    }

    private EngineSession xaSession() {
        EngineSession s = engine.openSession("TESTER");
        xaSessions.add(s);
        return s;
    }

    // ------------------------------------------------------------------ isSameRM

    @Test
    void isSameRM_is_true_for_the_same_sessions_resource_only() throws Exception {
        EngineSession s = xaSession();
        XAResource a = s.xaResource();
        XAResource a2 = s.xaResource(e -> { });
        XAResource b = xaSession().xaResource();
        XAResource foreign = (XAResource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {XAResource.class}, (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });

        assertThat(a.isSameRM(a)).isTrue();
        assertThat(a.isSameRM(a2)).isTrue();
        assertThat(a2.isSameRM(a)).isTrue();
        // on every store, Derby too: another session's resource is another resource manager
        assertThat(a.isSameRM(b)).isFalse();
        assertThat(b.isSameRM(a)).isFalse();
        assertThat(a.isSameRM(foreign)).isFalse();
        assertThat(a.isSameRM(null)).isFalse();
    }

    @Test
    void two_sessions_in_one_transaction_work_in_branches_of_their_own() throws Exception {
        EngineSession s1 = xaSession();
        EngineSession s2 = xaSession();
        XAResource xa1 = s1.xaResource();
        XAResource xa2 = s2.xaResource();
        assertThat(xa2.isSameRM(xa1)).isFalse(); // so the transaction manager gives s2 a branch, never a TMJOIN of s1's
        BareXid first = BareXid.next();
        BareXid second = first.branch("b2");
        QueueSession other = session();

        xa1.start(first, XAResource.TMNOFLAGS);
        xa2.start(second, XAResource.TMNOFLAGS); // while the first branch is still associated with s1
        MessageId m1 = s1.enqueue(Q, Message.of("from s1"));
        MessageId m2 = s2.enqueue(Q, Message.of("from s2"));
        xa1.end(first.again(), XAResource.TMSUCCESS);
        xa2.end(second.again(), XAResource.TMSUCCESS);
        assertNoMessage(other, Q);
        assertThat(xa1.prepare(first.again())).isEqualTo(XAResource.XA_OK);
        assertThat(xa2.prepare(second.again())).isEqualTo(XAResource.XA_OK);
        xa1.commit(first.again(), false);
        xa2.commit(second.again(), false);

        List<MessageId> got = new ArrayList<>();
        got.add(other.dequeue(Q, FIRST_NO_WAIT).id());
        got.add(other.dequeue(Q, FIRST_NO_WAIT).id());
        other.commit();
        assertThat(got).containsExactlyInAnyOrder(m1, m2);
    }

    // ------------------------------------------------------------------ Xids by value

    @Test
    void a_two_phase_branch_is_found_by_the_xids_value_not_its_object() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        BareXid xid = BareXid.next();
        QueueSession other = session();

        xa.start(xid.again(), XAResource.TMNOFLAGS);
        MessageId id = s.enqueue(Q, Message.of("by value"));
        xa.end(xid.again(), XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid.again())).isEqualTo(XAResource.XA_OK);
        assertNoMessage(other, Q);
        xa.commit(xid.again(), false);

        Message m = other.dequeue(Q, FIRST_NO_WAIT);
        other.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("by value");
    }

    @Test
    void the_xid_is_copied_when_given_so_a_manager_reusing_its_object_does_not_lose_the_branch() throws Exception {
        MessageId id = enqueueLocally("retry me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        BareXid xid = BareXid.next();
        BareXid reused = xid.again();

        xa.start(reused, XAResource.TMNOFLAGS);
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        // the transaction manager reuses its object (its getters hand out its own arrays): what the
        // resource keyed the branch on must be a copy taken at start
        reused.gtrid[0] ^= 0x7f;
        reused.bqual[0] ^= 0x7f;
        xa.end(xid.again(), XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid.again())).isEqualTo(XAResource.XA_OK);
        xa.rollback(xid.again());

        // only the engine's after-rollback hook, finding the branch, counts the failed attempt
        assertRolledBackOnce(id);
    }

    @Test
    void a_one_phase_commit_with_a_fresh_xid_object_applies_the_branch() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        BareXid xid = BareXid.next();
        QueueSession other = session();

        xa.start(xid.again(), XAResource.TMNOFLAGS);
        MessageId id = s.enqueue(Q, Message.of("one phase"));
        xa.end(xid.again(), XAResource.TMSUCCESS);
        xa.commit(xid.again(), true);

        assertThat(other.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        other.commit();
    }

    @Test
    void a_rollback_with_a_fresh_xid_object_counts_the_failed_attempt() throws Exception {
        MessageId id = enqueueLocally("retry me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        BareXid xid = BareXid.next();

        xa.start(xid.again(), XAResource.TMNOFLAGS);
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        xa.end(xid.again(), XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid.again())).isEqualTo(XAResource.XA_OK);
        xa.rollback(xid.again());

        // the engine's after-rollback hook found the branch by value: one failed attempt counted
        assertRolledBackOnce(id);
    }

    // ------------------------------------------------------------------ the failure hook

    @Test
    void the_owner_hears_every_xa_exception_once_before_it_is_thrown() throws Exception {
        List<XAException> heard = new ArrayList<>();
        XAResource xa = xaSession().xaResource(heard::add);

        XAException unknown = catchXa(() -> xa.commit(BareXid.next(), false));
        assertThat(heard).containsExactly(unknown);

        XAException notPrepared = catchXa(() -> xa.prepare(BareXid.next()));
        XAException notRolledBack = catchXa(() -> xa.rollback(BareXid.next()));
        XAException noXid = catchXa(() -> xa.start(null, XAResource.TMNOFLAGS));
        assertThat(noXid.errorCode).isEqualTo(XAException.XAER_INVAL);
        XAException notStarted = catchXa(() -> xa.end(BareXid.next(), XAResource.TMSUCCESS));

        // each failure once, in order, the very object the caller gets
        List<XAException> expected = new ArrayList<>(List.of(unknown, notPrepared));
        if (notRolledBack != null) {
            expected.add(notRolledBack); // a store may answer the rollback of an unknown branch with success
        }
        expected.add(noXid);
        expected.add(notStarted);
        assertThat(heard).containsExactlyElementsOf(expected);
    }

    @Test
    void the_hook_hears_the_failure_before_the_caller_does_and_cannot_replace_it() throws Exception {
        List<String> events = new ArrayList<>();
        RuntimeException hookTrouble = new IllegalStateException("the listener failed");
        XAResource xa = xaSession().xaResource(e -> {
            events.add("heard " + e.errorCode);
            throw hookTrouble;
        });

        XAException thrown = catchXa(() -> xa.commit(BareXid.next(), false));
        events.add("caught " + thrown.errorCode);

        assertThat(events).containsExactly("heard " + thrown.errorCode, "caught " + thrown.errorCode);
        assertThat(thrown.getSuppressed()).containsExactly(hookTrouble);
    }

    @Test
    void a_resource_without_a_hook_fails_as_the_database_does() throws Exception {
        XAResource xa = xaSession().xaResource();
        assertThatThrownBy(() -> xa.commit(BareXid.next(), false)).isInstanceOf(XAException.class);
        assertThatThrownBy(() -> xaSession().xaResource(null)).isInstanceOf(NullPointerException.class);
    }

    // ------------------------------------------------------------------ helpers

    private MessageId enqueueLocally(String text) {
        QueueSession producer = session();
        MessageId id = producer.enqueue(Q, Message.of(text));
        producer.commit();
        return id;
    }

    /** The message is back, with one failed attempt counted by the engine. */
    private void assertRolledBackOnce(MessageId id) throws Exception {
        assertThat(((Number) viewColumn(QT, id, "RETRY_COUNT")).intValue()).isEqualTo(1);
        QueueSession other = session();
        Message m = other.dequeue(Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
        other.commit();
    }

    private interface XaCall {
        void run() throws XAException;
    }

    /** The XAException the call throws; null when it succeeds. */
    private static XAException catchXa(XaCall call) {
        try {
            call.run();
            return null;
        } catch (XAException e) {
            return e;
        }
    }

    /**
     * MariaDB lists a prepared branch whose owner's connection is still open (a process dying, the
     * server not yet done with it) in XA RECOVER, but answers "unknown Xid" to a commit or rollback
     * from another connection. The resource says "not now" (XAER_RMFAIL), so that a transaction
     * manager tries again instead of taking the branch for finished; once the owner is gone it works.
     */
    @Test
    void a_prepared_branch_another_connection_still_holds_is_not_reported_finished() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestStore.CURRENT.kind == TestStore.Kind.MARIADB,
                "MariaDB ties a prepared branch to its connection until the server lets the connection go");
        BareXid xid = BareXid.next();
        String sqlXid = "X'" + java.util.HexFormat.of().formatHex(xid.gtrid) + "',X'" + java.util.HexFormat.of().formatHex(xid.bqual)
                + "'," + xid.formatId;
        EngineSession tm = engine.openSession("TM");
        try (java.sql.Connection owner = TestStore.CURRENT.connect(); java.sql.Statement st = owner.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS APP.XA_SCRATCH (N INT)");
            st.execute("XA START " + sqlXid);
            st.execute("INSERT INTO APP.XA_SCRATCH VALUES (1)");
            st.execute("XA END " + sqlXid);
            st.execute("XA PREPARE " + sqlXid);

            assertThat(java.util.Arrays.stream(tm.xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                    .anyMatch(x -> java.util.Arrays.equals(x.getGlobalTransactionId(), xid.gtrid))).as("listed in doubt").isTrue();
            assertThatThrownBy(() -> tm.xaResource().rollback(xid.again())).isInstanceOfSatisfying(XAException.class,
                    e -> assertThat(e.errorCode).as("rollback while the owner holds it").isEqualTo(XAException.XAER_RMFAIL));
            assertThatThrownBy(() -> tm.xaResource().commit(xid.again(), false)).isInstanceOfSatisfying(XAException.class,
                    e -> assertThat(e.errorCode).as("commit while the owner holds it").isEqualTo(XAException.XAER_RMFAIL));
        }
        // the owner's connection is gone: the branch can be finished from here
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).ignoreExceptions()
                .untilAsserted(() -> tm.xaResource().rollback(xid.again()));
        assertThat(java.util.Arrays.stream(tm.xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                .noneMatch(x -> java.util.Arrays.equals(x.getGlobalTransactionId(), xid.gtrid))).as("no longer in doubt").isTrue();
        try (java.sql.Connection c = TestStore.CURRENT.connect(); java.sql.Statement st = c.createStatement()) {
            st.execute("DROP TABLE APP.XA_SCRATCH");
        }
    }
}
