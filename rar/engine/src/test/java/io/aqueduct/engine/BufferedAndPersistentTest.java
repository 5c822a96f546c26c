package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PERSISTENT_OR_BUFFERED dequeues (docs/buffered.md) on every store: persistent messages (in the
 * store, in transactions) and buffered ones (in this engine's memory) of one queue come in the queue
 * table's order, each telling its delivery mode; a blocked dequeue of either kind is woken by a buffered enqueue.
 */
class BufferedAndPersistentTest extends EngineFixture {
    private static final String Q = "MIXED_Q";
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    @BeforeEach
    void createQueue() {
        startedQueue(Q, "MIXED_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME), QueueProperties.create());
    }

    private static DequeueOptions either() {
        return DequeueOptions.create().deliveryMode(DeliveryMode.PERSISTENT_OR_BUFFERED).waitSeconds(DequeueOptions.NO_WAIT);
    }

    @Test
    void persistent_or_buffered_takes_both_kinds_in_the_queues_priority_order() throws Exception {
        QueueSession s = session();
        s.enqueue(Q, Message.of("persistent p5", MessageProperties.create().priority(5)));
        s.enqueue(Q, BUFFERED, Message.of("buffered p1", MessageProperties.create().priority(1)));
        s.enqueue(Q, Message.of("persistent p1", MessageProperties.create().priority(1)));
        s.enqueue(Q, BUFFERED, Message.of("buffered p3", MessageProperties.create().priority(3)));
        s.commit();

        List<String> got = new ArrayList<>();
        while (true) {
            Message m;
            try {
                m = s.dequeue(Q, either());
            } catch (io.aqueduct.api.AqException e) {
                assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                break;
            }
            s.commit();
            got.add(m.text() + " " + m.properties().deliveryMode());
        }
        assertThat(got).containsExactly("buffered p1 BUFFERED", "persistent p1 PERSISTENT", "buffered p3 BUFFERED",
                "persistent p5 PERSISTENT");
        assertThat(viewCount("MIXED_QT")).isZero();
        assertThat(admin.bufferedQueues()).singleElement().satisfies(b -> assertThat(b.messages()).isZero());
    }

    @Test
    void a_buffered_message_taken_in_a_transaction_that_rolls_back_stays_taken_while_a_persistent_one_comes_back() {
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, Message.of("buffered", MessageProperties.create().priority(1)));
        s.enqueue(Q, Message.of("persistent", MessageProperties.create().priority(2)));
        s.commit();
        assertThat(s.dequeue(Q, either()).text()).isEqualTo("buffered");
        assertThat(s.dequeue(Q, either()).text()).isEqualTo("persistent");
        s.rollback();
        assertThat(s.dequeue(Q, either().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE)).text()).isEqualTo("persistent");
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, either().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE)));
    }

    @Test
    void a_blocked_persistent_or_buffered_dequeue_is_woken_by_a_buffered_enqueue() throws Exception {
        FutureTask<Message> waiting = blockedDequeue(Q, either().waitSeconds(DequeueOptions.FOREVER));
        assertThat(waiting.isDone()).isFalse();
        session().enqueue(Q, BUFFERED, Message.of("wake up", MessageProperties.create()));
        Message m = waiting.get(10, TimeUnit.SECONDS);
        assertThat(m.text()).isEqualTo("wake up");
        assertThat(m.properties().deliveryMode()).isEqualTo(DeliveryMode.BUFFERED);
    }

    @Test
    void an_array_dequeue_of_one_that_finds_nothing_returns_none_for_every_delivery_mode() {
        QueueSession s = session();
        assertThat(s.dequeueArray(Q, either(), 1)).isEmpty();
        assertThat(s.dequeueArray(Q, either().deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE), 1))
                .isEmpty();
        s.enqueue(Q, BUFFERED, Message.of("one", MessageProperties.create()));
        assertThat(s.dequeueArray(Q, either(), 1)).singleElement().satisfies(m -> assertThat(m.text()).isEqualTo("one"));
    }

    @Test
    void waiting_for_an_available_message_sees_buffered_ones_only_when_the_delivery_mode_includes_them() throws Exception {
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, Message.of("in memory", MessageProperties.create()));
        assertThat(s.awaitAvailable(Q, null, null, DeliveryMode.PERSISTENT, 0, () -> false)).isFalse();
        assertThat(s.awaitAvailable(Q, null, null, 0, () -> false)).isFalse();
        assertThat(s.awaitAvailable(Q, null, null, DeliveryMode.BUFFERED, 0, () -> false)).isTrue();
        assertThat(s.awaitAvailable(Q, null, null, DeliveryMode.PERSISTENT_OR_BUFFERED, 0, () -> false)).isTrue();
        assertThat(s.awaitAvailable(Q, null, "other%", DeliveryMode.BUFFERED, 0, () -> false)).isFalse();
        s.dequeue(Q, either());

        // a wait for either kind is woken at once by a buffered enqueue
        java.util.concurrent.CompletableFuture<Boolean> waiting = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                session().awaitAvailable(Q, null, null, DeliveryMode.PERSISTENT_OR_BUFFERED, 60_000, () -> false));
        s.enqueue(Q, BUFFERED, Message.of("wake", MessageProperties.create()));
        assertThat(waiting.get(20, TimeUnit.SECONDS)).isTrue();
    }
}
