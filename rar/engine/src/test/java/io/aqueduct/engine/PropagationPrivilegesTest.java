package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SystemPrivilege;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Propagation delivers as the engine's user, so a user that is not an administrator may only name,
 * in a subscriber's or a recipient's address, a queue it could enqueue into itself; a database link
 * (in an address or as a schedule's destination) needs MANAGE_ANY. Without these checks ALICE, who
 * owns her schema and nothing else, could make the propagator put her messages into BOB.SECRET.
 */
class PropagationPrivilegesTest extends MultiConsumerFixture {
    private static final String SECRET = "BOB.SECRET";
    private static final String ALICE_Q = "ALICE.Q";

    private QueueSession alice;
    private QueueAdmin aliceAdmin;

    @Override
    protected boolean backgroundLoops() {
        return false;
    }

    @BeforeEach
    void bobsSecretAndAlicesOwnQueue() {
        startedQueue(SECRET, "BOB.SECRET_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        alice = session("alice");
        aliceAdmin = alice.admin();
        // her own schema: she may create and run it, subscribers and a local schedule included
        aliceAdmin.createQueueTable("ALICE.T", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        aliceAdmin.createQueue(ALICE_Q, "ALICE.T", QueueProperties.create());
        aliceAdmin.startQueue(ALICE_Q, true, true);
        aliceAdmin.addSubscriber(ALICE_Q, Agent.named("MINE"), null);
        aliceAdmin.schedulePropagation(ALICE_Q, null, null, null, null, 0);
    }

    @Test
    void a_subscriber_addressed_to_a_queue_she_may_not_enqueue_into_is_refused_and_not_added() {
        Agent intoSecret = new Agent("THIEF", SECRET, 0);
        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.addSubscriber(ALICE_Q, intoSecret, null));
        assertThat(refused.getMessage()).contains("alice may not add a subscriber with the address BOB.SECRET")
                .contains("needs ENQUEUE on that queue or ENQUEUE_ANY");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.addSubscriber(ALICE_Q, intoSecret, null, null));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.addSubscriber(ALICE_Q, new Agent("THIEF", "bob.secret", 0), null));
        assertThat(admin.subscribers(ALICE_Q)).extracting(s -> s.agent().name()).containsExactly("MINE");

        // an administrator's subscriber stays, but she may not change it either
        admin.addSubscriber(ALICE_Q, intoSecret, null);
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.alterSubscriber(ALICE_Q, intoSecret, "priority > 1"));
        assertThat(admin.subscribers(ALICE_Q)).filteredOn(s -> s.agent().name().equals("THIEF")).singleElement()
                .satisfies(s -> assertThat(s.rule()).isNull());
    }

    @Test
    void a_recipient_addressed_to_a_queue_she_may_not_enqueue_into_is_refused_and_nothing_reaches_it() {
        MessageProperties toSecret = MessageProperties.create().recipients(List.of(new Agent("THIEF", SECRET, 0)));
        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> alice.enqueue(ALICE_Q, EnqueueOptions.create(), Message.of("stolen", toSecret)));
        assertThat(refused.getMessage()).contains("alice may not enqueue into ALICE.Q for a recipient with the address BOB.SECRET");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueueArray(ALICE_Q, EnqueueOptions.create(),
                List.of(Message.of("fine"), Message.of("stolen", toSecret))));
        alice.commit();

        engine.propagator().runDue();

        assertNoMessage(session(), SECRET);
        assertNothingFor(session(), ALICE_Q, "MINE");
    }

    @Test
    void with_enqueue_on_the_destination_her_subscriber_and_recipient_are_accepted_and_propagated() {
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, SECRET, "ALICE", false);
        aliceAdmin.addSubscriber(ALICE_Q, new Agent("COURIER", SECRET, 0), "corrid = 'SUB'");
        aliceAdmin.alterSubscriber(ALICE_Q, new Agent("COURIER", SECRET, 0), "corrid = 'SUB2'");
        alice.enqueue(ALICE_Q, EnqueueOptions.create(), Message.of("by subscriber", MessageProperties.create().correlation("SUB2")));
        alice.enqueue(ALICE_Q, EnqueueOptions.create(), Message.of("by recipient",
                MessageProperties.create().recipients(List.of(new Agent("COURIER", SECRET, 0)))));
        alice.commit();

        engine.propagator().runDue();

        assertThat(drain(session(), SECRET, FIRST_NO_WAIT)).containsExactlyInAnyOrder("by subscriber", "by recipient");
    }

    @Test
    void addresses_in_her_own_schema_and_enqueue_any_need_no_grant() {
        aliceAdmin.addSubscriber(ALICE_Q, new Agent("LATER", "LATER_Q", 0), null); // ALICE.LATER_Q: hers, even before it exists
        aliceAdmin.addSubscriber(ALICE_Q, new Agent("OWN", "ALICE.OTHER", 0), null);
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.addSubscriber(ALICE_Q, new Agent("X", "BOB.NOT_YET", 0), null));

        admin.grantSystemPrivilege(SystemPrivilege.ENQUEUE_ANY, "ALICE", false);
        aliceAdmin.addSubscriber(ALICE_Q, new Agent("X", "BOB.NOT_YET", 0), null);
        aliceAdmin.addSubscriber(ALICE_Q, new Agent("Y", SECRET, 0), null);
        assertThat(admin.subscribers(ALICE_Q)).extracting(s -> s.agent().name()).containsExactlyInAnyOrder("MINE", "LATER", "OWN", "X", "Y");
    }

    @Test
    void a_database_link_in_an_address_or_a_schedule_needs_manage_any() {
        admin.createDatabaseLink("overseas", "jdbc:derby:memory:" + databaseName + "_overseas", null, null);
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, SECRET, "ALICE", false); // a local grant does not reach a link
        Agent overseas = new Agent("ABROAD", "BOB.SECRET@OVERSEAS", 0);
        AqException refused = expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.addSubscriber(ALICE_Q, overseas, null));
        assertThat(refused.getMessage()).contains("propagation through database link OVERSEAS needs MANAGE_ANY");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueue(ALICE_Q, EnqueueOptions.create(),
                Message.of("abroad", MessageProperties.create().recipients(List.of(overseas)))));
        AqException schedule = expectError(AqError.INSUFFICIENT_PRIVILEGES,
                () -> aliceAdmin.schedulePropagation(ALICE_Q, "overseas", null, null, null, 0));
        assertThat(schedule.getMessage()).contains("alice may not schedule propagation to database link OVERSEAS: grant it MANAGE_ANY");
        alice.commit();
        assertThat(admin.subscribers(ALICE_Q)).extracting(s -> s.agent().name()).containsExactly("MINE");
        assertThat(admin.propagationSchedules()).extracting(s -> s.destination()).containsExactly("AQ$_LOCAL");
        assertNothingFor(session(), ALICE_Q, "MINE");

        admin.schedulePropagation(ALICE_Q, "OVERSEAS", null, null, null, 0);
        admin.disablePropagationSchedule(ALICE_Q, "OVERSEAS");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.enablePropagationSchedule(ALICE_Q, "OVERSEAS"));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> aliceAdmin.alterPropagationSchedule(ALICE_Q, "OVERSEAS", null, null, 5));

        admin.grantSystemPrivilege(SystemPrivilege.MANAGE_ANY, "ALICE", false);
        aliceAdmin.addSubscriber(ALICE_Q, overseas, null);
        aliceAdmin.enablePropagationSchedule(ALICE_Q, "OVERSEAS");
        assertThat(admin.subscribers(ALICE_Q)).extracting(s -> s.agent().name()).containsExactlyInAnyOrder("MINE", "ABROAD");
    }
}
