package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Array enqueues and dequeues of many messages at once: the same messages, order and attempt
 * counting as one by one, on every store (a shared store enqueues them in one batch and takes the
 * head of the queue in one statement).
 */
class ArrayDequeueTest extends EngineFixture {

    private void priorityQueue() {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME), QueueProperties.create().maxRetries(5));
    }

    /** Enqueues m0..m(n-1) in one array, message i with priority i % 3. */
    private void enqueue(QueueSession s, int from, int n) {
        List<Message> batch = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            batch.add(Message.of("m" + i, MessageProperties.create().priority(i % 3)));
        }
        s.enqueueArray("Q", EnqueueOptions.create(), batch);
        s.commit();
    }

    /** m0..m(n-1) in dequeue order: priority 0 first, then 1, then 2, each in enqueue order. */
    private static List<String> inPriorityOrder(int n) {
        List<String> out = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i < n; i++) {
                if (i % 3 == p) {
                    out.add("m" + i);
                }
            }
        }
        return out;
    }

    private static List<String> payloads(List<Message> messages) {
        return messages.stream().map(m -> (String) m.payload()).toList();
    }

    @Test
    void an_array_dequeue_returns_the_head_of_the_queue_in_dequeue_order_and_its_rollback_counts_one_attempt_each() {
        priorityQueue();
        QueueSession s = session();
        enqueue(s, 0, 150);
        List<String> order = inPriorityOrder(150);

        List<Message> first = s.dequeueArray("Q", FIRST_NO_WAIT, 100);
        assertThat(payloads(first)).containsExactlyElementsOf(order.subList(0, 100));
        assertThat(first).allSatisfy(m -> assertThat(m.properties().attempts()).isZero());
        s.rollback();

        // every message is back, in its place, those of the rolled-back array with one attempt counted
        DequeueOptions browse = noWait().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(session().dequeueArray("Q", browse, 200)).hasSize(150)
                        .filteredOn(m -> m.properties().attempts() == 1).hasSize(100));
        List<Message> all = s.dequeueArray("Q", FIRST_NO_WAIT, 200);
        assertThat(payloads(all)).containsExactlyElementsOf(order);
        assertThat(all.subList(0, 100)).allSatisfy(m -> assertThat(m.properties().attempts()).isEqualTo(1));
        assertThat(all.subList(100, 150)).allSatisfy(m -> assertThat(m.properties().attempts()).isZero());
        s.commit();
        assertNoMessage(s, "Q");
    }

    @Test
    void an_array_dequeue_with_next_message_goes_on_after_the_last_message_the_session_had() {
        priorityQueue();
        QueueSession s = session();
        enqueue(s, 0, 6); // priorities 0 1 2 0 1 2: order m0 m3 m1 m4 m2 m5
        DequeueOptions next = noWait(); // NEXT_MESSAGE, AQ's default
        assertThat(payloads(s.dequeueArray("Q", next, 2))).containsExactly("m0", "m3");
        s.commit();
        // "urgent" goes before the session's position, "late" after it
        s.enqueueArray("Q", EnqueueOptions.create(), List.of(Message.of("urgent", MessageProperties.create().priority(-1)),
                Message.of("late", MessageProperties.create().priority(0))));
        s.commit();
        assertThat(payloads(s.dequeueArray("Q", next, 10))).containsExactly("late", "m1", "m4", "m2", "m5");
        s.commit();
        // the end of the queue: FIRST_MESSAGE starts again at the top, where "urgent" waits
        assertThat(payloads(s.dequeueArray("Q", FIRST_NO_WAIT, 10))).containsExactly("urgent");
        s.commit();
    }

    @Test
    void messages_two_sessions_take_at_once_are_each_dequeued_once() {
        priorityQueue();
        QueueSession a = session();
        QueueSession b = session();
        enqueue(a, 0, 60);
        List<Message> fromA = a.dequeueArray("Q", FIRST_NO_WAIT, 25);
        List<Message> fromB = b.dequeueArray("Q", FIRST_NO_WAIT, 100); // passes by what a holds
        assertThat(fromA).hasSize(25);
        assertThat(fromB).hasSize(35);
        List<String> both = new ArrayList<>(payloads(fromA));
        both.addAll(payloads(fromB));
        assertThat(both).doesNotHaveDuplicates().hasSize(60);
        a.commit();
        b.commit();
        assertNoMessage(a, "Q");
    }

    @Test
    void an_array_passes_by_a_message_another_session_has_locked_and_gets_it_once_that_session_lets_it_go() {
        priorityQueue();
        QueueSession a = session();
        QueueSession b = session();
        enqueue(a, 0, 9); // order m0 m3 m6 m1 m4 m7 m2 m5 m8
        Message locked = a.dequeue("Q", FIRST_NO_WAIT.copy().mode(DequeueMode.LOCKED));
        assertThat(locked.payload()).isEqualTo("m0");

        assertThat(payloads(b.dequeueArray("Q", FIRST_NO_WAIT, 5))).containsExactly("m3", "m6", "m1", "m4", "m7");
        b.commit();
        a.commit(); // the lock goes, m0 stays
        assertThat(payloads(b.dequeueArray("Q", FIRST_NO_WAIT, 10))).containsExactly("m0", "m2", "m5", "m8");
        b.commit();
        assertNoMessage(b, "Q");
    }

    @Test
    void an_array_of_more_messages_than_one_statement_takes_is_taken_whole_and_its_rollback_counts_each_attempt() {
        // 1,250: over the rows one statement puts on record (200) and one page of a take (500) holds
        priorityQueue();
        QueueSession s = session();
        for (int from = 0; from < 1300; from += 100) {
            enqueue(s, from, 100);
        }
        List<String> order = inPriorityOrder(1300);

        List<Message> taken = s.dequeueArray("Q", FIRST_NO_WAIT, 1250);
        assertThat(payloads(taken)).containsExactlyElementsOf(order.subList(0, 1250));
        s.rollback();

        DequeueOptions browse = noWait().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(session().dequeueArray("Q", browse, 2000)).hasSize(1300)
                        .filteredOn(m -> m.properties().attempts() == 1).hasSize(1250));
        List<Message> all = s.dequeueArray("Q", FIRST_NO_WAIT, 2000);
        assertThat(payloads(all)).containsExactlyElementsOf(order);
        s.commit();
        assertNoMessage(s, "Q");
    }
}
