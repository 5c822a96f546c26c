package io.aqueduct.engine.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input to {@link QueueSession}: enqueue, enqueueArray, dequeue, dequeueArray, listen,
 * commit / rollback and calls after close. Each is refused with its AQ number, nothing in the store
 * changes, and the same session goes on working.
 */
class HostileSessionInputTest extends HostileFixture {

    static Stream<Arguments> badQueueNames() {
        return Stream.of(
                Arguments.of("null", null, AqError.INVALID_NAME),
                Arguments.of("empty", "", AqError.INVALID_NAME),
                Arguments.of("blank", "  \t", AqError.INVALID_NAME),
                Arguments.of("quoted", "\"TEXT_Q\"", AqError.INVALID_NAME),
                Arguments.of("two dots", "APP.TEXT_Q.X", AqError.INVALID_NAME),
                Arguments.of("SQL injection", "TEXT_Q; DELETE FROM AQ_MESSAGE", AqError.INVALID_NAME),
                Arguments.of("NUL character", "TEXT_Q\u0000", AqError.INVALID_NAME),
                Arguments.of("lone surrogate", "\uDC00TEXT_Q", AqError.INVALID_NAME),
                Arguments.of("31 bytes", "Q".repeat(31), AqError.NAME_TOO_LONG),
                Arguments.of("16 two-byte letters (32 bytes)", "\u00c9".repeat(16), AqError.NAME_TOO_LONG),
                Arguments.of("unknown queue", "NO_SUCH_Q", AqError.QUEUE_DOES_NOT_EXIST),
                Arguments.of("unknown schema", "OTHER.TEXT_Q", AqError.QUEUE_DOES_NOT_EXIST),
                Arguments.of("a queue table's name", "TEXT_QT", AqError.QUEUE_DOES_NOT_EXIST));
    }

    // ------------------------------------------------------------------ enqueue: queue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueueNames")
    void enqueue_refuses_a_bad_or_unknown_queue_name(String what, String queue, int code) {
        assertRefused(code, () -> session.enqueue(queue, Message.of("x")));
        assertRefused(code, () -> session.enqueueArray(queue, EnqueueOptions.create(), List.of(Message.of("x"))));
    }

    @Test
    void enqueue_refuses_a_stopped_queue_and_an_exception_queue() {
        assertRefused(AqError.ENQUEUE_DISABLED, () -> session.enqueue(STOPPED_Q, Message.of("x")));
        assertRefused(AqError.ENQUEUE_DISABLED, () -> session.enqueue(TEXT_EXCEPTION_Q, Message.of("x")));
        admin.startQueue(TEXT_EXCEPTION_Q, false, true);
        assertRefused(AqError.ENQUEUE_DISABLED, () -> session.enqueue(TEXT_EXCEPTION_Q, Message.of("x")));
    }

    // ------------------------------------------------------------------ enqueue: message and array

    @Test
    void enqueue_refuses_a_null_message() {
        assertRefused(AqError.INVALID_VALUE, () -> session.enqueue(TEXT_Q, null));
        assertRefused(AqError.INVALID_VALUE, () -> session.enqueue(TEXT_Q, EnqueueOptions.create(), null));
    }

    @Test
    void enqueueArray_refuses_a_null_or_empty_list_and_null_elements() {
        assertRefused(AqError.INVALID_VALUE, () -> session.enqueueArray(TEXT_Q, EnqueueOptions.create(), null));
        assertRefused(AqError.INVALID_VALUE, () -> session.enqueueArray(TEXT_Q, EnqueueOptions.create(), List.of()));
        assertRefused(AqError.INVALID_VALUE,
                () -> session.enqueueArray(TEXT_Q, EnqueueOptions.create(), Arrays.asList(Message.of("a"), null)));
    }

