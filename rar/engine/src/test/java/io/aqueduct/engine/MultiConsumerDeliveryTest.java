package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SortOrder;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reference 000 "Multiple Recipients" and 002 (retries and exception queues with several
 * subscribers): each consumer gets each of its messages once; a message is PROCESSED only when all
 * its consumers removed it; retries, retry delay and max_retries count per consumer; an expired
 * message goes to the exception queue, read there once with no consumer name.
 */
class MultiConsumerDeliveryTest extends MultiConsumerFixture {
    private static final String Q = "BOOKED_Q";
    private static final String QT = "BOOKED_QT";
    private static final String EXCEPTION_Q = "AQ$_BOOKED_QT_E";
    private static final String A = "WEST_SHIPPING";
    private static final String B = "EAST_SHIPPING";

    private ExecutorService pool;

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    private void queueWithAandB(QueueProperties props) {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, props);
        admin.addSubscriber(Q, Agent.named(A), null);
        admin.addSubscriber(Q, Agent.named(B), null);
    }

    private MessageId enqueueCommitted(String text, MessageProperties props) {
        QueueSession s = session();
        MessageId id = s.enqueue(Q, Message.of(text, props));
        s.commit();
        return id;
    }

    private MessageId enqueueCommitted(String text) {
        return enqueueCommitted(text, MessageProperties.create());
    }

    private Timestamp now() {
        return Timestamp.valueOf(LocalDateTime.ofInstant(clock.now(), ZoneOffset.UTC));
    }

    @Test
    void each_subscriber_receives_each_message_once() {
        queueWithAandB(QueueProperties.create());
        for (int i = 1; i <= 5; i++) {
            enqueueCommitted("order-" + i);
        }
        QueueSession s = session();
        List<String> all = List.of("order-1", "order-2", "order-3", "order-4", "order-5");
        assertThat(drain(s, Q, A)).isEqualTo(all);
        assertThat(drain(s, Q, B)).isEqualTo(all);
        assertThat(drain(s, Q, A)).isEmpty();
    }

    @Test
    void a_dequeue_from_a_multi_consumer_queue_without_a_consumer_name_fails_with_25231() throws Exception {
        queueWithAandB(QueueProperties.create());
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        expectError(AqError.CONSUMER_NAME_REQUIRED, () -> s.dequeue(Q, FIRST_NO_WAIT));
        expectError(AqError.CONSUMER_NAME_REQUIRED, () -> s.dequeueArray(Q, FIRST_NO_WAIT, 10));
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "READY").containsEntry(B, "READY");
    }

    @Test
    void a_message_is_PROCESSED_only_when_every_consumer_removed_it_and_is_purged_after_its_retention() throws Exception {
        queueWithAandB(QueueProperties.create().retention(3600));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();

        assertThat(s.dequeue(Q, as(A)).id()).isEqualTo(id);
        s.commit();
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "PROCESSED").containsEntry(B, "READY");

        assertThat(s.dequeue(Q, as(B)).id()).isEqualTo(id);
        s.commit();
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "PROCESSED").containsEntry(B, "PROCESSED");
        assertNothingFor(s, Q, A);
        assertNothingFor(s, Q, B);

        clock.advanceSeconds(3599);
        engine.timeManager().runDue();
        assertThat(distinctMessages(QT)).isEqualTo(1);
        clock.advanceSeconds(1);
        engine.timeManager().runDue();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void with_retention_0_a_message_is_gone_once_its_last_consumer_has_committed() throws Exception {
        queueWithAandB(QueueProperties.create());
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.commit();
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "PROCESSED").containsEntry(B, "READY");

        s.dequeue(Q, as(B));
        s.rollback(); // not yet: B's failed attempt
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(B, "READY");

        s.dequeue(Q, as(B));
        s.commit();
        engine.timeManager().runDue();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void the_dequeue_history_is_recorded_per_consumer() throws Exception {
        queueWithAandB(QueueProperties.create().retention(QueueProperties.INFINITE));
        MessageId id = enqueueCommitted("order");
        Map<String, Map<String, Object>> before = consumerRows(QT, id);
        assertThat(before.get(A).get("DEQ_TIME")).isNull();
        assertThat(before.get(A).get("DEQ_TXN_ID")).isNull();
        assertThat(before.get(A).get("DEQ_USER_ID")).isNull();

        QueueSession first = session();
        first.dequeue(Q, as(A));
        Timestamp aTime = now();
        first.commit();
        clock.advanceSeconds(90);
        QueueSession second = session();
        second.dequeue(Q, as(B));
        Timestamp bTime = now();
        second.commit();
        engine.timeManager().runDue();

        Map<String, Map<String, Object>> rows = consumerRows(QT, id);
        assertThat(rows.get(A)).containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_TIME", aTime)
                .containsEntry("DEQ_USER_ID", "TESTER");
        assertThat(rows.get(B)).containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_TIME", bTime)
                .containsEntry("DEQ_USER_ID", "TESTER");
        assertThat(rows.get(A).get("DEQ_TXN_ID")).isNotNull().isNotEqualTo(rows.get(B).get("DEQ_TXN_ID"));
        assertThat(rows.get(B).get("DEQ_TXN_ID")).isNotNull();
    }

    @Test
    void one_transaction_dequeuing_for_two_consumers_records_the_same_transaction_for_both() throws Exception {
        queueWithAandB(QueueProperties.create().retention(QueueProperties.INFINITE));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.dequeue(Q, as(B));
        s.commit();
        engine.timeManager().runDue();
        Map<String, Map<String, Object>> rows = consumerRows(QT, id);
        assertThat(rows.get(A).get("DEQ_TXN_ID")).isNotNull().isEqualTo(rows.get(B).get("DEQ_TXN_ID"));
    }

    @Test
    void retries_count_per_consumer_and_the_message_moves_to_the_exception_queue_when_all_consumers_exceeded()
            throws Exception {
        queueWithAandB(QueueProperties.create().maxRetries(1));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();

        assertThat(s.dequeue(Q, as(A)).properties().attempts()).isZero();
        s.rollback();
        assertThat(s.dequeue(Q, as(A)).properties().attempts()).isEqualTo(1);
        s.rollback(); // A's second failure exceeds max_retries = 1; B still has the message pending
        engine.timeManager().runDue();

        Map<String, Map<String, Object>> rows = consumerRows(QT, id);
        assertThat(queuesOf(QT, id)).containsExactly(Q);
        assertThat(rows.get(A)).containsEntry("RETRY_COUNT", 2);
        assertThat(rows.get(A).get("MSG_STATE")).isNotEqualTo("READY");
        assertThat(rows.get(B)).containsEntry("RETRY_COUNT", 0).containsEntry("MSG_STATE", "READY");
        assertNothingFor(s, Q, A);

        assertThat(s.dequeue(Q, as(B)).properties().attempts()).isZero();
        s.rollback();
        assertThat(s.dequeue(Q, as(B)).properties().attempts()).isEqualTo(1);
        s.rollback(); // now every consumer has exceeded the limit
        engine.timeManager().runDue();

        assertThat(queuesOf(QT, id)).containsExactly(EXCEPTION_Q);
        assertThat(statesByConsumer(QT, id).values()).containsOnly("EXPIRED");
        assertNothingFor(s, Q, B);
        admin.startQueue(EXCEPTION_Q, false, true);
        Message m = s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT);
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order");
        assertThat(m.properties().state()).isEqualTo(MessageState.EXPIRED);
        assertThat(m.properties().originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);
        s.commit();
        assertNoMessage(s, EXCEPTION_Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_consumer_past_max_retries_does_not_send_the_message_to_the_exception_queue_while_another_takes_it()
            throws Exception {
        queueWithAandB(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.rollback(); // A is past max_retries = 0
        engine.timeManager().runDue();
        assertThat(queuesOf(QT, id)).containsExactly(Q);

        assertThat(s.dequeue(Q, as(B)).id()).isEqualTo(id);
        s.commit();
        engine.timeManager().runDue();

        admin.startQueue(EXCEPTION_Q, false, true);
        assertNoMessage(s, EXCEPTION_Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void when_the_other_consumers_are_done_the_last_pending_consumer_past_max_retries_sends_it_to_the_exception_queue()
            throws Exception {
        queueWithAandB(QueueProperties.create().maxRetries(0));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        s.dequeue(Q, as(B));
        s.commit();
        engine.timeManager().runDue();
        s.dequeue(Q, as(A));
        s.rollback(); // A, the only consumer with it pending, exceeds the limit
        engine.timeManager().runDue();

        assertThat(queuesOf(QT, id)).containsExactly(EXCEPTION_Q);
        admin.startQueue(EXCEPTION_Q, false, true);
        assertThat(s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        s.commit();
    }

    @Test
    void the_retry_delay_holds_back_only_the_consumer_that_failed() throws Exception {
        queueWithAandB(QueueProperties.create().retryDelay(60));
        MessageId id = enqueueCommitted("order");
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.rollback();

        assertThat(statesByConsumer(QT, id)).containsEntry(A, "WAITING").containsEntry(B, "READY");
        assertThat(consumerRows(QT, id).get(A)).containsEntry("RETRY_COUNT", 1);
        assertNothingFor(s, Q, A);
        Message forB = s.dequeue(Q, as(B));
        assertThat(forB.id()).isEqualTo(id);
        assertThat(forB.properties().attempts()).isZero();
        s.commit();
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "WAITING").containsEntry(B, "PROCESSED");

        clock.advanceSeconds(59);
        engine.timeManager().runDue();
        assertNothingFor(s, Q, A);
        clock.advanceSeconds(1);
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id)).containsEntry(A, "READY");
        Message forA = s.dequeue(Q, as(A));
        assertThat(forA.id()).isEqualTo(id);
        assertThat(forA.properties().attempts()).isEqualTo(1);
        s.commit();
        engine.timeManager().runDue();
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    void a_message_a_consumer_did_not_dequeue_in_time_expires_to_the_exception_queue() throws Exception {
        queueWithAandB(QueueProperties.create());
        MessageId id = enqueueCommitted("order", MessageProperties.create().expiration(60));
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.commit();

        clock.advanceSeconds(60);
        engine.timeManager().runDue();

        assertThat(queuesOf(QT, id)).containsExactly(EXCEPTION_Q);
        assertThat(statesByConsumer(QT, id).values()).containsOnly("EXPIRED");
        assertThat(consumerRows(QT, id).values()).allSatisfy(row -> assertThat(row)
                .containsEntry("ORIGINAL_QUEUE_OWNER", engine.defaultSchema()).containsEntry("ORIGINAL_QUEUE_NAME", Q));
        assertNothingFor(s, Q, B);
        admin.startQueue(EXCEPTION_Q, false, true);
        Message expired = s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT);
        assertThat(expired.id()).isEqualTo(id);
        assertThat(expired.properties().originalQueue()).isEqualTo(engine.defaultSchema() + "." + Q);
        s.commit();
        assertNoMessage(s, EXCEPTION_Q);
    }

    @Test
    void a_delayed_message_becomes_available_to_each_of_its_consumers_when_the_delay_ends() throws Exception {
        queueWithAandB(QueueProperties.create());
        MessageId id = enqueueCommitted("later", MessageProperties.create().delay(30));
        QueueSession s = session();
        assertThat(statesByConsumer(QT, id).values()).containsOnly("WAITING");
        assertNothingFor(s, Q, A);
        clock.advanceSeconds(30);
        engine.timeManager().runDue();
        assertThat(statesByConsumer(QT, id).values()).containsOnly("READY");
        assertThat(drain(s, Q, A)).containsExactly("later");
        assertThat(drain(s, Q, B)).containsExactly("later");
    }

    @Test
    void a_message_expires_while_one_consumer_waits_out_its_retry_delay_and_the_other_did_not_dequeue() throws Exception {
        queueWithAandB(QueueProperties.create().retryDelay(600));
        MessageId id = enqueueCommitted("order", MessageProperties.create().expiration(60));
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.rollback(); // A waits 600 s; B never comes
        clock.advanceSeconds(60);
        engine.timeManager().runDue();

        assertThat(queuesOf(QT, id)).containsExactly(EXCEPTION_Q);
        assertNothingFor(s, Q, B);
        clock.advanceSeconds(600);
        engine.timeManager().runDue();
        assertNothingFor(s, Q, A);
        admin.startQueue(EXCEPTION_Q, false, true);
        assertThat(s.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id()).isEqualTo(id);
        s.commit();
    }

    @Test
    void a_message_every_consumer_dequeued_in_time_does_not_expire() throws Exception {
        queueWithAandB(QueueProperties.create());
        enqueueCommitted("order", MessageProperties.create().expiration(60));
        QueueSession s = session();
        s.dequeue(Q, as(A));
        s.dequeue(Q, as(B));
        s.commit();
        clock.advanceSeconds(120);
        engine.timeManager().runDue();

        assertThat(viewCount(QT)).isZero();
        admin.startQueue(EXCEPTION_Q, false, true);
        assertNoMessage(s, EXCEPTION_Q);
    }

    @Test
    void a_message_a_remote_consumer_still_has_pending_expires_to_the_exception_queue() throws Exception {
        queueWithAandB(QueueProperties.create());
        Agent remote = new Agent("OVERSEAS_SHIPPING", "TS.TS_BOOKEDORDERS_QUE", 0);
        QueueSession s = session();
        MessageId mixed = s.enqueue(Q, Message.of("local and remote",
                MessageProperties.create().expiration(60).recipients(List.of(Agent.named(A), remote))));
        MessageId remoteOnly = s.enqueue(Q, Message.of("remote only",
                MessageProperties.create().expiration(60).recipients(List.of(remote))));
        s.commit();
        assertThat(s.dequeue(Q, as(A)).id()).isEqualTo(mixed);
        s.commit();

        clock.advanceSeconds(60);
        engine.timeManager().runDue();

        // the remote consumer did not get either message in time: both expire
        assertThat(Map.of("for A and the remote consumer", queuesOf(QT, mixed), "for the remote consumer only",
                queuesOf(QT, remoteOnly))).as("queue of each message after its expiration")
                .isEqualTo(Map.of("for A and the remote consumer", List.of(EXCEPTION_Q), "for the remote consumer only",
                        List.of(EXCEPTION_Q)));
    }

    @Test
    void the_exception_queue_of_a_multi_consumer_table_gives_each_message_once_with_no_consumer_name() throws Exception {
        queueWithAandB(QueueProperties.create());
        Set<MessageId> expired = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            expired.add(enqueueCommitted("order-" + i, MessageProperties.create().expiration(10)));
        }
        clock.advanceSeconds(10);
        engine.timeManager().runDue();
        admin.startQueue(EXCEPTION_Q, false, true);

        QueueSession one = session();
        QueueSession two = session();
        List<MessageId> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            got.add(one.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id());
            got.add(two.dequeue(EXCEPTION_Q, FIRST_NO_WAIT).id());
        }
        one.commit();
        two.commit();
        assertThat(got).doesNotHaveDuplicates();
        assertThat(new HashSet<>(got)).isEqualTo(expired);
        assertNoMessage(one, EXCEPTION_Q);
        assertNoMessage(two, EXCEPTION_Q);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void three_subscribers_two_threads_each_receive_each_of_1000_messages_exactly_once() throws Exception {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        List<String> consumers = List.of("WEST_SHIPPING", "EAST_SHIPPING", "OVERSEAS_SHIPPING");
        for (String c : consumers) {
            admin.addSubscriber(Q, Agent.named(c), null);
        }
        Set<MessageId> enqueued = new HashSet<>();
        QueueSession producer = session();
        for (int batch = 0; batch < 4; batch++) {
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                messages.add(Message.of("m-" + (batch * 250 + i)));
            }
            enqueued.addAll(producer.enqueueArray(Q, EnqueueOptions.create(), messages));
            producer.commit();
        }
        assertThat(enqueued).hasSize(1000);

        pool = Executors.newFixedThreadPool(6, r -> {
            Thread t = new Thread(r, "mc-consumer");
            t.setDaemon(true);
            return t;
        });
        Map<String, List<Future<List<MessageId>>>> futures = new java.util.LinkedHashMap<>();
        for (String c : consumers) {
            for (int t = 0; t < 2; t++) {
                futures.computeIfAbsent(c, k -> new ArrayList<>()).add(pool.submit(() -> {
                    List<MessageId> got = new ArrayList<>();
                    try (QueueSession own = engine.openSession()) {
                        while (true) {
                            try {
                                got.add(own.dequeue(Q, as(c)).id());
                                own.commit();
                            } catch (AqException e) {
                                if (e.errorCode() != AqError.NO_MESSAGE) {
                                    throw e;
                                }
                                own.rollback();
                                return got;
                            }
                        }
                    }
                }));
            }
        }
        for (String c : consumers) {
            List<MessageId> all = new ArrayList<>();
            for (Future<List<MessageId>> f : futures.get(c)) {
                all.addAll(f.get(150, TimeUnit.SECONDS));
            }
            assertThat(all).as("messages received by %s", c).doesNotHaveDuplicates().hasSize(1000);
            assertThat(new HashSet<>(all)).as("messages received by %s", c).isEqualTo(enqueued);
        }
        engine.timeManager().runDue();
        assertThat(viewCount(QT)).isZero();
    }
}
