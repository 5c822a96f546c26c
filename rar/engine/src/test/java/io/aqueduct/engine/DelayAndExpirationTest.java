package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.engine.store.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reference 000, "Time Specification: Delay" and "Time Specification: Expiration"; 001 §2.14 (the
 * time manager). The manual clock drives time; the time manager is run by hand (runDue) or left to
 * its background thread, woken by the clock, to release a blocked dequeue.
 */
class DelayAndExpirationTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private static final String EXCEPTION_Q = "AQ$_ORDERS_QT_E";

    private Instant start;
    private Dialect dialect;

    @Override
    protected Dialect store(Dialect store) {
        dialect = store;
        return store;
    }

    @BeforeEach
    void createQueue() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        start = clock.now();
    }

    // ------------------------------------------------------------------ delay

    @Test
    void a_delayed_message_is_WAITING_with_its_delay_and_cannot_be_dequeued_until_the_delay_has_passed() throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("deferred", MessageProperties.create().delay(30)));
        s.commit();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("MSG_STATE")).isEqualTo("WAITING");
        assertThat(timestamp(row, "DELAY")).isEqualTo(utc(start.plusSeconds(30)));
        assertThat(timestamp(row, "ENQ_TIME")).isEqualTo(utc(start));
        assertNoMessage(s, Q);

        clock.advanceSeconds(29);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("WAITING");
        assertNoMessage(s, Q);

        clock.advanceSeconds(1);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("READY");
        Message m = s.dequeue(Q, NO_WAIT);
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("deferred");
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_delayed_message_does_not_hold_back_messages_enqueued_after_it() {
        QueueSession s = session();
        MessageId delayed = s.enqueue(Q, Message.of("later", MessageProperties.create().delay(60)));
        MessageId now = s.enqueue(Q, Message.of("now"));
        s.commit();

        assertThat(s.dequeue(Q, NO_WAIT).id()).isEqualTo(now);
        s.commit();
        assertNoMessage(s, Q);

        clock.advanceSeconds(60);
        engine.timeManager().runDue();
        assertThat(s.dequeue(Q, NO_WAIT.copy().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE)).id()).isEqualTo(delayed);
        s.commit();
    }

    @Test
    void a_dequeue_blocked_forever_is_woken_by_the_time_manager_when_the_delay_ends() throws Exception {
        QueueSession producer = session();
        MessageId id = producer.enqueue(Q, Message.of("deferred", MessageProperties.create().delay(45)));
        producer.commit();

        FutureTask<Message> blocked = blockedDequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.FOREVER));
        clock.advanceSeconds(44);
        // nothing is due yet: the dequeuer goes back to waiting
        awaitBlockedInDequeue(blocked);
        assertThat(blocked.isDone()).isFalse();

        clock.advanceSeconds(1); // no enqueue, no runDue: the background time manager makes it READY
        Message m = blocked.get(10, TimeUnit.SECONDS);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("deferred");
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_dequeue_waiting_10_seconds_for_a_message_delayed_30_seconds_times_out_with_25228() throws Exception {
        QueueSession producer = session();
        producer.enqueue(Q, Message.of("deferred", MessageProperties.create().delay(30)));
        producer.commit();

        FutureTask<Message> waiting = blockedDequeue(Q, DequeueOptions.create().waitSeconds(10));
        clock.advanceSeconds(11);
        try {
            waiting.get(10, TimeUnit.SECONDS);
            fail("the dequeue should have timed out");
        } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOfSatisfying(AqException.class,
                    aq -> assertThat(aq.errorCode()).isEqualTo(AqError.NO_MESSAGE));
        }
        assertThat(viewState(Q)).isEqualTo("WAITING");
    }

    // ------------------------------------------------------------------ expiration

    @Test
    void expiration_counts_from_when_the_message_became_READY_so_delay_10_expiration_5_is_still_dequeued_at_14_seconds()
            throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("short-lived", MessageProperties.create().delay(10).expiration(5)));
        s.commit();

        clock.advanceSeconds(14);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("READY");
        Message m = s.dequeue(Q, NO_WAIT);
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().expiration()).isEqualTo(5);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_message_with_delay_10_and_expiration_5_has_expired_at_16_seconds_into_the_default_exception_queue()
            throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("short-lived", MessageProperties.create().delay(10).expiration(5)));
        s.commit();

        clock.advanceSeconds(10);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("READY");

        clock.advanceSeconds(6); // t = 16: READY since t = 10, expired at t = 15
        assertNoMessage(s, Q); // expired, whether or not the time manager has moved it yet
        engine.timeManager().runDue();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");
        assertThat(row.get("QUEUE")).isEqualTo(EXCEPTION_Q);
        assertThat(row).containsEntry("ORIGINAL_QUEUE_OWNER", engine.defaultSchema()).containsEntry("ORIGINAL_QUEUE_NAME", Q);
        assertNoMessage(s, Q);
    }

    @Test
    void an_expired_message_is_dequeued_from_the_started_exception_queue_exactly_once() throws Exception {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("stale", MessageProperties.create().expiration(5)));
        s.commit();
        clock.advanceSeconds(6);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id)).containsEntry("QUEUE", EXCEPTION_Q).containsEntry("MSG_STATE", "EXPIRED");

        // an exception queue is not enabled for dequeue until it is started
        assertThatThrownBy(() -> s.dequeue(EXCEPTION_Q, NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.DEQUEUE_DISABLED));

        admin.startQueue(EXCEPTION_Q, false, true);
        Message m = s.dequeue(EXCEPTION_Q, NO_WAIT);
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("stale");
        assertThat(m.properties().state()).isEqualTo(MessageState.EXPIRED);
        assertThat(m.properties().originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);

        assertNoMessage(s, EXCEPTION_Q);
        assertNoMessage(session(), EXCEPTION_Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void an_expired_message_goes_to_its_own_exception_queue_rather_than_the_default() throws Exception {
        admin.createQueue("BACKORDER_EXCP", QT, QueueProperties.create().queueType(QueueType.EXCEPTION));
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("backorder",
                MessageProperties.create().expiration(5).exceptionQueue("BACKORDER_EXCP")));
        s.commit();

        clock.advanceSeconds(6);
        engine.timeManager().runDue();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("QUEUE")).isEqualTo("BACKORDER_EXCP");
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");
        assertThat(row.get("EXCEPTION_QUEUE")).isEqualTo("BACKORDER_EXCP");

        admin.startQueue(EXCEPTION_Q, false, true);
        admin.startQueue("BACKORDER_EXCP", false, true);
        assertNoMessage(s, EXCEPTION_Q);
        Message m = s.dequeue("BACKORDER_EXCP", NO_WAIT);
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().exceptionQueue()).endsWith("BACKORDER_EXCP");
    }

    @Test
    void a_dequeue_blocked_on_the_exception_queue_is_woken_when_a_message_expires_into_it() throws Exception {
        admin.startQueue(EXCEPTION_Q, false, true);
        QueueSession producer = session();
        MessageId id = producer.enqueue(Q, Message.of("stale", MessageProperties.create().expiration(30)));
        producer.commit();

        FutureTask<Message> blocked = blockedDequeue(EXCEPTION_Q, DequeueOptions.create());
        clock.advanceSeconds(31); // the background time manager expires it
        Message m = blocked.get(10, TimeUnit.SECONDS);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().state()).isEqualTo(MessageState.EXPIRED);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_message_locked_by_a_transaction_when_its_expiration_passes_expires_once_the_lock_is_released() throws Exception {
        QueueSession holder = session();
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("held", MessageProperties.create().expiration(5)));
        s.commit();
        assertThat(holder.dequeue(Q, NO_WAIT.copy().mode(DequeueMode.LOCKED)).id()).isEqualTo(id);

        clock.advanceSeconds(6);
        engine.timeManager().runDue();
        holder.commit(); // releases the lock on an expired message
        engine.timeManager().runDue();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("QUEUE")).isEqualTo(EXCEPTION_Q);
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");
        assertNoMessage(s, Q);
    }

    @Test
    void while_the_time_manager_looks_for_due_messages_the_next_to_expire_stays_first_for_a_dequeuer() throws Exception {
        QueueSession s = session();
        MessageId first = s.enqueue(Q, Message.of("first", MessageProperties.create().expiration(60)));
        s.enqueue(Q, Message.of("second", MessageProperties.create().expiration(60)));
        s.commit();
        clock.advanceSeconds(59);

        // the time manager's batch, held open: it found nothing due (a locking scan of InnoDB would
        // still hold "first", the next row of its index, and the dequeue would pass it by)
        try (Connection tm = sql()) {
            tm.setAutoCommit(false);
            tm.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            try (PreparedStatement due = tm.prepareStatement(dialect.sql("time.dueMessages", 100))) {
                due.setLong(1, clock.millis());
                try (ResultSet rs = due.executeQuery()) {
                    assertThat(rs.next()).isFalse();
                }
            }
            Message m = s.dequeue(Q, NO_WAIT);
            assertThat(m.id()).isEqualTo(first);
            assertThat(m.text()).isEqualTo("first");
            s.commit();
            tm.rollback();
        }
    }

    // ------------------------------------------------------------------ helpers

    private static LocalDateTime utc(Instant i) {
        return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    private static LocalDateTime timestamp(Map<String, Object> row, String column) {
        Object v = row.get(column);
        return v == null ? null : ((Timestamp) v).toLocalDateTime();
    }

    private String viewState(String queue) throws SQLException {
        try (Connection c = sql(); PreparedStatement ps = c.prepareStatement(
                "SELECT MSG_STATE FROM \"APP\".\"AQ$" + QT + "\" WHERE QUEUE = ?")) {
            ps.setString(1, queue);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
