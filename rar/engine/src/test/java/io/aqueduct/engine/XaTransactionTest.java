package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.session.EngineSession;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Architecture note "Transactions": a session's XAResource is the database's own, wrapped with the
 * engine's hooks. What a branch enqueues is visible to others only once the branch commits; a
 * rolled-back branch leaves nothing; a REMOVE in a rolled-back branch is a failed attempt.
 */
class XaTransactionTest extends EngineFixture {
    private static final String Q = "XA_Q";
    private static final String QT = "XA_QT";
    private static final AtomicInteger XIDS = new AtomicInteger();

    private final List<EngineSession> xaSessions = new ArrayList<>();

    /** A transaction manager's Xid: format id, global transaction id and branch qualifier, compared by value. */
    record TestXid(int formatId, byte[] gtrid, byte[] bqual) implements Xid {
        static TestXid next() {
            int n = XIDS.incrementAndGet();
            return new TestXid(0x4151, ("aqueduct-test-gtrid-" + n + "-" + ProcessHandle.current().pid())
                    .getBytes(StandardCharsets.US_ASCII), ("branch-" + n).getBytes(StandardCharsets.US_ASCII));
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

        static boolean same(Xid a, Xid b) {
            return a.getFormatId() == b.getFormatId() && Arrays.equals(a.getGlobalTransactionId(), b.getGlobalTransactionId())
                    && Arrays.equals(a.getBranchQualifier(), b.getBranchQualifier());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Xid x && same(this, x);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
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

    /**
     * MariaDB hands a prepared branch to another connection only once the connection that prepared
     * it is gone (as after the crash recovery is for): close that session first there.
     */
    private static void detachIfTheStoreRequires(EngineSession s) {
        if (TestStore.CURRENT.kind == TestStore.Kind.MARIADB) {
            try {
                s.close();
            } catch (RuntimeException refused) {
                // MariaDB may refuse the local rollback beside a prepared branch; the connection is closed all the same
            }
        }
    }

    private EngineSession xaSession() {
        EngineSession s = engine.openSession("TESTER");
        xaSessions.add(s);
        return s;
    }

    @Test
    void an_enqueue_in_a_two_phase_committed_branch_is_visible_to_another_session_only_after_commit() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        QueueSession other = session();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        MessageId id = s.enqueue(Q, Message.of("in a branch"));
        xa.end(xid, XAResource.TMSUCCESS);
        assertNoMessage(other, Q);

        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        assertNoMessage(other, Q);

        xa.commit(xid, false);
        Message m = other.dequeue(Q, FIRST_NO_WAIT);
        other.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("in a branch");
    }

    @Test
    void an_enqueue_in_a_one_phase_committed_branch_becomes_visible() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        MessageId id = s.enqueue(Q, Message.of("one phase"));
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);

        QueueSession other = session();
        assertThat(other.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        other.commit();
    }

    @Test
    void an_enqueue_in_a_rolled_back_branch_is_never_visible() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        s.enqueue(Q, Message.of("never"));
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);

