package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A message's user properties (the application's own typed name/value pairs, what Jakarta
 * Messaging calls message properties) are stored with it, come back with their types, and are read
 * by dequeue conditions and subscriber rules; bad names, values and sizes are refused before
 * anything is written.
 */
class UserPropertiesTest extends MultiConsumerFixture {
    private static final String Q = "ORDERS";

    private QueueSession textQueue() {
        startedQueue(Q, "ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        return session();
    }

    @Test
    void every_type_comes_back_with_its_type_and_value_in_the_order_set() {
        QueueSession s = textQueue();
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("flag", true);
        sent.put("tiny", Byte.MIN_VALUE);
        sent.put("small", Short.MAX_VALUE);
        sent.put("count", Integer.MIN_VALUE);
        sent.put("big", Long.MAX_VALUE);
        sent.put("ratio", Float.NaN);
        sent.put("amount", -0.0d);
        sent.put("empty", "");
        sent.put("text", "Zoë 😀 \u0000 end");
        sent.put("Ünïcode name 😀", "x");
        MessageProperties p = MessageProperties.create();
        sent.forEach(p::userProperty);
        s.enqueue(Q, Message.of("order", p));
        s.commit();

        Message m = s.dequeue(Q, FIRST_NO_WAIT);
        s.commit();
        assertThat(m.properties().userProperties()).containsExactlyEntriesOf(sent);
        assertThat(m.properties().userProperty("big")).isInstanceOf(Long.class);
        assertThat(m.properties().userProperty("small")).isInstanceOf(Short.class);
        assertThat(m.properties().userProperty("tiny")).isInstanceOf(Byte.class);
        assertThat(m.properties().userProperty("ratio")).isInstanceOf(Float.class);
    }

    @Test
    void a_message_without_user_properties_has_none_and_a_null_value_removes_one() {
        QueueSession s = textQueue();
        s.enqueue(Q, Message.of("plain"));
        s.enqueue(Q, Message.of("emptied", MessageProperties.create().userProperty("a", 1).userProperty("a", null)));
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).properties().userProperties()).isEmpty();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).properties().userProperties()).isEmpty();
        s.commit();
    }

    @Test
    void a_dequeue_condition_reads_user_properties_by_name_and_in_quotes_where_a_name_is_taken() {
        QueueSession s = textQueue();
        s.enqueue(Q, Message.of("east small", MessageProperties.create().userProperty("region", "EAST").userProperty("qty", 2)));
        s.enqueue(Q, Message.of("west small", MessageProperties.create().userProperty("region", "WEST").userProperty("qty", 3)));
        s.enqueue(Q, Message.of("west big", MessageProperties.create().userProperty("region", "WEST").userProperty("qty", 40L)
                .userProperty("priority", "rush")));
        s.commit();

        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().condition("region = 'WEST' AND qty > 5")).text()).isEqualTo("west big");
        s.rollback();
        // "priority" in quotes is the user property, unquoted it is the message's AQ priority
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().condition("\"priority\" = 'rush' AND priority = 1")).text())
                .isEqualTo("west big");
        s.rollback();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().condition("qty BETWEEN 2 AND 3 AND region <> 'EAST'")).text())
                .isEqualTo("west small");
        s.rollback();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, FIRST_NO_WAIT.copy().condition("region = 'NORTH'")));
    }

    @Test
    void a_subscriber_rule_routes_on_user_properties() {
        multiConsumerQueue(Q, "ORDERS_QT", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("WEST_SHIPPING"), "region = 'WEST'");
        admin.addSubscriber(Q, Agent.named("RUSH_DESK"), "rush = TRUE");
        QueueSession s = session();
        s.enqueue(Q, Message.of("west", MessageProperties.create().userProperty("region", "WEST")));
        s.enqueue(Q, Message.of("rush east", MessageProperties.create().userProperty("region", "EAST").userProperty("rush", true)));
        s.enqueue(Q, Message.of("rush west", MessageProperties.create().userProperty("region", "WEST").userProperty("rush", true)));
        s.commit();

        assertThat(drain(s, Q, "WEST_SHIPPING")).containsExactly("west", "rush west");
        assertThat(drain(s, Q, "RUSH_DESK")).containsExactly("rush east", "rush west");
    }

    @Test
    void array_enqueue_keeps_each_messages_own_properties() {
        QueueSession s = textQueue();
        s.enqueueArray(Q, EnqueueOptions.create(), List.of(
                Message.of("one", MessageProperties.create().userProperty("n", 1)),
                Message.of("two", MessageProperties.create().userProperty("n", 2).userProperty("last", true))));
        s.commit();
        List<Message> got = s.dequeueArray(Q, FIRST_NO_WAIT, 10);
        s.commit();
        assertThat(got).extracting(m -> m.properties().userProperties())
                .containsExactly(Map.of("n", 1), Map.of("n", 2, "last", true));
    }

    @Test
    void bad_names_and_values_are_refused_when_set() {
        MessageProperties p = MessageProperties.create().userProperty("kept", 1);
        expectError(AqError.INVALID_VALUE, () -> p.userProperty(null, 1));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("", 1));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("line\nbreak", 1));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("half\uD800", 1));
        expectError(AqError.NAME_TOO_LONG, () -> p.userProperty("n".repeat(MessageProperties.MAX_USER_PROPERTY_NAME + 1), 1));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("when", java.time.Instant.EPOCH));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("big", java.math.BigDecimal.ONE));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("chars", 'c'));
        expectError(AqError.INVALID_VALUE, () -> p.userProperty("broken", "a\uDC00b"));
        assertThat(p.userProperties()).as("nothing set by the refused calls").containsExactly(Map.entry("kept", 1));
        assertThat(p.userProperty("n".repeat(MessageProperties.MAX_USER_PROPERTY_NAME), 2).userProperties()).hasSize(2);
    }

    @Test
    void properties_too_large_for_the_store_are_refused_at_enqueue_and_nothing_is_written() throws Exception {
        QueueSession s = textQueue();
        s.enqueue(Q, Message.of("before"));
        MessageProperties huge = MessageProperties.create().userProperty("blob", "x".repeat(40_000));
        expectError(AqError.INVALID_VALUE, () -> s.enqueueArray(Q, EnqueueOptions.create(),
                List.of(Message.of("fits"), Message.of("too big", huge))));
        s.commit();
        assertThat(viewCount("ORDERS_QT")).as("only the message enqueued before").isEqualTo(1);
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).text()).isEqualTo("before");
        s.commit();
        // just under the limit fits
        s.enqueue(Q, Message.of("fits", MessageProperties.create().userProperty("blob", "x".repeat(31_900))));
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).properties().userProperty("blob")).asString().hasSize(31_900);
        s.commit();
    }

    @Test
    void a_dequeued_messages_properties_are_its_own_copy() {
        QueueSession s = textQueue();
        MessageProperties p = MessageProperties.create().userProperty("n", 1);
        Message sent = Message.of("one", p);
        s.enqueue(Q, sent);
        p.userProperty("n", 99); // after the enqueue: the stored message keeps 1
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).properties().userProperty("n")).isEqualTo(1);
        s.commit();
        assertThat(p.copy().userProperty("n", 5).userProperty("n")).isEqualTo(5);
        assertThat(p.userProperty("n")).as("a copy does not share its properties").isEqualTo(99);
    }
}
