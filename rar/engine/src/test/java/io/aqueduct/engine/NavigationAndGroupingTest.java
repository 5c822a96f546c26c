package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** FIRST_MESSAGE / NEXT_MESSAGE / NEXT_TRANSACTION, wrap-around with a wait, and transactional grouping. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NavigationAndGroupingTest extends EngineFixture {

    /** One book of a BooksOnLine new order; only the first book of an order carries the customer's state. */
    record BookItem(int orderNo, String title, int quantity, String customerState) implements Serializable {
    }

    private static DequeueOptions browse() {
        return noWait().mode(DequeueMode.BROWSE);
    }

    private void plainQueue(SortOrder order) {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).sortOrder(order),
                QueueProperties.create());
    }

    private void groupedQueue(SortOrder order) {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).sortOrder(order)
                .messageGrouping(MessageGrouping.TRANSACTIONAL), QueueProperties.create());
    }

    /** One committed transaction of messages (one group on a grouped queue); the clock then moves on. */
    private List<MessageId> transaction(Message... messages) {
        QueueSession s = session();
        List<MessageId> ids = new ArrayList<>();
        for (Message m : messages) {
            ids.add(s.enqueue("Q", m));
        }
        s.commit();
        s.close();
        clock.advanceSeconds(1);
        return ids;
    }

    private List<MessageId> transaction(String... texts) {
        Message[] ms = new Message[texts.length];
        for (int i = 0; i < texts.length; i++) {
            ms[i] = Message.of(texts[i]);
        }
        return transaction(ms);
    }

    private static Message msg(String text, int priority) {
        return Message.of(text, MessageProperties.create().priority(priority));
    }

    /**
     * Reads a grouped queue as the reference's get_new_orders does: FIRST_MESSAGE, then NEXT_MESSAGE
     * until 25235, then NEXT_TRANSACTION for the next group, until 25228. Returns the groups' texts.
     */
    private List<List<String>> readGroups(QueueSession s, DequeueOptions base) {
        List<List<String>> groups = new ArrayList<>();
        DequeueOptions opts = base.copy().waitSeconds(DequeueOptions.NO_WAIT).navigation(Navigation.FIRST_MESSAGE);
        List<String> current = null;
        while (true) {
            Message m;
            try {
                m = s.dequeue("Q", opts);
            } catch (AqException e) {
                if (e.errorCode() == AqError.END_OF_GROUP) {
                    assertThat(current).as("25235 comes only after a group was read").isNotNull();
                    current = null;
                    opts.navigation(Navigation.NEXT_TRANSACTION);
                    continue;
                }
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
                return groups;
            }
            if (current == null) {
                current = new ArrayList<>();
                groups.add(current);
            }
            current.add(m.payload() instanceof BookItem b ? b.title() : m.text());
            opts.navigation(Navigation.NEXT_MESSAGE);
        }
    }

    // ------------------------------------------------------------------ navigation

    @Test
    void the_first_dequeue_of_a_session_starts_at_the_head_of_the_queue() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a", "b", "c");
        QueueSession one = session();
        assertThat(one.dequeue("Q", browse()).text()).isEqualTo("a");
        assertThat(one.dequeue("Q", browse()).text()).isEqualTo("b");

        // another session has a position of its own
        QueueSession two = session();
        assertThat(two.dequeue("Q", browse()).text()).isEqualTo("a");
    }

    @Test
    void next_message_continues_after_the_position_until_the_end_of_the_queue() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a", "b", "c");
        QueueSession s = session();
        DequeueOptions next = browse().navigation(Navigation.NEXT_MESSAGE);

        assertThat(s.dequeue("Q", next).text()).isEqualTo("a");
        assertThat(s.dequeue("Q", next).text()).isEqualTo("b");
        assertThat(s.dequeue("Q", next).text()).isEqualTo("c");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", next));
    }

    @Test
    void next_message_finds_a_message_enqueued_after_the_position_once_the_end_was_reached() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a");
        QueueSession s = session();
        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("a");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", browse()));
        transaction("b");
        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("b");
    }

    @Test
    void first_message_resets_the_position_to_the_head() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a", "b", "c");
        QueueSession s = session();
        s.dequeue("Q", browse());
        s.dequeue("Q", browse());
        assertThat(s.dequeue("Q", browse().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("a");
        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("b");
    }

    @Test
    void a_higher_priority_message_enqueued_behind_the_position_is_not_seen_by_next_message_but_by_first_message() {
        plainQueue(SortOrder.PRIORITY_ENQ_TIME);
        transaction(msg("air 1", 2), msg("air 2", 2), msg("ground", 3));
        QueueSession s = session();
        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("air 1");

        transaction(msg("fedex", 1));

        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("air 2");
        assertThat(s.dequeue("Q", browse()).text()).isEqualTo("ground");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", browse()));
        assertThat(s.dequeue("Q", browse().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("fedex");
    }

    @Test
    void a_remover_gets_a_late_high_priority_message_only_after_it_resets_to_the_first_message() {
        plainQueue(SortOrder.PRIORITY_ENQ_TIME);
        transaction(msg("air", 2), msg("ground", 3));
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("air");
        s.commit();

        transaction(msg("fedex", 1));

        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("ground");
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));
        assertThat(s.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("fedex");
        s.commit();
    }

    // A remover's next dequeue may try the candidates its last one read (AQ: NEXT_MESSAGE fetches from the
    // results of an earlier SELECT); whatever happened to them since must count as a fresh read would.

    @Test
    void a_remover_gets_neither_what_another_session_took_since_its_last_dequeue_nor_what_it_holds() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a", "b", "c", "d", "e");
        QueueSession one = session();
        QueueSession two = session();
        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("a");
        one.commit();

        assertThat(two.dequeue("Q", noWait()).text()).isEqualTo("b");
        two.commit();
        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("c");
        one.commit();

        assertThat(two.dequeue("Q", noWait()).text()).isEqualTo("d"); // held, not committed
        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("e");
        one.commit();
        expectError(AqError.NO_MESSAGE, () -> one.dequeue("Q", noWait()));

        two.rollback(); // d is back, its attempt counted
        Message d = one.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE));
        assertThat(d.text()).isEqualTo("d");
        assertThat(d.properties().attempts()).isEqualTo(1);
        one.commit();
    }

    @Test
    void a_remover_does_not_get_a_message_that_expired_since_its_last_dequeue() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction(Message.of("a"), Message.of("b", MessageProperties.create().expiration(5)), Message.of("c"));
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("a");
        s.commit();

        clock.advanceSeconds(6);

        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo("c");
        s.commit();
        engine.timeManager().runDue();
        admin.startQueue("AQ$_QT_E", false, true);
        assertThat(s.dequeue("AQ$_QT_E", noWait()).text()).isEqualTo("b");
        s.commit();
    }

    @Test
    void a_remover_does_not_get_a_message_moved_to_the_exception_queue_since_its_last_dequeue() {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().maxRetries(0));
        transaction("a", "b", "c");
        QueueSession one = session();
        QueueSession two = session();
        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("a");
        one.commit();

        assertThat(two.dequeue("Q", noWait()).text()).isEqualTo("b");
        two.rollback(); // max_retries 0: b goes to the exception queue

        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("c");
        one.commit();
        expectError(AqError.NO_MESSAGE, () -> one.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)));
        admin.startQueue("AQ$_QT_E", false, true);
        assertThat(one.dequeue("AQ$_QT_E", noWait()).text()).isEqualTo("b");
        one.commit();
    }

    @Test
    void with_a_wait_browsing_next_message_wraps_to_the_first_message_after_the_last() {
        plainQueue(SortOrder.ENQ_TIME);
        transaction("a", "b", "c");
        QueueSession s = session();
        DequeueOptions next = DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.NEXT_MESSAGE)
                .waitSeconds(1);

        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            seen.add(s.dequeue("Q", next).text());
        }
        assertThat(seen).containsExactly("a", "b", "c", "a", "b", "c", "a");
    }

    @Test
    void with_a_wait_a_remover_wraps_to_the_start_and_finds_a_message_enqueued_behind_its_position() {
        plainQueue(SortOrder.PRIORITY_ENQ_TIME);
        transaction(msg("air", 2), msg("ground", 3));
        QueueSession s = session();
        DequeueOptions wait = DequeueOptions.create().waitSeconds(1);
        assertThat(s.dequeue("Q", wait).text()).isEqualTo("air");
        s.commit();

        transaction(msg("fedex", 1));

        assertThat(s.dequeue("Q", wait).text()).isEqualTo("ground");
        assertThat(s.dequeue("Q", wait).text()).isEqualTo("fedex");
        s.commit();
    }

    // ------------------------------------------------------------------ transactional grouping

    @Test
    void new_orders_come_order_by_order_with_all_books_of_an_order_together_and_in_order() {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(BookItem.class.getName())
                .messageGrouping(MessageGrouping.TRANSACTIONAL), QueueProperties.create());
        transaction(Message.of(new BookItem(1001, "My First   Book", 1, "CA")),
                Message.of(new BookItem(1001, "My Second  Book", 2, null)));
        transaction(Message.of(new BookItem(1002, "My Third   Book", 1, "WA")));
        transaction(Message.of(new BookItem(1003, "My Fourth  Book", 1, "NV")),
                Message.of(new BookItem(1003, "My Fifth   Book", 3, null)),
                Message.of(new BookItem(1003, "My Sixth   Book", 2, null)));
        transaction(Message.of(new BookItem(1004, "My Seventh Book", 1, "MA")),
                Message.of(new BookItem(1004, "My Eighth  Book", 3, null)),
                Message.of(new BookItem(1004, "My Ninth   Book", 2, null)));

        QueueSession s = session();
        List<List<BookItem>> orders = new ArrayList<>();
        DequeueOptions opts = noWait().navigation(Navigation.FIRST_MESSAGE);
        List<BookItem> order = null;
        int endsOfGroup = 0;
        while (true) {
            Message m;
            try {
                m = s.dequeue("Q", opts);
            } catch (AqException e) {
                if (e.errorCode() == AqError.END_OF_GROUP) {
                    endsOfGroup++;
                    order = null;
                    opts.navigation(Navigation.NEXT_TRANSACTION);
                    continue;
                }
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
                break;
            }
            BookItem item = m.payload(BookItem.class);
            if (order == null) {
                assertThat(item.customerState()).as("the first book of an order carries the customer").isNotNull();
                order = new ArrayList<>();
                orders.add(order);
            } else {
                assertThat(item.customerState()).isNull();
            }
            order.add(item);
            opts.navigation(Navigation.NEXT_MESSAGE);
        }
        s.commit();

        assertThat(endsOfGroup).isEqualTo(4);
        assertThat(orders).hasSize(4);
        assertThat(orders).allSatisfy(o -> assertThat(o).extracting(BookItem::orderNo).containsOnly(o.get(0).orderNo()));
        assertThat(orders.stream().map(o -> o.stream().map(BookItem::title).toList()).toList()).containsExactly(
                List.of("My First   Book", "My Second  Book"),
                List.of("My Third   Book"),
                List.of("My Fourth  Book", "My Fifth   Book", "My Sixth   Book"),
                List.of("My Seventh Book", "My Eighth  Book", "My Ninth   Book"));
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait()));
    }

    @Test
    void next_message_at_the_end_of_a_group_fails_with_25235_even_with_more_groups_behind() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b");
        transaction("g2 a");
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g1 a");
        assertThat(s.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g1 b");
        expectError(AqError.END_OF_GROUP, () -> s.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)));
        assertThat(s.dequeue("Q", noWait().navigation(Navigation.NEXT_TRANSACTION)).text()).isEqualTo("g2 a");
        expectError(AqError.END_OF_GROUP, () -> s.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)));
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().navigation(Navigation.NEXT_TRANSACTION)));
        s.commit();
    }

    @Test
    void next_transaction_skips_the_rest_of_the_current_group() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b", "g1 c");
        transaction("g2 a", "g2 b");
        QueueSession s = session();

        assertThat(s.dequeue("Q", browse().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g1 a");
        assertThat(s.dequeue("Q", browse().navigation(Navigation.NEXT_TRANSACTION)).text()).isEqualTo("g2 a");
        assertThat(s.dequeue("Q", browse().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g2 b");
    }

    @Test
    void groups_enqueued_in_interleaved_transactions_are_dequeued_each_as_a_whole() {
        groupedQueue(SortOrder.ENQ_TIME);
        QueueSession x = session();
        QueueSession y = session();
        x.enqueue("Q", Message.of("order X book 1"));
        clock.advanceSeconds(1);
        y.enqueue("Q", Message.of("order Y book 1"));
        clock.advanceSeconds(1);
        x.enqueue("Q", Message.of("order X book 2"));
        clock.advanceSeconds(1);
        y.enqueue("Q", Message.of("order Y book 2"));
        clock.advanceSeconds(1);
        x.enqueue("Q", Message.of("order X book 3"));
        y.commit();
        x.commit();

        assertThat(readGroups(session(), noWait())).containsExactly(
                List.of("order X book 1", "order X book 2", "order X book 3"),
                List.of("order Y book 1", "order Y book 2"));
    }

    @Test
    void an_array_enqueue_and_single_enqueues_of_one_transaction_form_one_group() {
        groupedQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        s.enqueue("Q", Message.of("head"));
        s.enqueueArray("Q", io.aqueduct.api.EnqueueOptions.create(), List.of(Message.of("detail 1"), Message.of("detail 2")));
        s.enqueue("Q", Message.of("trailer"));
        s.commit();
        transaction("next order");

        assertThat(readGroups(session(), noWait())).containsExactly(
                List.of("head", "detail 1", "detail 2", "trailer"), List.of("next order"));
    }

    @Test
    void each_immediate_enqueue_is_a_transaction_and_so_a_group_of_its_own() {
        groupedQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        io.aqueduct.api.EnqueueOptions immediate = io.aqueduct.api.EnqueueOptions.create()
                .visibility(io.aqueduct.api.Visibility.IMMEDIATE);
        s.enqueue("Q", immediate, Message.of("first"));
        s.enqueue("Q", immediate, Message.of("second"));
        s.rollback();

        assertThat(readGroups(session(), browse())).containsExactly(List.of("first"), List.of("second"));
    }

    @Test
    void a_rolled_back_group_is_gone_and_the_next_transaction_starts_a_new_group() {
        groupedQueue(SortOrder.PRIORITY_ENQ_TIME);
        QueueSession s = session();
        s.enqueue("Q", msg("cancelled head", 9));
        s.rollback();
        s.enqueue("Q", msg("new head", 2));
        s.enqueue("Q", msg("new detail", 9));
        s.commit();
        transaction(msg("other", 5));

        assertThat(readGroups(session(), browse())).containsExactly(List.of("new head", "new detail"), List.of("other"));
    }

    @Test
    void a_group_takes_its_heads_priority_whatever_the_later_messages_say() {
        groupedQueue(SortOrder.PRIORITY_ENQ_TIME);
        transaction(msg("g1 head ground", 3), msg("g1 detail fedex", 1), msg("g1 trailer air", 2));
        transaction(msg("g2 head air", 2), msg("g2 detail ground", 3));

        assertThat(readGroups(session(), browse())).containsExactly(
                List.of("g2 head air", "g2 detail ground"),
                List.of("g1 head ground", "g1 detail fedex", "g1 trailer air"));

        QueueSession t = session();
        Message head = t.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE));
        Message detail = t.dequeue("Q", noWait());
        t.commit();
        assertThat(head.text()).isEqualTo("g2 head air");
        assertThat(detail.text()).isEqualTo("g2 detail ground");
        assertThat(detail.properties().priority()).isEqualTo(2);
    }

    @Test
    void a_later_message_with_a_delay_goes_with_its_undelayed_head() throws Exception {
        groupedQueue(SortOrder.ENQ_TIME);
        List<MessageId> ids = transaction(Message.of("head now"),
                Message.of("detail delayed", MessageProperties.create().delay(3600)));

        assertThat(viewState("QT", ids.get(0))).isEqualTo("READY");
        assertThat(viewState("QT", ids.get(1))).isEqualTo("READY");
        QueueSession s = session();
        assertThat(readGroups(s, noWait())).containsExactly(List.of("head now", "detail delayed"));
        s.commit();
    }

    @Test
    void a_delayed_head_delays_its_whole_group() throws Exception {
        groupedQueue(SortOrder.ENQ_TIME);
        List<MessageId> ids = transaction(Message.of("head later", MessageProperties.create().delay(60)),
                Message.of("detail"));

        assertThat(viewState("QT", ids.get(0))).isEqualTo("WAITING");
        assertThat(viewState("QT", ids.get(1))).isEqualTo("WAITING");
        QueueSession s = session();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));

        clock.advanceSeconds(60);
        // blocks until the time manager has made the group READY
        Message head = s.dequeue("Q", DequeueOptions.create().navigation(Navigation.FIRST_MESSAGE));
        Message detail = s.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE));
        s.commit();
        assertThat(head.text()).isEqualTo("head later");
        assertThat(detail.text()).isEqualTo("detail");
        assertThat(detail.properties().delay()).isEqualTo(60);
    }

    @Test
    void a_later_message_with_a_short_expiration_lives_as_long_as_its_head() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction(Message.of("head"), Message.of("detail", MessageProperties.create().expiration(10)));

        clock.advanceSeconds(20);
        QueueSession s = session();
        Message head = s.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE));
        Message detail = s.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE));
        s.commit();
        assertThat(head.text()).isEqualTo("head");
        assertThat(detail.text()).isEqualTo("detail");
        assertThat(detail.properties().expiration()).isEqualTo(MessageProperties.NEVER);
    }

    @Test
    void an_expiring_head_takes_its_whole_group_to_the_exception_queue() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction(Message.of("head", MessageProperties.create().expiration(10)), Message.of("detail"));
        admin.startQueue("AQ$_QT_E", false, true);

        clock.advanceSeconds(11);
        QueueSession s = session();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)));
        List<String> expired = new ArrayList<>();
        DequeueOptions fromExceptionQueue = DequeueOptions.create().navigation(Navigation.FIRST_MESSAGE);
        expired.add(s.dequeue("AQ$_QT_E", fromExceptionQueue).text());
        expired.add(s.dequeue("AQ$_QT_E", fromExceptionQueue).text());
        s.commit();
        assertThat(expired).containsExactlyInAnyOrder("head", "detail");
    }

    @Test
    void a_dequeue_by_correlation_ignores_the_grouping() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction(Message.of("g1 normal", MessageProperties.create().correlation("NORMAL")),
                Message.of("g1 rush", MessageProperties.create().correlation("RUSH")));
        transaction(Message.of("g2 rush", MessageProperties.create().correlation("RUSH")),
                Message.of("g2 normal", MessageProperties.create().correlation("NORMAL")));
        QueueSession s = session();
        DequeueOptions rush = noWait().correlation("RUSH");

        assertThat(s.dequeue("Q", rush.copy().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g1 rush");
        assertThat(s.dequeue("Q", rush.copy().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g2 rush");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", rush.copy().navigation(Navigation.NEXT_MESSAGE)));
        s.commit();
    }

    @Test
    void a_dequeue_by_msgid_ignores_the_grouping() {
        groupedQueue(SortOrder.ENQ_TIME);
        List<MessageId> g1 = transaction("g1 a", "g1 b");
        List<MessageId> g2 = transaction("g2 a", "g2 b");
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait().messageId(g2.get(1))).text()).isEqualTo("g2 b");
        assertThat(s.dequeue("Q", noWait().messageId(g1.get(1))).text()).isEqualTo("g1 b");
        s.commit();
    }

    @Test
    void while_one_session_consumes_a_group_another_session_skips_that_whole_group() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b", "g1 c");
        transaction("g2 a", "g2 b");
        QueueSession one = session();
        QueueSession two = session();

        assertThat(one.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g1 a");

        assertThat(two.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g2 a");
        assertThat(two.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g2 b");
        expectError(AqError.END_OF_GROUP, () -> two.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)));
        expectError(AqError.NO_MESSAGE, () -> two.dequeue("Q", noWait().navigation(Navigation.NEXT_TRANSACTION)));
        expectError(AqError.NO_MESSAGE, () -> two.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)));

        assertThat(one.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g1 b");
        assertThat(one.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g1 c");
        expectError(AqError.END_OF_GROUP, () -> one.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)));
        one.commit();
        two.commit();
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait()));
    }

    @Test
    void a_group_locked_by_one_session_is_skipped_by_another() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b");
        transaction("g2 a");
        QueueSession one = session();
        QueueSession two = session();

        assertThat(one.dequeue("Q", noWait().mode(DequeueMode.LOCKED)).text()).isEqualTo("g1 a");
        assertThat(two.dequeue("Q", noWait()).text()).isEqualTo("g2 a");
        two.commit();
        one.rollback();

        assertThat(readGroups(session(), noWait())).containsExactly(List.of("g1 a", "g1 b"));
    }

    @Test
    void the_rest_of_a_partly_consumed_and_committed_group_is_free_for_another_session() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b", "g1 c");
        QueueSession one = session();
        assertThat(one.dequeue("Q", noWait()).text()).isEqualTo("g1 a");
        one.commit();

        QueueSession two = session();
        assertThat(two.dequeue("Q", noWait().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("g1 b");
        assertThat(two.dequeue("Q", noWait().navigation(Navigation.NEXT_MESSAGE)).text()).isEqualTo("g1 c");
        two.commit();
    }

    @Test
    void browsing_a_group_that_another_session_consumes_still_shows_its_messages() {
        groupedQueue(SortOrder.ENQ_TIME);
        transaction("g1 a", "g1 b");
        QueueSession one = session();
        assertThat(one.dequeue("Q", noWait().mode(DequeueMode.LOCKED)).text()).isEqualTo("g1 a");

        QueueSession browser = session();
        assertThat(readGroups(browser, browse())).containsExactly(List.of("g1 a", "g1 b"));
        one.commit();
    }
}
