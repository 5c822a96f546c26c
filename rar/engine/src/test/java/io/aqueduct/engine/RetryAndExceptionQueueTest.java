package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 "Retry with Delay Interval" and 002 (retries, retry delay, exception queues): a
 * rolled-back REMOVE is a failed attempt counted in RETRY_COUNT; with a retry delay the message
 * waits; past max_retries it moves to the exception queue. LOCKED and BROWSE never count.
 */
class RetryAndExceptionQueueTest extends EngineFixture {
    private static final String Q = "BOOKED_Q";
    private static final String QT = "BOOKED_QT";
    private static final String EXCEPTION_Q = "AQ$_BOOKED_QT_E";

    private void queue(QueueProperties props) {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), props);
    }

    private MessageId enqueueCommitted(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text));
        s.commit();
        return id;
    }

    @Test
    void a_rolled_back_remove_counts_one_failed_attempt() throws Exception {
        queue(QueueProperties.create());
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();

        Message first = s.dequeue(Q, FIRST_NO_WAIT);
        assertThat(first.id()).isEqualTo(id);
        assertThat(first.properties().attempts()).isZero();
        s.rollback();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("MSG_STATE")).isEqualTo("READY");
        assertThat(row.get("RETRY_COUNT")).isEqualTo(1);
        assertThat(row.get("QUEUE")).isEqualTo(Q);

        Message again = s.dequeue(Q, FIRST_NO_WAIT);
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.properties().attempts()).isEqualTo(1);
        assertThat(again.properties().originalQueue()).isNull(); // it has not been moved
        assertThat(row.get("ORIGINAL_QUEUE_NAME")).isNull();
        s.commit();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void with_a_retry_delay_a_failed_message_is_WAITING_until_the_delay_has_passed() throws Exception {
        queue(QueueProperties.create().retryDelay(60));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback();

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("MSG_STATE")).isEqualTo("WAITING");
        assertThat(row.get("RETRY_COUNT")).isEqualTo(1);
        assertNoMessage(s, Q);

        clock.advanceSeconds(59);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("WAITING");
        assertNoMessage(s, Q);

        clock.advanceSeconds(1);
        engine.timeManager().runDue();
        assertThat(viewRow(QT, id).get("MSG_STATE")).isEqualTo("READY");
        Message m = s.dequeue(Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
        s.commit();
    }

    @Test
    void a_dequeue_blocked_during_a_retry_delay_is_woken_by_the_time_manager_when_the_delay_ends() throws Exception {
        queue(QueueProperties.create().retryDelay(120));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback();

        FutureTask<Message> blocked = blockedDequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.FOREVER));
        clock.advanceSeconds(120); // the background time manager makes it READY again
        Message m = blocked.get(10, TimeUnit.SECONDS);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
    }

    @Test
    void past_max_retries_the_message_moves_to_the_exception_queue_as_EXPIRED() throws Exception {
        queue(QueueProperties.create().maxRetries(2));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();

        for (int attempt = 1; attempt <= 2; attempt++) {
            Message m = s.dequeue(Q, FIRST_NO_WAIT);
            assertThat(m.properties().attempts()).isEqualTo(attempt - 1);
            s.rollback();
            assertThat(viewRow(QT, id)).containsEntry("QUEUE", Q).containsEntry("MSG_STATE", "READY")
                    .containsEntry("RETRY_COUNT", attempt);
        }
        assertThat(s.dequeue(Q, FIRST_NO_WAIT).properties().attempts()).isEqualTo(2);
        s.rollback(); // the third failed attempt exceeds max_retries = 2

        Map<String, Object> row = viewRow(QT, id);
        assertThat(row.get("QUEUE")).isEqualTo(EXCEPTION_Q);
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");
        assertThat(row.get("RETRY_COUNT")).isEqualTo(3);
        // where it came from, so that it can be requeued there
        assertThat(row).containsEntry("ORIGINAL_QUEUE_OWNER", engine.defaultSchema()).containsEntry("ORIGINAL_QUEUE_NAME", Q);
        assertNoMessage(s, Q);

        admin.startQueue(EXCEPTION_Q, false, true);
        assertThat(s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE)).properties().originalQueue())
                .isEqualTo(engine.defaultSchema() + "." + Q);
        Message m = s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT);
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order-1");
        assertThat(m.properties().state()).isEqualTo(MessageState.EXPIRED);
        assertThat(m.properties().originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void with_max_retries_0_the_first_failed_attempt_moves_the_message_to_the_exception_queue() throws Exception {
        queue(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback();
        assertThat(viewRow(QT, id)).containsEntry("QUEUE", EXCEPTION_Q).containsEntry("MSG_STATE", "EXPIRED");
        assertNoMessage(s, Q);
    }

    @Test
    void past_max_retries_a_message_goes_to_its_own_exception_queue() throws Exception {
        queue(QueueProperties.create().maxRetries(1));
        admin.createQueue("BAD_ORDERS", QT, QueueProperties.create().queueType(QueueType.EXCEPTION));
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("order-1", MessageProperties.create().exceptionQueue("BAD_ORDERS")));
        s.commit();
        for (int i = 0; i < 2; i++) {
            s.dequeue(Q, FIRST_NO_WAIT);
            s.rollback();
        }
        assertThat(viewRow(QT, id)).containsEntry("QUEUE", "BAD_ORDERS").containsEntry("MSG_STATE", "EXPIRED")
                .containsEntry("ORIGINAL_QUEUE_NAME", Q);
        admin.startQueue("BAD_ORDERS", false, true);
        Message m = s.dequeue("BAD_ORDERS", FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);
        s.commit();
    }

    @Test
    void a_rolled_back_LOCKED_dequeue_does_not_count_an_attempt() throws Exception {
        queue(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.LOCKED)).id()).isEqualTo(id);
        s.rollback();

        assertThat(viewRow(QT, id)).containsEntry("QUEUE", Q).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 0);
        Message m = s.dequeue(Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isZero();
        s.commit();
    }

    @Test
    void a_BROWSE_dequeue_never_counts_an_attempt() throws Exception {
        queue(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        s.dequeue(Q, FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE));
        s.rollback();
        assertThat(viewRow(QT, id)).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 0);
    }

    @Test
    void rolling_back_a_transaction_that_removed_several_messages_counts_each_of_them_once() throws Exception {
        queue(QueueProperties.create());
        QueueSession producer = session();
        List<MessageId> ids = List.of(producer.enqueue(Q, Message.of("a")), producer.enqueue(Q, Message.of("b")),
                producer.enqueue(Q, Message.of("c")));
        producer.commit();

        QueueSession s = session();
        for (MessageId id : ids) {
            assertThat(s.dequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).id()).isEqualTo(id);
        }
        s.rollback();

        for (MessageId id : ids) {
            assertThat(viewRow(QT, id)).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 1);
        }
        QueueSession next = session();
        for (MessageId id : ids) {
            Message m = next.dequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            assertThat(m.id()).isEqualTo(id); // back in their original order
            assertThat(m.properties().attempts()).isEqualTo(1);
        }
        next.commit();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void closing_a_session_with_uncommitted_removes_counts_them_as_failed_attempts() throws Exception {
        queue(QueueProperties.create());
        QueueSession producer = session();
        MessageId a = producer.enqueue(Q, Message.of("a"));
        MessageId b = producer.enqueue(Q, Message.of("b"));
        producer.commit();

        QueueSession s = engine.openSession();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.dequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
        s.close();

        assertThat(viewRow(QT, a)).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 1);
        assertThat(viewRow(QT, b)).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 1);
        QueueSession other = session();
        Message m1 = other.dequeue(Q, FIRST_NO_WAIT);
        Message m2 = other.dequeue(Q, DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
        other.commit();
        assertThat(List.of(m1.id(), m2.id())).containsExactly(a, b);
        assertThat(m1.properties().attempts()).isEqualTo(1);
        assertThat(m2.properties().attempts()).isEqualTo(1);
    }

    @Test
    void a_message_dequeued_from_the_exception_queue_and_rolled_back_stays_in_the_exception_queue() throws Exception {
        queue(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order-1");
        QueueSession s = session();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback();
        admin.startQueue(EXCEPTION_Q, false, true);

        assertThat(s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        s.rollback();
        assertThat(viewRow(QT, id)).containsEntry("QUEUE", EXCEPTION_Q).containsEntry("MSG_STATE", "EXPIRED");
        assertThat(s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        s.commit();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void applications_cannot_enqueue_into_an_exception_queue() {
        queue(QueueProperties.create());
        QueueSession s = session();
        assertThatThrownBy(() -> s.enqueue(EXCEPTION_Q, Message.of("x"))).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isIn(AqError.ENQUEUE_DISABLED, AqError.EXCEPTION_QUEUE_ENQUEUE));
    }
}
