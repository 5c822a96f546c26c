package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which message a dequeue gets: sort order, msgid, correlation (exact and LIKE), default dequeue. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DequeueSelectionTest extends EngineFixture {

    private void queue(SortOrder order) {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).sortOrder(order),
                QueueProperties.create());
    }

    /** Enqueues and commits one message; the clock then moves on a second, so enqueue times differ. */
    private MessageId send(String text, MessageProperties props) {
        QueueSession s = session();
        MessageId id = s.enqueue("Q", Message.of(text, props));
        s.commit();
        s.close();
        clock.advanceSeconds(1);
        return id;
    }

    private MessageId send(String text, int priority) {
        return send(text, MessageProperties.create().priority(priority));
    }

    private MessageId sendCorrelated(String text, String correlation) {
        return send(text, MessageProperties.create().correlation(correlation));
    }

    /** Removes everything in one session, NO_WAIT, and returns the texts in dequeue order. */
    private List<String> drain(DequeueOptions options) {
        QueueSession s = session();
        List<String> out = new ArrayList<>();
        while (true) {
            try {
                out.add(s.dequeue("Q", options).text());
            } catch (AqException e) {
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
                break;
            }
        }
        s.commit();
        return out;
    }

    // ------------------------------------------------------------------ sort order

    @Test
    void an_enq_time_queue_is_first_in_first_out_whatever_the_priorities() {
        queue(SortOrder.ENQ_TIME);
        send("first", 3);
        send("second", 1);
        send("third", 2);
        send("fourth", -10);

        assertThat(drain(noWait())).containsExactly("first", "second", "third", "fourth");
    }

    @Test
    void enq_time_is_the_default_sort_order() {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        send("first", 9);
        send("second", 1);
        assertThat(drain(noWait())).containsExactly("first", "second");
    }

    @Test
    void messages_enqueued_in_one_transaction_at_the_same_instant_keep_their_enqueue_order() {
        queue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        for (int i = 0; i < 20; i++) {
            s.enqueue("Q", Message.of("m" + i));
        }
        s.commit();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add("m" + i);
        }
        assertThat(drain(noWait())).containsExactlyElementsOf(expected);
    }

    @Test
    void a_priority_queue_ships_fedex_before_air_before_ground_and_fifo_within_a_priority() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        int fedex = 1;
        int air = 2;
        int ground = 3;
        send("ground 1", ground);
        send("air 1", air);
        send("fedex 1", fedex);
        send("ground 2", ground);
        send("fedex 2", fedex);
        send("air 2", air);
        send("fedex 3", fedex);

        assertThat(drain(noWait())).containsExactly("fedex 1", "fedex 2", "fedex 3", "air 1", "air 2", "ground 1",
                "ground 2");
    }

    @Test
    void a_priority_queue_serves_negative_priorities_first() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("zero", 0);
        send("minus five", -5);
        send("default", MessageProperties.DEFAULT_PRIORITY);
        assertThat(drain(noWait())).containsExactly("minus five", "zero", "default");
    }

    @Test
    void an_enq_time_priority_queue_is_fifo_with_priority_breaking_ties_of_equal_enqueue_time() {
        queue(SortOrder.ENQ_TIME_PRIORITY);
        QueueSession s = session();
        // three messages at the same instant
        s.enqueue("Q", Message.of("t0 ground", MessageProperties.create().priority(3)));
        s.enqueue("Q", Message.of("t0 fedex", MessageProperties.create().priority(1)));
        s.enqueue("Q", Message.of("t0 air", MessageProperties.create().priority(2)));
        s.commit();
        clock.advanceSeconds(1);
        send("t1 ground", 3);
        send("t2 fedex", 1);

        assertThat(drain(noWait())).containsExactly("t0 fedex", "t0 air", "t0 ground", "t1 ground", "t2 fedex");
    }

    @Test
    void a_browse_walks_the_queue_in_sort_order() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("ground", 3);
        send("fedex", 1);
        send("air", 2);
        QueueSession s = session();
        List<String> seen = new ArrayList<>();
        DequeueOptions browse = noWait().mode(DequeueMode.BROWSE);
        for (int i = 0; i < 3; i++) {
            seen.add(s.dequeue("Q", browse).text());
        }
        assertThat(seen).containsExactly("fedex", "air", "ground");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", browse));
    }

    // ------------------------------------------------------------------ default dequeue

    @Test
    void a_default_dequeue_returns_the_first_available_message_in_sort_order() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("ground", 3);
        MessageId fedex = send("fedex", 1);
        send("air", 2);

        QueueSession s = session();
        Message m = s.dequeue("Q", noWait());
        s.commit();
        assertThat(m.id()).isEqualTo(fedex);
    }

    @Test
    void a_default_dequeue_skips_messages_another_session_holds() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("ground", 3);
        send("fedex", 1);
        send("air", 2);
        QueueSession holder = session();
        assertThat(holder.dequeue("Q", noWait().mode(DequeueMode.LOCKED)).text()).isEqualTo("fedex");

        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("air");
        s.commit();
        holder.commit();
    }

    @Test
    void a_delayed_message_is_not_the_first_available_until_its_delay_ends() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("fedex later", MessageProperties.create().priority(1).delay(3600));
        send("ground now", 3);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("ground now");
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)));
    }

    // ------------------------------------------------------------------ by message id

    @Test
    void a_dequeue_by_msgid_returns_exactly_that_message_out_of_order() {
        queue(SortOrder.ENQ_TIME);
        MessageId first = send("first", 1);
        MessageId second = send("second", 1);
        MessageId third = send("third", 1);

        QueueSession s = session();
        Message m = s.dequeue("Q", noWait().messageId(second));
        s.commit();
        assertThat(m.id()).isEqualTo(second);
        assertThat(m.text()).isEqualTo("second");

        QueueSession t = session();
        assertThat(t.dequeue("Q", noWait()).id()).isEqualTo(first);
        assertThat(t.dequeue("Q", noWait()).id()).isEqualTo(third);
        t.commit();
    }

    @Test
    void a_dequeue_by_an_unknown_msgid_fails_with_25263() {
        queue(SortOrder.ENQ_TIME);
        send("only", 1);
        QueueSession s = session();
        MessageId unknown = MessageId.parse("0123456789ABCDEF0123456789ABCDEF");
        expectError(AqError.MESSAGE_NOT_FOUND, () -> s.dequeue("Q", noWait().messageId(unknown)));
        expectError(AqError.MESSAGE_NOT_FOUND,
                () -> s.dequeue("Q", noWait().messageId(unknown).mode(DequeueMode.BROWSE)));
    }

    @Test
    void a_dequeue_by_the_msgid_of_a_message_already_removed_fails_with_25263() {
        queue(SortOrder.ENQ_TIME);
        MessageId id = send("once", 1);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait().messageId(id)).id()).isEqualTo(id);
        s.commit();
        expectError(AqError.MESSAGE_NOT_FOUND, () -> s.dequeue("Q", noWait().messageId(id)));
    }

    @Test
    void a_dequeue_by_msgid_can_browse_then_remove_the_same_message() {
        queue(SortOrder.ENQ_TIME);
        send("first", 1);
        MessageId second = send("second", 1);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait().messageId(second).mode(DequeueMode.BROWSE)).text()).isEqualTo("second");
        assertThat(s.dequeue("Q", noWait().messageId(second).mode(DequeueMode.REMOVE)).text()).isEqualTo("second");
        s.commit();
        assertThat(drain(noWait())).containsExactly("first");
    }

    // ------------------------------------------------------------------ by correlation

    @Test
    void rush_orders_are_dequeued_first_by_correlation() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("order 1", "NORMAL");
        sendCorrelated("order 2", "RUSH");
        sendCorrelated("order 3", "NORMAL");
        sendCorrelated("order 4", "RUSH");
        send("order 5", MessageProperties.create());

        assertThat(drain(noWait().correlation("RUSH"))).containsExactly("order 2", "order 4");
        assertThat(drain(noWait())).containsExactly("order 1", "order 3", "order 5");
    }

    @Test
    void a_correlation_matches_exactly_and_case_sensitively() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("a", "RUSH");
        sendCorrelated("b", "rush");
        sendCorrelated("c", "RUSH ORDER");
        sendCorrelated("d", "XRUSH");

        assertThat(drain(noWait().correlation("RUSH"))).containsExactly("a");
    }

    @Test
    void a_percent_in_the_correlation_matches_any_number_of_characters() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("a", "ORDER-1");
        sendCorrelated("b", "ORDER-22");
        sendCorrelated("c", "XORDER-3");
        sendCorrelated("d", "ORDER-");
        sendCorrelated("e", "BILL-1");
        send("f", MessageProperties.create());

        assertThat(drain(noWait().correlation("ORDER-%"))).containsExactly("a", "b", "d");
        assertThat(drain(noWait().correlation("%-1"))).containsExactly("e");
    }

    @Test
    void an_underscore_in_the_correlation_matches_exactly_one_character() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("a", "ORDER-1");
        sendCorrelated("b", "ORDER-22");
        sendCorrelated("c", "ORDER-");
        sendCorrelated("d", "ORDER-9");

        assertThat(drain(noWait().correlation("ORDER-_"))).containsExactly("a", "d");
        assertThat(drain(noWait().correlation("ORDER-__"))).containsExactly("b");
    }

    @Test
    void correlation_wildcards_treat_regex_characters_literally() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("a", "A.B");
        sendCorrelated("b", "AXB");
        sendCorrelated("c", "A.B*");

        assertThat(drain(noWait().correlation("A.B%"))).containsExactly("a", "c");
    }

    @Test
    void a_correlation_dequeue_on_a_priority_queue_follows_the_sort_order() {
        queue(SortOrder.PRIORITY_ENQ_TIME);
        send("rush ground", MessageProperties.create().correlation("RUSH").priority(3));
        send("normal fedex", MessageProperties.create().correlation("NORMAL").priority(1));
        send("rush fedex", MessageProperties.create().correlation("RUSH").priority(1));

        assertThat(drain(noWait().correlation("RUSH"))).containsExactly("rush fedex", "rush ground");
    }

    @Test
    void changing_the_correlation_between_calls_without_first_message_fails_with_25241() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("rush 1", "RUSH");
        sendCorrelated("normal 1", "NORMAL");
        sendCorrelated("rush 2", "RUSH");
        QueueSession s = session();

        assertThat(s.dequeue("Q", noWait().correlation("RUSH")).text()).isEqualTo("rush 1");
        expectError(AqError.CORRELATION_CHANGED,
                () -> s.dequeue("Q", noWait().correlation("NORMAL").navigation(Navigation.NEXT_MESSAGE)));
        expectError(AqError.CORRELATION_CHANGED, () -> s.dequeue("Q", noWait()));
        // the same correlation goes on where it was
        assertThat(s.dequeue("Q", noWait().correlation("RUSH")).text()).isEqualTo("rush 2");
        s.commit();
    }

    @Test
    void changing_the_correlation_with_first_message_is_allowed() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("rush 1", "RUSH");
        sendCorrelated("normal 1", "NORMAL");
        QueueSession s = session();

        assertThat(s.dequeue("Q", noWait().correlation("RUSH")).text()).isEqualTo("rush 1");
        assertThat(s.dequeue("Q", noWait().correlation("NORMAL").navigation(Navigation.FIRST_MESSAGE)).text())
                .isEqualTo("normal 1");
        s.commit();
    }

    @Test
    void the_correlation_check_is_per_session() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("rush 1", "RUSH");
        sendCorrelated("normal 1", "NORMAL");
        QueueSession one = session();
        QueueSession two = session();

        assertThat(one.dequeue("Q", noWait().correlation("RUSH")).text()).isEqualTo("rush 1");
        assertThat(two.dequeue("Q", noWait().correlation("NORMAL")).text()).isEqualTo("normal 1");
        one.commit();
        two.commit();
    }

    @Test
    void the_correlation_check_is_per_queue() {
        queue(SortOrder.ENQ_TIME);
        admin.createQueue("Q2", "QT", QueueProperties.create());
        admin.startQueue("Q2", true, true);
        sendCorrelated("rush", "RUSH");
        QueueSession p = session();
        p.enqueue("Q2", Message.of("normal", MessageProperties.create().correlation("NORMAL")));
        p.commit();
        QueueSession s = session();

        assertThat(s.dequeue("Q", noWait().correlation("RUSH")).text()).isEqualTo("rush");
        assertThat(s.dequeue("Q2", noWait().correlation("NORMAL").navigation(Navigation.NEXT_MESSAGE)).text())
                .isEqualTo("normal");
        s.commit();
    }

    @Test
    void a_correlation_that_matches_nothing_gives_25228() {
        queue(SortOrder.ENQ_TIME);
        sendCorrelated("normal", "NORMAL");
        QueueSession s = session();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().correlation("RUSH")));
    }
}
