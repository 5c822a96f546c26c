package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.Visibility;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** DBMS_AQADM.CREATE_QUEUE / ALTER_QUEUE / DROP_QUEUE / START_QUEUE / STOP_QUEUE and what they do to enqueue and dequeue. */
class QueueAdministrationTest extends EngineFixture {
    private static final long JOIN_MILLIS = 10_000;

    private void table() {
        admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT));
    }

    private Map<String, Object> q1() throws SQLException {
        return Sql.queueRow(this::sql, "APP", "Q1");
    }

    private long messages() throws SQLException {
        return Sql.count(this::sql, "SELECT COUNT(*) FROM \"AQ$QT1\"");
    }

    // ------------------------------------------------------------------ create

    @Test
    void a_new_queue_is_created_stopped_for_enqueue_and_dequeue() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "NO");
        QueueInfo info = admin.queue("Q1");
        assertThat(info.enqueueEnabled()).isFalse();
        assertThat(info.dequeueEnabled()).isFalse();
        QueueSession s = session();
        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("Q1", Message.of("x")));
        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeue("Q1", NO_WAIT));
        assertThat(messages()).isZero();
    }

    @Test
    void a_new_queue_is_a_normal_queue_with_max_retries_5_retry_delay_0_and_retention_0() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());

        assertThat(q1()).containsEntry("OWNER", "APP").containsEntry("QUEUE_TABLE", "QT1").containsEntry("QUEUE_TYPE", "NORMAL")
                .containsEntry("USER_COMMENT", null);
        assertThat(Sql.num(q1(), "MAX_RETRIES")).isEqualTo(5);
        assertThat(Sql.num(q1(), "RETRY_DELAY")).isZero();
        assertThat(Sql.num(q1(), "RETENTION")).isZero();
        QueueInfo info = admin.queue("Q1");
        assertThat(info).isEqualTo(new QueueInfo("APP", "Q1", "QT1", info.qid(), QueueType.NORMAL, 5, 0, false, false, 0, null));
    }

    @Test
    void a_queue_is_created_with_the_settings_and_comment_given() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(0).retryDelay(30).retention(QueueProperties.INFINITE)
                .comment("incoming orders"));

        assertThat(Sql.num(q1(), "MAX_RETRIES")).isZero();
        assertThat(Sql.num(q1(), "RETRY_DELAY")).isEqualTo(30);
        assertThat(Sql.num(q1(), "RETENTION")).isEqualTo(-1);
        assertThat(q1()).containsEntry("USER_COMMENT", "incoming orders");
        QueueInfo info = admin.queue("Q1");
        assertThat(info.maxRetries()).isZero();
        assertThat(info.retryDelaySeconds()).isEqualTo(30);
        assertThat(info.retentionSeconds()).isEqualTo(QueueProperties.INFINITE);
        assertThat(info.comment()).isEqualTo("incoming orders");
    }

    @Test
    void an_exception_queue_can_be_created_in_a_queue_table() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().queueType(QueueType.EXCEPTION));

        assertThat(q1()).containsEntry("QUEUE_TYPE", "EXCEPTION");
        assertThat(admin.queue("Q1").queueType()).isEqualTo(QueueType.EXCEPTION);
    }

    @Test
    void creating_a_queue_with_a_negative_max_retries_retry_delay_or_retention_is_refused_with_24097_and_nothing_is_created()
            throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_VALUE, () -> admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(-1)));
        expectError(AqError.INVALID_VALUE, () -> admin.createQueue("Q1", "QT1", QueueProperties.create().retryDelay(-1)));
        expectError(AqError.INVALID_VALUE, () -> admin.createQueue("Q1", "QT1", QueueProperties.create().retention(-2)));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("Q1"));
    }

    @Test
    void creating_an_existing_queue_again_is_refused_with_24006_and_changes_nothing() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(2).comment("original"));
        admin.createQueueTable("QT2", QueueTableProperties.create());
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(9)));
        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueue("q1", "QT1", QueueProperties.create()));
        // queue names are unique in a schema, not only in a queue table
        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueue("Q1", "QT2", QueueProperties.create()));
        expectError(AqError.QUEUE_EXISTS, () -> admin.createQueue("AQ$_QT2_E", "QT1", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queue("Q1").maxRetries()).isEqualTo(2);
        assertThat(admin.queue("Q1").comment()).isEqualTo("original");
    }

    @Test
    void creating_a_queue_in_an_unknown_queue_table_is_refused_with_24002_and_nothing_is_created() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_TABLE_NOT_FOUND, () -> admin.createQueue("Q1", "NOPE", QueueProperties.create()));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("Q1"));
    }

    // ------------------------------------------------------------------ alter

    @Test
    void altering_max_retries_changes_only_max_retries() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().retryDelay(7).retention(8).comment("c"));

        admin.alterQueue("Q1", 12, null, null, null);

        assertThat(admin.queue("Q1")).extracting(QueueInfo::maxRetries, QueueInfo::retryDelaySeconds,
                QueueInfo::retentionSeconds, QueueInfo::comment).containsExactly(12, 7L, 8L, "c");
        assertThat(Sql.num(q1(), "MAX_RETRIES")).isEqualTo(12);
        assertThat(Sql.num(q1(), "RETRY_DELAY")).isEqualTo(7);
        assertThat(Sql.num(q1(), "RETENTION")).isEqualTo(8);
        assertThat(q1()).containsEntry("USER_COMMENT", "c");
    }

    @Test
    void altering_retry_delay_changes_only_retry_delay() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(3).retention(8).comment("c"));

        admin.alterQueue("Q1", null, 120L, null, null);

        assertThat(admin.queue("Q1")).extracting(QueueInfo::maxRetries, QueueInfo::retryDelaySeconds,
                QueueInfo::retentionSeconds, QueueInfo::comment).containsExactly(3, 120L, 8L, "c");
        assertThat(Sql.num(q1(), "RETRY_DELAY")).isEqualTo(120);
        assertThat(Sql.num(q1(), "MAX_RETRIES")).isEqualTo(3);
    }

    @Test
    void altering_retention_changes_only_retention_and_accepts_INFINITE() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(3).retryDelay(7).comment("c"));

        admin.alterQueue("Q1", null, null, 3600L, null);
        assertThat(Sql.num(q1(), "RETENTION")).isEqualTo(3600);

        admin.alterQueue("Q1", null, null, QueueProperties.INFINITE, null);
        assertThat(Sql.num(q1(), "RETENTION")).isEqualTo(-1);
        assertThat(admin.queue("Q1")).extracting(QueueInfo::maxRetries, QueueInfo::retryDelaySeconds,
                QueueInfo::retentionSeconds, QueueInfo::comment).containsExactly(3, 7L, QueueProperties.INFINITE, "c");
    }

    @Test
    void altering_the_comment_changes_only_the_comment() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(3).retryDelay(7).retention(8).comment("old"));

        admin.alterQueue("Q1", null, null, null, "new");

        assertThat(q1()).containsEntry("USER_COMMENT", "new");
        assertThat(admin.queue("Q1")).extracting(QueueInfo::maxRetries, QueueInfo::retryDelaySeconds,
                QueueInfo::retentionSeconds, QueueInfo::comment).containsExactly(3, 7L, 8L, "new");
    }

    @Test
    void altering_a_queue_keeps_it_started_or_stopped_as_it_was() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, false);

        admin.alterQueue("Q1", 1, 2L, 3L, "x");

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "NO");
    }

    @Test
    void altering_a_queue_with_a_negative_max_retries_is_refused_with_24097_and_changes_nothing() throws SQLException {
        assertAlterRefused(() -> admin.alterQueue("Q1", -1, null, null, null));
    }

    @Test
    void altering_a_queue_with_a_negative_retry_delay_is_refused_with_24097_and_changes_nothing() throws SQLException {
        assertAlterRefused(() -> admin.alterQueue("Q1", null, -1L, null, null));
    }

    @Test
    void altering_a_queue_with_a_negative_retention_other_than_INFINITE_is_refused_with_24097_and_changes_nothing()
            throws SQLException {
        assertAlterRefused(() -> admin.alterQueue("Q1", null, null, -2L, null));
    }

    @Test
    void altering_a_queue_with_one_bad_setting_among_good_ones_changes_none_of_them() throws SQLException {
        assertAlterRefused(() -> admin.alterQueue("Q1", 9, 99L, -5L, "changed"));
    }

    private void assertAlterRefused(Executable alter) throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().maxRetries(3).retryDelay(7).retention(8).comment("c"));
        QueueInfo before = admin.queue("Q1");
        List<String> store = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_VALUE, alter);

        assertThat(admin.queue("Q1")).isEqualTo(before);
        assertThat(Sql.snapshot(this::sql)).isEqualTo(store);
    }

    @Test
    void altering_an_unknown_queue_is_refused_with_24010_and_changes_nothing() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.alterQueue("NOPE", 1, null, null, null));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    // ------------------------------------------------------------------ start / stop

    @Test
    void a_queue_started_for_enqueue_only_accepts_enqueues_and_refuses_dequeues_with_25226() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());

        admin.startQueue("Q1", true, false);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "NO");
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();
        assertThat(messages()).isEqualTo(1);
        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeue("Q1", NO_WAIT));
        assertThat(Sql.strings(this::sql, "SELECT MSG_STATE FROM \"AQ$QT1\"")).containsExactly("READY");
    }

    @Test
    void a_queue_started_for_dequeue_only_refuses_enqueues_with_25207_and_gives_out_its_messages() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, false);
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();
        admin.stopQueue("Q1", true, false, false);

        admin.startQueue("Q1", false, true);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "YES");
        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("Q1", Message.of("y")));
        assertThat(s.dequeue("Q1", NO_WAIT).text()).isEqualTo("x");
        s.commit();
        assertThat(messages()).isZero();
    }

    @Test
    void starting_for_one_operation_leaves_the_other_as_it_was() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, false);

        admin.startQueue("Q1", false, true);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "YES");
    }

    @Test
    void stopping_for_enqueue_only_leaves_dequeue_enabled() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, true);
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();

        admin.stopQueue("Q1", true, false, false);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "YES");
        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("Q1", Message.of("y")));
        assertThat(s.dequeue("Q1", NO_WAIT).text()).isEqualTo("x");
        s.commit();
    }

    @Test
    void stopping_for_dequeue_only_leaves_enqueue_enabled() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, true);

        admin.stopQueue("Q1", false, true, false);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "NO");
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();
        assertThat(messages()).isEqualTo(1);
        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeue("Q1", NO_WAIT));
    }

    @Test
    void starting_or_stopping_an_unknown_queue_is_refused_with_24010_and_changes_nothing() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.startQueue("NOPE", true, true));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.stopQueue("NOPE", true, true, false));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.stopQueue("NOPE", true, true, true));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("NOPE"));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void the_default_exception_queue_cannot_be_started_for_enqueue_24017_and_stays_stopped() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.EXCEPTION_QUEUE_ENQUEUE, () -> admin.startQueue("AQ$_QT1_E", true, false));
        expectError(AqError.EXCEPTION_QUEUE_ENQUEUE, () -> admin.startQueue("AQ$_QT1_E", true, true));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(Sql.queueRow(this::sql, "APP", "AQ$_QT1_E")).containsEntry("ENQUEUE_ENABLED", "NO")
                .containsEntry("DEQUEUE_ENABLED", "NO");
    }

    @Test
    void an_exception_queue_can_be_started_for_dequeue() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().queueType(QueueType.EXCEPTION));

        admin.startQueue("AQ$_QT1_E", false, true);
        admin.startQueue("Q1", false, true);

        assertThat(Sql.queueRow(this::sql, "APP", "AQ$_QT1_E")).containsEntry("ENQUEUE_ENABLED", "NO")
                .containsEntry("DEQUEUE_ENABLED", "YES");
        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "YES");
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("AQ$_QT1_E", NO_WAIT));
    }

    @Test
    void a_created_exception_queue_cannot_be_started_for_enqueue_either() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().queueType(QueueType.EXCEPTION));

        expectError(AqError.EXCEPTION_QUEUE_ENQUEUE, () -> admin.startQueue("Q1", true, true));

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "NO");
    }

    @Test
    void stopping_a_queue_without_wait_while_a_transaction_has_enqueued_into_it_is_refused_with_24203_and_changes_nothing()
            throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("in flight"));
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_BUSY, () -> admin.stopQueue("Q1", true, true, false));
        expectError(AqError.QUEUE_BUSY, () -> admin.stopQueue("Q1", true, false, false));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queue("Q1").enqueueEnabled()).isTrue();
        assertThat(admin.queue("Q1").dequeueEnabled()).isTrue();
        s.commit();
        admin.stopQueue("Q1", true, true, false);
        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "NO");
        assertThat(messages()).isEqualTo(1);
    }

    @Test
    void stopping_a_queue_without_wait_while_a_transaction_has_dequeued_from_it_is_refused_with_24203() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("m"));
        s.commit();
        s.dequeue("Q1", NO_WAIT.copy().mode(DequeueMode.LOCKED));

        expectError(AqError.QUEUE_BUSY, () -> admin.stopQueue("Q1", false, true, false));

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "YES").containsEntry("DEQUEUE_ENABLED", "YES");
        s.rollback();
    }

    @Test
    void stopping_a_queue_with_wait_waits_for_the_open_transaction_to_end() throws Exception {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("in flight"));

        CountDownLatch stopped = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                admin.stopQueue("Q1", true, true, true);
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                stopped.countDown();
            }
        }, "stopper");
        stopper.setDaemon(true);
        stopper.start();

        // the stop cannot end while the enqueuing transaction is open
        assertThat(stopped.await(500, TimeUnit.MILLISECONDS)).as("stopQueue returned before the transaction ended").isFalse();
        s.commit();
        assertThat(stopped.await(JOIN_MILLIS, TimeUnit.MILLISECONDS)).as("stopQueue returned after the commit").isTrue();
        stopper.join(JOIN_MILLIS);

        assertThat(failure.get()).isNull();
        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "NO");
        assertThat(Sql.strings(this::sql, "SELECT MSG_STATE FROM \"AQ$QT1\"")).containsExactly("READY");
    }

    @Test
    void stopping_a_queue_with_wait_returns_at_once_when_no_transaction_is_open() throws Exception {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());

        admin.stopQueue("Q1", true, true, true);

        assertThat(q1()).containsEntry("ENQUEUE_ENABLED", "NO").containsEntry("DEQUEUE_ENABLED", "NO");
    }

    @Test
    void a_dequeuer_waiting_on_a_queue_is_turned_away_with_25226_when_the_queue_is_stopped_for_dequeue() throws Exception {
        startedQueue("Q1", "QT1", QueueTableProperties.create(), QueueProperties.create());
        QueueSession waiter = session();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                waiter.dequeue("Q1", DequeueOptions.create().waitSeconds(DequeueOptions.FOREVER));
            } catch (Throwable e) {
                outcome.set(e);
            } finally {
                done.countDown();
            }
        }, "waiter");
        t.setDaemon(true);
        t.start();

        admin.stopQueue("Q1", false, true, false);

        assertThat(done.await(JOIN_MILLIS, TimeUnit.MILLISECONDS)).as("the waiting dequeue ended").isTrue();
        t.join(JOIN_MILLIS);
        assertThat(outcome.get()).isInstanceOf(AqException.class);
        assertThat(((AqException) outcome.get()).errorCode()).isEqualTo(AqError.DEQUEUE_DISABLED);
    }

    // ------------------------------------------------------------------ enqueue / dequeue against the queue's state

    @Test
    void enqueueing_into_a_stopped_queue_is_refused_with_25207_and_nothing_is_written() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.stopQueue("Q1", true, false, false);
        QueueSession s = session();

        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("Q1", Message.of("x")));
        expectError(AqError.ENQUEUE_DISABLED,
                () -> s.enqueue("Q1", EnqueueOptions.create().visibility(Visibility.IMMEDIATE), Message.of("x")));
        expectError(AqError.ENQUEUE_DISABLED,
                () -> s.enqueueArray("Q1", EnqueueOptions.create(), List.of(Message.of("a"), Message.of("b"))));
        s.commit();

        assertThat(messages()).isZero();
    }

    @Test
    void enqueueing_into_an_exception_queue_is_refused_with_25207_even_when_it_is_started_for_dequeue() throws SQLException {
        table();
        admin.startQueue("AQ$_QT1_E", false, true);
        QueueSession s = session();

        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("AQ$_QT1_E", Message.of("x")));
        s.commit();

        assertThat(messages()).isZero();
    }

    @Test
    void dequeueing_from_a_queue_stopped_for_dequeue_is_refused_with_25226_and_the_message_stays_ready() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();
        admin.stopQueue("Q1", false, true, false);

        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeue("Q1", NO_WAIT));
        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeue("Q1", NO_WAIT.copy().mode(DequeueMode.BROWSE)));
        expectError(AqError.DEQUEUE_DISABLED, () -> s.dequeueArray("Q1", NO_WAIT, 5));
        s.commit();

        Map<String, Object> row = Sql.single(this::sql, "SELECT MSG_STATE, RETRY_COUNT FROM \"AQ$QT1\"");
        assertThat(row.get("MSG_STATE")).isEqualTo("READY");
        assertThat(Sql.num(row, "RETRY_COUNT")).isZero();
    }

    @Test
    void enqueueing_into_or_dequeueing_from_an_unknown_queue_is_refused_with_25205() throws SQLException {
        table();
        QueueSession s = session();

        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.enqueue("NOPE", Message.of("x")));
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.dequeue("NOPE", NO_WAIT));
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.enqueue("OE.Q1", Message.of("x")));
        s.commit();

        assertThat(messages()).isZero();
    }

    // ------------------------------------------------------------------ drop

    @Test
    void dropping_a_started_queue_is_refused_with_24011_and_changes_nothing() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("x"));
        s.commit();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_NOT_STOPPED, () -> admin.dropQueue("Q1"));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(s.dequeue("Q1", NO_WAIT).text()).isEqualTo("x");
        s.commit();
    }

    @Test
    void dropping_a_queue_started_for_enqueue_or_dequeue_only_is_refused_with_24011() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, false);
        List<String> before = Sql.snapshot(this::sql);
        expectError(AqError.QUEUE_NOT_STOPPED, () -> admin.dropQueue("Q1"));
        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);

        admin.stopQueue("Q1", true, false, false);
        admin.startQueue("Q1", false, true);
        before = Sql.snapshot(this::sql);
        expectError(AqError.QUEUE_NOT_STOPPED, () -> admin.dropQueue("Q1"));
        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void dropping_a_stopped_queue_removes_it_and_its_messages_and_nothing_else() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        admin.startQueue("Q2", true, true);
        QueueSession s = session();
        s.enqueue("Q1", Message.of("a"));
        s.enqueue("Q1", Message.of("b"));
        s.enqueue("Q2", Message.of("c"));
        s.commit();
        admin.stopQueue("Q1", true, true, false);

        admin.dropQueue("Q1");

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUES WHERE NAME = 'Q1'")).isZero();
        assertThat(Sql.strings(this::sql, "SELECT QUEUE FROM \"AQ$QT1\"")).containsExactly("Q2");
        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM AQ_MESSAGE")).isEqualTo(1);
        assertThat(admin.queues()).extracting(QueueInfo::name).containsExactlyInAnyOrder("AQ$_QT1_E", "Q2");
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queue("Q1"));
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.enqueue("Q1", Message.of("d")));
        assertThat(s.dequeue("Q2", NO_WAIT).text()).isEqualTo("c");
        s.commit();
    }

    @Test
    void a_dropped_queue_can_be_created_again_and_starts_empty() throws SQLException {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q1", Message.of("old"));
        s.commit();
        admin.stopQueue("Q1", true, true, false);
        admin.dropQueue("Q1");

        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.startQueue("Q1", true, true);

        assertThat(messages()).isZero();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q1", NO_WAIT));
        s.enqueue("Q1", Message.of("new"));
        s.commit();
        assertThat(s.dequeue("Q1", NO_WAIT).text()).isEqualTo("new");
        s.commit();
    }

    @Test
    void dropping_an_unknown_queue_is_refused_with_24010_and_changes_nothing() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.dropQueue("NOPE"));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
    }

    @Test
    void dropping_the_default_exception_queue_on_its_own_is_refused_and_changes_nothing() throws SQLException {
        table();
        List<String> before = Sql.snapshot(this::sql);

        expectError(AqError.INVALID_VALUE, () -> admin.dropQueue("AQ$_QT1_E"));

        assertThat(Sql.snapshot(this::sql)).isEqualTo(before);
        assertThat(admin.queue("AQ$_QT1_E").queueType()).isEqualTo(QueueType.EXCEPTION);
    }

    @Test
    void a_created_exception_queue_can_be_dropped_once_stopped() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create().queueType(QueueType.EXCEPTION));

        admin.dropQueue("Q1");

        assertThat(Sql.count(this::sql, "SELECT COUNT(*) FROM DBA_QUEUES WHERE NAME = 'Q1'")).isZero();
    }

    // ------------------------------------------------------------------ identity and durability

    @Test
    void a_queue_created_after_another_was_dropped_gets_a_qid_of_its_own() throws SQLException {
        table();
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        long droppedQid = admin.queue("Q2").qid();
        admin.dropQueue("Q2");

        admin.createQueue("Q3", "QT1", QueueProperties.create());

        // DBA_QUEUES.QID: the unique identifier of a queue, so it never names two different queues
        assertThat(admin.queue("Q3").qid()).isNotEqualTo(droppedQid);
        assertThat(Sql.num(Sql.queueRow(this::sql, "APP", "Q3"), "QID")).isNotEqualTo(droppedQid);
    }

    @Test
    void a_session_that_dequeued_from_a_dropped_queue_starts_at_the_head_of_a_queue_created_afterwards() throws SQLException {
        admin.createQueueTable("QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .sortOrder(io.aqueduct.api.SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue("Q1", "QT1", QueueProperties.create());
        admin.createQueue("Q2", "QT1", QueueProperties.create());
        admin.startQueue("Q2", true, true);
        QueueSession s = session();
        s.enqueue("Q2", Message.of("old", io.aqueduct.api.MessageProperties.create().priority(5).correlation("X")));
        s.commit();
        assertThat(s.dequeue("Q2", NO_WAIT.copy().correlation("X")).text()).isEqualTo("old");
        s.commit();
        admin.stopQueue("Q2", true, true, false);
        admin.dropQueue("Q2");

        admin.createQueue("Q3", "QT1", QueueProperties.create());
        admin.startQueue("Q3", true, true);
        s.enqueue("Q3", Message.of("new", io.aqueduct.api.MessageProperties.create().priority(1)));
        s.commit();

        // the session never dequeued from Q3: its first dequeue there starts at the head, with any correlation
        assertThat(s.dequeue("Q3", NO_WAIT).text()).isEqualTo("new");
        s.commit();
        assertThat(messages()).isZero();
    }

    @Test
    void queue_tables_and_queues_with_their_settings_and_states_survive_a_restart_of_the_engine(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        QueueTableInfo tableBefore;
        QueueInfo queueBefore;
        QueueInfo exceptionQueueBefore;
        try (AqueductEngine first = AqueductEngine.builder().derbyDirectory(dir.resolve("store")).clock(clock)
                .user("TESTER").timeManager(false).start()) {
            io.aqueduct.api.QueueAdmin a = first.admin();
            a.createQueueTable("OE.QT1", QueueTableProperties.create().objectType("java.util.ArrayList")
                    .sortOrder(io.aqueduct.api.SortOrder.ENQ_TIME_PRIORITY).comment("t"));
            a.createQueue("OE.Q1", "OE.QT1", QueueProperties.create().maxRetries(2).retryDelay(3).retention(4).comment("q"));
            a.alterQueueTable("OE.QT1", "altered");
            a.alterQueue("OE.Q1", 6, null, null, null);
            a.startQueue("OE.Q1", true, false);
            a.startQueue("OE.AQ$_QT1_E", false, true);
            tableBefore = a.queueTable("OE.QT1");
            queueBefore = a.queue("OE.Q1");
            exceptionQueueBefore = a.queue("OE.AQ$_QT1_E");
        }
        try (AqueductEngine second = AqueductEngine.builder().derbyDirectory(dir.resolve("store")).clock(clock)
                .user("TESTER").timeManager(false).start()) {
            io.aqueduct.api.QueueAdmin a = second.admin();
            assertThat(a.queueTable("OE.QT1")).isEqualTo(tableBefore);
            assertThat(a.queue("OE.Q1")).isEqualTo(queueBefore);
            assertThat(a.queue("OE.AQ$_QT1_E")).isEqualTo(exceptionQueueBefore);
            assertThat(tableBefore.comment()).isEqualTo("altered");
            assertThat(queueBefore.maxRetries()).isEqualTo(6);
            assertThat(queueBefore.enqueueEnabled()).isTrue();
            assertThat(queueBefore.dequeueEnabled()).isFalse();
        }
    }
}
