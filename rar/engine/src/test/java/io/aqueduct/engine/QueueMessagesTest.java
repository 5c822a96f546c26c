package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueMessage;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * QueueAdmin.queueMessages: an administrator reads a queue's messages in every state, as the
 * AQ$&lt;queue_table&gt; view shows them (a BROWSE dequeue shows only what it could take), page by page
 * by key, with each consumer's part and dequeue history on a multi-consumer queue.
 */
class QueueMessagesTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private static final String EXCEPTION_Q = "AQ$_ORDERS_QT_E";

    @Test
    void messages_of_every_state_are_listed_in_enqueue_order_with_what_the_queue_recorded() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().retention(3600).maxRetries(0));
        QueueSession s = session();
        MessageId done = s.enqueue(Q, Message.of("processed"));
        MessageId failed = s.enqueue(Q, Message.of("failed", MessageProperties.create().correlation("BAD")));
        MessageId later = s.enqueue(Q, Message.of("delayed", MessageProperties.create().delay(60)));
        MessageId ready = s.enqueue(Q, Message.of("ready", MessageProperties.create().priority(3)));
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().messageId(done)).text()).isEqualTo("processed");
        s.commit(); // retained PROCESSED
        s.dequeue(Q, FIRST_NO_WAIT.copy().messageId(failed));
        s.rollback(); // max_retries 0: EXPIRED in the exception queue

        List<QueueMessage> all = admin.queueMessages(Q, null, null, 10);
        assertThat(all).extracting(QueueMessage::messageId).containsExactly(done, later, ready);
        assertThat(all).extracting(QueueMessage::state)
                .containsExactly(MessageState.PROCESSED, MessageState.WAITING, MessageState.READY);
        assertThat(all.get(0).dequeueTime()).isNotNull();
        assertThat(all.get(0).dequeueUser()).isNotNull();
        assertThat(all.get(1).delay()).isEqualTo(all.get(1).enqueueTime().plusSeconds(60));
        assertThat(all.get(2).priority()).isEqualTo(3);
        assertThat(all).allSatisfy(m -> assertThat(m.consumers()).isEmpty());

        QueueMessage expired = admin.queueMessages(EXCEPTION_Q, null, null, 10).get(0);
        assertThat(expired.messageId()).isEqualTo(failed);
        assertThat(expired.state()).isEqualTo(MessageState.EXPIRED);
        assertThat(expired.correlation()).isEqualTo("BAD");
        assertThat(expired.attempts()).isEqualTo(1);
        assertThat(expired.originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);

        assertThat(admin.queueMessages(Q, MessageState.WAITING, null, 10)).extracting(QueueMessage::messageId)
                .containsExactly(later);
        assertThat(admin.queueMessages(Q, MessageState.EXPIRED, null, 10)).isEmpty();
    }

    @Test
    void pages_follow_one_another_by_key_to_the_end() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        List<MessageId> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(s.enqueue(Q, Message.of("m" + i)));
        }
        s.commit();

        List<MessageId> read = new ArrayList<>();
        MessageId after = null;
        int pages = 0;
        while (true) {
            List<QueueMessage> page = admin.queueMessages(Q, null, after, 3);
            if (page.isEmpty()) {
                break;
            }
            pages++;
            page.forEach(m -> read.add(m.messageId()));
            after = page.get(page.size() - 1).messageId();
        }
        assertThat(read).isEqualTo(ids);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void a_multi_consumer_queue_lists_each_consumers_part_and_history() {
        admin.createQueueTable(QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.createQueue(Q, QT, QueueProperties.create().retention(3600));
        admin.startQueue(Q, true, true);
        admin.addSubscriber(Q, Agent.named("A"), null);
        admin.addSubscriber(Q, Agent.named("B"), null);
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("order"));
        s.commit();
        assertThat(s.dequeue(Q, FIRST_NO_WAIT.copy().consumerName("A")).id()).isEqualTo(id);
        s.commit();

        QueueMessage m = admin.queueMessages(Q, null, null, 10).get(0);
        assertThat(m.state()).isEqualTo(MessageState.READY);
        assertThat(m.consumers()).extracting(p -> p.consumer().name() + " " + p.state()).containsExactly("A PROCESSED", "B READY");
        assertThat(m.consumers().get(0).dequeueTime()).isNotNull();
        assertThat(m.consumers().get(0).dequeueTransaction()).isNotNull();
        assertThat(m.consumers().get(1).dequeueTime()).isNull();
    }

    @Test
    void bad_requests_are_refused_with_their_AQ_numbers() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of("one"));
        s.commit();
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queueMessages("NO_SUCH_Q", null, null, 10));
        expectError(AqError.INVALID_VALUE, () -> admin.queueMessages(Q, null, null, 0));
        expectError(AqError.INVALID_VALUE, () -> admin.queueMessages(Q, null, null, QueueMessage.MAX_PAGE + 1));
        expectError(AqError.INVALID_VALUE, () -> admin.queueMessages(Q, null, MessageId.parse("0".repeat(32)), 10));
        expectError(AqError.INVALID_NAME, () -> admin.queueMessages("bad name; --", null, null, 10));
        s.dequeue(Q, FIRST_NO_WAIT);
        s.commit();
        // the position is gone: the caller reads again from the first
        expectError(AqError.INVALID_VALUE, () -> admin.queueMessages(Q, null, id, 10));
    }

    @Test
    void only_the_owner_or_MANAGE_ANY_reads_a_queues_messages() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> session("CLERK").admin().queueMessages(Q, null, null, 10));
        admin.grantSystemPrivilege(io.aqueduct.api.SystemPrivilege.MANAGE_ANY, "CLERK", false);
        assertThat(session("CLERK").admin().queueMessages(Q, null, null, 10)).isEmpty();
    }
}
