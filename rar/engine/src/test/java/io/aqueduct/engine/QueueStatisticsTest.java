package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.ConsumerStatistics;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * V$AQ's figures from the admin API (QueueAdmin.queueStatistics): messages WAITING, READY and EXPIRED
 * per queue and per consumer, and how long the READY ones have waited, equal to what a direct count of
 * the AQ$ view says after enqueues, delays, dequeues, rollbacks, retries and moves to the exception queue.
 */
class QueueStatisticsTest extends MultiConsumerFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private static final String EXCEPTION_Q = "AQ$_ORDERS_QT_E";
    private static final String TOPIC = "NEWS_Q";
    private static final String TOPIC_QT = "NEWS_QT";

    @Override
    protected boolean backgroundLoops() {
        return false; // the test runs the time manager when the clock has moved
    }

    @Test
    void a_new_queue_has_nothing_in_any_state() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());

        QueueStatistics stats = admin.queueStatistics(Q);
        assertThat(stats.qualifiedName()).isEqualTo("APP." + Q);
        assertThat(stats.queueId()).isEqualTo(admin.queue(Q).qid());
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(0L, 0L, 0L);
        assertThat(stats.totalWaitSeconds()).isZero();
        assertThat(stats.averageWaitSeconds()).isZero();
        assertThat(stats.oldestReadySeconds()).isZero();
        assertThat(stats.consumers()).isEmpty();
        assertThat(admin.queueStatistics()).extracting(QueueStatistics::name).containsExactly(EXCEPTION_Q, Q);
    }

    @Test
    void an_unknown_queue_is_24010_and_a_name_that_is_none_44003() {
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queueStatistics("NO_SUCH_Q"));
        expectError(AqError.INVALID_NAME, () -> admin.queueStatistics("ORDERS Q; DROP TABLE AQ_MESSAGE"));
        expectError(AqError.INVALID_NAME, () -> admin.queueStatistics(""));
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.queueStatistics("Q".repeat(25))); // looked up as queue() does
    }

    @Test
    void ready_messages_wait_from_their_enqueue_and_delayed_ones_from_the_end_of_their_delay() throws SQLException {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue(Q, Message.of("a"));
        s.enqueue(Q, Message.of("b"));
        s.enqueue(Q, Message.of("later", MessageProperties.create().delay(60)));
        s.commit();
        s.enqueue(Q, Message.of("rolled back"));
        s.rollback();

        clock.advanceSeconds(10);
        QueueStatistics stats = admin.queueStatistics(Q);
        assertThat(stats.ready()).isEqualTo(2);
        assertThat(stats.waiting()).isEqualTo(1);
        assertThat(stats.totalWaitSeconds()).isEqualTo(20.0);
        assertThat(stats.averageWaitSeconds()).isEqualTo(10.0);
        assertThat(stats.oldestReadySeconds()).isEqualTo(10.0);
        assertEqualsDirectCount();

        clock.advanceSeconds(60);
        engine.timeManager().runDue();
        stats = admin.queueStatistics(Q);
        assertThat(stats.ready()).isEqualTo(3);
        assertThat(stats.waiting()).isZero();
        assertThat(stats.totalWaitSeconds()).isEqualTo(70 + 70 + 10.0);
        assertThat(stats.averageWaitSeconds()).isEqualTo(50.0);
        assertThat(stats.oldestReadySeconds()).isEqualTo(70.0);

        s.dequeue(Q, FIRST_NO_WAIT);
        s.commit();
        assertThat(admin.queueStatistics(Q).ready()).isEqualTo(2);
        assertEqualsDirectCount();
    }

    @Test
    void work_in_progress_does_not_hold_up_the_figures_and_on_a_shared_store_is_not_counted() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue(Q, Message.of("taken"));
        s.commit();
        s.dequeue(Q, FIRST_NO_WAIT); // removed, not committed
        QueueSession producer = session();
        producer.enqueue(Q, Message.of("not yet"));
        producer.enqueue(Q, Message.of("nor this"));

        QueueStatistics stats = admin.queueStatistics(Q); // no wait for the row locks of either transaction
        // a shared store counts committed rows; Derby reads the rows as they are rather than wait (docs/metrics.md)
        assertThat(stats.ready()).isEqualTo(sharedStore() ? 1 : 2);
        producer.commit();
        s.commit();
        stats = admin.queueStatistics(Q);
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(0L, 2L, 0L);
    }

    @Test
    void a_failed_attempt_waits_for_the_retry_delay_and_past_max_retries_the_message_is_EXPIRED_in_the_exception_queue()
            throws SQLException {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().maxRetries(1).retryDelay(30));
        QueueSession s = session();
        s.enqueue(Q, Message.of("fragile"));
        s.enqueue(Q, Message.of("fine"));
        s.commit();

        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback(); // a failed attempt: WAITING for 30 s
        QueueStatistics stats = admin.queueStatistics(Q);
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(1L, 1L, 0L);
        assertEqualsDirectCount();

        clock.advanceSeconds(30);
        engine.timeManager().runDue();
        stats = admin.queueStatistics(Q);
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(0L, 2L, 0L);
        // the retried message waits from the end of its retry delay (its DELAY), the other from its enqueue
        assertThat(stats.totalWaitSeconds()).isEqualTo(0 + 30.0);

        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback(); // past max_retries: to the exception queue
        engine.timeManager().runDue();
        stats = admin.queueStatistics(Q);
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(0L, 1L, 0L);
        QueueStatistics exception = admin.queueStatistics(EXCEPTION_Q);
        assertThat(List.of(exception.waiting(), exception.ready(), exception.expired())).containsExactly(0L, 0L, 1L);
        assertThat(exception.totalWaitSeconds()).isZero();
        assertEqualsDirectCount();
    }

    @Test
    void a_multi_consumer_queue_counts_each_message_once_and_each_consumer_its_part() throws SQLException {
        multiConsumerQueue(TOPIC, TOPIC_QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create().maxRetries(0));
        admin.addSubscriber(TOPIC, Agent.named("A"), null);
        admin.addSubscriber(TOPIC, Agent.named("B"), null);
        admin.addSubscriber(TOPIC, Agent.named("IDLE"), "1 = 2");
        QueueSession s = session();
        s.enqueue(TOPIC, Message.of("one"));
        s.enqueue(TOPIC, Message.of("two"));
        s.enqueue(TOPIC, Message.of("three", MessageProperties.create().delay(100)));
        s.commit();
        s.enqueue(TOPIC, Message.of("for C only", MessageProperties.create().recipients(List.of(Agent.named("C")))));
        s.commit();

        clock.advanceSeconds(5);
        assertThat(drain(s, TOPIC, "A")).hasSize(2);
        s.dequeue(TOPIC, as("B"));
        s.rollback(); // B's attempt fails: past max_retries 0; A has processed it: nobody has it pending
        engine.timeManager().runDue(); // so it goes to the exception queue

        QueueStatistics stats = admin.queueStatistics(TOPIC);
        assertThat(List.of(stats.waiting(), stats.ready(), stats.expired())).containsExactly(1L, 2L, 0L);
        Map<String, ConsumerStatistics> byName = byName(stats);
        assertThat(byName).containsOnlyKeys("A", "B", "C", "IDLE");
        assertThat(figures(byName.get("A"))).containsExactly(1L, 0L, 0L);
        assertThat(figures(byName.get("B"))).containsExactly(1L, 1L, 0L);
        assertThat(byName.get("B").totalWaitSeconds()).isEqualTo(5.0);
        assertThat(byName.get("B").oldestReadySeconds()).isEqualTo(5.0);
        assertThat(byName.get("A").oldestReadySeconds()).isZero();
        assertThat(stats.oldestReadySeconds()).isEqualTo(5.0);
        assertThat(figures(byName.get("C"))).containsExactly(0L, 1L, 0L);
        assertThat(figures(byName.get("IDLE"))).containsExactly(0L, 0L, 0L);
        QueueStatistics exception = admin.queueStatistics("AQ$_" + TOPIC_QT + "_E");
        assertThat(List.of(exception.waiting(), exception.ready(), exception.expired())).containsExactly(0L, 0L, 1L);
        // as the AQ$ view shows it: EXPIRED for everyone it was not UNDELIVERABLE to
        assertThat(byName(exception).keySet()).containsExactlyInAnyOrder("A", "B");
        assertEqualsDirectCount();

        admin.removeSubscriber(TOPIC, Agent.named("B")); // its pending parts become UNDELIVERABLE: not counted
        assertThat(byName(admin.queueStatistics(TOPIC))).doesNotContainKey("B");
        assertEqualsDirectCount();
    }

    private static Map<String, ConsumerStatistics> byName(QueueStatistics stats) {
        return stats.consumers().stream().collect(Collectors.toMap(c -> c.consumer().name(), c -> c));
    }

    private static List<Long> figures(ConsumerStatistics c) {
        return List.of(c.waiting(), c.ready(), c.expired());
    }

    /** Every queue's and consumer's figures equal a count of the AQ$ views' rows by state. */
    private void assertEqualsDirectCount() throws SQLException {
        Map<String, Long> api = new TreeMap<>();
        Map<String, Long> direct = new TreeMap<>();
        for (QueueStatistics q : admin.queueStatistics()) {
            put(api, q.name(), q.waiting(), q.ready(), q.expired());
            for (ConsumerStatistics c : q.consumers()) {
                put(api, q.name() + "/" + c.consumer().name(), c.waiting(), c.ready(), c.expired());
            }
        }
        for (Map<String, Object> row : query("SELECT Q.NAME AS QUEUE, M.STATE AS STATE, COUNT(*) AS N FROM AQ_MESSAGE M"
                + " JOIN AQ_QUEUE Q ON Q.QID = M.QID GROUP BY Q.NAME, M.STATE")) {
            String state = io.aqueduct.api.MessageState.ofCode(((Number) row.get("STATE")).intValue()).name();
            if (!"PROCESSED".equals(state)) {
                direct.put(row.get("QUEUE") + " " + state, ((Number) row.get("N")).longValue());
            }
        }
        for (String table : admin.queueTables().stream().map(t -> t.name()).toList()) {
            boolean multi = admin.queueTable(table).multipleConsumers();
            if (multi) {
                for (Map<String, Object> row : query("SELECT QUEUE, CONSUMER_NAME, MSG_STATE, COUNT(*) AS N FROM \"APP\".\"AQ$"
                        + table + "\" WHERE CONSUMER_NAME IS NOT NULL GROUP BY QUEUE, CONSUMER_NAME, MSG_STATE")) {
                    String state = (String) row.get("MSG_STATE");
                    if (!"UNDELIVERABLE".equals(state) && !"PROCESSED".equals(state)) {
                        direct.put(row.get("QUEUE") + "/" + row.get("CONSUMER_NAME") + " " + state,
                                ((Number) row.get("N")).longValue());
                    }
                }
            }
        }
        assertThat(api).isEqualTo(direct);
    }

    private static void put(Map<String, Long> figures, String key, long waiting, long ready, long expired) {
        if (waiting > 0) {
            figures.put(key + " WAITING", waiting);
        }
        if (ready > 0) {
            figures.put(key + " READY", ready);
        }
        if (expired > 0) {
            figures.put(key + " EXPIRED", expired);
        }
    }
}
