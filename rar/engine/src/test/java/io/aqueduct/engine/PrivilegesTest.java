package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueuePrivilegeInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.api.SystemPrivilegeInfo;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * AQ's queue and system privileges as the engine enforces them for sessions opened with a user:
 * each operation is refused (1031, nothing changed) without its privilege and allowed with it;
 * a grant to PUBLIC, ALL, the ANY system privileges, the owner of a queue's schema and the
 * administrators; revokes take effect on the next call; grant options; bad input.
 */
class PrivilegesTest extends EngineFixture {
    private static final String Q = "OE.ORDERS";
    private static final String QT = "OE.ORDERS_QT";

    @Override
    protected void configure(AqueductEngine.Builder builder) {
        builder.administrators("boss, Auditor");
    }

    @BeforeEach
    void ordersQueue() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
    }

    private int messagesInQueue() throws SQLException {
        try (Connection c = sql(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM AQ_MESSAGE WHERE QID = " + admin.queue(Q).qid())) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void oneMessage() {
        QueueSession s = session();
        s.enqueue(Q, Message.of("order"));
        s.commit();
    }

    // ------------------------------------------------------------------ enqueue

    @Test
    void a_user_without_enqueue_is_refused_before_anything_is_written_and_may_enqueue_once_granted() throws SQLException {
        QueueSession alice = session("alice");
        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueue(Q, Message.of("order")));
        assertThat(refused.getMessage()).contains("alice may not enqueue into OE.ORDERS")
                .contains("grant it ENQUEUE on the queue or ENQUEUE_ANY");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueueArray(Q, EnqueueOptions.create(),
                List.of(Message.of("a"), Message.of("b"))));
        alice.commit();
        assertThat(messagesInQueue()).isZero();

        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        alice.enqueue(Q, Message.of("order"));
        alice.commit();
        assertThat(messagesInQueue()).isOne();
        // ENQUEUE alone does not let her dequeue
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.dequeue(Q, FIRST_NO_WAIT));
    }

    // ------------------------------------------------------------------ dequeue, browse, listen, wait

    @Test
    void every_kind_of_dequeue_needs_dequeue_and_leaves_the_message_where_it_was() throws SQLException {
        oneMessage();
        QueueSession bob = session("BOB");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.dequeue(Q, FIRST_NO_WAIT));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE)));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.LOCKED)));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.dequeueArray(Q, FIRST_NO_WAIT, 10));
        AqException listen = expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> bob.listen(List.of(new Agent(null, Q, 0)), 0));
        assertThat(listen.getMessage()).contains("BOB may not dequeue from OE.ORDERS: grant it DEQUEUE on the queue or DEQUEUE_ANY");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.awaitAvailable(Q, null, null, 0, () -> false));
        bob.commit();
        assertThat(messagesInQueue()).isOne();

        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "bob", false);
        assertThat(bob.awaitAvailable(Q, null, null, 0, () -> false)).isTrue();
        assertThat(bob.listen(List.of(new Agent(null, Q, 0)), 0).address()).isEqualTo(Q);
        assertThat(bob.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE)).payload()).isEqualTo("order");
        assertThat(bob.dequeueArray(Q, FIRST_NO_WAIT, 10)).extracting(Message::payload).containsExactly("order");
        bob.commit();
        assertThat(messagesInQueue()).isZero();
        // DEQUEUE alone does not let him enqueue
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.enqueue(Q, Message.of("x")));
    }

    @Test
    void registering_for_notifications_needs_dequeue_and_a_refused_one_is_not_stored() {
        QueueSession alice = session("alice");
        io.aqueduct.api.Registration onOrders = io.aqueduct.api.Registration.forQueue(Q).notifyUrl("java:alice");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.register(List.of(onOrders)));
        assertThat(admin.registrations()).isEmpty();

        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE", false);
        alice.register(List.of(onOrders));
        assertThat(admin.registrations()).extracting(io.aqueduct.api.RegistrationInfo::notifyUrl).containsExactly("java:alice");
    }

    @Test
    void a_registration_is_replaced_or_unregistered_only_by_its_user_an_administrator_or_a_manage_any_holder() {
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE", false);
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "BOB", false);
        QueueSession alice = session("alice");
        QueueSession bob = session("bob");
        io.aqueduct.api.Registration hers = io.aqueduct.api.Registration.forQueue(Q).notifyUrl("java:alice").context(new byte[] {1});
        alice.register(List.of(hers));

        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.register(List.of(io.aqueduct.api.Registration.forQueue(Q)
                .notifyUrl("java:alice").context(new byte[] {2}))));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> bob.unregister(List.of(hers)));
        assertThat(admin.registrations()).singleElement().satisfies(r -> assertThat(r.context()).containsExactly(1));

        alice.register(List.of(io.aqueduct.api.Registration.forQueue(Q).notifyUrl("java:alice").context(new byte[] {3})));
        assertThat(admin.registrations()).singleElement().satisfies(r -> assertThat(r.context()).containsExactly(3));
        session("boss").unregister(List.of(hers)); // an administrator
        assertThat(admin.registrations()).isEmpty();

        alice.register(List.of(hers));
        admin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "BOB", false);
        bob.unregister(List.of(hers));
        assertThat(admin.registrations()).isEmpty();
        alice.register(List.of(hers));
        alice.unregister(List.of(hers)); // her own
        assertThat(admin.registrations()).isEmpty();
    }

    @Test
    void a_user_without_manage_any_lists_only_its_own_registrations_and_an_administrator_every_users() {
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE", false);
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "BOB", false);
        QueueSession alice = session("alice");
        QueueSession bob = session("bob");
        alice.register(List.of(io.aqueduct.api.Registration.forQueue(Q).notifyUrl("java:alice")));
        bob.register(List.of(io.aqueduct.api.Registration.forQueue(Q).notifyUrl("java:bob")));

        assertThat(alice.admin().registrations()).extracting(io.aqueduct.api.RegistrationInfo::notifyUrl)
                .containsExactly("java:alice");
        assertThat(session("ALICE").admin().registrations()).as("names compare upper-cased")
                .extracting(io.aqueduct.api.RegistrationInfo::user).containsExactly("alice");
        assertThat(bob.admin().registrations()).extracting(io.aqueduct.api.RegistrationInfo::notifyUrl).containsExactly("java:bob");
        assertThat(session("carol").admin().registrations()).isEmpty();
        assertThat(session("boss").admin().registrations()).extracting(io.aqueduct.api.RegistrationInfo::notifyUrl)
                .containsExactlyInAnyOrder("java:alice", "java:bob");
        assertThat(admin.registrations()).hasSize(2);

        admin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "CAROL", false);
        assertThat(session("carol").admin().registrations()).hasSize(2);
    }

    // ------------------------------------------------------------------ PUBLIC, ALL, system privileges

    @Test
    void a_grant_to_public_is_a_grant_to_everyone() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "public", false);
        session("ALICE").enqueue(Q, Message.of("a"));
        session("carol").enqueue(Q, Message.of("c"));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> session("carol").dequeue(Q, FIRST_NO_WAIT));
    }

    @Test
    void all_grants_enqueue_and_dequeue_and_revoking_all_takes_both() {
        admin.grantQueuePrivilege(QueuePrivilege.ALL, Q, "ALICE", false);
        QueueSession alice = session("ALICE");
        alice.enqueue(Q, Message.of("mine"));
        alice.commit();
        assertThat(alice.dequeue(Q, FIRST_NO_WAIT).payload()).isEqualTo("mine");
        alice.commit();
        assertThat(admin.queuePrivileges()).containsExactly(
                new QueuePrivilegeInfo("ALICE", "OE", "ORDERS", "TESTER", true, true, false, false));

        admin.revokeQueuePrivilege(QueuePrivilege.ALL, Q, "ALICE");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueue(Q, Message.of("again")));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.dequeue(Q, FIRST_NO_WAIT));
        assertThat(admin.queuePrivileges()).isEmpty();
    }

    @Test
    void enqueue_any_and_dequeue_any_reach_every_queue_until_revoked() {
        admin.createQueueTable("WS.SHIP_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue("WS.SHIPMENTS", "WS.SHIP_QT", QueueProperties.create());
        admin.startQueue("WS.SHIPMENTS", true, true);
        admin.grantSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "OPS", false);
        admin.grantSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, "OPS", true);
        assertThat(admin.systemPrivileges()).containsExactly(
                new SystemPrivilegeInfo("OPS", SystemPrivilege.ENQUEUE_ANY, false),
                new SystemPrivilegeInfo("OPS", SystemPrivilege.DEQUEUE_ANY, true));

        QueueSession ops = session("ops");
        ops.enqueue(Q, Message.of("1"));
        ops.enqueue("WS.SHIPMENTS", Message.of("2"));
        ops.commit();
        assertThat(ops.dequeue("WS.SHIPMENTS", FIRST_NO_WAIT).payload()).isEqualTo("2");
        ops.commit();

        admin.revokeSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "OPS");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> ops.enqueue(Q, Message.of("3")));
        assertThat(ops.dequeue(Q, FIRST_NO_WAIT).payload()).isEqualTo("1");
        ops.commit();
    }

    @Test
    void a_revoke_takes_effect_on_the_next_call_of_an_open_session() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        QueueSession alice = session("ALICE");
        alice.enqueue(Q, Message.of("before"));
        admin.revokeQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueue(Q, Message.of("after")));
        alice.commit(); // what she enqueued while she held the privilege stays
        assertThat(session().dequeue(Q, FIRST_NO_WAIT).payload()).isEqualTo("before");
    }

    // ------------------------------------------------------------------ owners and administrators

    @Test
    void the_user_named_like_the_schema_owns_its_queues_and_administers_that_schema_only() {
        QueueSession oe = session("oe");
        oe.enqueue(Q, Message.of("own"));
        oe.commit();
        assertThat(oe.dequeue(Q, FIRST_NO_WAIT).payload()).isEqualTo("own");
        oe.commit();
        QueueAdmin oeAdmin = oe.admin();
        oeAdmin.createQueue("OE.RETURNS", QT, QueueProperties.create());
        oeAdmin.startQueue("OE.RETURNS", true, true);
        oeAdmin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, "OE.RETURNS", "ALICE", false);
        session("ALICE").enqueue("OE.RETURNS", Message.of("back"));

        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> oeAdmin.createQueueTable("WS.SHIP_QT", QueueTableProperties.create()));
        assertThat(refused.getMessage()).contains("oe may not create a queue table in schema WS: grant it MANAGE_ANY");
        assertThat(admin.queueTables()).extracting(t -> t.name()).doesNotContain("SHIP_QT");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> oeAdmin.createDatabaseLink("ELSEWHERE", "jdbc:derby:memory:x", null, null));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> oeAdmin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "OE", false));
        assertThat(admin.databaseLinks()).isEmpty();
        assertThat(admin.systemPrivileges()).isEmpty();
    }

    @Test
    void another_user_may_not_administer_a_schema_without_manage_any_and_may_with_it() {
        QueueAdmin alice = session("ALICE").admin();
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.stopQueue(Q, true, true, false));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.alterQueue(Q, 3, null, null, "hers"));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.addSubscriber(Q, new Agent("X", null, 0), null));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.dropQueueTable(QT, true));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.grantQueuePrivilege(QueuePrivilege.ALL, Q, "ALICE", false));
        assertThat(admin.queue(Q).enqueueEnabled()).isTrue();
        assertThat(admin.queue(Q).maxRetries()).isNotEqualTo(3);
        assertThat(admin.queuePrivileges()).isEmpty();
        // reading the catalog is open to everyone
        assertThat(alice.queues()).extracting(q -> q.name()).contains("ORDERS");

        admin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "ALICE", false);
        alice.alterQueue(Q, 3, null, null, "hers");
        assertThat(admin.queue(Q).maxRetries()).isEqualTo(3);
        alice.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "BOB", false);
        assertThat(admin.queuePrivileges()).extracting(QueuePrivilegeInfo::grantee, QueuePrivilegeInfo::grantor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("BOB", "ALICE"));
        // MANAGE_ANY administers; it does not enqueue
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> session("ALICE").enqueue(Q, Message.of("x")));
    }

    @Test
    void the_engines_user_and_the_configured_administrators_hold_everything_and_so_does_a_session_without_a_user() {
        for (QueueSession s : List.of(session(), session("TESTER"), session("Boss"), session(" auditor "))) {
            s.enqueue(Q, Message.of("m"));
            s.commit();
            assertThat(s.dequeue(Q, FIRST_NO_WAIT).payload()).isEqualTo("m");
            s.commit();
        }
        session("BOSS").admin().grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "ALICE", true);
        assertThat(admin.systemPrivileges()).extracting(SystemPrivilegeInfo::grantee).containsExactly("ALICE");
    }

    // ------------------------------------------------------------------ grant options

    @Test
    void the_grant_option_lets_a_grantee_grant_on_and_only_what_it_holds() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", true);
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE", false);
        QueueAdmin alice = session("ALICE").admin();
        alice.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "BOB", false);
        session("BOB").enqueue(Q, Message.of("via alice"));
        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> alice.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "BOB", false));
        assertThat(refused.getMessage()).contains("may not grant DEQUEUE on OE.ORDERS");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.grantQueuePrivilege(QueuePrivilege.ALL, Q, "CAROL", false));

        // BOB's grant is ALICE's to revoke, not CAROL's (who holds it with the grant option too)
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "CAROL", true);
        expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> session("CAROL").admin().revokeQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "BOB"));
        alice.revokeQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "BOB");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> session("BOB").enqueue(Q, Message.of("gone")));
    }

    @Test
    void the_admin_option_lets_a_grantee_grant_and_revoke_that_system_privilege() {
        admin.grantSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, "ALICE", true);
        QueueAdmin alice = session("ALICE").admin();
        alice.grantSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, "BOB", false);
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.grantSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "BOB", false));
        expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> session("BOB").admin().grantSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, "CAROL", false));
        alice.revokeSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, "BOB");
        assertThat(admin.systemPrivileges()).extracting(SystemPrivilegeInfo::grantee).containsExactly("ALICE");
    }

    @Test
    void granting_again_keeps_one_grant_and_adds_the_grant_option() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", true);
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        assertThat(admin.queuePrivileges()).containsExactly(
                new QueuePrivilegeInfo("ALICE", "OE", "ORDERS", "TESTER", true, false, true, false));
    }

    // ------------------------------------------------------------------ the queue's grants go with it

    @Test
    void dropping_a_queue_drops_its_grants_and_a_new_queue_of_the_same_name_has_none() {
        admin.grantQueuePrivilege(QueuePrivilege.ALL, Q, "ALICE", false);
        admin.stopQueue(Q, true, true, true);
        admin.dropQueue(Q);
        assertThat(admin.queuePrivileges()).isEmpty();
        admin.createQueue(Q, QT, QueueProperties.create());
        admin.startQueue(Q, true, true);
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> session("ALICE").enqueue(Q, Message.of("x")));
    }

    // ------------------------------------------------------------------ bad input changes nothing

    @Test
    void bad_grants_and_revokes_are_refused_and_change_nothing() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        List<QueuePrivilegeInfo> before = admin.queuePrivileges();
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, "OE.NOPE", "BOB", false));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.revokeQueuePrivilege(QueuePrivilege.ENQUEUE, "OE.NOPE", "ALICE"));
        expectError(AqError.INVALID_NAME, () -> admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "bob smith", false));
        expectError(AqError.INVALID_NAME, () -> admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, " ", false));
        expectError(AqError.INVALID_NAME, () -> admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, null, false));
        expectError(AqError.NAME_TOO_LONG, () -> admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "B".repeat(31), false));
        expectError(AqError.INVALID_VALUE, () -> admin.grantQueuePrivilege(null, Q, "BOB", false));
        expectError(AqError.PRIVILEGE_NOT_GRANTED, () -> admin.revokeQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE"));
        expectError(AqError.PRIVILEGE_NOT_GRANTED, () -> admin.revokeQueuePrivilege(QueuePrivilege.ALL, Q, "BOB"));
        expectError(AqError.SYSTEM_PRIVILEGE_NOT_GRANTED, () -> admin.revokeSystemPrivilege(SystemPrivilege.MANAGE_ANY, "BOB"));
        expectError(AqError.INVALID_NAME, () -> admin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "1BOB", false));
        expectError(AqError.INVALID_VALUE, () -> admin.grantSystemPrivilege(null, "BOB", false));
        assertThat(admin.queuePrivileges()).isEqualTo(before);
        assertThat(admin.systemPrivileges()).isEmpty();
    }

    @Test
    void an_unknown_queue_is_the_usual_error_for_a_user_without_privileges_too() {
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> session("ALICE").enqueue("OE.NOPE", Message.of("x")));
    }

    // ------------------------------------------------------------------ the view

    @Test
    void queue_privileges_shows_each_grantee_queue_and_grantor_with_its_privileges() throws SQLException {
        admin.grantQueuePrivilege(QueuePrivilege.ALL, Q, "ALICE", false);
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "PUBLIC", false);
        session("OE").admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "BOB", true);
        List<String> rows = new ArrayList<>();
        try (Connection c = sql(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT GRANTEE, OWNER, NAME, GRANTOR, ENQUEUE_PRIVILEGE, DEQUEUE_PRIVILEGE FROM QUEUE_PRIVILEGES"
                        + " ORDER BY GRANTEE")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + "." + rs.getString(3) + " by " + rs.getString(4)
                        + " enqueue=" + rs.getInt(5) + " dequeue=" + rs.getInt(6));
            }
        }
        assertThat(rows).containsExactly(
                "ALICE OE.ORDERS by TESTER enqueue=1 dequeue=1",
                "BOB OE.ORDERS by OE enqueue=1 dequeue=0",
                "PUBLIC OE.ORDERS by TESTER enqueue=0 dequeue=1");
    }
}