    @Test
    void enqueueArray_with_one_bad_message_enqueues_none_of_them() {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            messages.add(Message.of("m" + i));
        }
        messages.add(Message.of("bad", MessageProperties.create().delay(-1)));
        messages.add(Message.of("after"));
        assertRefused(AqError.INVALID_DELAY, () -> session.enqueueArray(TEXT_Q, EnqueueOptions.create(), messages));
        messages.set(50, Message.of(new byte[] {1}));
        assertRefused(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.enqueueArray(TEXT_Q, null, messages));
    }

    @Test
    void a_refused_call_keeps_the_rest_of_the_sessions_transaction() {
        MessageId pending = session.enqueue(TEXT_Q, Message.of("pending"));
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.enqueue(TEXT_Q, Message.of(42)));
        expectError(AqError.INVALID_DELAY, () -> session.enqueue(TEXT_Q, Message.of("x", MessageProperties.create().delay(-5))));
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> session.dequeue("NO_SUCH_Q", noWait()));
        session.commit();
        assertThat(session.dequeue(TEXT_Q, noWait().messageId(pending)).text()).isEqualTo("pending");
        session.commit();
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ enqueue: payloads of the wrong type

    static Stream<Arguments> wrongPayloads() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>";
        String laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
                + "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
                + "<!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">"
                + "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">"
                + "<!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">]><lolz>&lol4;</lolz>";
        return Stream.of(
                Arguments.of("RAW queue, String", RAW_Q, "text"),
                Arguments.of("RAW queue, Byte[]", RAW_Q, new Byte[] {1}),
                Arguments.of("RAW queue, object", RAW_Q, new Order(1, null)),
                Arguments.of("TEXT queue, byte[]", TEXT_Q, new byte[] {65}),
                Arguments.of("TEXT queue, Integer", TEXT_Q, 42),
                Arguments.of("TEXT queue, StringBuilder", TEXT_Q, new StringBuilder("x")),
                Arguments.of("JSON queue, empty", JSON_Q, ""),
                Arguments.of("JSON queue, blank", JSON_Q, "   "),
                Arguments.of("JSON queue, unclosed object", JSON_Q, "{\"a\": 1"),
                Arguments.of("JSON queue, two values", JSON_Q, "{} {}"),
                Arguments.of("JSON queue, trailing garbage", JSON_Q, "[1, 2] x"),
                Arguments.of("JSON queue, NaN", JSON_Q, "NaN"),
                Arguments.of("JSON queue, single quotes", JSON_Q, "{'a': 1}"),
                Arguments.of("JSON queue, comment", JSON_Q, "{\"a\": 1 /* c */}"),
                Arguments.of("JSON queue, deep nesting", JSON_Q, "[".repeat(100_000) + "]".repeat(100_000)),
                Arguments.of("JSON queue, byte[]", JSON_Q, "{}".getBytes()),
                Arguments.of("JSON queue, Map", JSON_Q, java.util.Map.of("a", 1)),
                Arguments.of("XML queue, empty", XML_Q, ""),
                Arguments.of("XML queue, not XML", XML_Q, "hello"),
                Arguments.of("XML queue, unclosed", XML_Q, "<a>"),
                Arguments.of("XML queue, two roots", XML_Q, "<a/><b/>"),
                Arguments.of("XML queue, JSON", XML_Q, "{\"a\": 1}"),
                Arguments.of("XML queue, external entity (XXE)", XML_Q, xxe),
                Arguments.of("XML queue, entity expansion (billion laughs)", XML_Q, laughs),
                Arguments.of("XML queue, external DTD", XML_Q, "<!DOCTYPE a SYSTEM \"http://127.0.0.1:9/a.dtd\"><a/>"),
                Arguments.of("XML queue, internal DTD", XML_Q, "<!DOCTYPE a [<!ELEMENT a ANY>]><a/>"),
                Arguments.of("XML queue, deep nesting", XML_Q, "<a>".repeat(100_000) + "</a>".repeat(100_000)),
                Arguments.of("XML queue, byte[]", XML_Q, "<a/>".getBytes()),
                Arguments.of("OBJECT queue, String", OBJ_Q, "text"),
                Arguments.of("OBJECT queue, another class", OBJ_Q, new java.util.ArrayList<>()),
                Arguments.of("OBJECT queue, not serializable inside", OBJ_Q, new Order(1, new Object())),
                Arguments.of("OBJECT queue, byte[]", OBJ_Q, new byte[] {1}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongPayloads")
    void enqueue_refuses_a_payload_of_the_wrong_type_or_malformed(String what, String queue, Object payload) {
        assertRefused(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.enqueue(queue, Message.of(payload)));
    }

    @Test
    void enqueue_with_IMMEDIATE_visibility_refuses_the_same_way_and_writes_nothing() {
        EnqueueOptions immediate = EnqueueOptions.create().visibility(Visibility.IMMEDIATE);
        assertRefused(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.enqueue(JSON_Q, immediate, Message.of("{")));
        assertRefused(AqError.INVALID_DELAY,
                () -> session.enqueue(TEXT_Q, immediate, Message.of("x", MessageProperties.create().delay(-1))));
        assertRefused(AqError.ENQUEUE_DISABLED, () -> session.enqueue(STOPPED_Q, immediate, Message.of("x")));
    }

    // ------------------------------------------------------------------ enqueue: payload size

    @Test
    void enqueue_refuses_a_payload_larger_than_maxPayloadBytes_of_every_type() {
        try (AqueductEngine small = AqueductEngine.builder().derbyInMemory(databaseName + "_small").timeManager(false)
                .clock(new ManualClock()).maxPayloadBytes(16).start(); QueueSession s = small.openSession()) {
            for (PayloadType type : List.of(PayloadType.RAW, PayloadType.TEXT, PayloadType.JSON, PayloadType.XML)) {
                s.admin().createQueueTable(type + "_QT", QueueTableProperties.create().payloadType(type));
                s.admin().createQueue(type + "_Q", type + "_QT", QueueProperties.create());
                s.admin().startQueue(type + "_Q", true, true);
            }
            s.admin().createQueueTable("OBJ_QT", QueueTableProperties.create().objectType(Order.class.getName()));
            s.admin().createQueue("OBJ_Q", "OBJ_QT", QueueProperties.create());
            s.admin().startQueue("OBJ_Q", true, true);
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("RAW_Q", Message.of(new byte[17])));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("TEXT_Q", Message.of("x".repeat(17))));
            // 9 characters, 18 bytes in UTF-8: the limit is in stored bytes
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("TEXT_Q", Message.of("\u00e9".repeat(9))));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("JSON_Q", Message.of("[" + "1,".repeat(10) + "1]")));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("XML_Q", Message.of("<a>" + "x".repeat(20) + "</a>")));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("OBJ_Q", Message.of(new Order(1, "x"))));
            expectError(AqError.INVALID_VALUE, () -> s.enqueueArray("TEXT_Q", null,
                    List.of(Message.of("ok"), Message.of("x".repeat(1000)))));
            s.commit();
            for (String q : List.of("RAW_Q", "TEXT_Q", "JSON_Q", "XML_Q", "OBJ_Q")) {
                expectError(AqError.NO_MESSAGE, () -> s.dequeue(q, noWait()));
            }
            // the session still works within the limit
            s.enqueue("TEXT_Q", Message.of("fits"));
            s.commit();
            assertThat(s.dequeue("TEXT_Q", noWait()).text()).isEqualTo("fits");
            s.commit();
        }
    }

    // ------------------------------------------------------------------ enqueue: message properties

    static Stream<Arguments> badProperties() {
        long years20000 = 20_000L * 365 * 86_400;
        return Stream.of(
                Arguments.of("delay -1", AqError.INVALID_DELAY, (Supplier<MessageProperties>) () -> MessageProperties.create().delay(-1)),
                Arguments.of("delay Long.MIN_VALUE", AqError.INVALID_DELAY, (Supplier<MessageProperties>) () -> MessageProperties.create().delay(Long.MIN_VALUE)),
                Arguments.of("delay Long.MAX_VALUE", AqError.INVALID_DELAY, (Supplier<MessageProperties>) () -> MessageProperties.create().delay(Long.MAX_VALUE)),
                Arguments.of("delay past the year 9999", AqError.INVALID_DELAY, (Supplier<MessageProperties>) () -> MessageProperties.create().delay(years20000)),
                Arguments.of("expiration -2", AqError.INVALID_EXPIRATION, (Supplier<MessageProperties>) () -> MessageProperties.create().expiration(-2)),
                Arguments.of("expiration Long.MIN_VALUE", AqError.INVALID_EXPIRATION, (Supplier<MessageProperties>) () -> MessageProperties.create().expiration(Long.MIN_VALUE)),
                Arguments.of("expiration Long.MAX_VALUE", AqError.INVALID_EXPIRATION, (Supplier<MessageProperties>) () -> MessageProperties.create().expiration(Long.MAX_VALUE)),
                Arguments.of("expiration past the year 9999", AqError.INVALID_EXPIRATION, (Supplier<MessageProperties>) () -> MessageProperties.create().expiration(years20000)),
                Arguments.of("delay + expiration past the year 9999", AqError.INVALID_EXPIRATION, (Supplier<MessageProperties>) () -> MessageProperties.create()
                        .delay(years20000 / 4).expiration(years20000 / 4 * 3)),
                Arguments.of("correlation of 129 bytes", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().correlation("c".repeat(129))),
                Arguments.of("correlation of 65 two-byte characters", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().correlation("\u00e9".repeat(65))),
                Arguments.of("correlation with NUL", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().correlation("a\u0000b")),
                Arguments.of("correlation with a lone surrogate", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().correlation("a\uD800")),
                Arguments.of("exception queue unknown", AqError.QUEUE_NOT_FOUND, (Supplier<MessageProperties>) () -> MessageProperties.create().exceptionQueue("NO_SUCH_Q")),
                Arguments.of("exception queue malformed", AqError.INVALID_NAME, (Supplier<MessageProperties>) () -> MessageProperties.create().exceptionQueue("X'; DROP TABLE Q --")),
                Arguments.of("exception queue blank", AqError.INVALID_NAME, (Supplier<MessageProperties>) () -> MessageProperties.create().exceptionQueue(" ")),
                Arguments.of("exception queue a normal queue", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().exceptionQueue(STOPPED_Q)),
                Arguments.of("exception queue of another queue table", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().exceptionQueue("AQ$_RAW_QT_E")),
                Arguments.of("sender with a NUL", AqError.INVALID_VALUE, (Supplier<MessageProperties>) () -> MessageProperties.create().sender(Agent.named("S\u0000"))),
                Arguments.of("sender name of 31 bytes", AqError.NAME_TOO_LONG, (Supplier<MessageProperties>) () -> MessageProperties.create().sender(Agent.named("S".repeat(31)))),
                Arguments.of("recipients on a single-consumer queue", AqError.NOT_MULTI_CONSUMER, (Supplier<MessageProperties>) () -> MessageProperties.create().recipients(List.of(SUB1))),
                Arguments.of("empty recipient list on a single-consumer queue", AqError.NOT_MULTI_CONSUMER, (Supplier<MessageProperties>) () -> MessageProperties.create().recipients(List.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badProperties")
    void enqueue_refuses_bad_message_properties(String what, int code, Supplier<MessageProperties> properties) {
        assertRefused(code, () -> session.enqueue(TEXT_Q, Message.of("x", properties.get())));
    }

    @Test
    void enqueue_keeps_extreme_priorities_exactly_and_in_order() {
        MessageId low = session.enqueue(TEXT_Q, Message.of("max", MessageProperties.create().priority(Integer.MAX_VALUE)));
        MessageId high = session.enqueue(TEXT_Q, Message.of("min", MessageProperties.create().priority(Integer.MIN_VALUE)));
        session.commit();
        Message first = session.dequeue(TEXT_Q, noWait());
        assertThat(first.id()).isEqualTo(high);
        assertThat(first.properties().priority()).isEqualTo(Integer.MIN_VALUE);
        assertThat(session.dequeue(TEXT_Q, noWait()).text()).isEqualTo("t1");
        assertThat(session.dequeue(TEXT_Q, noWait().messageId(low)).properties().priority()).isEqualTo(Integer.MAX_VALUE);
        session.commit();
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ enqueue: recipients on a multi-consumer queue

    static Stream<Arguments> badRecipients() {
        return Stream.of(
                Arguments.of("empty list", AqError.NO_RECIPIENTS, (Supplier<List<Agent>>) List::of),
                Arguments.of("the same agent twice", AqError.DUPLICATE_RECIPIENTS, (Supplier<List<Agent>>) () -> List.of(SUB1, SUB1)),
                Arguments.of("the same name in another case", AqError.DUPLICATE_RECIPIENTS,
                        (Supplier<List<Agent>>) () -> List.of(Agent.named("sub1"), Agent.named("SUB1"))),
                Arguments.of("a null agent", AqError.INVALID_VALUE, (Supplier<List<Agent>>) () -> Arrays.asList(SUB1, null)),
                Arguments.of("only a null agent", AqError.INVALID_VALUE, (Supplier<List<Agent>>) () -> Arrays.asList((Agent) null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecipients")
    void enqueue_refuses_a_bad_recipient_list(String what, int code, Supplier<List<Agent>> recipients) {
        assertRefused(code, () -> session.enqueue(MC_Q, Message.of("x", MessageProperties.create().recipients(recipients.get()))));
    }

    @Test
    void enqueue_refuses_a_message_no_subscriber_takes() {
        admin.createQueue("MC_EMPTY", MC_QT, QueueProperties.create());
        admin.startQueue("MC_EMPTY", true, true);
        assertRefused(AqError.NO_RECIPIENTS, () -> session.enqueue("MC_EMPTY", Message.of("x")));
        admin.addSubscriber("MC_EMPTY", Agent.named("PICKY"), "priority = 99");
        assertRefused(AqError.NO_RECIPIENTS, () -> session.enqueue("MC_EMPTY", Message.of("x")));
    }

    // ------------------------------------------------------------------ enqueue: transformation option

    @Test
    void enqueue_refuses_a_bad_unknown_or_failing_transformation() {
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation("NO_SUCH_T"), Message.of("x")));
        assertRefused(AqError.INVALID_NAME,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation("T'; --"), Message.of("x")));
        assertRefused(AqError.INVALID_NAME,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation(""), Message.of("x")));
        assertRefused(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation(TO_JSON_T), Message.of("x")));
        assertRefused(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation(UPPER_T), Message.of(new byte[] {1})));
        assertRefused(AqError.TRANSFORMATION_FAILED,
                () -> session.enqueue(TEXT_Q, EnqueueOptions.create().transformation(BOOM_T), Message.of("x")));
        assertRefused(AqError.TRANSFORMATION_FAILED, () -> session.enqueueArray(TEXT_Q,
                EnqueueOptions.create().transformation(BOOM_T), List.of(Message.of("a"), Message.of("b"))));
    }

    // ------------------------------------------------------------------ dequeue: queue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueueNames")
    void dequeue_refuses_a_bad_or_unknown_queue_name(String what, String queue, int code) {
        assertRefused(code, () -> session.dequeue(queue, noWait()));
        assertRefused(code, () -> session.dequeueArray(queue, noWait(), 5));
    }

    @Test
    void dequeue_refuses_a_queue_disabled_for_dequeue() {
        assertRefused(AqError.DEQUEUE_DISABLED, () -> session.dequeue(STOPPED_Q, noWait()));
        assertRefused(AqError.DEQUEUE_DISABLED, () -> session.dequeue(TEXT_EXCEPTION_Q, noWait()));
        assertRefused(AqError.DEQUEUE_DISABLED, () -> session.dequeueArray(STOPPED_Q, noWait(), 3));
    }

    // ------------------------------------------------------------------ dequeue: options

    @ParameterizedTest(name = "wait {0}")
    @ValueSource(longs = {-2, -1000, Long.MIN_VALUE})
    void dequeue_refuses_a_wait_below_FOREVER(long wait) {
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, DequeueOptions.create().waitSeconds(wait)));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeueArray(TEXT_Q, DequeueOptions.create().waitSeconds(wait), 2));
    }

    @ParameterizedTest(name = "wait {0}")
    @ValueSource(longs = {Long.MAX_VALUE, Long.MAX_VALUE / 1000, Long.MAX_VALUE / 1000 - 1, 9_300_000_000_000_000L})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void dequeue_with_a_huge_wait_waits_instead_of_timing_out_at_once(long wait) throws Exception {
        admin.createQueue("EMPTY_Q", TEXT_QT, QueueProperties.create());
        admin.startQueue("EMPTY_Q", true, true);
        CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
            try (QueueSession own = engine.openSession()) {
                String text = own.dequeue("EMPTY_Q", DequeueOptions.create().waitSeconds(wait)).text();
                own.commit();
                return text;
            }
        });
        org.awaitility.Awaitility.await("a dequeue waiting " + wait + " seconds on an empty queue keeps waiting")
                .during(java.time.Duration.ofMillis(500)).atMost(java.time.Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        session.enqueue("EMPTY_Q", Message.of("woken"));
        session.commit();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo("woken");
    }

    @Test
    void dequeue_refuses_bad_correlations() {
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().correlation("c".repeat(129))));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().correlation("\u00e9".repeat(65))));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().correlation("C\u0000")));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().correlation("C\uDBFF")));
        // wildcard and LIKE-escape abuse match nothing: no message, nothing taken
        assertRefused(AqError.NO_MESSAGE, () -> session.dequeue(TEXT_Q, noWait().correlation("C1' OR '1'='1")));
        assertRefused(AqError.NO_MESSAGE, () -> session.dequeue(TEXT_Q, noWait().correlation("\\%")));
        assertRefused(AqError.NO_MESSAGE,
                () -> session.dequeue(TEXT_Q, noWait().navigation(Navigation.FIRST_MESSAGE).correlation("%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_x")));
    }

    @Test
    void dequeue_refuses_a_changed_correlation_without_FIRST_MESSAGE() {
        session.enqueue(TEXT_Q, Message.of("t2", MessageProperties.create().correlation("C1")));
        session.commit();
        session.dequeue(TEXT_Q, noWait().mode(DequeueMode.BROWSE).correlation("C1"));
        DequeueOptions next = noWait().mode(DequeueMode.BROWSE).navigation(Navigation.NEXT_MESSAGE);
        assertRefused(AqError.CORRELATION_CHANGED, () -> session.dequeue(TEXT_Q, next.copy().correlation("C2")));
        session.dequeue(TEXT_Q, noWait().mode(DequeueMode.BROWSE).correlation("C1"));
        assertRefused(AqError.CORRELATION_CHANGED, () -> session.dequeue(TEXT_Q, next.copy()));
    }

    @Test
    void dequeue_refuses_consumer_names_that_do_not_fit_the_queue() {
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().consumerName("SUB1")));
        assertRefused(AqError.CONSUMER_NAME_REQUIRED, () -> session.dequeue(MC_Q, noWait()));
        assertRefused(AqError.CONSUMER_NAME_REQUIRED, () -> session.dequeueArray(MC_Q, noWait(), 3));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(MC_Q, noWait().consumerName("SUB\u0000")));
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(MC_Q, noWait().consumerName("SUB\uD800")));
    }

    @ParameterizedTest(name = "consumer {0}")
    @ValueSource(strings = {"NOBODY", "sub1' OR '1'='1", "SUB1; DELETE FROM AQ_MESSAGE_CONSUMER", "%", "SUB_", "",
            "   ", "\"SUB1\"", "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"})
    void dequeue_as_a_consumer_nobody_sent_to_finds_nothing_and_takes_nothing(String consumer) {
        for (DequeueMode mode : DequeueMode.values()) {
            assertRefused(AqError.NO_MESSAGE, () -> session.dequeue(MC_Q, noWait().consumerName(consumer).mode(mode)));
        }
    }

    static Stream<Arguments> badConditions() {
        return Stream.of(
                Arguments.of("empty", ""),
                Arguments.of("blank", "  "),
                Arguments.of("unbalanced", "(priority = 1"),
                Arguments.of("unterminated string", "corrid = 'x"),
                Arguments.of("dangling AND", "priority = 1 AND"),
                Arguments.of("SQL injection", "1=1; DELETE FROM AQ_MESSAGE"),
                Arguments.of("SQL comment", "priority = 1 -- x"),
                Arguments.of("subquery", "msgid IN (SELECT MSGID FROM AQ_MESSAGE)"),
                Arguments.of("function call", "SYSTEM_EXEC('rm')"),
                Arguments.of("deep nesting", "(".repeat(10_000) + "priority = 1" + ")".repeat(10_000)),
                Arguments.of("over 100 000 characters", "corrid = '" + "x".repeat(100_001) + "'"),
                Arguments.of("NUL", "priority = 1\u0000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConditions")
    void dequeue_refuses_a_condition_that_is_not_a_valid_expression(String what, String condition) {
        assertRefused(AqError.INVALID_EXPRESSION, () -> session.dequeue(TEXT_Q, noWait().condition(condition)));
        assertRefused(AqError.INVALID_EXPRESSION, () -> session.dequeueArray(TEXT_Q, noWait().condition(condition), 3));
    }

    @Test
    void dequeue_refuses_a_message_id_not_in_the_queue() {
        MessageId elsewhere = session.dequeue(RAW_Q, browseFirst()).id();
        session.commit();
        assertRefused(AqError.MESSAGE_NOT_FOUND, () -> session.dequeue(TEXT_Q, noWait().messageId(elsewhere)));
        assertRefused(AqError.MESSAGE_NOT_FOUND, () -> session.dequeue(TEXT_Q, noWait().messageId(MessageId.of(new byte[16]))));
        assertRefused(AqError.MESSAGE_NOT_FOUND,
                () -> session.dequeue(TEXT_Q, noWait().messageId(MessageId.parse("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")).mode(DequeueMode.BROWSE)));
    }

    @Test
    void message_ids_refuse_malformed_text_and_bytes() {
        for (String bad : Arrays.asList(null, "", "XYZ", "0".repeat(31), "0".repeat(33), "G".repeat(32), "'; DROP --" + "0".repeat(22))) {
            assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().messageId(MessageId.parse(bad))));
        }
        for (byte[] bad : Arrays.asList(null, new byte[0], new byte[15], new byte[17])) {
            assertRefused(AqError.INVALID_VALUE, () -> session.dequeue(TEXT_Q, noWait().messageId(MessageId.of(bad))));
        }
    }

    @Test
    void dequeue_refuses_a_bad_unknown_or_failing_transformation_and_releases_the_message() {
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> session.dequeue(TEXT_Q, noWait().transformation("NO_SUCH_T")));
        assertRefused(AqError.INVALID_NAME, () -> session.dequeue(TEXT_Q, noWait().transformation("a b")));
        assertRefused(AqError.TRANSFORMATION_WRONG_TYPE, () -> session.dequeue(JSON_Q, noWait().transformation(UPPER_T)));
        // (REMOVE_NODATA returns no payload: there is nothing to transform)
        for (DequeueMode mode : List.of(DequeueMode.BROWSE, DequeueMode.LOCKED, DequeueMode.REMOVE)) {
            assertRefused(AqError.TRANSFORMATION_FAILED, () -> session.dequeue(TEXT_Q, noWait().mode(mode).transformation(BOOM_T)));
        }
        assertRefused(AqError.TRANSFORMATION_FAILED, () -> session.dequeueArray(TEXT_Q, noWait().transformation(BOOM_T), 5));
        assertRefused(AqError.TRANSFORMATION_FAILED, () -> session.dequeue(TEXT_Q,
                noWait().visibility(Visibility.IMMEDIATE).transformation(BOOM_T)));
        // the message is still there for a plain dequeue, with no attempt counted
        Message m = session.dequeue(TEXT_Q, noWait());
        assertThat(m.text()).isEqualTo("t1");
        assertThat(m.properties().attempts()).isZero();
        session.commit();
    }

    @Test
    void dequeue_refuses_an_object_payload_of_a_class_the_deserialization_filter_denies_and_leaves_it() throws Exception {
        session.enqueue(OBJ_Q, Message.of(new Order(2, new java.net.URI("http://example.invalid/"))));
        session.commit();
        session.dequeue(OBJ_Q, noWait()); // the harmless first message
        session.commit();
        for (DequeueMode mode : List.of(DequeueMode.BROWSE, DequeueMode.LOCKED, DequeueMode.REMOVE)) {
            assertRefused(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.dequeue(OBJ_Q, noWait().mode(mode)));
        }
        assertRefused(AqError.PAYLOAD_TYPE_MISMATCH, () -> session.dequeueArray(OBJ_Q, noWait(), 5));
    }

    // ------------------------------------------------------------------ dequeueArray: sizes

    @ParameterizedTest(name = "max {0}")
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void dequeueArray_refuses_a_size_below_one(int max) {
        assertRefused(AqError.INVALID_VALUE, () -> session.dequeueArray(TEXT_Q, noWait(), max));
    }

    @Test
    void dequeueArray_of_Integer_MAX_VALUE_returns_what_there_is() {
        List<Message> got = session.dequeueArray(TEXT_Q, noWait().mode(DequeueMode.BROWSE), Integer.MAX_VALUE);
        assertThat(got).extracting(Message::text).containsExactly("t1");
        session.commit();
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ listen

    @Test
    void listen_refuses_a_null_or_empty_agent_list_and_null_agents() {
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(null, DequeueOptions.NO_WAIT));
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(List.of(), DequeueOptions.NO_WAIT));
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(Arrays.asList(new Agent(null, TEXT_Q, 0), null), 0));
    }

    @Test
    void listen_refuses_agents_that_do_not_name_a_queue_they_fit() {
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(List.of(Agent.named("SUB1")), 0));
        assertRefused(AqError.QUEUE_DOES_NOT_EXIST, () -> session.listen(List.of(new Agent(null, "NO_SUCH_Q", 0)), 0));
        assertRefused(AqError.INVALID_NAME, () -> session.listen(List.of(new Agent(null, "X'; DROP TABLE Y --", 0)), 0));
        assertRefused(AqError.NAME_TOO_LONG, () -> session.listen(List.of(new Agent(null, "Q".repeat(31), 0)), 0));
        assertRefused(AqError.CONSUMER_NAME_REQUIRED, () -> session.listen(List.of(new Agent(null, MC_Q, 0)), 0));
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(List.of(new Agent("SUB1", TEXT_Q, 0)), 0));
        // a bad agent late in the list is refused before anything is looked at
        assertRefused(AqError.QUEUE_DOES_NOT_EXIST,
                () -> session.listen(List.of(new Agent(null, TEXT_Q, 0), new Agent(null, "NO_SUCH_Q", 0)), 0));
    }

    @ParameterizedTest(name = "wait {0}")
    @ValueSource(longs = {-2, Long.MIN_VALUE})
    void listen_refuses_a_wait_below_FOREVER(long wait) {
        assertRefused(AqError.INVALID_VALUE, () -> session.listen(List.of(new Agent(null, TEXT_Q, 0)), wait));
    }

    @Test
    void listen_without_messages_times_out_with_25254_and_takes_nothing() {
        admin.createQueue("EMPTY_Q", TEXT_QT, QueueProperties.create());
        admin.startQueue("EMPTY_Q", true, true);
        assertRefused(AqError.LISTEN_TIMEOUT, () -> session.listen(List.of(new Agent(null, "EMPTY_Q", 0)), DequeueOptions.NO_WAIT));
        assertRefused(AqError.LISTEN_TIMEOUT, () -> session.listen(List.of(new Agent("NOBODY", MC_Q, 0)), DequeueOptions.NO_WAIT));
    }

    @ParameterizedTest(name = "wait {0}")
    @ValueSource(longs = {Long.MAX_VALUE, Long.MAX_VALUE / 1000})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void listen_with_a_huge_wait_waits_instead_of_timing_out_at_once(long wait) throws Exception {
        admin.createQueue("EMPTY_Q", TEXT_QT, QueueProperties.create());
        admin.startQueue("EMPTY_Q", true, true);
        CompletableFuture<Agent> waiting = CompletableFuture.supplyAsync(() -> {
            try (QueueSession own = engine.openSession()) {
                return own.listen(List.of(new Agent(null, "EMPTY_Q", 0)), wait);
            }
        });
        org.awaitility.Awaitility.await("a LISTEN waiting " + wait + " seconds on an empty queue keeps waiting")
                .during(java.time.Duration.ofMillis(500)).atMost(java.time.Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        session.enqueue("EMPTY_Q", Message.of("woken"));
        session.commit();
        assertThat(waiting.get(30, TimeUnit.SECONDS).address()).isEqualTo("EMPTY_Q");
    }

    // ------------------------------------------------------------------ calls after close

    @Test
    void a_closed_session_refuses_every_call_with_25400_and_changes_nothing() {
        QueueSession closed = engine.openSession();
        closed.close();
        List<String> before = snapshot();
        expectError(AqError.SESSION_STATE, () -> closed.enqueue(TEXT_Q, Message.of("x")));
        expectError(AqError.SESSION_STATE, () -> closed.enqueueArray(TEXT_Q, null, List.of(Message.of("x"))));
        expectError(AqError.SESSION_STATE, () -> closed.dequeue(TEXT_Q, noWait()));
        expectError(AqError.SESSION_STATE, () -> closed.dequeueArray(TEXT_Q, noWait(), 2));
        expectError(AqError.SESSION_STATE, () -> closed.listen(List.of(new Agent(null, TEXT_Q, 0)), 0));
        expectError(AqError.SESSION_STATE, closed::commit);
        expectError(AqError.SESSION_STATE, closed::rollback);
        expectError(AqError.SESSION_STATE, closed::admin);
        closed.close(); // a second close is harmless
        assertThat(snapshot()).isEqualTo(before);
        assertSessionUsable(session);
    }

    @Test
    void a_session_closed_with_uncommitted_work_rolls_it_back() {
        List<String> before = snapshot();
        QueueSession s = engine.openSession();
        s.enqueue(TEXT_Q, Message.of("never"));
        s.dequeue(RAW_Q, noWait().mode(DequeueMode.LOCKED));
        s.close();
        assertThat(snapshot()).isEqualTo(before);
        assertSessionUsable(session);
    }

    @Test
    void after_the_engine_is_closed_sessions_and_admin_refuse_with_25400() {
        QueueSession s = engine.openSession();
        io.aqueduct.api.QueueAdmin a = s.admin();
        engine.close();
        java.util.Map<String, org.junit.jupiter.api.function.Executable> calls = new java.util.LinkedHashMap<>();
        calls.put("enqueue", () -> s.enqueue(TEXT_Q, Message.of("x")));
        calls.put("dequeue", () -> s.dequeue(TEXT_Q, noWait()));
        calls.put("dequeueArray", () -> s.dequeueArray(TEXT_Q, noWait(), 2));
        calls.put("listen", () -> s.listen(List.of(new Agent(null, TEXT_Q, 0)), 0));
        calls.put("commit", s::commit);
        calls.put("engine.openSession", engine::openSession);
        calls.put("createQueueTable", () -> a.createQueueTable("LATE_QT", QueueTableProperties.create()));
        calls.put("startQueue", () -> a.startQueue(STOPPED_Q, true, true));
        java.util.Map<String, String> outcome = new java.util.LinkedHashMap<>();
        calls.forEach((name, call) -> {
            try {
                call.execute();
                outcome.put(name, "succeeded");
            } catch (io.aqueduct.api.AqException e) {
                outcome.put(name, "AQ-" + e.errorCode());
            } catch (Throwable t) {
                outcome.put(name, t.getClass().getName() + ": " + t.getMessage());
            }
        });
        java.util.Map<String, String> expected = new java.util.LinkedHashMap<>();
        calls.keySet().forEach(k -> expected.put(k, "AQ-" + AqError.SESSION_STATE));
        s.close();
        assertThat(outcome).isEqualTo(expected);
    }
}
