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
import java.io.Serializable;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** BROWSE, LOCKED, REMOVE and REMOVE_NODATA, alone and between concurrent sessions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DequeueModesTest extends EngineFixture {

    /** The BooksOnLine order, as an OBJECT payload. */
    record Order(int orderNo, String customerCountry) implements Serializable {
    }

    private static DequeueOptions noWait(DequeueMode mode) {
        return DequeueOptions.create().mode(mode).waitSeconds(DequeueOptions.NO_WAIT);
    }

    private void textQueue(long retentionSeconds) {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create().retention(retentionSeconds));
    }

    /** The AQ$QT row of a message as column → value; empty when the view has no row for it. */
    private Map<String, Object> row(MessageId id) throws SQLException {
        return Objects.requireNonNullElse(viewRowOrNull("QT", id), Map.of());
    }

    private List<MessageId> enqueueCommitted(String... texts) {
        QueueSession s = session();
        List<MessageId> ids = new ArrayList<>();
        for (String t : texts) {
            ids.add(s.enqueue("Q", Message.of(t)));
        }
        s.commit();
        return ids;
    }

    // ------------------------------------------------------------------ BROWSE

    @Test
    void browse_reads_the_message_and_leaves_it_for_another_session_to_remove() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession browser = session();
        QueueSession consumer = session();

        Message browsed = browser.dequeue("Q", noWait(DequeueMode.BROWSE));
        assertThat(browsed.id()).isEqualTo(id);
        assertThat(browsed.text()).isEqualTo("order 1001");
        assertThat(row(id)).containsEntry("MSG_STATE", "READY");

        Message removed = consumer.dequeue("Q", noWait(DequeueMode.REMOVE));
        consumer.commit();
        assertThat(removed.id()).isEqualTo(id);
        expectError(AqError.NO_MESSAGE,
                () -> browser.dequeue("Q", noWait(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)));
    }

    @Test
    void browsing_again_from_the_first_message_sees_the_same_message() {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession s = session();

        assertThat(s.dequeue("Q", noWait(DequeueMode.BROWSE)).id()).isEqualTo(id);
        assertThat(s.dequeue("Q", noWait(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)).id()).isEqualTo(id);
        s.commit();
        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)).id()).isEqualTo(id);
    }

    @Test
    void a_message_browsed_by_its_own_session_can_still_be_removed_by_that_session() {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait(DequeueMode.BROWSE)).id()).isEqualTo(id);
        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE).messageId(id)).id()).isEqualTo(id);
        s.commit();
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait(DequeueMode.REMOVE)));
    }

    // ------------------------------------------------------------------ LOCKED

    @Test
    void a_locked_message_is_hidden_from_other_sessions_until_commit_then_available_again() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession locker = session();
        QueueSession other = session();

        Message locked = locker.dequeue("Q", noWait(DequeueMode.LOCKED));
        assertThat(locked.id()).isEqualTo(id);
        assertThat(locked.text()).isEqualTo("order 1001");

        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.REMOVE)));
        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.LOCKED)));

        locker.commit();
        assertThat(row(id)).containsEntry("MSG_STATE", "READY");
        Message removed = other.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE));
        other.commit();
        assertThat(removed.id()).isEqualTo(id);
        assertThat(removed.properties().attempts()).isZero();
    }

    @Test
    void a_locked_message_is_available_again_after_rollback_without_counting_an_attempt() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession locker = session();
        QueueSession other = session();

        assertThat(locker.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(id);
        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.REMOVE)));
        locker.rollback();

        assertThat(row(id)).containsEntry("MSG_STATE", "READY").containsEntry("RETRY_COUNT", 0);
        Message m = other.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE));
        other.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().attempts()).isZero();
    }

    @Test
    void another_session_skips_a_locked_message_and_gets_the_next_one() {
        textQueue(0);
        List<MessageId> ids = enqueueCommitted("first", "second");
        QueueSession locker = session();
        QueueSession other = session();

        assertThat(locker.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(ids.get(0));
        Message m = other.dequeue("Q", noWait(DequeueMode.REMOVE));
        other.commit();
        assertThat(m.id()).isEqualTo(ids.get(1));
        locker.commit();
    }

    @Test
    void another_session_may_still_browse_a_locked_message() {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession locker = session();
        QueueSession browser = session();

        assertThat(locker.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(id);
        assertThat(browser.dequeue("Q", noWait(DequeueMode.BROWSE)).id()).isEqualTo(id);
        locker.commit();
    }

    @Test
    void closing_a_session_releases_its_locks() {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession locker = session();
        QueueSession other = session();
        assertThat(locker.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(id);
        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.REMOVE)));
        locker.close();

        Message m = other.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE));
        other.commit();
        assertThat(m.id()).isEqualTo(id);
    }

    @Test
    void the_session_holding_a_lock_can_remove_the_locked_message() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(id);
        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE).messageId(id)).id()).isEqualTo(id);
        s.commit();
        assertThat(row(id)).isEmpty();
    }

    // ------------------------------------------------------------------ REMOVE

    @Test
    void remove_deletes_the_message_and_without_retention_the_view_has_no_row() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession s = session();

        Message m = s.dequeue("Q", noWait(DequeueMode.REMOVE));
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order 1001");
        s.commit();

        assertThat(row(id)).isEmpty();
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait(DequeueMode.REMOVE)));
    }

    @Test
    void remove_is_the_default_mode() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession s = session();
        assertThat(s.dequeue("Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).id()).isEqualTo(id);
        s.commit();
        assertThat(row(id)).isEmpty();
    }

    @Test
    void remove_with_retention_keeps_the_message_processed_with_dequeue_time_user_and_transaction() throws Exception {
        textQueue(3600);
        MessageId id = enqueueCommitted("order 1001").get(0);
        clock.advanceSeconds(5);
        QueueSession s = session();

        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE)).id()).isEqualTo(id);
        s.commit();

        Map<String, Object> row = row(id);
        assertThat(row).containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_USER_ID", "TESTER");
        assertThat(row.get("DEQ_TIME")).isInstanceOf(Timestamp.class);
        assertThat(((Timestamp) row.get("DEQ_TIME")).toLocalDateTime().toInstant(ZoneOffset.UTC)).isEqualTo(clock.now());
        assertThat(row.get("DEQ_TXN_ID")).isNotNull();
        assertThat(String.valueOf(row.get("DEQ_TXN_ID")).trim()).isNotEmpty()
                .isNotEqualTo(String.valueOf(row.get("ENQ_TXN_ID")).trim());
        // processed is not dequeueable
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait(DequeueMode.BROWSE)));
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait(DequeueMode.REMOVE)));
    }

    @Test
    void two_removes_in_one_transaction_record_the_same_dequeue_transaction() throws Exception {
        textQueue(QueueProperties.INFINITE);
        List<MessageId> ids = enqueueCommitted("a", "b");
        QueueSession s = session();
        s.dequeue("Q", noWait(DequeueMode.REMOVE));
        s.dequeue("Q", noWait(DequeueMode.REMOVE));
        s.commit();

        assertThat(row(ids.get(0)).get("DEQ_TXN_ID")).isNotNull().isEqualTo(row(ids.get(1)).get("DEQ_TXN_ID"));
    }

    @Test
    void a_rolled_back_remove_makes_the_message_available_again_with_one_failed_attempt() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession first = session();
        assertThat(first.dequeue("Q", noWait(DequeueMode.REMOVE)).id()).isEqualTo(id);
        first.rollback();

        QueueSession second = session();
        Message again = second.dequeue("Q", noWait(DequeueMode.REMOVE));
        assertThat(again.id()).isEqualTo(id);
        assertThat(again.properties().attempts()).isEqualTo(1);
        second.commit();
    }

    @Test
    void a_session_never_gets_again_a_message_it_removed_in_its_open_transaction() {
        textQueue(0);
        List<MessageId> ids = enqueueCommitted("a", "b");
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE)).id()).isEqualTo(ids.get(0));
        assertThat(s.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)).id())
                .isEqualTo(ids.get(1));
        expectError(AqError.NO_MESSAGE,
                () -> s.dequeue("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)));
        s.commit();
    }

    @Test
    void a_session_may_lock_the_same_message_again_from_the_first_message() {
        textQueue(0);
        MessageId id = enqueueCommitted("a").get(0);
        QueueSession s = session();
        assertThat(s.dequeue("Q", noWait(DequeueMode.LOCKED)).id()).isEqualTo(id);
        assertThat(s.dequeue("Q", noWait(DequeueMode.LOCKED).navigation(Navigation.FIRST_MESSAGE)).id()).isEqualTo(id);
        s.commit();
    }

    @Test
    void an_immediate_remove_is_committed_at_once_and_survives_a_rollback_of_the_session() throws Exception {
        textQueue(0);
        List<MessageId> ids = enqueueCommitted("a", "b");
        QueueSession s = session();
        Message m = s.dequeue("Q", noWait(DequeueMode.REMOVE).visibility(io.aqueduct.api.Visibility.IMMEDIATE));
        assertThat(m.id()).isEqualTo(ids.get(0));
        assertThat(row(ids.get(0))).isEmpty();
        s.rollback();

        assertThat(row(ids.get(0))).isEmpty();
        QueueSession other = session();
        assertThat(other.dequeue("Q", noWait(DequeueMode.REMOVE)).id()).isEqualTo(ids.get(1));
        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.REMOVE)));
        other.commit();
    }

    @Test
    void an_immediate_remove_with_retention_shows_the_message_processed_at_once() throws Exception {
        textQueue(3600);
        MessageId id = enqueueCommitted("a").get(0);
        QueueSession s = session();
        s.dequeue("Q", noWait(DequeueMode.REMOVE).visibility(io.aqueduct.api.Visibility.IMMEDIATE));
        assertThat(row(id)).containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_USER_ID", "TESTER");
        s.rollback();
        assertThat(row(id)).containsEntry("MSG_STATE", "PROCESSED");
    }

    // ------------------------------------------------------------------ REMOVE_NODATA

    @Test
    void remove_nodata_removes_the_message_without_returning_its_payload() throws Exception {
        textQueue(0);
        MessageId id = enqueueCommitted("order 1001").get(0);
        QueueSession s = session();

        Message m = s.dequeue("Q", noWait(DequeueMode.REMOVE_NODATA));
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.payload()).isNull();
        s.commit();

        assertThat(row(id)).isEmpty();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)));
    }

    @Test
    void remove_nodata_still_returns_the_message_properties() {
        textQueue(0);
        QueueSession p = session();
        MessageId id = p.enqueue("Q", Message.of("x", MessageProperties.create().correlation("RUSH").priority(3)));
        p.commit();
        QueueSession s = session();

        Message m = s.dequeue("Q", noWait(DequeueMode.REMOVE_NODATA));
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().correlation()).isEqualTo("RUSH");
        assertThat(m.properties().priority()).isEqualTo(3);
    }

    @Test
    void remove_nodata_with_retention_leaves_the_message_processed() throws Exception {
        textQueue(3600);
        MessageId id = enqueueCommitted("order").get(0);
        QueueSession s = session();
        s.dequeue("Q", noWait(DequeueMode.REMOVE_NODATA));
        s.commit();
        assertThat(row(id)).containsEntry("MSG_STATE", "PROCESSED").containsEntry("DEQ_USER_ID", "TESTER");
    }

    // ------------------------------------------------------------------ BooksOnLine: locked browse + remove_nodata

    @Test
    void north_american_orders_are_locked_browsed_then_removed_without_data_by_msgid() throws Exception {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(Order.class.getName()), QueueProperties.create());
        QueueSession producer = session();
        List<Order> orders = List.of(new Order(1, "US"), new Order(2, "CANADA"), new Order(3, "US"),
                new Order(4, "MEXICO"), new Order(5, "UK"));
        Map<Integer, MessageId> idOf = new LinkedHashMap<>();
        for (Order o : orders) {
            idOf.put(o.orderNo(), producer.enqueue("Q", Message.of(o)));
        }
        producer.commit();

        QueueSession s = session();
        QueueSession other = session();
        DequeueOptions locked = noWait(DequeueMode.LOCKED).navigation(Navigation.FIRST_MESSAGE);
        List<Integer> seen = new ArrayList<>();
        List<Integer> removed = new ArrayList<>();
        while (true) {
            Message m;
            try {
                m = s.dequeue("Q", locked);
            } catch (AqException e) {
                assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                break;
            }
            locked.navigation(Navigation.NEXT_MESSAGE);
            Order o = m.payload(Order.class);
            seen.add(o.orderNo());
            if (o.customerCountry().equals("CANADA") || o.customerCountry().equals("MEXICO")) {
                Message gone = s.dequeue("Q", noWait(DequeueMode.REMOVE_NODATA).messageId(m.id()));
                assertThat(gone.id()).isEqualTo(m.id());
                assertThat(gone.payload()).isNull();
                removed.add(o.orderNo());
            }
        }
        assertThat(seen).containsExactly(1, 2, 3, 4, 5);
        assertThat(removed).containsExactly(2, 4);
        // every order is locked or removed by s: nothing for anyone else until s commits
        expectError(AqError.NO_MESSAGE, () -> other.dequeue("Q", noWait(DequeueMode.REMOVE)));
        s.commit();

        assertThat(row(idOf.get(2))).isEmpty();
        assertThat(row(idOf.get(4))).isEmpty();
        List<Integer> left = new ArrayList<>();
        for (Message m : other.dequeueArray("Q", noWait(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE), 10)) {
            left.add(m.payload(Order.class).orderNo());
        }
        other.commit();
        assertThat(left).containsExactly(1, 3, 5);
    }

    // ------------------------------------------------------------------ concurrency

    @Test
    void two_sessions_never_remove_the_same_message() throws Exception {
        assertConcurrentConsumersGetDistinctMessages(DequeueMode.REMOVE);
        // everything was consumed and committed
        expectError(AqError.NO_MESSAGE, () -> session().dequeue("Q", noWait(DequeueMode.BROWSE)));
    }

    @Test
    void two_sessions_never_lock_the_same_message() throws Exception {
        assertConcurrentConsumersGetDistinctMessages(DequeueMode.LOCKED);
    }

    @Test
    void a_second_session_locking_after_the_first_gets_a_different_message() {
        textQueue(0);
        List<MessageId> ids = enqueueCommitted("a", "b", "c");
        QueueSession one = session();
        QueueSession two = session();
        Message a = one.dequeue("Q", noWait(DequeueMode.LOCKED));
        Message b = two.dequeue("Q", noWait(DequeueMode.LOCKED));
        Message c = one.dequeue("Q", noWait(DequeueMode.LOCKED));
        assertThat(List.of(a.id(), b.id(), c.id())).containsExactlyElementsOf(ids);
        expectError(AqError.NO_MESSAGE, () -> two.dequeue("Q", noWait(DequeueMode.LOCKED)));
        one.commit();
        two.commit();
    }

    private void assertConcurrentConsumersGetDistinctMessages(DequeueMode mode) throws Exception {
        textQueue(0);
        int messages = 120;
        QueueSession producer = session();
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            batch.add(Message.of("m" + i));
        }
        List<MessageId> ids = producer.enqueueArray("Q", io.aqueduct.api.EnqueueOptions.create(), batch);
        producer.commit();

        int consumers = 4;
        List<QueueSession> sessions = new ArrayList<>();
        for (int i = 0; i < consumers; i++) {
            sessions.add(session());
        }
        CountDownLatch start = new CountDownLatch(1);
        List<MessageId> got = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(consumers);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (QueueSession s : sessions) {
                results.add(pool.submit(() -> {
                    start.await();
                    int n = 0;
                    while (true) {
                        Message m;
                        try {
                            m = s.dequeue("Q", noWait(mode));
                        } catch (AqException e) {
                            if (e.errorCode() == AqError.NO_MESSAGE) {
                                break;
                            }
                            throw e;
                        }
                        got.add(m.id());
                        n++;
                        if (mode == DequeueMode.REMOVE && n % 3 == 0) {
                            s.commit();
                        }
                    }
                    return n;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : results) {
                total += f.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(messages);
        } finally {
            pool.shutdownNow();
        }
        assertThat(new HashSet<>(got)).hasSize(got.size()).containsExactlyInAnyOrderElementsOf(ids);
        for (QueueSession s : sessions) {
            s.commit();
        }
    }
}
