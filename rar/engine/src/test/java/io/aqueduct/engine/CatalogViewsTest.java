package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The SQL side of the catalog, as an administrator reads it: the AQ$&lt;queue_table&gt; view (004,
 * Table 5.4), DBA_QUEUE_TABLES / USER_QUEUE_TABLES (Table 5.5) and DBA_QUEUES / USER_QUEUES (Table 5.6).
 */
class CatalogViewsTest extends EngineFixture {

    private static final List<String> QUEUE_TABLE_VIEW_COLUMNS = List.of("QUEUE", "MSG_ID", "CORR_ID", "MSG_PRIORITY",
            "MSG_STATE", "DELAY", "EXPIRATION", "ENQ_TIME", "ENQ_USER_ID", "ENQ_TXN_ID", "DEQ_TIME", "DEQ_USER_ID",
            "DEQ_TXN_ID", "RETRY_COUNT", "EXCEPTION_QUEUE_OWNER", "EXCEPTION_QUEUE", "USER_DATA", "ORIGINAL_MSGID", "ORIGINAL_QUEUE_OWNER",
            "ORIGINAL_QUEUE_NAME");
    private static final List<String> DBA_QUEUE_TABLES_COLUMNS = List.of("OWNER", "QUEUE_TABLE", "TYPE", "OBJECT_TYPE",
            "SORT_ORDER", "RECIPIENTS", "MESSAGE_GROUPING", "USER_COMMENT");
    private static final List<String> DBA_QUEUES_COLUMNS = List.of("OWNER", "NAME", "QUEUE_TABLE", "QID", "QUEUE_TYPE",
            "MAX_RETRIES", "RETRY_DELAY", "ENQUEUE_ENABLED", "DEQUEUE_ENABLED", "RETENTION", "USER_COMMENT");

    // ------------------------------------------------------------------ the AQ$<queue_table> view

