package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 "Modes of Dequeuing" and "Subscriptions and Recipient Lists": after a REMOVE the
 * message is deleted when the queue's retention_time is 0, otherwise kept as PROCESSED, with
 * DEQ_TIME, DEQ_USER_ID and DEQ_TXN_ID in the AQ$ view, until the time manager removes it when the
 * retention time has passed. While retained it can be queried in the view or browsed by message id.
 */
class RetentionTest extends EngineFixture {
    private static final String Q = "SHIPPED_Q";
    private static final String QT = "SHIPPED_QT";

    private void queue(long retentionSeconds) {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().retention(retentionSeconds));
    }

    private MessageId enqueueAndRemove(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text));
        s.commit();
        Message m = s.dequeue(Q, NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        s.commit();
        return id;
    }

    @Test
    void with_retention_0_a_committed_remove_deletes_the_message() throws Exception {
        queue(0);
        MessageId id = enqueueAndRemove("order");
        assertThat(viewRowOrNull(QT, id)).isNull();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void with_retention_60_a_removed_message_stays_PROCESSED_with_its_dequeue_time_user_and_transaction() throws Exception {
        queue(60);
        LocalDateTime dequeuedAt = LocalDateTime.ofInstant(clock.now().plusSeconds(5), ZoneOffset.UTC);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("order"));
        s.commit();
        clock.advanceSeconds(5);
        s.dequeue(Q, NO_WAIT);
        s.commit();

        Map<String, Object> row = viewRowOrNull(QT, id);
        assertThat(row).isNotNull();
        assertThat(row.get("MSG_STATE")).isEqualTo("PROCESSED");
        assertThat(((Timestamp) row.get("DEQ_TIME")).toLocalDateTime()).isEqualTo(dequeuedAt);
        assertThat(row.get("DEQ_USER_ID")).isEqualTo("TESTER");
        assertThat(row.get("DEQ_TXN_ID")).isNotNull();
        assertThat((String) row.get("DEQ_TXN_ID")).isNotBlank();
        assertThat(row.get("ENQ_TXN_ID")).isNotEqualTo(row.get("DEQ_TXN_ID"));

        // consumed: no dequeuer gets it again
        assertNoMessage(s, Q);
        assertNoMessage(session(), Q);
    }

    @Test
    void two_messages_removed_in_one_transaction_share_the_same_DEQ_TXN_ID() throws Exception {
        queue(60);
        QueueSession s = session();
        MessageId a = s.enqueue(Q, Message.of("a"));
        MessageId b = s.enqueue(Q, Message.of("b"));
        s.commit();
        s.dequeue(Q, NO_WAIT);
        s.dequeue(Q, NO_WAIT);
        s.commit();
        MessageId c = enqueueAndRemove("c");
        assertThat(viewRowOrNull(QT, a).get("DEQ_TXN_ID")).isEqualTo(viewRowOrNull(QT, b).get("DEQ_TXN_ID"));
        assertThat(viewRowOrNull(QT, c).get("DEQ_TXN_ID")).isNotEqualTo(viewRowOrNull(QT, a).get("DEQ_TXN_ID"));
    }

    @Test
    void a_retained_message_is_purged_by_the_time_manager_once_its_retention_time_has_passed() throws Exception {
        queue(60);
        MessageId id = enqueueAndRemove("order");

        clock.advanceSeconds(59);
        engine.timeManager().runDue();
        assertThat(viewRowOrNull(QT, id)).isNotNull().containsEntry("MSG_STATE", "PROCESSED");

        clock.advanceSeconds(2);
        engine.timeManager().runDue();
        assertThat(viewRowOrNull(QT, id)).isNull();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void with_INFINITE_retention_the_processed_message_is_kept_for_good() throws Exception {
        queue(QueueProperties.INFINITE);
        MessageId id = enqueueAndRemove("order");

        clock.advanceSeconds(10L * 365 * 24 * 3600);
        engine.timeManager().runDue();
        assertThat(viewRowOrNull(QT, id)).isNotNull().containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_USER_ID", "TESTER");
    }

    @Test
    void a_retained_message_can_be_browsed_by_its_message_id() throws Exception {
        // reference 000: "While the message is retained the message can either be queried using SQL on
        // the queue table view or by dequeuing using the BROWSE mode and specifying the message ID"
        queue(60);
        MessageId id = enqueueAndRemove("order");

        QueueSession s = session();
        Message m = s.dequeue(Q, NO_WAIT.copy().mode(DequeueMode.BROWSE).messageId(id));
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order");
        assertThat(m.properties().state()).isEqualTo(MessageState.PROCESSED);
    }

    @Test
    void a_rolled_back_remove_on_a_retaining_queue_leaves_the_message_READY_not_PROCESSED() throws Exception {
        queue(60);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("order"));
        s.commit();
        s.dequeue(Q, NO_WAIT);
        s.rollback();

        Map<String, Object> row = viewRowOrNull(QT, id);
        assertThat(row).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 1);
        assertThat(row.get("DEQ_TIME")).isNull();
        assertThat(s.dequeue(Q, NO_WAIT.copy().navigation(Navigation.FIRST_MESSAGE)).id()).isEqualTo(id);
        s.commit();
        assertThat(viewRowOrNull(QT, id)).containsEntry("MSG_STATE", "PROCESSED");
    }

    @Test
    void a_message_dequeued_from_an_exception_queue_is_not_retained() throws Exception {
        // reference 000: "Messages cannot be retained in exception queues"
        queue(60);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("stale", MessageProperties.create().expiration(1)));
        s.commit();
        clock.advanceSeconds(2);
        engine.timeManager().runDue();
        admin.startQueue("AQ$_" + QT + "_E", false, true);
        assertThat(s.dequeue("AQ$_" + QT + "_E", NO_WAIT).id()).isEqualTo(id);
        s.commit();
        assertThat(viewRowOrNull(QT, id)).isNull();
    }
}
