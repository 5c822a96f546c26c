package io.aqueduct.engine.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input to every method of {@link io.aqueduct.api.QueueAdmin}: each is refused with its AQ
 * number, nothing in the store changes, and the session goes on working.
 */
class HostileAdminInputTest extends HostileFixture {

    /** Names that are not identifiers, with the error each must give (44003 not valid, 24019 too long). */
    static Stream<Arguments> badNamesForCreate() {
        return Stream.of(
                Arguments.of("null", null, AqError.INVALID_NAME),
                Arguments.of("empty", "", AqError.INVALID_NAME),
                Arguments.of("blank", "   ", AqError.INVALID_NAME),
                Arguments.of("tab and newline", "\t\n", AqError.INVALID_NAME),
                Arguments.of("starts with a digit", "1QT", AqError.INVALID_NAME),
                Arguments.of("starts with underscore", "_QT", AqError.INVALID_NAME),
                Arguments.of("inner blank", "Q T", AqError.INVALID_NAME),
                Arguments.of("double-quoted", "\"QT\"", AqError.INVALID_NAME),
                Arguments.of("single-quoted", "'QT'", AqError.INVALID_NAME),
                Arguments.of("two dots", "A.B.C", AqError.INVALID_NAME),
                Arguments.of("empty schema", ".QT", AqError.INVALID_NAME),
                Arguments.of("empty name after the dot", "APP.", AqError.INVALID_NAME),
                Arguments.of("SQL injection (statement)", "QT;DROP TABLE AQ_MESSAGE", AqError.INVALID_NAME),
                Arguments.of("SQL injection (quote)", "QT' OR '1'='1", AqError.INVALID_NAME),
                Arguments.of("SQL comment", "QT--", AqError.INVALID_NAME),
                Arguments.of("view-name injection", "QT\" AS SELECT * FROM SYS.SYSTABLES --", AqError.INVALID_NAME),
                Arguments.of("NUL character", "Q\u0000T", AqError.INVALID_NAME),
                Arguments.of("lone high surrogate", "Q\uD800", AqError.INVALID_NAME),
                Arguments.of("lone low surrogate", "Q\uDC00T", AqError.INVALID_NAME),
                Arguments.of("zero-width space", "Q\u200BT", AqError.INVALID_NAME),
                Arguments.of("emoji", "Q\uD83D\uDE00", AqError.INVALID_NAME),
                Arguments.of("25 ASCII bytes", "Q".repeat(25), AqError.NAME_TOO_LONG),
                Arguments.of("13 two-byte letters (26 bytes)", "\u00c9".repeat(13), AqError.NAME_TOO_LONG),
                Arguments.of("9 three-byte letters (27 bytes)", "\u4e2d".repeat(9), AqError.NAME_TOO_LONG),
                Arguments.of("23 bytes that upper-case to 34", "A" + "\u0149".repeat(11), AqError.NAME_TOO_LONG),
                Arguments.of("schema of 31 bytes", "S".repeat(31) + ".QT", AqError.NAME_TOO_LONG),
                Arguments.of("10 000 characters", "Q".repeat(10_000), AqError.NAME_TOO_LONG));
    }

    /** Names looked up (queue or queue table) that cannot name anything: malformed or longer than any name. */
    static Stream<Arguments> badNamesForLookup() {
        return Stream.of(
                Arguments.of("null", null, AqError.INVALID_NAME),
                Arguments.of("empty", "", AqError.INVALID_NAME),
                Arguments.of("blank", " \t ", AqError.INVALID_NAME),
                Arguments.of("double-quoted", "\"TEXT_Q\"", AqError.INVALID_NAME),
                Arguments.of("two dots", "APP.TEXT_Q.X", AqError.INVALID_NAME),
                Arguments.of("SQL injection", "TEXT_Q' OR '1'='1", AqError.INVALID_NAME),
                Arguments.of("NUL character", "TEXT_Q\u0000", AqError.INVALID_NAME),
                Arguments.of("lone surrogate", "TEXT_Q\uD800", AqError.INVALID_NAME),
                Arguments.of("31 bytes", "Q".repeat(31), AqError.NAME_TOO_LONG));
    }

