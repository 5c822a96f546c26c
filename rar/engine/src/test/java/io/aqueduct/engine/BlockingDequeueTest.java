package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Waiting for messages: NO_WAIT, a wait of n seconds on the engine's clock, FOREVER; array dequeue. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingDequeueTest extends EngineFixture {
    /** How long (real time) a thread is given to finish once it should; generous, for slow machines. */
    private static final long FINISH_MS = 20_000;
    /** How long (real time) a still-blocked thread is watched to see it stays blocked. */
    private static final long STAYS_BLOCKED_MS = 300;

    private final List<Dequeuer> started = new ArrayList<>();

    /**
     * A dequeue (or any call) run in a thread of its own, so that the test can watch it block and
     * see what it returns or throws.
     */
    private static final class Dequeuer {
        final Thread thread;
        final AtomicReference<Object> result = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Dequeuer(String name, Supplier<?> call) {
            thread = new Thread(() -> {
                try {
                    result.set(call.get());
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, name);
            thread.setDaemon(true);
        }

        boolean finished() {
            return !thread.isAlive();
        }

        /** Waits until the thread is parked on a condition (the dequeue's wait), failing if it ends instead. */
        void awaitBlocked() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FINISH_MS);
            while (System.nanoTime() < deadline) {
                assertThat(thread.isAlive()).as("the dequeue should be blocked; it ended with %s / %s", result.get(),
                        failure.get()).isTrue();
                if (Blocking.parkedOnCondition(thread)) {
                    return;
                }
                thread.join(5);
            }
            throw new AssertionError("the dequeue thread never blocked; state " + thread.getState());
        }

        /** Asserts the thread is still blocked: woken (or not), it went back to waiting without a result. */
        void assertStillBlocked() throws InterruptedException {
            thread.join(STAYS_BLOCKED_MS);
            assertThat(thread.isAlive()).as("still blocked; but it ended with %s / %s", result.get(), failure.get())
                    .isTrue();
            awaitBlocked();
        }

        Object awaitResult() throws Throwable {
            thread.join(FINISH_MS);
            assertThat(thread.isAlive()).as("the dequeue should have returned").isFalse();
            if (failure.get() != null) {
                throw failure.get();
            }
            return result.get();
        }

        Message awaitMessage() throws Throwable {
            return (Message) awaitResult();
        }

        AqException awaitAqException() throws InterruptedException {
            thread.join(FINISH_MS);
            assertThat(thread.isAlive()).as("the dequeue should have ended").isFalse();
            assertThat(failure.get()).as("the dequeue should have failed; it returned %s", result.get())
                    .isInstanceOf(AqException.class);
            return (AqException) failure.get();
        }
    }

    private Dequeuer start(String name, Supplier<?> call) {
        Dequeuer d = new Dequeuer(name, call);
        started.add(d);
        d.thread.start();
        return d;
    }

    @BeforeEach
    void queue() {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
    }

    @AfterEach
    void stopBlockedDequeuers() throws InterruptedException {
        for (Dequeuer d : started) {
            if (d.thread.isAlive()) {
                d.thread.interrupt();
                d.thread.join(FINISH_MS);
            }
        }
    }

    private static DequeueOptions waiting(long seconds) {
        return DequeueOptions.create().waitSeconds(seconds);
    }

    private MessageId enqueueCommitted(String text) {
        QueueSession s = session();
        MessageId id = s.enqueue("Q", Message.of(text));
        s.commit();
        return id;
    }

    // ------------------------------------------------------------------ NO_WAIT

    @Test
    void no_wait_on_an_empty_queue_fails_at_once_with_25228() {
        QueueSession s = session();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().mode(DequeueMode.BROWSE)));
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().mode(DequeueMode.LOCKED)));
    }

    @Test
    void no_wait_returns_a_message_that_is_there() {
        MessageId id = enqueueCommitted("there");
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait()).id()).isEqualTo(id);
        s.commit();
    }

    @Test
    void a_negative_wait_other_than_forever_is_refused() {
        QueueSession s = session();
        expectError(AqError.INVALID_VALUE, () -> s.dequeue("Q", waiting(-2)));
    }

    // ------------------------------------------------------------------ wait n seconds

    @Test
    void a_wait_of_n_seconds_times_out_with_25228_once_the_clock_passes_n_seconds() throws Throwable {
        QueueSession s = session();
        Dequeuer d = start("wait-5", () -> s.dequeue("Q", waiting(5)));
        d.awaitBlocked();

        clock.advanceSeconds(4);
        d.assertStillBlocked();

        clock.advanceSeconds(2);
        assertThat(d.awaitAqException().errorCode()).isEqualTo(AqError.NO_MESSAGE);
    }

    @Test
    void a_wait_of_n_seconds_does_not_time_out_while_the_clock_stands_still() throws Throwable {
        QueueSession s = session();
        Dequeuer d = start("wait-1", () -> s.dequeue("Q", waiting(1)));
        d.awaitBlocked();
        d.assertStillBlocked();

        clock.advanceSeconds(2);
        assertThat(d.awaitAqException().errorCode()).isEqualTo(AqError.NO_MESSAGE);
    }

    @Test
    void a_wait_of_n_seconds_returns_a_message_committed_before_the_time_is_up() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("wait-10", () -> consumer.dequeue("Q", waiting(10)));
        d.awaitBlocked();
        clock.advanceSeconds(9);
        d.assertStillBlocked();

        MessageId id = enqueueCommitted("just in time");
        Message m = d.awaitMessage();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("just in time");
        consumer.commit();
    }

    // ------------------------------------------------------------------ FOREVER

    @Test
    void forever_is_the_default_wait() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("default-wait", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();
        clock.advanceSeconds(365L * 24 * 3600);
        d.assertStillBlocked();

        MessageId id = enqueueCommitted("at last");
        assertThat(d.awaitMessage().id()).isEqualTo(id);
        consumer.commit();
    }

    @Test
    void a_forever_dequeue_is_woken_by_the_commit_of_another_sessions_enqueue_not_by_the_enqueue() throws Throwable {
        QueueSession consumer = session();
        QueueSession producer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", waiting(DequeueOptions.FOREVER)));
        d.awaitBlocked();

        MessageId id = producer.enqueue("Q", Message.of("order 1001"));
        d.assertStillBlocked();

        producer.commit();
        Message m = d.awaitMessage();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order 1001");
        consumer.commit();
    }

    @Test
    void a_rolled_back_enqueue_never_wakes_a_waiting_dequeue_with_a_message() throws Throwable {
        QueueSession consumer = session();
        QueueSession producer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", waiting(DequeueOptions.FOREVER)));
        d.awaitBlocked();

        producer.enqueue("Q", Message.of("cancelled"));
        d.assertStillBlocked();
        producer.rollback();
        d.assertStillBlocked();

        MessageId kept = producer.enqueue("Q", Message.of("kept"));
        producer.commit();
        Message m = d.awaitMessage();
        assertThat(m.id()).isEqualTo(kept);
        assertThat(m.text()).isEqualTo("kept");
        consumer.commit();
    }

    @Test
    void an_immediate_enqueue_wakes_a_waiting_dequeue_at_once() throws Throwable {
        QueueSession consumer = session();
        QueueSession producer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();

        MessageId id = producer.enqueue("Q", EnqueueOptions.create().visibility(Visibility.IMMEDIATE), Message.of("now"));
        assertThat(d.awaitMessage().id()).isEqualTo(id);
        producer.rollback();
        consumer.commit();
    }

    @Test
    void a_waiting_dequeue_is_woken_when_a_delayed_message_becomes_ready() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();

        QueueSession producer = session();
        MessageId id = producer.enqueue("Q", Message.of("delayed", MessageProperties.create().delay(30)));
        producer.commit();
        d.assertStillBlocked();
        clock.advanceSeconds(29);
        d.assertStillBlocked();

        clock.advanceSeconds(1);
        assertThat(d.awaitMessage().id()).isEqualTo(id);
        consumer.commit();
    }

    @Test
    void a_waiting_dequeue_by_correlation_is_not_woken_by_a_message_it_does_not_match() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("rush", () -> consumer.dequeue("Q", DequeueOptions.create().correlation("RUSH")));
        d.awaitBlocked();

        QueueSession producer = session();
        producer.enqueue("Q", Message.of("normal", MessageProperties.create().correlation("NORMAL")));
        producer.commit();
        d.assertStillBlocked();

        MessageId rush = producer.enqueue("Q", Message.of("rush", MessageProperties.create().correlation("RUSH")));
        producer.commit();
        assertThat(d.awaitMessage().id()).isEqualTo(rush);
        consumer.commit();
        assertThat(producer.dequeue("Q", noWait()).text()).isEqualTo("normal");
        producer.commit();
    }

    @Test
    void a_waiting_dequeue_gets_a_message_released_by_another_sessions_rollback_of_a_lock() throws Throwable {
        MessageId id = enqueueCommitted("contended");
        QueueSession locker = session();
        assertThat(locker.dequeue("Q", noWait().mode(DequeueMode.LOCKED)).id()).isEqualTo(id);

        QueueSession consumer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();
        d.assertStillBlocked();

        locker.rollback();
        assertThat(d.awaitMessage().id()).isEqualTo(id);
        consumer.commit();
    }

    @Test
    void a_waiting_dequeue_gets_a_message_whose_removal_another_session_rolled_back() throws Throwable {
        MessageId id = enqueueCommitted("retry me");
        QueueSession failing = session();
        assertThat(failing.dequeue("Q", noWait()).id()).isEqualTo(id);

        QueueSession consumer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();
        d.assertStillBlocked();

        failing.rollback();
        Message m = d.awaitMessage();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isEqualTo(1);
        consumer.commit();
    }

    @Test
    void a_dequeue_by_msgid_of_a_message_another_session_locked_waits_for_the_lock_to_go() throws Throwable {
        MessageId id = enqueueCommitted("locked");
        QueueSession locker = session();
        assertThat(locker.dequeue("Q", noWait().mode(DequeueMode.LOCKED)).id()).isEqualTo(id);

        QueueSession consumer = session();
        Dequeuer d = start("by-msgid", () -> consumer.dequeue("Q", DequeueOptions.create().messageId(id)));
        d.awaitBlocked();
        d.assertStillBlocked();

        locker.commit();
        assertThat(d.awaitMessage().id()).isEqualTo(id);
        consumer.commit();
    }

    @Test
    void a_waiting_dequeue_fails_with_25226_when_the_queue_is_stopped_for_dequeue() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("forever", () -> consumer.dequeue("Q", DequeueOptions.create()));
        d.awaitBlocked();

        admin.stopQueue("Q", false, true, false);
        assertThat(d.awaitAqException().errorCode()).isEqualTo(AqError.DEQUEUE_DISABLED);
    }

    @Test
    void a_waiting_next_message_dequeue_wraps_and_gets_a_message_enqueued_ahead_of_its_old_position() throws Throwable {
        admin.createQueueTable("PQT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .sortOrder(io.aqueduct.api.SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue("PQ", "PQT", QueueProperties.create());
        admin.startQueue("PQ", true, true);
        QueueSession producer = session();
        producer.enqueue("PQ", Message.of("ground", MessageProperties.create().priority(3)));
        producer.commit();
        QueueSession consumer = session();
        assertThat(consumer.dequeue("PQ", noWait()).text()).isEqualTo("ground");
        consumer.commit();

        Dequeuer d = start("next-wait", () -> consumer.dequeue("PQ", DequeueOptions.create().waitSeconds(60)
                .navigation(Navigation.NEXT_MESSAGE)));
        d.awaitBlocked();
        MessageId fedex = producer.enqueue("PQ", Message.of("fedex", MessageProperties.create().priority(1)));
        producer.commit();
        assertThat(d.awaitMessage().id()).isEqualTo(fedex);
        consumer.commit();
    }

    @Test
    void one_message_wakes_exactly_one_of_two_waiting_removers() throws Throwable {
        QueueSession c1 = session();
        QueueSession c2 = session();
        Dequeuer d1 = start("c1", () -> c1.dequeue("Q", DequeueOptions.create()));
        Dequeuer d2 = start("c2", () -> c2.dequeue("Q", DequeueOptions.create()));
        d1.awaitBlocked();
        d2.awaitBlocked();

        MessageId first = enqueueCommitted("first");
        // whichever got it returns; the other goes back to waiting
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FINISH_MS);
        while (!d1.finished() && !d2.finished() && System.nanoTime() < deadline) {
            d1.thread.join(5);
        }
        assertThat(d1.finished() ^ d2.finished()).as("exactly one dequeue returned").isTrue();
        Dequeuer winner = d1.finished() ? d1 : d2;
        Dequeuer loser = d1.finished() ? d2 : d1;
        assertThat(winner.awaitMessage().id()).isEqualTo(first);
        loser.assertStillBlocked();

        MessageId second = enqueueCommitted("second");
        assertThat(loser.awaitMessage().id()).isEqualTo(second);
        c1.commit();
        c2.commit();
    }

    // ------------------------------------------------------------------ array dequeue

    @Test
    void an_array_dequeue_returns_up_to_n_messages_in_order() {
        QueueSession p = session();
        List<MessageId> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(p.enqueue("Q", Message.of("m" + i)));
        }
        p.commit();
        QueueSession s = session();

        List<Message> first = s.dequeueArray("Q", noWait(), 3);
        assertThat(first).extracting(Message::id).containsExactlyElementsOf(ids.subList(0, 3));
        List<Message> rest = s.dequeueArray("Q", noWait(), 10);
        assertThat(rest).extracting(Message::id).containsExactlyElementsOf(ids.subList(3, 5));
        assertThat(rest).extracting(Message::text).containsExactly("m3", "m4");
        s.commit();
        assertThat(s.dequeueArray("Q", noWait().navigation(Navigation.FIRST_MESSAGE), 10)).isEmpty();
    }

    @Test
    void an_array_dequeue_on_an_empty_queue_with_no_wait_returns_an_empty_list() {
        QueueSession s = session();
        assertThat(s.dequeueArray("Q", noWait(), 10)).isEmpty();
    }

    @Test
    void an_array_dequeue_with_a_wait_times_out_with_an_empty_list() throws Throwable {
        QueueSession s = session();
        Dequeuer d = start("array-wait", () -> s.dequeueArray("Q", waiting(3), 10));
        d.awaitBlocked();
        clock.advanceSeconds(4);
        assertThat(d.awaitResult()).isEqualTo(List.of());
    }

    @Test
    void an_array_dequeue_waits_for_the_first_message_and_takes_what_is_there() throws Throwable {
        QueueSession consumer = session();
        Dequeuer d = start("array-forever", () -> consumer.dequeueArray("Q", DequeueOptions.create(), 10));
        d.awaitBlocked();

        QueueSession producer = session();
        List<MessageId> ids = producer.enqueueArray("Q", EnqueueOptions.create(),
                List.of(Message.of("a"), Message.of("b"), Message.of("c")));
        d.assertStillBlocked();
        producer.commit();

        @SuppressWarnings("unchecked")
        List<Message> got = (List<Message>) d.awaitResult();
        assertThat(got).extracting(Message::id).containsExactlyElementsOf(ids);
        consumer.commit();
    }

    @Test
    void an_array_dequeue_in_browse_mode_leaves_the_messages() {
        enqueueCommitted("a");
        enqueueCommitted("b");
        QueueSession s = session();
        assertThat(s.dequeueArray("Q", noWait().mode(DequeueMode.BROWSE), 10)).extracting(Message::text)
                .containsExactly("a", "b");
        assertThat(s.dequeueArray("Q", noWait().navigation(Navigation.FIRST_MESSAGE), 10)).extracting(Message::text)
                .containsExactly("a", "b");
        s.commit();
    }
}
