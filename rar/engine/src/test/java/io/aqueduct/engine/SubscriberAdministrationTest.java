package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 "Subscriptions and Recipient Lists" and 001 §2.3: subscribers of a multi-consumer
 * queue are agents (name, address, protocol), unique, at most 1024, never on single-consumer or
 * exception queues; a subscriber sees only what is enqueued after it was added; removing one makes
 * its pending messages UNDELIVERABLE to it. A refused call changes nothing.
 */
class SubscriberAdministrationTest extends MultiConsumerFixture {
    private static final String Q = "OE_BOOKED_Q";
    private static final String QT = "OE_BOOKED_QT";
    private static final String EXCEPTION_Q = "AQ$_OE_BOOKED_QT_E";
    private static final Agent WEST = Agent.named("West_Shipping");
    private static final Agent EAST = Agent.named("East_Shipping");

    @BeforeEach
    void queue() {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
    }

    private List<String> snapshot() throws Exception {
        return storeSnapshot(List.of(Q), List.of(QT));
    }

    private MessageId enqueueCommitted(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text));
        s.commit();
        return id;
    }

    @Test
    void added_altered_and_removed_subscribers_are_listed_with_their_rules() {
        admin.addSubscriber(Q, WEST, "priority > 1");
        admin.addSubscriber(Q, EAST, null);
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(WEST, "priority > 1"),
                new SubscriberInfo(EAST, null));

        admin.alterSubscriber(Q, WEST, "corrid = 'RUSH'");
        admin.alterSubscriber(Q, EAST, "priority = 1");
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(WEST, "corrid = 'RUSH'"),
                new SubscriberInfo(EAST, "priority = 1"));

        admin.alterSubscriber(Q, WEST, null);
        admin.removeSubscriber(Q, EAST);
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(WEST, null));
    }

    @Test
    void agents_differing_in_name_address_or_protocol_are_different_subscribers() {
        Agent remote = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0);
        Agent otherAddress = new Agent("West_Shipping", "ES.ES_BOOKEDORDERS_QUE", 0);
        Agent otherProtocol = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 1);
        Agent addressOnly = new Agent(null, "WS.WS_BOOKEDORDERS_QUE", 0);
        for (Agent a : List.of(WEST, remote, otherAddress, otherProtocol, addressOnly)) {
            admin.addSubscriber(Q, a, null);
        }
        assertThat(admin.subscribers(Q)).extracting(SubscriberInfo::agent)
                .containsExactlyInAnyOrder(WEST, remote, otherAddress, otherProtocol, addressOnly);
    }

    @Test
    void an_agent_that_is_already_a_subscriber_is_refused_with_24034_and_nothing_changes() throws Exception {
        Agent remote = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0);
        admin.addSubscriber(Q, WEST, "priority = 1");
        admin.addSubscriber(Q, remote, null);
        List<String> before = snapshot();

        expectError(AqError.SUBSCRIBER_EXISTS, () -> admin.addSubscriber(Q, WEST, null));
        expectError(AqError.SUBSCRIBER_EXISTS, () -> admin.addSubscriber(Q, Agent.named("west_shipping"), "priority = 2"));
        expectError(AqError.SUBSCRIBER_EXISTS,
                () -> admin.addSubscriber(Q, new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0), null));

        assertThat(snapshot()).isEqualTo(before);
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(WEST, "priority = 1"),
                new SubscriberInfo(remote, null));
    }

    @Test
    void a_queue_takes_1024_subscribers_and_refuses_the_1025th_with_24067() throws Exception {
        for (int i = 1; i <= 1024; i++) {
            admin.addSubscriber(Q, Agent.named("SUB_" + i), null);
        }
        assertThat(admin.subscribers(Q)).hasSize(1024);
        List<String> before = snapshot();

        expectError(AqError.TOO_MANY_SUBSCRIBERS, () -> admin.addSubscriber(Q, Agent.named("SUB_1025"), null));
        expectError(AqError.TOO_MANY_SUBSCRIBERS,
                () -> admin.addSubscriber(Q, new Agent("SUB_1025", "OTHER.QUEUE", 0), null));

        assertThat(snapshot()).isEqualTo(before);
        // one out, one in
        admin.removeSubscriber(Q, Agent.named("SUB_7"));
        admin.addSubscriber(Q, Agent.named("SUB_1025"), null);
        assertThat(admin.subscribers(Q)).hasSize(1024);

        // and each of the 1024 gets the message
        MessageId id = enqueueCommitted("to everyone");
        assertThat(statesByConsumer(QT, id)).hasSize(1024).doesNotContainKey("SUB_7").containsEntry("SUB_1025", "READY");
    }

    @Test
    void a_single_consumer_queue_has_no_subscribers_24039() throws Exception {
        startedQueue("SINGLE_Q", "SINGLE_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        List<String> before = storeSnapshot(List.of(), List.of(QT, "SINGLE_QT"));

        expectError(AqError.NOT_MULTI_CONSUMER, () -> admin.addSubscriber("SINGLE_Q", WEST, null));
        expectError(AqError.NOT_MULTI_CONSUMER, () -> admin.alterSubscriber("SINGLE_Q", WEST, null));
        expectError(AqError.NOT_MULTI_CONSUMER, () -> admin.removeSubscriber("SINGLE_Q", WEST));

        assertThat(storeSnapshot(List.of(), List.of(QT, "SINGLE_QT"))).isEqualTo(before);
    }

    @Test
    void an_exception_queue_has_no_subscribers() throws Exception {
        List<String> before = snapshot();
        expectError(AqError.NOT_MULTI_CONSUMER, () -> admin.addSubscriber(EXCEPTION_Q, WEST, null));
        assertThat(admin.subscribers(EXCEPTION_Q)).isEmpty();
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void altering_or_removing_an_agent_that_is_not_a_subscriber_fails_with_24035() throws Exception {
        admin.addSubscriber(Q, WEST, "priority = 1");
        List<String> before = snapshot();

        expectError(AqError.NOT_A_SUBSCRIBER, () -> admin.alterSubscriber(Q, EAST, "priority = 2"));
        expectError(AqError.NOT_A_SUBSCRIBER, () -> admin.removeSubscriber(Q, EAST));
        // same name, another address: another agent
        Agent remoteWest = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0);
        expectError(AqError.NOT_A_SUBSCRIBER, () -> admin.alterSubscriber(Q, remoteWest, null));
        expectError(AqError.NOT_A_SUBSCRIBER, () -> admin.removeSubscriber(Q, remoteWest));

        assertThat(snapshot()).isEqualTo(before);
        admin.removeSubscriber(Q, WEST);
        expectError(AqError.NOT_A_SUBSCRIBER, () -> admin.removeSubscriber(Q, WEST));
    }

    @Test
    void a_malformed_rule_fails_with_25448_and_nothing_changes() throws Exception {
        admin.addSubscriber(Q, WEST, "priority = 1");
        enqueueCommitted("one");
        List<String> before = snapshot();

        for (String bad : List.of("priority =", "tab.user_data.orderregion = 'WESTERN", "(priority = 1",
                "priority = 1 AND", "", "   ", "priority = 1; DROP TABLE AQ_MESSAGE", "AND OR")) {
            expectError(AqError.INVALID_EXPRESSION, () -> admin.addSubscriber(Q, EAST, bad));
            expectError(AqError.INVALID_EXPRESSION, () -> admin.alterSubscriber(Q, WEST, bad));
        }

        assertThat(snapshot()).isEqualTo(before);
        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(WEST, "priority = 1"));
    }

    @Test
    void a_subscriber_sees_only_messages_enqueued_after_it_was_added() {
        admin.addSubscriber(Q, WEST, null);
        enqueueCommitted("before East");
        admin.addSubscriber(Q, EAST, null);
        enqueueCommitted("after East");

        QueueSession s = session();
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("after East");
        assertThat(drain(s, Q, "West_Shipping")).containsExactly("before East", "after East");
    }

    @Test
    void removing_a_subscriber_with_pending_messages_is_no_error_and_shows_them_UNDELIVERABLE_to_it() throws Exception {
        admin.addSubscriber(Q, WEST, null);
        admin.addSubscriber(Q, EAST, null);
        MessageId first = enqueueCommitted("first");
        MessageId second = enqueueCommitted("second");
        QueueSession s = session();
        assertThat(s.dequeue(Q, as("West_Shipping")).id()).isEqualTo(first);
        s.commit();

        admin.removeSubscriber(Q, WEST);

        assertThat(statesByConsumer(QT, second)).containsEntry("West_Shipping", "UNDELIVERABLE")
                .containsEntry("East_Shipping", "READY");
        assertThat(statesByConsumer(QT, first)).containsEntry("West_Shipping", "PROCESSED")
                .containsEntry("East_Shipping", "READY");
        assertNothingFor(s, Q, "West_Shipping");
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("first", "second");
    }

    @Test
    void a_removed_subscriber_added_again_does_not_get_back_what_was_pending_for_it() throws Exception {
        admin.addSubscriber(Q, WEST, null);
        admin.addSubscriber(Q, EAST, null);
        MessageId old = enqueueCommitted("old");
        admin.removeSubscriber(Q, WEST);
        admin.addSubscriber(Q, WEST, null);
        enqueueCommitted("new");

        QueueSession s = session();
        assertThat(drain(s, Q, "West_Shipping")).containsExactly("new");
        assertThat(statesByConsumer(QT, old)).containsEntry("West_Shipping", "UNDELIVERABLE");
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("old", "new");
    }

    @Test
    void removing_the_last_subscriber_with_pending_messages_is_no_error_and_they_are_not_delivered() {
        admin.addSubscriber(Q, WEST, null);
        enqueueCommitted("pending");
        admin.removeSubscriber(Q, WEST);
        engine.timeManager().runDue();

        assertThat(admin.subscribers(Q)).isEmpty();
        QueueSession s = session();
        assertNothingFor(s, Q, "West_Shipping");
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueue(Q, Message.of("nobody")));
    }

    @Test
    void a_remote_subscriber_is_recorded_with_its_address_but_not_dequeued_locally() throws Exception {
        Agent remote = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0);
        admin.addSubscriber(Q, remote, null);
        admin.addSubscriber(Q, EAST, null);
        MessageId id = enqueueCommitted("order");

        Map<String, Map<String, Object>> rows = consumerRows(QT, id);
        assertThat(rows).containsOnlyKeys("West_Shipping", "East_Shipping");
        assertThat(rows.get("West_Shipping")).containsEntry("ADDRESS", "WS.WS_BOOKEDORDERS_QUE")
                .containsEntry("PROTOCOL", 0).containsEntry("MSG_STATE", "READY");
        assertThat(rows.get("East_Shipping").get("ADDRESS")).isNull();

        QueueSession s = session();
        assertNothingFor(s, Q, "West_Shipping");
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("order");
    }

    @Test
    void removing_a_subscriber_while_one_of_its_sessions_holds_a_message_is_no_error() throws Exception {
        admin.addSubscriber(Q, WEST, null);
        admin.addSubscriber(Q, EAST, null);
        MessageId held = enqueueCommitted("held");
        MessageId pending = enqueueCommitted("pending");
        QueueSession holder = session();
        assertThat(holder.dequeue(Q, as("West_Shipping")).id()).isEqualTo(held); // not committed yet

        java.util.concurrent.FutureTask<Void> removal = new java.util.concurrent.FutureTask<>(() -> {
            admin.removeSubscriber(Q, WEST);
            return null;
        });
        Thread t = new Thread(removal, "remove-subscriber");
        t.setDaemon(true);
        t.start();
        t.join(3000); // it may wait for the holder's transaction; it must not fail
        holder.commit();
        try {
            removal.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("removeSubscriber failed while a session of the subscriber held a message: " + e.getCause(),
                    e.getCause());
        }
        engine.timeManager().runDue();

        assertThat(admin.subscribers(Q)).containsExactly(new SubscriberInfo(EAST, null));
        assertThat(statesByConsumer(QT, pending)).containsEntry("West_Shipping", "UNDELIVERABLE");
        assertThat(statesByConsumer(QT, held).get("West_Shipping")).isIn("PROCESSED", "UNDELIVERABLE");
        QueueSession s = session();
        assertNothingFor(s, Q, "West_Shipping");
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("held", "pending");
    }

    @Test
    void subscribers_of_an_unknown_queue_fail_with_24010() {
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.addSubscriber("NO_SUCH_Q", WEST, null));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.removeSubscriber("NO_SUCH_Q", WEST));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.subscribers("NO_SUCH_Q"));
    }
}