    @Test
    void the_queue_table_view_has_exactly_the_columns_of_AQ() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        assertThat(Sql.columns(this::sql, "SELECT * FROM \"AQ$QT1\"")).containsExactlyElementsOf(QUEUE_TABLE_VIEW_COLUMNS);
    }

    @Test
    void a_new_queue_table_view_is_empty() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isZero();
    }

    @Test
    void a_committed_message_shows_READY_with_its_correlation_priority_enqueue_user_time_and_payload() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.RAW), QueueProperties.create());
        QueueSession s = session();
        MessageId id = s.enqueue("Q1", Message.of(new byte[] {1, 2, 3},
                MessageProperties.create().correlation("order-7").priority(4).expiration(30)));
        s.commit();

        Map<String, Object> row = Sql.single(this::sql, "SELECT * FROM \"AQ$QT1\"");
        assertThat(row.get("QUEUE")).isEqualTo("Q1");
        assertThat(String.valueOf(row.get("MSG_ID")).trim()).isEqualTo(id.toString());
        assertThat(row.get("CORR_ID")).isEqualTo("order-7");
        assertThat(Sql.num(row, "MSG_PRIORITY")).isEqualTo(4);
        assertThat(row.get("MSG_STATE")).isEqualTo("READY");
        assertThat(row.get("DELAY")).isNull();
        assertThat(Sql.num(row, "EXPIRATION")).isEqualTo(30);
        assertThat(row.get("ENQ_TIME")).isEqualTo(LocalDateTime.ofInstant(clock.now(), ZoneOffset.UTC));
        assertThat(row.get("ENQ_USER_ID")).isEqualTo("TESTER");
        assertThat(row.get("ENQ_TXN_ID")).isNotNull();
        assertThat(row.get("DEQ_TIME")).isNull();
        assertThat(row.get("DEQ_USER_ID")).isNull();
        assertThat(row.get("DEQ_TXN_ID")).isNull();
        assertThat(Sql.num(row, "RETRY_COUNT")).isZero();
        assertThat(row.get("USER_DATA")).isEqualTo(new byte[] {1, 2, 3});
    }

    @Test
    void a_rolled_back_enqueue_leaves_no_row_in_the_queue_table_view() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.rollback();

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isZero();
    }

    @Test
    void a_delayed_message_shows_WAITING_with_the_instant_it_is_delayed_to() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}, MessageProperties.create().delay(90)));
        s.commit();

        Map<String, Object> row = Sql.single(this::sql, "SELECT MSG_STATE, DELAY, ENQ_TIME FROM \"AQ$QT1\"");
        LocalDateTime enqueued = LocalDateTime.ofInstant(clock.now(), ZoneOffset.UTC);
        assertThat(row.get("MSG_STATE")).isEqualTo("WAITING");
        assertThat(row.get("ENQ_TIME")).isEqualTo(enqueued);
        assertThat(row.get("DELAY")).isEqualTo(enqueued.plusSeconds(90));
    }

    @Test
    void messages_enqueued_in_one_transaction_share_their_enqueue_transaction_id_and_another_transaction_has_its_own()
            throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        MessageId a = s.enqueue("Q1", Message.of(new byte[] {1}));
        MessageId b = s.enqueue("Q1", Message.of(new byte[] {2}));
        s.commit();
        MessageId c = s.enqueue("Q1", Message.of(new byte[] {3}));
        s.commit();

        Map<String, Object> txnOf = Sql.rows(this::sql, "SELECT MSG_ID, ENQ_TXN_ID FROM \"AQ$QT1\"").stream()
                .collect(Collectors.toMap(r -> String.valueOf(r.get("MSG_ID")).trim(), r -> r.get("ENQ_TXN_ID")));
        assertThat(txnOf).hasSize(3);
        assertThat(txnOf.get(a.toString())).isNotNull().isEqualTo(txnOf.get(b.toString()));
        assertThat(txnOf.get(c.toString())).isNotNull().isNotEqualTo(txnOf.get(a.toString()));
    }

    @Test
    void a_message_with_its_own_exception_queue_shows_that_queue_and_its_owner() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        admin.createQueue("Q1_EXC", "QT1", QueueProperties.create().queueType(io.aqueduct.api.QueueType.EXCEPTION));
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}, MessageProperties.create().exceptionQueue("q1_exc")));
        s.commit();

        Map<String, Object> row = Sql.single(this::sql, "SELECT EXCEPTION_QUEUE_OWNER, EXCEPTION_QUEUE FROM \"AQ$QT1\"");
        assertThat(row.get("EXCEPTION_QUEUE_OWNER")).isEqualTo("APP");
        assertThat(row.get("EXCEPTION_QUEUE")).isEqualTo("Q1_EXC");
    }

    @Test
    void a_message_dequeued_from_a_queue_with_retention_shows_PROCESSED_with_its_dequeue_time_user_and_transaction()
            throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create().retention(3600));
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.commit();
        clock.advanceSeconds(5);
        s.dequeue("Q1", NO_WAIT);
        s.commit();

        Map<String, Object> row = Sql.single(this::sql, "SELECT * FROM \"AQ$QT1\"");
        assertThat(row.get("MSG_STATE")).isEqualTo("PROCESSED");
        assertThat(row.get("DEQ_TIME")).isEqualTo(LocalDateTime.ofInstant(clock.now(), ZoneOffset.UTC));
        assertThat(row.get("DEQ_USER_ID")).isEqualTo("TESTER");
        assertThat(row.get("DEQ_TXN_ID")).isNotNull().isNotEqualTo(row.get("ENQ_TXN_ID"));
    }

    @Test
    void a_message_dequeued_from_a_queue_without_retention_leaves_the_queue_table_view() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.commit();
        s.dequeue("Q1", NO_WAIT);
        s.commit();

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isZero();
    }

    @Test
    void the_queue_table_view_shows_the_messages_of_all_its_queues_and_only_of_them() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        admin.startQueue("Q2", true, true);
        startedQueue("OTHER", "QT2", QueueTableProperties.create(), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of(new byte[] {1}));
        s.enqueue("Q2", Message.of(new byte[] {2}));
        s.enqueue("OTHER", Message.of(new byte[] {3}));
        s.commit();

        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"AQ$QT1\" ORDER BY QUEUE")).containsExactly("Q1", "Q2");
        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"AQ$QT2\"")).containsExactly("OTHER");
    }

    @Test
    void the_queue_table_view_is_created_in_the_schema_of_its_queue_table() throws SQLException {
        startedQueue("OE.NEW_ORDERS", "oe.oe_orders", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        QueueSession s = session();
        s.enqueue("OE.NEW_ORDERS", Message.of("order 1"));
        s.commit();

        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"OE\".\"AQ$OE_ORDERS\"")).containsExactly("NEW_ORDERS");
        assertThat(Sql.viewExists(this::sql, "OE", "AQ$OE_ORDERS")).isTrue();
        assertThat(Sql.viewExists(this::sql, "APP", "AQ$OE_ORDERS")).isFalse();
    }

    // ------------------------------------------------------------------ DBA_QUEUE_TABLES / USER_QUEUE_TABLES

    @Test
    void dba_queue_tables_has_exactly_the_columns_of_AQ() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM DBA_QUEUE_TABLES")).containsExactlyElementsOf(DBA_QUEUE_TABLES_COLUMNS);
    }

    @Test
    void user_queue_tables_has_the_columns_of_dba_queue_tables_without_OWNER() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM USER_QUEUE_TABLES"))
                .containsExactlyElementsOf(DBA_QUEUE_TABLES_COLUMNS.subList(1, DBA_QUEUE_TABLES_COLUMNS.size()));
    }

    @Test
    void dba_queue_tables_shows_every_queue_table_of_every_schema_as_the_catalog_does() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().sortOrder(SortOrder.PRIORITY_ENQ_TIME).comment("one"));
        admin.createQueueTable("OE.QT2", QueueTableProperties.create().payloadType(PayloadType.JSON).multipleConsumers(true));

        List<Map<String, Object>> rows = Sql.rows(this::sql,
                "SELECT * FROM DBA_QUEUE_TABLES ORDER BY OWNER, QUEUE_TABLE");
        assertThat(rows).extracting(r -> r.get("OWNER") + "." + r.get("QUEUE_TABLE")).containsExactly("APP.QT1", "OE.QT2");
        assertThat(rows.get(0)).containsEntry("TYPE", "RAW").containsEntry("SORT_ORDER", "PRIORITY,ENQ_TIME")
                .containsEntry("RECIPIENTS", "SINGLE").containsEntry("USER_COMMENT", "one");
        assertThat(rows.get(1)).containsEntry("TYPE", "JSON").containsEntry("SORT_ORDER", "ENQ_TIME")
                .containsEntry("RECIPIENTS", "MULTIPLE");
        assertThat(admin.queueTables()).extracting(t -> t.owner() + "." + t.name()).containsExactly("APP.QT1", "OE.QT2");
    }

    @Test
    void user_queue_tables_shows_only_the_queue_tables_of_the_current_schema() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueueTable("OE.QT2", QueueTableProperties.create());

        assertThat(Sql.strings(this::sql, "SELECT QUEUE_TABLE FROM USER_QUEUE_TABLES")).containsExactly("QT1");
        try (Connection c = sql()) {
            if (TestStore.CURRENT.kind == TestStore.Kind.MARIADB) {
                c.setCatalog("OE"); // MariaDB's schemas are its databases
            } else {
                c.setSchema("OE");
            }
            try (ResultSet rs = c.createStatement().executeQuery("SELECT QUEUE_TABLE FROM \"APP\".USER_QUEUE_TABLES")) {
                List<String> names = new ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
                assertThat(names).containsExactly("QT2");
            }
        }
    }

    // ------------------------------------------------------------------ DBA_QUEUES / USER_QUEUES

    @Test
    void dba_queues_has_exactly_the_columns_of_AQ() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM DBA_QUEUES")).containsExactlyElementsOf(DBA_QUEUES_COLUMNS);
    }

    @Test
    void user_queues_has_the_columns_of_dba_queues_without_OWNER() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM USER_QUEUES"))
                .containsExactlyElementsOf(DBA_QUEUES_COLUMNS.subList(1, DBA_QUEUES_COLUMNS.size()));
    }

    @Test
    void dba_queues_shows_each_queue_with_its_settings_and_the_qid_the_catalog_reports() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(3).retryDelay(10).retention(60).comment("first"));
        admin.startQueue("Q1", true, false);

        Map<String, Object> row = Sql.single(this::sql, "SELECT * FROM DBA_QUEUES WHERE NAME = 'Q1'");
        QueueInfo info = admin.queue("Q1");
        assertThat(row).containsEntry("OWNER", "APP").containsEntry("QUEUE_TABLE", "QT1").containsEntry("QUEUE_TYPE", "NORMAL")
                .containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "NO")
                .containsEntry("USER_COMMENT", "first");
        assertThat(Sql.num(row, "QID")).isEqualTo(info.qid());
        assertThat(Sql.num(row, "MAX_RETRIES")).isEqualTo(3);
        assertThat(Sql.num(row, "RETRY_DELAY")).isEqualTo(10);
        assertThat(Sql.num(row, "RETENTION")).isEqualTo(60);
    }

    @Test
    void every_queue_has_its_own_qid() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        admin.createQueueTable("QT2", QueueTableProperties.create());

        List<Map<String, Object>> rows = Sql.rows(this::sql, "SELECT QID FROM DBA_QUEUES");
        assertThat(rows).hasSize(4); // Q1, Q2 and the two default exception queues
        assertThat(rows.stream().map(r -> Sql.num(r, "QID")).distinct().count()).isEqualTo(4);
        assertThat(admin.queues()).extracting(QueueInfo::qid).doesNotHaveDuplicates().hasSize(4);
    }

    @Test
    void user_queues_shows_only_the_queues_of_the_current_schema() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.createQueueTable("OE.QT2", QueueTableProperties.create());
        admin.createQueue("OE.Q2", "OE.QT2", QueueProperties.create());

        assertThat(Sql.strings(this::sql, "SELECT NAME FROM USER_QUEUES ORDER BY NAME")).containsExactly("AQ$_QT1_E", "Q1");
        assertThat(Sql.strings(this::sql, "SELECT NAME FROM DBA_QUEUES ORDER BY NAME"))
                .containsExactly("AQ$_QT1_E", "AQ$_QT2_E", "Q1", "Q2");
    }

    @Test
    void the_enabled_columns_follow_start_and_stop() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        String flags = "SELECT ENQUEUE_ENABLED || '/' || DEQUEUE_ENABLED FROM DBA_QUEUES WHERE NAME = 'Q1'";

        assertThat(Sql.strings(this::sql, flags)).containsExactly("NO/NO");
        admin.startQueue("Q1", false, true);
        assertThat(Sql.strings(this::sql, flags)).containsExactly("NO/YES");
        admin.startQueue("Q1", true, false);
        assertThat(Sql.strings(this::sql, flags)).containsExactly("YES/YES");
        admin.stopQueue("Q1", false, true, false);
        assertThat(Sql.strings(this::sql, flags)).containsExactly("YES/NO");
        admin.stopQueue("Q1", true, false, false);
        assertThat(Sql.strings(this::sql, flags)).containsExactly("NO/NO");
    }

    @Test
    void a_dropped_queue_table_leaves_no_view_behind_and_its_view_can_no_longer_be_queried() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create());
        admin.dropQueueTable("QT1", false);

        assertThat(Sql.viewExists(this::sql, "APP", "AQ$QT1")).isFalse();
        assertThatThrownBy(() -> Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"")).isInstanceOf(SQLException.class);
    }
}