        assertNoMessage(session(), Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void an_enqueue_in_a_prepared_branch_that_is_then_rolled_back_is_never_visible() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        s.enqueue(Q, Message.of("never"));
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        xa.rollback(xid);

        assertNoMessage(session(), Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_remove_in_a_committed_branch_consumes_the_message() throws Exception {
        MessageId id = enqueueLocally("consume me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        xa.end(xid, XAResource.TMSUCCESS);
        assertNoMessage(session(), Q); // held by the branch
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        xa.commit(xid, false);

        assertNoMessage(session(), Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_remove_in_a_rolled_back_branch_counts_a_failed_attempt() throws Exception {
        MessageId id = enqueueLocally("retry me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        try {
            xa.end(xid, XAResource.TMFAIL); // the application failed: the branch is rollback-only
        } catch (XAException rollbackOnly) {
            // the resource manager may report that with an XA_RB* code, as the XA specification allows
            assertThat(rollbackOnly.errorCode).isBetween(XAException.XA_RBBASE, XAException.XA_RBEND);
        }
        xa.rollback(xid);

        assertThat(viewState(QT, id)).isEqualTo("READY");
        assertThat(viewRetryCount(id)).isEqualTo(1);
        QueueSession other = session();
        Message m = other.dequeue(Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
        other.commit();
    }

    @Test
    void a_remove_in_a_prepared_branch_that_is_rolled_back_counts_a_failed_attempt() throws Exception {
        MessageId id = enqueueLocally("retry me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        s.dequeue(Q, FIRST_NO_WAIT);
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        xa.rollback(xid);

        assertThat(viewRetryCount(id)).isEqualTo(1);
        assertThat(session().dequeue(Q, FIRST_NO_WAIT).properties().attempts()).isEqualTo(1);
    }

    @Test
    void a_LOCKED_dequeue_in_a_rolled_back_branch_does_not_count_an_attempt() throws Exception {
        MessageId id = enqueueLocally("look at me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        s.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.LOCKED));
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);

        assertThat(viewRetryCount(id)).isZero();
        assertThat(session().dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
    }

    @Test
    void local_commit_and_rollback_are_refused_while_the_session_works_in_a_branch() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        s.enqueue(Q, Message.of("in a branch"));
        assertThatThrownBy(s::commit).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.SESSION_STATE));
        assertThatThrownBy(s::rollback).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.SESSION_STATE));
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);

        // the refused calls changed nothing: the branch committed its message
        assertThat(session().dequeue(Q, FIRST_NO_WAIT).text()).isEqualTo("in a branch");

        // out of the branch, the session works in local transactions again
        MessageId local = s.enqueue(Q, Message.of("local"));
        s.commit();
        QueueSession other = session();
        assertThat(other.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(local);
        other.commit();
    }

    @Test
    void recover_lists_a_prepared_branch_until_it_is_committed() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();

        xa.start(xid, XAResource.TMNOFLAGS);
        MessageId id = s.enqueue(Q, Message.of("in doubt"));
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        detachIfTheStoreRequires(s);

        XAResource recovery = xaSession().xaResource();
        Xid[] inDoubt = recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
        assertThat(Arrays.stream(inDoubt).anyMatch(x -> TestXid.same(x, xid))).as("recover lists the prepared branch").isTrue();
        assertNoMessage(session(), Q);

        // a transaction manager commits what it recovered, through any resource of the same RM
        Xid recovered = Arrays.stream(inDoubt).filter(x -> TestXid.same(x, xid)).findFirst().orElseThrow();
        recovery.commit(recovered, false);

        assertThat(Arrays.stream(recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                .noneMatch(x -> TestXid.same(x, xid))).isTrue();
        QueueSession other = session();
        assertThat(other.dequeue(Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        other.commit();
    }

    @Test
    void recover_does_not_list_an_active_or_committed_branch() throws Exception {
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid committed = TestXid.next();
        xa.start(committed, XAResource.TMNOFLAGS);
        s.enqueue(Q, Message.of("done"));
        xa.end(committed, XAResource.TMSUCCESS);
        xa.commit(committed, true);

        Xid[] inDoubt = xaSession().xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
        assertThat(inDoubt == null ? new Xid[0] : inDoubt).noneMatch(x -> TestXid.same(x, committed));
    }

    @Test
    void the_XAResources_of_two_sessions_are_resource_managers_of_their_own() throws Exception {
        XAResource a = xaSession().xaResource();
        XAResource b = xaSession().xaResource();
        // on every store: a second session gets a branch of its own, never a TMJOIN of the first
        // session's branch from its connection (Derby refuses that while the first is associated;
        // PostgreSQL and MariaDB tie a branch to its connection). XaResourceContractTest has the rest.
        assertThat(a.isSameRM(b)).isFalse();
        assertThat(b.isSameRM(a)).isFalse();
        assertThat(a.isSameRM(a)).isTrue();
    }

    @Test
    void committing_an_unknown_xid_is_refused_by_the_resource_manager() throws Exception {
        XAResource xa = xaSession().xaResource();
        assertThatThrownBy(() -> xa.commit(TestXid.next(), false)).isInstanceOf(XAException.class);
    }

    @Test
    void a_branch_rolled_back_through_another_sessions_resource_counts_the_failed_attempt() throws Exception {
        MessageId id = enqueueLocally("retry me");
        EngineSession s = xaSession();
        XAResource xa = s.xaResource();
        Xid xid = TestXid.next();
        xa.start(xid, XAResource.TMNOFLAGS);
        s.dequeue(Q, FIRST_NO_WAIT);
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);
        detachIfTheStoreRequires(s);

        xaSession().xaResource().rollback(xid);

        assertThat(viewRetryCount(id)).isEqualTo(1);
        Message m = session().dequeue(Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ helpers

    private MessageId enqueueLocally(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text));
        s.commit();
        return id;
    }

    private int viewRetryCount(MessageId id) throws SQLException {
        return ((Number) viewColumn(QT, id, "RETRY_COUNT")).intValue();
    }
}
