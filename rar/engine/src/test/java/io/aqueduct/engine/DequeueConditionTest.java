package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reference 000 "Dequeue Methods": a dequeue condition, SQL-WHERE-like on message properties and
 * content, returns the first message in the queue's sort order that satisfies it, among the
 * messages of the dequeuing consumer; a malformed condition fails with 25448 before anything happens.
 */
class DequeueConditionTest extends MultiConsumerFixture {
    private static final String Q = "OE_BOOKEDORDERS_QUE";
    private static final String QT = "OE_ORDERS_PR_MQTAB";
    private static final String WESTERN = "tab.user_data.orderregion = 'WESTERN'";

    private static String order(int orderno, String region, String country) {
        return "{\"orderno\": " + orderno + ", \"orderregion\": \"" + region + "\", \"customer\": {\"country\": \""
                + country + "\"}}";
    }

    private static int orderno(Message m) {
        String t = m.text();
        int a = t.indexOf(':') + 1;
        return Integer.parseInt(t.substring(a, t.indexOf(',')).trim());
    }

    private static List<Integer> ordernos(QueueSession s, String queue, DequeueOptions options) {
        List<Integer> out = new ArrayList<>();
        for (String t : drain(s, queue, options)) {
            int a = t.indexOf(':') + 1;
            out.add(Integer.parseInt(t.substring(a, t.indexOf(',')).trim()));
        }
        return out;
    }

    private void priorityQueueWithAandB() {
        multiConsumerQueue(Q, QT, PayloadType.JSON, SortOrder.PRIORITY_ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("A"), null);
        admin.addSubscriber(Q, Agent.named("B"), null);
    }

    @Test
    void a_condition_returns_the_first_message_in_sort_order_that_satisfies_it_for_that_consumer() {
        priorityQueueWithAandB();
        QueueSession s = session();
        s.enqueue(Q, Message.of(order(1, "WESTERN", "USA"), MessageProperties.create().priority(3)));
        s.enqueue(Q, Message.of(order(2, "EASTERN", "USA"), MessageProperties.create().priority(1)));
        s.enqueue(Q, Message.of(order(3, "WESTERN", "USA"), MessageProperties.create().priority(2)));
        s.enqueue(Q, Message.of(order(4, "WESTERN", "USA"), MessageProperties.create().priority(2)));
        s.commit();

        assertThat(orderno(s.dequeue(Q, as("A").condition(WESTERN)))).isEqualTo(3);
        s.commit();
        // B's messages are its own: the same condition gives B the same first message
        assertThat(orderno(s.dequeue(Q, as("B").condition(WESTERN)))).isEqualTo(3);
        s.commit();
        assertThat(ordernos(s, Q, as("A").condition(WESTERN))).containsExactly(4, 1);
        assertThat(ordernos(s, Q, as("A"))).containsExactly(2);
        assertThat(ordernos(s, Q, as("B"))).containsExactly(2, 4, 1);
    }

