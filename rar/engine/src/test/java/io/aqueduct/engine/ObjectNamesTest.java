package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Object names (001 §2.1): {@code [schema.]name}, case-insensitive and kept upper-case; queue and
 * queue table names at most 24 bytes, schema names at most 30; only identifier characters.
 */
class ObjectNamesTest extends EngineFixture {

    private static String letters(int n) {
        return "Q" + "X".repeat(n - 1);
    }

    // ------------------------------------------------------------------ case

    @Test
    void names_are_case_insensitive_and_stored_upper_case() throws SQLException {
        admin.createQueueTable("orders_Qt", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue("new_Orders", "ORDERS_QT", QueueProperties.create());
        admin.startQueue("NEW_ORDERS", true, true);

        assertThat(Sql.strings(this::sql, "SELECT QUEUE_TABLE FROM DBA_QUEUE_TABLES")).containsExactly("ORDERS_QT");
        assertThat(Sql.strings(this::sql, "SELECT NAME FROM DBA_QUEUES ORDER BY NAME"))
                .containsExactly("AQ$_ORDERS_QT_E", "NEW_ORDERS");
        assertThat(Sql.queueRow(this::sql, "APP", "NEW_ORDERS")).containsEntry("QUEUE_TABLE", "ORDERS_QT");
        assertThat(Sql.viewExists(this::sql, "APP", "AQ$ORDERS_QT")).isTrue();
        assertThat(admin.queueTable("Orders_qt").name()).isEqualTo("ORDERS_QT");
        assertThat(admin.queue("new_orders").name()).isEqualTo("NEW_ORDERS");

        QueueSession s = session();
        s.enqueue("new_orders", Message.of("a"));
        s.commit();
        assertThat(s.dequeue("NEW_ORDERS", NO_WAIT).text()).isEqualTo("a");
        s.commit();
    }

    @Test
    void names_differing_only_in_case_are_the_same_object() throws SQLException {
        admin.createQueueTable("qt1", QueueTableProperties.create());
        admin.createQueue("q1", "QT1", QueueProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_EXISTS, () -> admin.createQueueTable("QT1", QueueTableProperties.create()));
        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueue("Q1", "qt1", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void a_name_without_schema_is_in_the_default_schema() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("app.q1", "App.Qt1", QueueProperties.create());

        assertThat(admin.queueTable("APP.QT1").owner()).isEqualTo("APP");
        assertThat(admin.queue("Q1").owner()).isEqualTo("APP");
        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).isNotNull();
        assertThat(Sql.queueRow(this::sql, "APP", "Q1")).isNotNull();
        expectError(AqError.QUEUE_TABLE_EXISTS, () -> admin.createQueueTable("app.qt1", QueueTableProperties.create()));
    }

    @Test
    void names_may_use_digits_underscore_dollar_and_hash_after_the_first_letter() throws SQLException {
        admin.createQueueTable("oe.Q_t$1#", QueueTableProperties.create());
        admin.createQueue("oe.q#2$_x", "OE.Q_T$1#", QueueProperties.create());

        assertThat(Sql.queueTableRow(this::sql, "OE", "Q_T$1#")).isNotNull();
        assertThat(Sql.queueRow(this::sql, "OE", "Q#2$_X")).containsEntry("QUEUE_TABLE", "Q_T$1#");
        assertThat(Sql.viewExists(this::sql, "OE", "AQ$Q_T$1#")).isTrue();
    }

    // ------------------------------------------------------------------ length

    @Test
    void a_queue_table_name_of_24_bytes_is_accepted_with_its_30_byte_exception_queue() throws SQLException {
        String name = letters(24);
        admin.createQueueTable(name, QueueTableProperties.create());

        assertThat(Sql.queueTableRow(this::sql, "APP", name)).isNotNull();
        String exceptionQueue = "AQ$_" + name + "_E";
        assertThat(exceptionQueue).hasSize(30);
        assertThat(Sql.queueRow(this::sql, "APP", exceptionQueue)).containsEntry("QUEUE_TYPE", "EXCEPTION");
        admin.startQueue(exceptionQueue, false, true);
        assertThat(admin.queue(exceptionQueue).dequeueEnabled()).isTrue();
    }

    @Test
    void a_name_that_upper_casing_lengthens_past_its_limit_is_refused_and_one_that_fits_is_found_as_listed()
            throws SQLException {
        List<String> before = Sql.snapshot(this::sql);
        // 23 bytes as typed; upper-cased, each 'ŉ' (2 bytes) becomes 'ʼN' (3 bytes): 34 bytes, over the limit of 24
        String grows = "A" + "\u0149".repeat(11);
        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueueTable(grows, QueueTableProperties.create()));
        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);

