package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** DBMS_AQADM.CREATE_QUEUE_TABLE / ALTER_QUEUE_TABLE / DROP_QUEUE_TABLE, seen through the catalog and the store. */
class QueueTableAdministrationTest extends EngineFixture {

    // ------------------------------------------------------------------ create

    @Test
    void a_queue_table_created_with_the_defaults_is_a_raw_fifo_single_consumer_table_without_grouping_or_comment()
            throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("OWNER", "APP").containsEntry("QUEUE_TABLE", "QT1")
                .containsEntry("TYPE", "RAW").containsEntry("OBJECT_TYPE", null).containsEntry("SORT_ORDER", "ENQ_TIME")
                .containsEntry("RECIPIENTS", "SINGLE").containsEntry("MESSAGE_GROUPING", "NONE")
                .containsEntry("USER_COMMENT", null);
        assertThat(admin.queueTable("QT1")).isEqualTo(new QueueTableInfo("APP", "QT1", PayloadType.RAW, null,
                SortOrder.ENQ_TIME, false, MessageGrouping.NONE, null));
    }

    @ParameterizedTest
    @EnumSource(value = PayloadType.class, names = {"RAW", "TEXT", "JSON", "XML"})
    void a_queue_table_shows_its_payload_type_in_the_TYPE_column(PayloadType type) throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(type));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("TYPE", type.name())
                .containsEntry("OBJECT_TYPE", null);
        assertThat(admin.queueTable("QT1").payloadType()).isEqualTo(type);
    }

    @Test
    void an_object_queue_table_shows_OBJECT_and_the_class_name_of_its_payload() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().objectType("java.util.ArrayList"));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("TYPE", "OBJECT")
                .containsEntry("OBJECT_TYPE", "java.util.ArrayList");
        QueueTableInfo info = admin.queueTable("QT1");
        assertThat(info.payloadType()).isEqualTo(PayloadType.OBJECT);
        assertThat(info.objectType()).isEqualTo("java.util.ArrayList");
    }

    @ParameterizedTest
    @EnumSource(SortOrder.class)
    void a_queue_table_shows_its_sort_order_as_AQ_spells_the_sort_list(SortOrder order) throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().sortOrder(order));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("SORT_ORDER", order.sortList());
        assertThat(admin.queueTable("QT1").sortOrder()).isEqualTo(order);
    }

    @Test
    void a_multiple_consumer_queue_table_shows_MULTIPLE_recipients() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().multipleConsumers(true));
        admin.createQueueTable("QT2", QueueTableProperties.create().multipleConsumers(false));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("RECIPIENTS", "MULTIPLE");
        assertThat(Sql.queueTableRow(this::sql, "APP", "QT2")).containsEntry("RECIPIENTS", "SINGLE");
        assertThat(admin.queueTable("QT1").multipleConsumers()).isTrue();
        assertThat(admin.queueTable("QT2").multipleConsumers()).isFalse();
    }

    @Test
    void a_queue_table_with_transactional_grouping_shows_TRANSACTIONAL_message_grouping() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().messageGrouping(MessageGrouping.TRANSACTIONAL));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("MESSAGE_GROUPING", "TRANSACTIONAL");
        assertThat(admin.queueTable("QT1").messageGrouping()).isEqualTo(MessageGrouping.TRANSACTIONAL);
    }

    @Test
    void a_queue_table_shows_its_comment() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().comment("orders awaiting shipment"));

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("USER_COMMENT", "orders awaiting shipment");
        assertThat(admin.queueTable("QT1").comment()).isEqualTo("orders awaiting shipment");
    }

    @Test
    void creating_a_queue_table_creates_its_default_exception_queue_stopped_in_the_same_schema() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        assertThat(Sql.queueRow(this::sql, "APP", "AQ$_QT1_E")).containsEntry("QUEUE_TABLE", "QT1")
                .containsEntry("QUEUE_TYPE", "EXCEPTION").containsEntry("ENQUEUE_ENABLED", "NO")
                .containsEntry("DEQUEUE_ENABLED", "NO");
        QueueInfo info = admin.queue("AQ$_QT1_E");
        assertThat(info.queueType()).isEqualTo(QueueType.EXCEPTION);
        assertThat(info.queueTable()).isEqualTo("QT1");
        assertThat(info.owner()).isEqualTo("APP");
        assertThat(admin.queues()).extracting(QueueInfo::name).containsExactly("AQ$_QT1_E");
    }

    @Test
    void creating_a_queue_table_creates_its_AQ$_view() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        assertThat(Sql.viewExists(this::sql, "APP", "AQ$QT1")).isTrue();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isZero();
    }

    @Test
    void creating_an_existing_queue_table_again_is_refused_with_24001_and_changes_nothing() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT).comment("original"));
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_EXISTS,
                () -> admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(PayloadType.RAW).comment("copy")));
        expectError(AqError.QUEUE_TABLE_EXISTS, () -> admin.createQueueTable("app.qt1", QueueTableProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queueTable("QT1").payloadType()).isEqualTo(PayloadType.TEXT);
        assertThat(admin.queueTable("QT1").comment()).isEqualTo("original");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "not a class", "com..example.Order", "1com.example.Order", "com.example.Order;",
            "com.example.Order.", "java.util.List<String>"})
    void an_object_queue_table_without_a_valid_class_name_is_refused_with_24097_and_nothing_is_created(String className)
            throws SQLException {
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_VALUE, () -> admin.createQueueTable("QT1", QueueTableProperties.create().objectType(className)));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queueTables()).isEmpty();
        assertThat(admin.queues()).isEmpty();
    }

    // ------------------------------------------------------------------ alter

    @Test
    void altering_a_queue_table_changes_its_comment_and_nothing_else() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(PayloadType.XML)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME).comment("before"));

        admin.alterQueueTable("qt1", "after");

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("USER_COMMENT", "after").containsEntry("TYPE", "XML")
                .containsEntry("SORT_ORDER", "PRIORITY,ENQ_TIME");
        assertThat(admin.queueTable("QT1")).isEqualTo(new QueueTableInfo("APP", "QT1", PayloadType.XML, null,
                SortOrder.PRIORITY_ENQ_TIME, false, MessageGrouping.NONE, "after"));
    }

    @Test
    void altering_a_queue_table_with_a_null_comment_leaves_its_comment_unchanged() throws SQLException {
        // DBMS_AQADM.ALTER_QUEUE_TABLE: comment NULL (the default) means the comment is not changed
        admin.createQueueTable("QT1", QueueTableProperties.create().comment("kept"));

        admin.alterQueueTable("QT1", null);

        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("USER_COMMENT", "kept");
        assertThat(admin.queueTable("QT1").comment()).isEqualTo("kept");
    }

    @Test
    void altering_an_unknown_queue_table_is_refused_with_24002_and_changes_nothing() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().comment("mine"));
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.alterQueueTable("NOPE", "changed"));
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.alterQueueTable("OE.QT1", "changed"));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    // ------------------------------------------------------------------ drop

    @Test
    void dropping_a_queue_table_with_queues_without_force_is_refused_with_24012_and_changes_nothing() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {7}));
        s.commit();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_HAS_QUEUES, () -> admin.dropQueueTable("QT1", false));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(Sql.queueRow(this::sql, "APP", "Q1")).containsEntry("ENQUEUE_ENABLED", "YES")
                .containsEntry("DEQUEUE_ENABLED", "YES");
        assertThat(admin.queueTable("QT1")).isNotNull();
        assertThat(admin.queue("Q1").enqueueEnabled()).isTrue();
        // still fully usable
        s.enqueue("Q1", Message.of(new byte[] {8}));
        s.commit();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isEqualTo(2);
    }

    @Test
    void dropping_a_queue_table_with_a_stopped_queue_without_force_is_refused_with_24012_too() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_HAS_QUEUES, () -> admin.dropQueueTable("QT1", false));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void a_queue_table_with_only_its_default_exception_queue_is_dropped_without_force_with_that_queue_and_its_view()
            throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        admin.dropQueueTable("QT1", false);

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUE_TABLES")).isZero();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUES")).isZero();
        assertThat(Sql.viewExists(this::sql, "APP", "AQ$QT1")).isFalse();
        assertThat(admin.queueTables()).isEmpty();
        assertThat(admin.queues()).isEmpty();
    }

    @Test
    void dropping_a_queue_table_with_force_drops_its_started_queues_their_messages_and_its_view_and_nothing_else()
            throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        startedQueue("KEPT", "QT2", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.enqueue("Q1", Message.of(new byte[] {2}));
        s.enqueue("KEPT", Message.of(new byte[] {3}));
        s.commit();

        admin.dropQueueTable("QT1", true);

        assertThat(Sql.strings(this::sql, "SELECT QUEUE_TABLE FROM DBA_QUEUE_TABLES")).containsExactly("QT2");
        assertThat(Sql.strings(this::sql, "SELECT NAME FROM DBA_QUEUES ORDER BY NAME")).containsExactly("AQ$_QT2_E", "KEPT");
        assertThat(Sql.viewExists(this::sql, "APP", "AQ$QT1")).isFalse();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM AQ_MESSAGE")).as("messages left in the store").isEqualTo(1);
        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"AQ$QT2\"")).containsExactly("KEPT");
        assertThat(admin.queueTables()).extracting(QueueTableInfo::name).containsExactly("QT2");
        assertThat(admin.queues()).extracting(QueueInfo::name).containsExactlyInAnyOrder("AQ$_QT2_E", "KEPT");
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.enqueue("Q1", Message.of(new byte[] {4})));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("Q1"));
    }

    @Test
    void a_dropped_queue_table_can_be_created_again_and_starts_empty() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.commit();
        admin.dropQueueTable("QT1", true);

        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isZero();
        assertThat(Sql.queueTableRow(this::sql, "APP", "QT1")).containsEntry("TYPE", "TEXT");
        s.enqueue("Q1", Message.of("again"));
        s.commit();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isEqualTo(1);
    }

    @Test
    void dropping_an_unknown_queue_table_is_refused_with_24002_and_changes_nothing() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.dropQueueTable("NOPE", false));
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.dropQueueTable("NOPE", true));
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.dropQueueTable("OE.QT1", true));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void asking_the_catalog_for_an_unknown_queue_table_is_refused_with_24002() {
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("NOPE"));
    }

    @Test
    void a_dropped_queue_table_is_unknown_afterwards() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.dropQueueTable("QT1", false);

        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("QT1"));
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.dropQueueTable("QT1", true));
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.createQueue("Q1", "QT1", QueueProperties.create()));
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUES")).isZero();
    }

    @Test
    void creating_a_queue_table_whose_exception_queue_name_is_taken_is_refused_with_24006_and_nothing_is_created()
            throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("AQ$_QT2_E", "QT1", QueueProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueueTable("QT2", QueueTableProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.queueTable("QT2"));
    }

    @Test
    void dropping_a_queue_table_with_force_waits_for_the_open_transaction_on_its_queues_then_drops_everything()
            throws Exception {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        java.util.concurrent.CountDownLatch dropped = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread dropper = new Thread(() -> {
            try {
                admin.dropQueueTable("QT1", true);
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                dropped.countDown();
            }
        }, "dropper");
        dropper.setDaemon(true);
        dropper.start();

        assertThat(dropped.await(500, java.util.concurrent.TimeUnit.MILLISECONDS))
                .as("the drop returned while a transaction was still working on Q1").isFalse();
        s.commit();
        assertThat(dropped.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the drop returned after the commit").isTrue();
        dropper.join(10_000);

        assertThat(failure.get()).isNull();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUE_TABLES")).isZero();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUES")).isZero();
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM AQ_MESSAGE")).isZero();
        assertThat(Sql.viewExists(this::sql, "APP", "AQ$QT1")).isFalse();
    }

    @Test
    void a_comment_over_2000_bytes_is_refused_with_24097_and_changes_nothing() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().comment("short"));
        List<String> before = Sql.snapshot(this::sql);
        String tooLong = "x".repeat(2001);

        expectError(AqError.INVALID_VALUE, () -> admin.alterQueueTable("QT1", tooLong));
        expectError(AqError.INVALID_VALUE, () -> admin.createQueueTable("QT2", QueueTableProperties.create().comment(tooLong)));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }
}
