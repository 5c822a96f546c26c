package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two nodes of a shared store: a grant or revoke made on one takes effect on the other (its grants
 * are read again on the catalog signal), without a restart. Shared stores only.
 */
class SharedStorePrivilegesTest {
    private static final String SCHEMA = "SHAREDPRIV";
    private static final String Q = "OE.ORDERS";
    private AqueductEngine first;
    private AqueductEngine second;
    private JdbcSettings store;

    @BeforeEach
    void twoNodes() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "a shared store");
        store = TestStore.CURRENT.privateStore(SCHEMA);
        first = node(store);
        second = node(store);
        first.admin().createQueueTable("OE.ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        first.admin().createQueue(Q, "OE.ORDERS_QT", QueueProperties.create());
        first.admin().startQueue(Q, true, true);
    }

    /** A node as deployed: its loops run (their heartbeats tell each node that the other lives, so it signals it). */
    private static AqueductEngine node(JdbcSettings store) {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(store)).defaultSchema(SCHEMA).user("NODE").start();
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    private static boolean mayEnqueue(AqueductEngine node, String user) {
        try (QueueSession s = node.openSession(user)) {
            s.enqueue(Q, Message.of("probe"));
            s.rollback();
            return true;
        } catch (AqException e) {
            assertThat(e.errorCode()).isEqualTo(AqError.INSUFFICIENT_PRIVILEGES);
            return false;
        }
    }

    /**
     * A grant and a revoke whose catalog signals never arrive (the rows written behind the nodes'
     * backs, as a lost signal leaves them) take effect on a node without a time manager once its
     * grants are {@link io.aqueduct.engine.security.Privileges#MAX_AGE} old; a lookup that misses
     * (a mistyped queue name) does not read the grants again before that.
     */
    @Test
    void a_grant_and_a_revoke_whose_signals_were_lost_take_effect_within_the_grants_max_age_without_a_time_manager()
            throws Exception {
        io.aqueduct.engine.time.ManualClock clock = new io.aqueduct.engine.time.ManualClock();
        Duration maxAge = io.aqueduct.engine.security.Privileges.MAX_AGE;
        long qid = first.admin().queue(Q).qid();
        try (AqueductEngine node = quietNode(clock)) {
            assertThat(mayEnqueue(node, "ALICE")).isFalse();
            sql("INSERT INTO AQ_QUEUE_PRIVILEGE (QID, GRANTEE, PRIVILEGE, GRANTOR, GRANTABLE) VALUES (" + qid
                    + ", 'ALICE', 'ENQUEUE', 'NODE', 0)");
            clock.advance(maxAge);
            assertThat(mayEnqueue(node, "ALICE")).isTrue();

            sql("DELETE FROM AQ_QUEUE_PRIVILEGE WHERE GRANTEE = 'ALICE'");
            try (QueueSession alice = node.openSession("ALICE")) {
                assertThat(catchThrowableOfType(() -> alice.enqueue("OE.ORDRES", Message.of("typo")), AqException.class)
                        .errorCode()).isEqualTo(AqError.QUEUE_DOES_NOT_EXIST);
            }
            assertThat(mayEnqueue(node, "ALICE")).as("the grants read less than MAX_AGE ago, not again on a miss").isTrue();

            clock.advance(maxAge);
            assertThat(mayEnqueue(node, "ALICE")).isFalse();
        }
    }

    private void sql(String statement) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(store.url(), store.user(), store.password());
                java.sql.Statement st = c.createStatement()) {
            assertThat(st.executeUpdate(statement)).isOne();
        }
    }

    /** A node without a time manager (no periodic catalog refresh, no heartbeats) on a clock the test moves. */
    private AqueductEngine quietNode(io.aqueduct.engine.time.ManualClock clock) {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(store)).defaultSchema(SCHEMA).user("NODE").clock(clock)
                .timeManager(false).start();
    }

    @Test
    void a_grant_and_a_revoke_on_one_node_take_effect_on_the_other() {
        assertThat(mayEnqueue(second, "ALICE")).isFalse();
        first.admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        await().atMost(Duration.ofSeconds(20)).until(() -> mayEnqueue(second, "ALICE"));

        first.admin().revokeQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE");
        await().atMost(Duration.ofSeconds(20)).until(() -> !mayEnqueue(second, "ALICE"));
        assertThat(second.admin().queuePrivileges()).isEmpty();
    }

    @Test
    void a_system_privilege_revoked_on_one_node_is_gone_on_the_other_and_a_session_open_there_sees_it() {
        second.admin().grantSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "OPS", false);
        await().atMost(Duration.ofSeconds(20)).until(() -> mayEnqueue(first, "OPS"));
        try (QueueSession ops = first.openSession("OPS")) {
            ops.enqueue(Q, Message.of("while granted"));
            ops.commit();
            second.admin().revokeSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "OPS");
            await().atMost(Duration.ofSeconds(20)).until(() -> catchThrowableOfType(
                    () -> ops.enqueue(Q, Message.of("after the revoke")), AqException.class) != null);
            ops.rollback();
        }
    }
}