        admin.createQueueTable("stra\u00dfe", QueueTableProperties.create());
        assertThat(admin.queueTables()).extracting(t -> t.name()).containsExactly("STRASSE");
        assertThat(admin.queueTable("STRASSE").name()).isEqualTo("STRASSE");
        assertThat(admin.queueTable("stra\u00dfe").name()).isEqualTo("STRASSE");
    }

    @Test
    void a_queue_table_name_over_24_bytes_is_refused_with_24019_and_nothing_is_created() throws SQLException {
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueueTable(letters(25), QueueTableProperties.create()));
        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueueTable("OE." + letters(31), QueueTableProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queueTables()).isEmpty();
    }

    @Test
    void a_queue_name_of_24_bytes_is_accepted_and_one_over_24_bytes_is_refused_with_24019_and_nothing_is_created()
            throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue(letters(24), "QT1", QueueProperties.create());
        assertThat(Sql.queueRow(this::sql, "APP", letters(24))).isNotNull();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueue(letters(25), "QT1", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void a_schema_name_of_30_bytes_is_accepted_and_one_over_30_bytes_is_refused_with_24019() throws SQLException {
        String schema30 = "S" + "C".repeat(29);
        admin.createQueueTable(schema30 + ".QT1", QueueTableProperties.create());
        assertThat(Sql.queueTableRow(this::sql, schema30, "QT1")).isNotNull();
        List<String> before = Sql.snapshot(this::sql);

        String schema31 = "S" + "C".repeat(30);
        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueueTable(schema31 + ".QT2", QueueTableProperties.create()));
        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueue(schema31 + ".Q1", schema30 + ".QT1", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void the_limit_is_in_bytes_a_name_of_12_two_byte_letters_is_accepted_and_one_of_13_is_refused_with_24019()
            throws SQLException {
        // 001 §2.1: "queue names and queue table names can be a maximum of 24 bytes"; letters of the
        // database character set are identifier characters, and Ä is 2 bytes in UTF-8
        String twelve = "Ä".repeat(12);
        String thirteen = "Ä".repeat(13);
        assertThat(twelve.getBytes(StandardCharsets.UTF_8)).hasSize(24);

        admin.createQueueTable(twelve, QueueTableProperties.create());
        assertThat(Sql.queueTableRow(this::sql, "APP", twelve)).isNotNull();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueueTable(thirteen, QueueTableProperties.create()));
        expectError(AqError.NAME_TOO_LONG, () -> admin.createQueue(thirteen, twelve, QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    // ------------------------------------------------------------------ characters

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "QT 1", "\"QT1\"", "QT1;", "QT1; DROP TABLE AQ_MESSAGE", "QT--1", "QT1--", "1QT",
            "_QT", "$QT", "QT-1", "QT'1", "QT.", ".QT", "A.B.C", "O E.QT1", "OE..QT1", "QT1/*x*/", "QT(1)"})
    void an_invalid_queue_table_name_is_refused_with_44003_and_nothing_is_created(String name) throws SQLException {
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_NAME, () -> admin.createQueueTable(name, QueueTableProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queueTables()).isEmpty();
        assertThat(admin.queues()).isEmpty();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "Q 1", "\"Q1\"", "Q1;", "Q1; DROP TABLE AQ_MESSAGE", "Q--1", "Q1--", "1Q", "_Q",
            "Q-1", "Q'1", "Q.", ".Q", "A.B.C", "O E.Q1", "APP..Q1"})
    void an_invalid_queue_name_is_refused_with_44003_and_nothing_is_created(String name) throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_NAME, () -> admin.createQueue(name, "QT1", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queues()).extracting(QueueInfo::name).containsExactly("AQ$_QT1_E");
    }

    @Test
    void an_invalid_name_given_to_enqueue_dequeue_or_the_other_admin_calls_is_refused_with_44003() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        List<String> before = Sql.snapshot(this::sql);
        QueueSession s = session();

        expectError(AqError.INVALID_NAME, () -> s.enqueue("Q1; DROP", Message.of(new byte[] {1})));
        expectError(AqError.INVALID_NAME, () -> s.dequeue("'Q1'", NO_WAIT));
        expectError(AqError.INVALID_NAME, () -> admin.dropQueueTable("QT1 --", true));
        expectError(AqError.INVALID_NAME, () -> admin.alterQueueTable("QT 1", "x"));
        expectError(AqError.INVALID_NAME, () -> admin.stopQueue("Q 1", true, true, false));
        expectError(AqError.INVALID_NAME, () -> admin.dropQueue("Q1;"));
        expectError(AqError.INVALID_NAME, () -> admin.createQueue("Q2", "QT1;", QueueProperties.create()));
        s.commit();

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    // ------------------------------------------------------------------ schemas

    @Test
    void the_same_name_in_two_schemas_names_two_different_queue_tables() throws SQLException {
        admin.createQueueTable("A.QT", QueueTableProperties.create().payloadType(PayloadType.RAW).comment("in A"));
        admin.createQueueTable("B.QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).comment("in B"));

        assertThat(Sql.queueTableRow(this::sql, "A", "QT")).containsEntry("TYPE", "RAW").containsEntry("USER_COMMENT", "in A");
        assertThat(Sql.queueTableRow(this::sql, "B", "QT")).containsEntry("TYPE", "TEXT").containsEntry("USER_COMMENT", "in B");
        assertThat(Sql.queueRow(this::sql, "A", "AQ$_QT_E")).containsEntry("QUEUE_TABLE", "QT");
        assertThat(Sql.queueRow(this::sql, "B", "AQ$_QT_E")).containsEntry("QUEUE_TABLE", "QT");
        assertThat(Sql.viewExists(this::sql, "A", "AQ$QT")).isTrue();
        assertThat(Sql.viewExists(this::sql, "B", "AQ$QT")).isTrue();
        assertThat(admin.queueTables()).extracting(QueueTableInfo::owner, QueueTableInfo::payloadType)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A", PayloadType.RAW),
                        org.assertj.core.groups.Tuple.tuple("B", PayloadType.TEXT));
    }

    @Test
    void dropping_a_queue_table_in_one_schema_leaves_the_same_named_queue_table_of_another_schema() throws SQLException {
        startedQueue("A.Q1", "A.QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        startedQueue("B.Q1", "B.QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("A.Q1", Message.of("for A"));
        s.enqueue("B.Q1", Message.of("for B"));
        s.commit();

        admin.dropQueueTable("a.qt", true);

        assertThat(Sql.strings(this::sql, "SELECT OWNER FROM DBA_QUEUE_TABLES")).containsExactly("B");
        assertThat(Sql.strings(this::sql, "SELECT OWNER || '.' || NAME FROM DBA_QUEUES ORDER BY NAME"))
                .containsExactly("B.AQ$_QT_E", "B.Q1");
        assertThat(Sql.viewExists(this::sql, "A", "AQ$QT")).isFalse();
        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"B\".\"AQ$QT\"")).containsExactly("Q1");
        assertThat(s.dequeue("B.Q1", NO_WAIT).text()).isEqualTo("for B");
        s.commit();
    }

    @Test
    void the_same_queue_name_in_two_schemas_names_two_different_queues() throws SQLException {
        startedQueue("A.Q1", "A.QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        startedQueue("B.Q1", "B.QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("a.q1", Message.of("for A"));
        s.commit();

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"A\".\"AQ$QT\"")).isEqualTo(1);
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"B\".\"AQ$QT\"")).isZero();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("B.Q1", NO_WAIT));
        assertThat(s.dequeue("A.Q1", NO_WAIT).text()).isEqualTo("for A");
        s.commit();
        assertThat(admin.queue("A.Q1").qid()).isNotEqualTo(admin.queue("B.Q1").qid());
    }

    @Test
    void a_queue_must_be_in_the_schema_of_its_queue_table() throws SQLException {
        admin.createQueueTable("A.QT", QueueTableProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_VALUE, () -> admin.createQueue("B.Q1", "A.QT", QueueProperties.create()));
        // without a schema the queue is in the default schema (APP), not in A
        expectError(AqError.INVALID_VALUE, () -> admin.createQueue("Q1", "A.QT", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        admin.createQueue("a.Q1", "A.QT", QueueProperties.create());
        assertThat(Sql.queueRow(this::sql, "A", "Q1")).containsEntry("QUEUE_TABLE", "QT");
    }

    @Test
    void a_queue_table_of_another_schema_is_not_found_by_its_bare_name() throws SQLException {
        admin.createQueueTable("OE.QT1", QueueTableProperties.create());

        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("QT1"));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("AQ$_QT1_E"));
        assertThat(admin.queueTable("oe.qt1").owner()).isEqualTo("OE");
    }
}