    /** Comments a store cannot keep as given. */
    static Stream<Arguments> badComments() {
        return Stream.of(
                Arguments.of("2001 ASCII bytes", "c".repeat(2001)),
                Arguments.of("1001 two-byte characters (2002 bytes)", "\u00e9".repeat(1001)),
                Arguments.of("NUL character", "a\u0000b"),
                Arguments.of("lone surrogate", "a\uD800b"));
    }

    // ------------------------------------------------------------------ createQueueTable

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForCreate")
    void createQueueTable_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.createQueueTable(name, QueueTableProperties.create()));
    }

    @Test
    void createQueueTable_refuses_an_existing_name_in_any_case_and_with_the_schema() {
        assertRefused(AqError.QUEUE_TABLE_EXISTS, () -> admin.createQueueTable("text_qt", QueueTableProperties.create()));
        assertRefused(AqError.QUEUE_TABLE_EXISTS, () -> admin.createQueueTable(" app.Text_Qt ", QueueTableProperties.create()));
    }

    @Test
    void createQueueTable_refuses_a_table_whose_exception_queue_name_is_taken() {
        admin.createQueue("AQ$_NEWT_E", TEXT_QT, QueueProperties.create());
        assertRefused(AqError.QUEUE_EXISTS, () -> admin.createQueueTable("NEWT", QueueTableProperties.create()));
    }

    @ParameterizedTest(name = "object type {0}")
    @NullSource
    @ValueSource(strings = {"", "  ", "not a class", "java.lang.String; DROP TABLE AQ_MESSAGE", "1abc", "a..b", ".a", "a.",
            "java.util.List<String>", "a\u0000b"})
    void createQueueTable_refuses_an_object_type_that_is_not_a_class_name(String objectType) {
        assertRefused(AqError.INVALID_VALUE,
                () -> admin.createQueueTable("NEWT", QueueTableProperties.create().objectType(objectType)));
    }

    @Test
    void createQueueTable_refuses_an_object_type_name_longer_than_the_catalog_keeps() {
        String longName = "a" + ".b".repeat(200); // 401 characters, a valid class name
        assertRefused(AqError.INVALID_VALUE,
                () -> admin.createQueueTable("NEWT", QueueTableProperties.create().objectType(longName)));
    }

    @Test
    void createQueueTable_refuses_payload_type_OBJECT_without_its_class() {
        assertRefused(AqError.INVALID_VALUE,
                () -> admin.createQueueTable("NEWT", QueueTableProperties.create().payloadType(PayloadType.OBJECT)));
    }

    @Test
    void createQueueTable_takes_null_settings_as_the_defaults() {
        admin.createQueueTable("NEWT", QueueTableProperties.create().payloadType(null).sortOrder(null).messageGrouping(null));
        assertThat(admin.queueTable("NEWT")).satisfies(t -> {
            assertThat(t.payloadType()).isEqualTo(PayloadType.RAW);
            assertThat(t.sortOrder()).isEqualTo(SortOrder.ENQ_TIME);
            assertThat(t.messageGrouping()).isEqualTo(MessageGrouping.NONE);
        });
        admin.createQueueTable("NEWT2", null);
        assertThat(admin.queueTable("NEWT2").payloadType()).isEqualTo(PayloadType.RAW);
        assertSessionUsable(session);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badComments")
    void createQueueTable_refuses_a_comment_the_store_cannot_keep(String what, String comment) {
        assertRefused(AqError.INVALID_VALUE,
                () -> admin.createQueueTable("NEWT", QueueTableProperties.create().comment(comment)));
    }

    // ------------------------------------------------------------------ alterQueueTable

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void alterQueueTable_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.alterQueueTable(name, "c"));
    }

    @Test
    void alterQueueTable_refuses_an_unknown_queue_table() {
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.alterQueueTable("NO_SUCH_QT", "c"));
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.alterQueueTable("OTHER.TEXT_QT", "c"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badComments")
    void alterQueueTable_refuses_a_comment_the_store_cannot_keep(String what, String comment) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueueTable(TEXT_QT, comment));
    }

    // ------------------------------------------------------------------ dropQueueTable

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void dropQueueTable_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.dropQueueTable(name, true));
    }

    @Test
    void dropQueueTable_refuses_an_unknown_queue_table() {
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.dropQueueTable("NO_SUCH_QT", true));
    }

    @Test
    void dropQueueTable_without_force_refuses_a_table_that_still_has_queues() {
        assertRefused(AqError.QUEUE_TABLE_HAS_QUEUES, () -> admin.dropQueueTable(TEXT_QT, false));
    }

    // ------------------------------------------------------------------ createQueue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForCreate")
    void createQueue_refuses_a_bad_queue_name(String what, String name, int code) {
        assertRefused(code, () -> admin.createQueue(name, TEXT_QT, QueueProperties.create()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void createQueue_refuses_a_bad_queue_table_name(String what, String name, int code) {
        assertRefused(code, () -> admin.createQueue("NEWQ", name, QueueProperties.create()));
    }

    @Test
    void createQueue_refuses_an_unknown_queue_table() {
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.createQueue("NEWQ", "NO_SUCH_QT", QueueProperties.create()));
    }

    @Test
    void createQueue_refuses_an_existing_queue_also_the_exception_queue() {
        assertRefused(AqError.QUEUE_EXISTS, () -> admin.createQueue("text_q", TEXT_QT, QueueProperties.create()));
        assertRefused(AqError.QUEUE_EXISTS, () -> admin.createQueue(TEXT_EXCEPTION_Q, TEXT_QT, QueueProperties.create()));
    }

    @Test
    void createQueue_refuses_a_queue_in_another_schema_than_its_table() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createQueue("OTHER.NEWQ", TEXT_QT, QueueProperties.create()));
    }

    static Stream<Arguments> badQueueSettings() {
        return Stream.of(
                Arguments.of("max_retries -1", QueueProperties.create().maxRetries(-1)),
                Arguments.of("max_retries Integer.MIN_VALUE", QueueProperties.create().maxRetries(Integer.MIN_VALUE)),
                Arguments.of("retry_delay -1", QueueProperties.create().retryDelay(-1)),
                Arguments.of("retry_delay Long.MIN_VALUE", QueueProperties.create().retryDelay(Long.MIN_VALUE)),
                Arguments.of("retry_delay Long.MAX_VALUE (past the year 9999)", QueueProperties.create().retryDelay(Long.MAX_VALUE)),
                Arguments.of("retry_delay 400 000 years", QueueProperties.create().retryDelay(400_000L * 365 * 86_400)),
                Arguments.of("retention -2", QueueProperties.create().retention(-2)),
                Arguments.of("retention Long.MIN_VALUE", QueueProperties.create().retention(Long.MIN_VALUE)),
                Arguments.of("retention Long.MAX_VALUE (past the year 9999)", QueueProperties.create().retention(Long.MAX_VALUE)),
                Arguments.of("retention 400 000 years", QueueProperties.create().retention(400_000L * 365 * 86_400)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueueSettings")
    void createQueue_refuses_settings_out_of_range(String what, QueueProperties props) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createQueue("NEWQ", TEXT_QT, props));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badComments")
    void createQueue_refuses_a_comment_the_store_cannot_keep(String what, String comment) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createQueue("NEWQ", TEXT_QT, QueueProperties.create().comment(comment)));
    }

    @Test
    void createQueue_takes_null_properties_and_a_null_queue_type_as_the_defaults() {
        admin.createQueue("NEWQ", TEXT_QT, null);
        admin.createQueue("NEWQ2", TEXT_QT, QueueProperties.create().queueType(null));
        assertThat(admin.queue("NEWQ").maxRetries()).isEqualTo(QueueProperties.DEFAULT_MAX_RETRIES);
        assertThat(admin.queue("NEWQ2").queueType()).isEqualTo(io.aqueduct.api.QueueType.NORMAL);
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ alterQueue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void alterQueue_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.alterQueue(name, 1, null, null, null));
    }

    @Test
    void alterQueue_refuses_an_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.alterQueue("NO_SUCH_Q", 1, null, null, null));
    }

    @ParameterizedTest(name = "max_retries {0}")
    @ValueSource(ints = {-1, Integer.MIN_VALUE})
    void alterQueue_refuses_a_negative_max_retries(int maxRetries) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueue(TEXT_Q, maxRetries, null, null, null));
    }

    @ParameterizedTest(name = "retry_delay {0}")
    @ValueSource(longs = {-1, Long.MIN_VALUE, Long.MAX_VALUE, 400_000L * 365 * 86_400})
    void alterQueue_refuses_a_retry_delay_out_of_range(long retryDelay) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueue(TEXT_Q, null, retryDelay, null, null));
    }

    @ParameterizedTest(name = "retention {0}")
    @ValueSource(longs = {-2, Long.MIN_VALUE, Long.MAX_VALUE, 400_000L * 365 * 86_400})
    void alterQueue_refuses_a_retention_out_of_range(long retention) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueue(TEXT_Q, null, null, retention, null));
    }

    @Test
    void alterQueue_refuses_all_changes_when_one_is_bad() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueue(TEXT_Q, 9, 10L, -5L, "changed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badComments")
    void alterQueue_refuses_a_comment_the_store_cannot_keep(String what, String comment) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterQueue(TEXT_Q, null, null, null, comment));
    }

    // ------------------------------------------------------------------ dropQueue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void dropQueue_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.dropQueue(name));
    }

    @Test
    void dropQueue_refuses_an_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.dropQueue("NO_SUCH_Q"));
    }

    @Test
    void dropQueue_refuses_a_started_queue() {
        assertRefused(AqError.QUEUE_NOT_STOPPED, () -> admin.dropQueue(TEXT_Q));
    }

    @Test
    void dropQueue_refuses_the_default_exception_queue() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.dropQueue(TEXT_EXCEPTION_Q));
    }

    // ------------------------------------------------------------------ startQueue / stopQueue

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void startQueue_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.startQueue(name, true, true));
    }

    @Test
    void startQueue_refuses_an_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.startQueue("NO_SUCH_Q", true, true));
    }

    @Test
    void startQueue_refuses_enqueue_on_an_exception_queue() {
        assertRefused(AqError.EXCEPTION_QUEUE_ENQUEUE, () -> admin.startQueue(TEXT_EXCEPTION_Q, true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void stopQueue_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.stopQueue(name, true, true, true));
    }

    @Test
    void stopQueue_refuses_an_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.stopQueue("NO_SUCH_Q", true, true, false));
    }

    @Test
    void stopQueue_without_wait_refuses_a_busy_queue() {
        java.util.List<String> before = snapshot();
        session.enqueue(TEXT_Q, Message.of("pending"));
        expectError(AqError.QUEUE_BUSY, () -> admin.stopQueue(TEXT_Q, true, true, false));
        assertThat(admin.queue(TEXT_Q).enqueueEnabled()).isTrue();
        assertThat(admin.queue(TEXT_Q).dequeueEnabled()).isTrue();
        session.rollback();
        assertThat(snapshot()).isEqualTo(before);
        assertSessionUsable(session);
    }

    // ------------------------------------------------------------------ addSubscriber / alterSubscriber / removeSubscriber

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void addSubscriber_refuses_a_bad_queue_name(String what, String name, int code) {
        assertRefused(code, () -> admin.addSubscriber(name, Agent.named("NEW_SUB"), null));
    }

    @Test
    void addSubscriber_refuses_an_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.addSubscriber("NO_SUCH_Q", Agent.named("NEW_SUB"), null));
    }

    @Test
    void addSubscriber_refuses_a_single_consumer_queue_and_an_exception_queue() {
        assertRefused(AqError.NOT_MULTI_CONSUMER, () -> admin.addSubscriber(TEXT_Q, Agent.named("NEW_SUB"), null));
        assertRefused(AqError.NOT_MULTI_CONSUMER, () -> admin.addSubscriber("AQ$_MC_QT_E", Agent.named("NEW_SUB"), null));
    }

    @Test
    void addSubscriber_refuses_a_null_agent() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.addSubscriber(MC_Q, null, null));
    }

    @Test
    void addSubscriber_refuses_an_existing_subscriber_in_any_case() {
        assertRefused(AqError.SUBSCRIBER_EXISTS, () -> admin.addSubscriber(MC_Q, Agent.named("sub1"), null));
        assertRefused(AqError.SUBSCRIBER_EXISTS, () -> admin.addSubscriber(MC_Q, SUB1, "priority > 1"));
    }

    static Stream<Arguments> badAgents() {
        return Stream.of(
                Arguments.of("no name and no address", AqError.INVALID_VALUE, (Runnable) () -> new Agent(null, null, 0)),
                Arguments.of("name of 31 bytes", AqError.NAME_TOO_LONG, (Runnable) () -> Agent.named("A".repeat(31))),
                Arguments.of("name of 16 two-byte letters", AqError.NAME_TOO_LONG, (Runnable) () -> Agent.named("\u00c9".repeat(16))),
                Arguments.of("address of 1025 bytes", AqError.NAME_TOO_LONG, (Runnable) () -> new Agent(null, "A".repeat(1025), 0)),
                Arguments.of("negative protocol", AqError.INVALID_VALUE, (Runnable) () -> new Agent("A", null, -1)),
                Arguments.of("Integer.MIN_VALUE protocol", AqError.INVALID_VALUE, (Runnable) () -> new Agent("A", null, Integer.MIN_VALUE)),
                Arguments.of("NUL in the name", AqError.INVALID_VALUE, (Runnable) () -> Agent.named("A\u0000")),
                Arguments.of("lone surrogate in the name", AqError.INVALID_VALUE, (Runnable) () -> Agent.named("A\uDC00")),
                Arguments.of("NUL in the address", AqError.INVALID_VALUE, (Runnable) () -> new Agent(null, "Q\u0000", 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAgents")
    void agents_refuse_bad_names_addresses_and_protocols(String what, int code, Runnable newAgent) {
        assertRefused(code, () -> admin.addSubscriber(MC_Q, captured(newAgent), null));
    }

    private static Agent captured(Runnable r) {
        r.run();
        return Agent.named("NEVER_REACHED");
    }

    @ParameterizedTest(name = "agent name {0}")
    @ValueSource(strings = {"", " ", "1SUB", "SUB ONE", "\"SUB\"", "SUB'--", "SUB;DROP TABLE AQ_SUBSCRIBER", "SUB.ONE"})
    void addSubscriber_refuses_an_agent_name_that_is_not_an_identifier(String name) {
        assertRefused(AqError.INVALID_NAME, () -> admin.addSubscriber(MC_Q, Agent.named(name), null));
    }

    static Stream<Arguments> badRules() {
        return Stream.of(
                Arguments.of("empty", ""),
                Arguments.of("blank", "   "),
                Arguments.of("unbalanced parenthesis", "(priority = 1"),
                Arguments.of("unterminated string", "corrid = 'abc"),
                Arguments.of("dangling operator", "priority ="),
                Arguments.of("unknown operator", "priority === 1"),
                Arguments.of("SQL injection", "1=1; DROP TABLE AQ_MESSAGE"),
                Arguments.of("SQL comment", "priority = 1 --"),
                Arguments.of("subquery", "priority IN (SELECT 1 FROM SYS.SYSTABLES)"),
                Arguments.of("only a value", "42"),
                Arguments.of("deeply nested", "(".repeat(500) + "priority = 1" + ")".repeat(500)),
                Arguments.of("4001 bytes", "priority = 1" + " ".repeat(3980) + "AND priority = 1"),
                Arguments.of("100 001 characters", "corrid = '" + "x".repeat(100_000) + "'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRules")
    void addSubscriber_refuses_a_rule_that_is_not_a_valid_expression(String what, String rule) {
        assertRefused(AqError.INVALID_EXPRESSION, () -> admin.addSubscriber(MC_Q, Agent.named("NEW_SUB"), rule));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"corrid = 'a\u0000b'", "corrid = 'a\uD800b'"})
    void addSubscriber_refuses_a_rule_the_store_cannot_keep(String rule) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.addSubscriber(MC_Q, Agent.named("NEW_SUB"), rule));
    }

    @Test
    void addSubscriber_refuses_an_unknown_transformation_and_one_of_the_wrong_source_type() {
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.addSubscriber(MC_Q, Agent.named("NEW_SUB"), null, "NO_SUCH_T"));
        assertRefused(AqError.INVALID_NAME, () -> admin.addSubscriber(MC_Q, Agent.named("NEW_SUB"), null, "NO SUCH T"));
        admin.createTransformation("JSON_T", "JSON", "TEXT", Upper.class.getName());
        assertRefused(AqError.TRANSFORMATION_WRONG_TYPE, () -> admin.addSubscriber(MC_Q, Agent.named("NEW_SUB"), null, "JSON_T"));
    }

    @Test
    void addSubscriber_refuses_the_1025th_subscriber() {
        for (int i = 3; i <= 1024; i++) {
            admin.addSubscriber(MC_Q, Agent.named("S" + i), null);
        }
        assertRefused(AqError.TOO_MANY_SUBSCRIBERS, () -> admin.addSubscriber(MC_Q, Agent.named("ONE_TOO_MANY"), null));
    }

    @Test
    void alterSubscriber_refuses_an_unknown_subscriber_queue_or_a_bad_rule() {
        assertRefused(AqError.NOT_A_SUBSCRIBER, () -> admin.alterSubscriber(MC_Q, Agent.named("NOBODY"), null));
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.alterSubscriber("NO_SUCH_Q", SUB1, null));
        assertRefused(AqError.INVALID_NAME, () -> admin.alterSubscriber(null, SUB1, null));
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterSubscriber(MC_Q, null, null));
        assertRefused(AqError.NOT_MULTI_CONSUMER, () -> admin.alterSubscriber(TEXT_Q, SUB1, null));
        assertRefused(AqError.INVALID_EXPRESSION, () -> admin.alterSubscriber(MC_Q, SUB1, "priority = "));
        assertRefused(AqError.INVALID_EXPRESSION, () -> admin.alterSubscriber(MC_Q, SUB1, "x".repeat(5000)));
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.alterSubscriber(MC_Q, SUB1, null, "NO_SUCH_T"));
        assertRefused(AqError.TRANSFORMATION_WRONG_TYPE, () -> {
            admin.createTransformation("JSON_T", "JSON", "TEXT", Upper.class.getName());
            try {
                admin.alterSubscriber(MC_Q, SUB1, null, "JSON_T");
            } finally {
                admin.dropTransformation("JSON_T");
            }
        });
    }

    @Test
    void alterSubscriber_refuses_a_rule_the_store_cannot_keep() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.alterSubscriber(MC_Q, SUB1, "corrid = 'a\u0000'"));
    }

    @Test
    void removeSubscriber_refuses_an_unknown_subscriber_or_queue() {
        assertRefused(AqError.NOT_A_SUBSCRIBER, () -> admin.removeSubscriber(MC_Q, Agent.named("NOBODY")));
        assertRefused(AqError.NOT_A_SUBSCRIBER, () -> admin.removeSubscriber(MC_Q, new Agent("SUB1", "SOMEWHERE.Q", 0)));
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.removeSubscriber("NO_SUCH_Q", SUB1));
        assertRefused(AqError.INVALID_NAME, () -> admin.removeSubscriber("", SUB1));
        assertRefused(AqError.INVALID_VALUE, () -> admin.removeSubscriber(MC_Q, null));
        assertRefused(AqError.NOT_MULTI_CONSUMER, () -> admin.removeSubscriber(TEXT_Q, SUB1));
    }

    @Test
    void subscribers_refuses_a_bad_or_unknown_queue() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.subscribers("NO_SUCH_Q"));
        assertRefused(AqError.INVALID_NAME, () -> admin.subscribers(null));
    }

    // ------------------------------------------------------------------ transformations

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForCreate")
    void createTransformation_refuses_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.createTransformation(name, "TEXT", "TEXT", Upper.class.getName()));
    }

    @Test
    void createTransformation_refuses_an_existing_name() {
        assertRefused(AqError.TRANSFORMATION_EXISTS, () -> admin.createTransformation("upper_t", "TEXT", "TEXT", Upper.class.getName()));
        assertRefused(AqError.TRANSFORMATION_EXISTS, () -> admin.createTransformation("APP.UPPER_T", "TEXT", "JSON", Map.of()));
    }

    @ParameterizedTest(name = "type {0}")
    @NullSource
    @ValueSource(strings = {"", " ", "VARCHAR2(10)", "1abc", "java.lang.String;", "a b", "TEXT\u0000"})
    void createTransformation_refuses_a_type_that_is_neither_a_payload_type_nor_a_class_name(String type) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", type, "TEXT", Upper.class.getName()));
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", "TEXT", type, Map.of()));
    }

    @Test
    void createTransformation_refuses_a_type_name_longer_than_256_characters() {
        String longType = "a" + ".b".repeat(200);
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", longType, "TEXT", Upper.class.getName()));
    }

    @ParameterizedTest(name = "function class {0}")
    @NullSource
    @ValueSource(strings = {"", "  ", "com.nowhere.Missing", "java.lang.String", "java.lang.Runtime",
            "io.aqueduct.api.Transformer", "java.lang.String; DROP TABLE AQ_TRANSFORMATION"})
    void createTransformation_refuses_a_function_class_that_is_not_a_loadable_Transformer(String functionClass) {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", "TEXT", "TEXT", functionClass));
    }

    @Test
    void createTransformation_refuses_a_function_class_name_over_256_characters() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", "TEXT", "TEXT", "a" + ".b".repeat(200)));
    }

    static Stream<Arguments> badAttributeMaps() {
        Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "source.user_data");
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("a", null);
        Map<String, String> twice = new LinkedHashMap<>();
        twice.put("a", "source.user_data");
        twice.put("A", "source.user_data");
        return Stream.of(
                Arguments.of("null attribute", AqError.INVALID_VALUE, nullKey),
                Arguments.of("attribute not an identifier", AqError.INVALID_VALUE, Map.of("a b", "source.user_data")),
                Arguments.of("attribute injection", AqError.INVALID_VALUE, Map.of("a\"><x", "source.user_data")),
                Arguments.of("the same attribute twice", AqError.INVALID_VALUE, twice),
                Arguments.of("null expression", AqError.INVALID_EXPRESSION, nullValue),
                Arguments.of("blank expression", AqError.INVALID_EXPRESSION, Map.of("a", "  ")),
                Arguments.of("malformed expression", AqError.INVALID_EXPRESSION, Map.of("a", "source.user_data +")),
                Arguments.of("SQL as expression", AqError.INVALID_EXPRESSION, Map.of("a", "SELECT * FROM AQ_MESSAGE")),
                Arguments.of("over 100 000 characters", AqError.INVALID_EXPRESSION, Map.of("a", "'" + "x".repeat(100_001) + "'")),
                Arguments.of("definition too long in all", AqError.INVALID_VALUE, manyAttributes()));
    }

    private static Map<String, String> manyAttributes() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < 2000; i++) {
            m.put("attr" + i, "source.user_data.some_rather_long_attribute_name_" + i);
        }
        return m;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAttributeMaps")
    void createTransformation_refuses_bad_attribute_expressions(String what, int code, Map<String, String> attributes) {
        assertRefused(code, () -> admin.createTransformation("NEW_T", "TEXT", "JSON", attributes));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAttributeMaps")
    void modifyTransformation_refuses_bad_attribute_expressions(String what, int code, Map<String, String> attributes) {
        admin.createTransformation("ATTR_T", "TEXT", "JSON", Map.of("text", "source.user_data"));
        assertRefused(code, () -> admin.modifyTransformation("ATTR_T", attributes));
    }

    @Test
    void createTransformation_refuses_two_attributes_for_a_TEXT_target() {
        assertRefused(AqError.INVALID_VALUE,
                () -> admin.createTransformation("NEW_T", "JSON", "TEXT", Map.of("a", "source.user_data", "b", "source.user_data")));
    }

    @Test
    void createTransformation_refuses_expressions_the_store_cannot_keep() {
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", "TEXT", "JSON", Map.of("a", "'x\u0000'")));
        assertRefused(AqError.INVALID_VALUE, () -> admin.createTransformation("NEW_T", "TEXT", "JSON", Map.of("a", "'x\uD800'")));
    }

    @Test
    void modifyTransformation_refuses_unknown_names_and_bad_definitions() {
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NO_SUCH_T", Upper.class.getName()));
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NO_SUCH_T", Map.of()));
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NO_SUCH_T", "a", "source.user_data"));
        assertRefused(AqError.INVALID_NAME, () -> admin.modifyTransformation(null, Upper.class.getName()));
        assertRefused(AqError.INVALID_NAME, () -> admin.modifyTransformation("BAD NAME", Map.of()));
        assertRefused(AqError.INVALID_VALUE, () -> admin.modifyTransformation(UPPER_T, (String) null));
        assertRefused(AqError.INVALID_VALUE, () -> admin.modifyTransformation(UPPER_T, "java.lang.Object"));
        assertRefused(AqError.INVALID_VALUE, () -> admin.modifyTransformation(UPPER_T, "a", "source.user_data"));
    }

    @Test
    void modifyTransformation_of_one_attribute_refuses_a_bad_attribute_or_expression() {
        admin.createTransformation("ATTR_T", "TEXT", "JSON", Map.of("text", "source.user_data"));
        assertRefused(AqError.INVALID_VALUE, () -> admin.modifyTransformation("ATTR_T", null, "source.user_data"));
        assertRefused(AqError.INVALID_VALUE, () -> admin.modifyTransformation("ATTR_T", "a-b", "source.user_data"));
        assertRefused(AqError.INVALID_EXPRESSION, () -> admin.modifyTransformation("ATTR_T", "text", null));
        assertRefused(AqError.INVALID_EXPRESSION, () -> admin.modifyTransformation("ATTR_T", "text", "source.user_data)"));
    }

    @Test
    void dropTransformation_refuses_unknown_or_used_ones() {
        assertRefused(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.dropTransformation("NO_SUCH_T"));
        assertRefused(AqError.INVALID_NAME, () -> admin.dropTransformation(""));
        assertRefused(AqError.INVALID_NAME, () -> admin.dropTransformation("X'; DELETE FROM AQ_TRANSFORMATION --"));
        admin.addSubscriber(MC_Q, Agent.named("UPPER_SUB"), null, UPPER_T);
        assertRefused(AqError.INVALID_VALUE, () -> admin.dropTransformation(UPPER_T));
    }

    // ------------------------------------------------------------------ catalog look-ups

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamesForLookup")
    void queue_and_queueTable_refuse_a_bad_name(String what, String name, int code) {
        assertRefused(code, () -> admin.queue(name));
        assertRefused(code, () -> admin.queueTable(name));
    }

    @Test
    void queue_and_queueTable_refuse_an_unknown_name() {
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.queue("NO_SUCH_Q"));
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("NO_SUCH_QT"));
        assertRefused(AqError.QUEUE_NOT_FOUND, () -> admin.queue("TEXT_QT"));
        assertRefused(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("TEXT_Q"));
    }
}