    @Test
    void a_condition_only_finds_messages_meant_for_the_dequeuing_consumer() {
        priorityQueueWithAandB();
        QueueSession s = session();
        s.enqueue(Q, Message.of(order(1, "WESTERN", "USA"),
                MessageProperties.create().recipients(List.of(Agent.named("A")))));
        s.enqueue(Q, Message.of(order(2, "EASTERN", "USA")));
        s.commit();

        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, as("B").condition(WESTERN)));
        assertThat(ordernos(s, Q, as("A").condition(WESTERN))).containsExactly(1);
    }

    @Test
    void on_a_single_consumer_queue_a_condition_on_the_payload_picks_the_Canadian_orders() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.JSON), QueueProperties.create());
        QueueSession s = session();
        for (RuleBasedRoutingTest.Order o : RuleBasedRoutingTest.ELEVEN_ORDERS) {
            s.enqueue(Q, Message.of(o.json()));
        }
        s.commit();

        DequeueOptions canada = FIRST_NO_WAIT.copy().condition("tab.user_data.customer.country = 'Canada'");
        List<Integer> got = new ArrayList<>();
        for (String t : drain(s, Q, canada)) {
            got.add(jsonOrderno(t));
        }
        assertThat(got).containsExactly(1003, 1007);
        List<Integer> rest = new ArrayList<>();
        for (String t : drain(s, Q, FIRST_NO_WAIT)) {
            rest.add(jsonOrderno(t));
        }
        assertThat(rest).containsExactly(1001, 1002, 1004, 1005, 1006, 1008, 1009, 1010, 1011);
    }

    private static int jsonOrderno(String json) {
        try (jakarta.json.JsonReader r = jakarta.json.Json.createReader(new java.io.StringReader(json))) {
            return r.readObject().getInt("orderno");
        }
    }

    @Test
    void a_condition_may_test_message_properties() {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("A"), null);
        QueueSession s = session();
        s.enqueue(Q, Message.of("normal", MessageProperties.create().priority(3).correlation("NORMAL")));
        MessageId rush = s.enqueue(Q, Message.of("rush", MessageProperties.create().priority(1).correlation("RUSH")));
        s.enqueue(Q, Message.of("air", MessageProperties.create().priority(2).correlation("AIR")));
        s.commit();

        assertThat(s.dequeue(Q, as("A").condition("priority < 3 AND corrid <> 'RUSH'")).text()).isEqualTo("air");
        assertThat(s.dequeue(Q, as("A").condition("msgid = '" + rush + "'")).id()).isEqualTo(rush);
        s.commit();
        assertThat(drain(s, Q, "A")).containsExactly("normal");
    }

    @Test
    void a_condition_may_compare_with_SYSDATE_the_engine_clock_now() {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("A"), null);
        QueueSession s = session();
        s.enqueue(Q, Message.of("old"));
        s.commit();
        clock.advance(java.time.Duration.ofHours(2));
        s.enqueue(Q, Message.of("new"));
        s.commit();

        // older than an hour: enq_time before SYSDATE - 1/24 (days)
        assertThat(s.dequeue(Q, as("A").condition("enq_time < SYSDATE - 1/24")).text()).isEqualTo("old");
        s.commit();
        expectError(io.aqueduct.api.AqError.NO_MESSAGE, () -> s.dequeue(Q, as("A").condition("enq_time < SYSDATE - 1/24")));
        assertThat(drain(s, Q, "A")).containsExactly("new");
    }

    @Test
    void a_condition_no_message_satisfies_finds_nothing_and_leaves_the_messages_untouched() throws Exception {
        priorityQueueWithAandB();
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(order(1, "EASTERN", "USA")));
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, as("A").condition(WESTERN)));
        s.rollback();
        assertThat(consumerRows(QT, id).get("A")).containsEntry("RETRY_COUNT", 0).containsEntry("MSG_STATE", "READY");
        assertThat(ordernos(s, Q, as("A"))).containsExactly(1);
    }

    @Test
    void a_condition_skips_a_matching_message_another_session_of_the_same_consumer_holds() {
        priorityQueueWithAandB();
        QueueSession producer = session();
        producer.enqueue(Q, Message.of(order(1, "WESTERN", "USA")));
        producer.enqueue(Q, Message.of(order(2, "WESTERN", "USA")));
        producer.commit();

        QueueSession one = session();
        QueueSession two = session();
        assertThat(orderno(one.dequeue(Q, as("A").condition(WESTERN)))).isEqualTo(1);
        assertThat(orderno(two.dequeue(Q, as("A").condition(WESTERN)))).isEqualTo(2);
        expectError(AqError.NO_MESSAGE, () -> two.dequeue(Q, as("A").condition(WESTERN)));
        one.commit();
        two.commit();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void a_malformed_condition_fails_with_25448_before_anything_happens() throws Exception {
        priorityQueueWithAandB();
        QueueSession s = session();
        MessageId first = s.enqueue(Q, Message.of(order(1, "WESTERN", "USA")));
        MessageId second = s.enqueue(Q, Message.of(order(2, "WESTERN", "USA")));
        s.commit();
        assertThat(s.dequeue(Q, as("A")).id()).isEqualTo(first); // held by this transaction
        List<String> before = storeSnapshot(List.of(Q), List.of(QT));

        for (String bad : List.of("tab.user_data.orderregion = 'WESTERN", "orderregion =", "(priority = 1", "priority = = 1",
                "'; DROP TABLE AQ_MESSAGE; --", "priority = 1 OR", "   ")) {
            expectError(AqError.INVALID_EXPRESSION, () -> s.dequeue(Q, as("A").condition(bad)));
            expectError(AqError.INVALID_EXPRESSION, () -> s.dequeue(Q, as("A").condition(bad).mode(DequeueMode.BROWSE)));
            // never waits: the condition is refused before the queue is looked at
            expectError(AqError.INVALID_EXPRESSION, () -> s.dequeue(Q,
                    DequeueOptions.create().consumerName("B").condition(bad).waitSeconds(DequeueOptions.FOREVER)));
            expectError(AqError.INVALID_EXPRESSION, () -> s.dequeueArray(Q, as("B").condition(bad), 5));
        }
        assertThat(storeSnapshot(List.of(Q), List.of(QT))).isEqualTo(before);

        // the transaction is intact: its dequeue commits, and nothing else was taken or counted
        s.commit();
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, first)).containsEntry("A", "PROCESSED").containsEntry("B", "READY");
        assertThat(consumerRows(QT, second).get("A")).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 0);
        assertThat(ordernos(s, Q, as("A"))).containsExactly(2);
        assertThat(ordernos(s, Q, as("B"))).containsExactly(1, 2);
    }
}
