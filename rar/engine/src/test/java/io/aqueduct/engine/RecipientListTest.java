package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Visibility;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 "Subscriptions and Recipient Lists" and "Local and Remote Recipients": a recipient
 * list given at enqueue overrides the subscribers, its agents need not be subscribers; no
 * subscribers and no list is an error (24033), the same agent twice is an error (25232), a list on
 * a single-consumer queue is an error (24039); a refused enqueue writes nothing.
 */
class RecipientListTest extends MultiConsumerFixture {
    private static final String Q = "OE_BOOKED_Q";
    private static final String QT = "OE_BOOKED_QT";

    @BeforeEach
    void queue() {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
    }

    private static Message to(String text, Agent... recipients) {
        return Message.of(text, MessageProperties.create().recipients(List.of(recipients)));
    }

    private List<String> snapshot() throws Exception {
        return storeSnapshot(List.of(Q), List.of(QT));
    }

    @Test
    void a_recipient_list_overrides_the_subscribers() throws Exception {
        admin.addSubscriber(Q, Agent.named("West_Shipping"), null);
        admin.addSubscriber(Q, Agent.named("East_Shipping"), null);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, to("for East only", Agent.named("East_Shipping")));
        s.enqueue(Q, Message.of("for the subscribers"));
        s.commit();

        assertThat(statesByConsumer(QT, id)).containsOnlyKeys("East_Shipping");
        assertThat(drain(s, Q, "West_Shipping")).containsExactly("for the subscribers");
        assertThat(drain(s, Q, "East_Shipping")).containsExactly("for East only", "for the subscribers");
    }

    @Test
    void recipients_need_not_be_subscribers() throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, to("order", Agent.named("Backorder_Desk"), Agent.named("Billing")));
        s.commit();

        assertThat(admin.subscribers(Q)).isEmpty();
        assertThat(statesByConsumer(QT, id)).containsOnlyKeys("Backorder_Desk", "Billing").containsValues("READY");
        assertThat(drain(s, Q, "Billing")).containsExactly("order");
        assertThat(drain(s, Q, "Backorder_Desk")).containsExactly("order");
        assertThat(drain(s, Q, "Somebody_Else")).isEmpty();
        engine.timeManager().runDue();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_recipient_is_dequeued_by_its_name_in_any_case_as_in_the_reference() {
        // the reference enqueues for aq$_agent('West_shipping', ...) and dequeues as 'West_Shipping'
        QueueSession s = session();
        s.enqueue(Q, to("order", Agent.named("West_shipping")));
        s.commit();
        assertThat(drain(s, Q, "West_Shipping")).containsExactly("order");
    }

    @Test
    void an_enqueue_with_no_subscribers_and_no_recipient_list_fails_with_24033_and_writes_nothing() throws Exception {
        List<String> before = snapshot();
        QueueSession s = session();
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueue(Q, Message.of("nobody")));
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueue(Q,
                EnqueueOptions.create().visibility(Visibility.IMMEDIATE), Message.of("nobody")));
        // an array with one message nobody receives is refused as a whole
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueueArray(Q, EnqueueOptions.create(),
                List.of(to("for Billing", Agent.named("Billing")), Message.of("nobody"))));
        s.commit();
        assertThat(snapshot()).isEqualTo(before);
        assertThat(viewCount(QT)).isZero();
        assertNothingFor(s, Q, "Billing");
    }

    @Test
    void an_enqueue_no_subscriber_rule_accepts_and_without_recipients_fails_with_24033() throws Exception {
        admin.addSubscriber(Q, Agent.named("Rush_Desk"), "corrid = 'RUSH'");
        List<String> before = snapshot();
        QueueSession s = session();
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueue(Q, Message.of("normal",
                MessageProperties.create().correlation("NORMAL"))));
        s.commit();
        assertThat(snapshot()).isEqualTo(before);
    }

    @Test
    void a_recipient_list_naming_an_agent_twice_fails_with_25232_and_writes_nothing() throws Exception {
        admin.addSubscriber(Q, Agent.named("West_Shipping"), null);
        List<String> before = snapshot();
        QueueSession s = session();
        expectError(AqError.DUPLICATE_RECIPIENTS, () -> s.enqueue(Q,
                to("twice", Agent.named("Billing"), Agent.named("East_Shipping"), Agent.named("Billing"))));
        expectError(AqError.DUPLICATE_RECIPIENTS, () -> s.enqueue(Q,
                to("twice", new Agent("Overseas", "TS.TS_BOOKEDORDERS_QUE", 0), new Agent("Overseas", "TS.TS_BOOKEDORDERS_QUE", 0))));
        expectError(AqError.DUPLICATE_RECIPIENTS, () -> s.enqueueArray(Q, EnqueueOptions.create(),
                List.of(Message.of("fine"), to("twice", Agent.named("Billing"), Agent.named("Billing")))));
        s.commit();
        assertThat(snapshot()).isEqualTo(before);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void agents_with_one_name_and_different_addresses_or_protocols_are_different_recipients() throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, to("order", Agent.named("Overseas"), new Agent("Overseas", "TS.TS_BOOKEDORDERS_QUE", 0),
                new Agent("Overseas", "TS.TS_BOOKEDORDERS_QUE", 1)));
        s.commit();
        assertThat(query("SELECT CONSUMER_NAME, ADDRESS, PROTOCOL FROM \"APP\".\"AQ$" + QT + "\" WHERE MSG_ID = ?", id.toString()))
                .hasSize(3);
        assertThat(drain(s, Q, "Overseas")).containsExactly("order");
    }

    @Test
    void a_recipient_list_on_a_single_consumer_queue_fails_with_24039() throws Exception {
        startedQueue("SINGLE_Q", "SINGLE_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        QueueSession s = session();
        expectError(AqError.NOT_MULTI_CONSUMER, () -> s.enqueue("SINGLE_Q", to("order", Agent.named("Billing"))));
        s.commit();
        assertThat(viewCount("SINGLE_QT")).isZero();
    }

    @Test
    void a_remote_recipient_is_recorded_with_its_address_but_not_dequeued_locally() throws Exception {
        Agent remote = new Agent("West_Shipping", "WS.WS_BOOKEDORDERS_QUE", 0);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, to("order", remote, Agent.named("Billing")));
        s.commit();

        Map<String, Map<String, Object>> rows = consumerRows(QT, id);
        assertThat(rows.get("West_Shipping")).containsEntry("ADDRESS", "WS.WS_BOOKEDORDERS_QUE")
                .containsEntry("MSG_STATE", "READY");
        assertThat(rows.get("Billing").get("ADDRESS")).isNull();
        assertNothingFor(s, Q, "West_Shipping");
        assertThat(drain(s, Q, "Billing")).containsExactly("order");
        engine.timeManager().runDue();
        // still pending for the remote consumer
        assertThat(statesByConsumer(QT, id)).containsEntry("West_Shipping", "READY");
    }

    @Test
    void a_rolled_back_enqueue_with_a_recipient_list_leaves_nothing() throws Exception {
        QueueSession s = session();
        s.enqueue(Q, to("order", Agent.named("Billing")));
        s.rollback();
        assertThat(viewCount(QT)).isZero();
        assertNothingFor(s, Q, "Billing");
    }
}
