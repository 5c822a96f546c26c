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

    @BeforeEach
    void twoNodes() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "a shared store");
        JdbcSettings store = TestStore.CURRENT.privateStore(SCHEMA);
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
