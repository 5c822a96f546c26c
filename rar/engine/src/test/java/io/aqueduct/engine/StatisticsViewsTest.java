package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import io.aqueduct.api.QueueTableProperties;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Reference 004, "The GV$AQ and V$AQ dynamic statistics views": per queue its messages WAITING, READY and
 * EXPIRED and how long the READY ones have waited, in SQL, equal to what QueueAdmin.queueStatistics says.
 * The views measure waits with the database's clock, so the test bounds them by the real time around
 * the query (the engine's manual clock stands months earlier).
 */
class StatisticsViewsTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private static final String EXCEPTION_Q = "AQ$_ORDERS_QT_E";

    @Override
    protected boolean backgroundLoops() {
        return false; // the test runs the time manager when the clock has moved
    }

    @Test
    void v_aq_shows_every_queue_with_the_counts_of_queue_statistics_and_gv_aq_the_same_rows() throws SQLException {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.createQueueTable("IDLE_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue("IDLE_Q", "IDLE_QT", QueueProperties.create());
        QueueSession s = session();
        s.enqueue(Q, Message.of("a"));
        s.enqueue(Q, Message.of("b"));
        s.enqueue(Q, Message.of("later", MessageProperties.create().delay(3600)));
        s.enqueue(Q, Message.of("short-lived", MessageProperties.create().expiration(5)));
        s.commit();
        s.enqueue(Q, Message.of("rolled back"));
        s.rollback();
        clock.advanceSeconds(10);
        engine.timeManager().runDue(); // "short-lived" expires into the exception queue

        Map<Long, Map<String, Object>> view = byQueue("V$AQ");
        List<QueueStatistics> stats = admin.queueStatistics();
        assertThat(view.keySet()).containsExactlyInAnyOrderElementsOf(stats.stream().map(QueueStatistics::queueId).toList());
        for (QueueStatistics q : stats) {
            Map<String, Object> row = view.get(q.queueId());
            assertThat(List.of(Sql.num(row, "WAITING"), Sql.num(row, "READY"), Sql.num(row, "EXPIRED")))
                    .as(q.qualifiedName()).containsExactly(q.waiting(), q.ready(), q.expired());
        }
        Map<String, Object> orders = view.get(admin.queue(Q).qid());
        assertThat(List.of(Sql.num(orders, "WAITING"), Sql.num(orders, "READY"), Sql.num(orders, "EXPIRED")))
                .containsExactly(1L, 2L, 0L);
        assertThat(Sql.num(view.get(admin.queue(EXCEPTION_Q).qid()), "EXPIRED")).isEqualTo(1);
        Map<String, Object> idle = view.get(admin.queue("IDLE_Q").qid());
        assertThat(List.of(Sql.num(idle, "WAITING"), Sql.num(idle, "READY"), Sql.num(idle, "EXPIRED"))).containsExactly(0L, 0L, 0L);
        assertThat(decimal(idle, "TOTAL_WAIT")).isZero();
        assertThat(decimal(idle, "AVERAGE_WAIT")).isZero();

        // the store is the whole database and what every node sees: GV$AQ has V$AQ's columns and rows
        Map<Long, Map<String, Object>> global = byQueue("GV$AQ");
        assertThat(global.values().iterator().next().keySet())
                .containsExactly("QID", "WAITING", "READY", "EXPIRED", "TOTAL_WAIT", "AVERAGE_WAIT");
        assertThat(counts(global)).isEqualTo(counts(view));
    }

    @Test
    void ready_messages_wait_from_their_enqueue_and_a_delayed_one_from_the_end_of_its_delay() throws SQLException {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        long enqueued = clock.millis();
        s.enqueue(Q, Message.of("a"));
        s.enqueue(Q, Message.of("b"));
        s.enqueue(Q, Message.of("later", MessageProperties.create().delay(60)));
        s.commit();
        clock.advanceSeconds(60);
        engine.timeManager().runDue(); // "later" is READY from enqueue + 60 s
        long available = enqueued + 60_000;

        long before = System.currentTimeMillis();
        Map<String, Object> row = byQueue("V$AQ").get(admin.queue(Q).qid());
        long after = System.currentTimeMillis();
        assertThat(Sql.num(row, "READY")).isEqualTo(3);
        double slack = 2.0; // the database's clock against this JVM's, and the milliseconds the views round to
        double low = (2.0 * (before - enqueued) + (before - available)) / 1000;
        double high = (2.0 * (after - enqueued) + (after - available)) / 1000;
        assertThat(decimal(row, "TOTAL_WAIT")).isBetween(low - slack, high + slack);
        assertThat(decimal(row, "AVERAGE_WAIT")).isCloseTo(decimal(row, "TOTAL_WAIT") / 3, within(0.01));
    }

    private Map<Long, Map<String, Object>> byQueue(String view) throws SQLException {
        String name = sharedStore() ? view : "\"" + view + "\""; // Derby's identifiers hold no '$' unquoted
        return Sql.rows(this::sql, "SELECT * FROM " + name).stream()
                .collect(Collectors.toMap(r -> Sql.num(r, "QID"), Function.identity()));
    }

    /** Per queue its WAITING, READY and EXPIRED (the waits grow between two reads). */
    private static Map<Long, List<Long>> counts(Map<Long, Map<String, Object>> rows) {
        return rows.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(
                Sql.num(e.getValue(), "WAITING"), Sql.num(e.getValue(), "READY"), Sql.num(e.getValue(), "EXPIRED"))));
    }

    private static double decimal(Map<String, Object> row, String column) {
        return ((Number) row.get(column)).doubleValue();
    }
}
