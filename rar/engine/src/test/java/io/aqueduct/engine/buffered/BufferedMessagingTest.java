package io.aqueduct.engine.buffered;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.EngineFixture;
import io.aqueduct.engine.transformation.ShoutingText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buffered messaging (delivery mode BUFFERED, docs/buffered.md) on one engine: messages in memory in
 * the queue's order, never in the store, with AQ's priorities, delay, expiration, correlation, msgid,
 * conditions, browsing, multi-consumer delivery and transformations; what AQ refuses for them, refused
 * with nothing changed; lost when the engine stops. Buffered messages never touch the store, so these
 * run on Derby only; {@code BufferedAndPersistentTest} mixes them with persistent ones on every store.
 */
class BufferedMessagingTest extends EngineFixture {
    private static final String Q = "NEWS_Q";
    private static final String QT = "NEWS_QT";

    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    private static DequeueOptions buffered() {
        return DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE)
                .waitSeconds(DequeueOptions.NO_WAIT);
    }

    private void singleConsumerQueue(SortOrder order) {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).sortOrder(order), QueueProperties.create());
    }

    private static Message text(String text, MessageProperties p) {
        return Message.of(text, p);
    }

    private static List<String> drain(QueueSession s, String queue, DequeueOptions options) {
        List<String> out = new ArrayList<>();
        while (true) {
            try {
                out.add(s.dequeue(queue, options).text());
            } catch (io.aqueduct.api.AqException e) {
                assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                return out;
            }
        }
    }

    private BufferedQueueInfo bufferedQueue(String queue) {
        return admin.bufferedQueues().stream().filter(b -> b.name().equals(queue)).findFirst().orElse(null);
    }

    // ------------------------------------------------------------------ order, visibility, the store

    @Test
    void buffered_messages_come_in_the_queue_tables_priority_order_at_once_and_never_reach_the_store() throws Exception {
        singleConsumerQueue(SortOrder.PRIORITY_ENQ_TIME);
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("p5", MessageProperties.create().priority(5)));
        s.enqueue(Q, BUFFERED, text("p1 first", MessageProperties.create().priority(1)));
        s.enqueue(Q, BUFFERED, text("p3", MessageProperties.create().priority(3)));
        s.enqueue(Q, BUFFERED, text("p1 second", MessageProperties.create().priority(1)));

        assertThat(viewCount(QT)).as("rows in the store").isZero();
        assertThat(bufferedQueue(Q).messages()).isEqualTo(4);
        // no commit: a buffered message is part of no transaction, another session sees it at once
        QueueSession other = session();
        Message first = other.dequeue(Q, buffered());
        assertThat(first.text()).isEqualTo("p1 first");
        assertThat(first.properties().deliveryMode()).isEqualTo(DeliveryMode.BUFFERED);
        assertThat(first.properties().priority()).isEqualTo(1);
        s.rollback(); // nothing to undo: the enqueues are not the transaction's
        assertThat(drain(other, Q, buffered())).containsExactly("p1 second", "p3", "p5");
        assertThat(bufferedQueue(Q).messages()).isZero();
        assertThat(bufferedQueue(Q).bytes()).isZero();
        assertThat(bufferedQueue(Q).enqueued()).isEqualTo(4);
    }

    @Test
    void on_an_enqueue_time_queue_buffered_messages_come_first_in_first_out_whatever_their_priority() {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        for (int i = 0; i < 5; i++) {
            s.enqueue(Q, BUFFERED, text("m" + i, MessageProperties.create().priority(9 - i)));
        }
        assertThat(drain(s, Q, buffered())).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    @Test
    void persistent_and_buffered_dequeues_each_see_their_own_messages_and_the_default_is_persistent() {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("in memory", MessageProperties.create()));
        s.enqueue(Q, text("stored", MessageProperties.create()));
        s.commit();

        Message persistent = s.dequeue(Q, NO_WAIT);
        s.commit();
        assertThat(persistent.text()).isEqualTo("stored");
        assertThat(persistent.properties().deliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertNoMessage(s, Q);
        assertThat(s.dequeue(Q, buffered()).text()).isEqualTo("in memory");
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, buffered()));
    }

    // ------------------------------------------------------------------ time: delay and expiration

    @Test
    void a_delayed_buffered_message_waits_for_its_delay_on_the_engines_clock() {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("later", MessageProperties.create().delay(30)));
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, buffered()));
        assertThat(bufferedQueue(Q).messages()).as("a delayed message is in memory too").isEqualTo(1);

        clock.advanceSeconds(29);
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, buffered()));
        clock.advanceSeconds(1);
        assertThat(s.dequeue(Q, buffered()).text()).isEqualTo("later");
    }

    @Test
    void an_expired_buffered_message_is_discarded_by_the_time_manager_not_moved_to_the_exception_queue() throws Exception {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("short-lived", MessageProperties.create().expiration(10)));
        s.enqueue(Q, BUFFERED, text("lasting", MessageProperties.create()));

        clock.advanceSeconds(10);
        engine.timeManager().runDue();
        BufferedQueueInfo info = bufferedQueue(Q);
        assertThat(info.messages()).isEqualTo(1);
        assertThat(info.expired()).isEqualTo(1);
        assertThat(drain(s, Q, buffered())).containsExactly("lasting");
        assertThat(viewCount(QT)).as("nothing in the exception queue or anywhere in the store").isZero();
    }

    @Test
    void a_blocked_buffered_dequeue_wakes_when_a_delayed_message_becomes_ready() throws Exception {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        session().enqueue(Q, BUFFERED, text("after the delay", MessageProperties.create().delay(60)));
        FutureTask<Message> waiting = blockedDequeue(Q, buffered().waitSeconds(DequeueOptions.FOREVER));
        assertThat(waiting.isDone()).isFalse();
        clock.advanceSeconds(60);
        assertThat(waiting.get(10, TimeUnit.SECONDS).text()).isEqualTo("after the delay");
    }

    // ------------------------------------------------------------------ selection: correlation, msgid, condition, browse

    @Test
    void correlation_msgid_condition_browse_and_remove_work_on_buffered_messages() {
        singleConsumerQueue(SortOrder.PRIORITY_ENQ_TIME);
        QueueSession s = session();
        MessageId rush = s.enqueue(Q, BUFFERED, text("rush", MessageProperties.create().correlation("RUSH-1").priority(2)));
        MessageId normal = s.enqueue(Q, BUFFERED, text("normal", MessageProperties.create().correlation("NORMAL").priority(1)));
        s.enqueue(Q, BUFFERED, text("bulk", MessageProperties.create().correlation("BULK").priority(7)));

        Message browsed = s.dequeue(Q, buffered().mode(DequeueMode.BROWSE).correlation("RUSH%"));
        assertThat(browsed.id()).isEqualTo(rush);
        assertThat(bufferedQueue(Q).messages()).as("a browse leaves it").isEqualTo(3);
        // browsing with NEXT_MESSAGE walks on
        QueueSession browser = session();
        DequeueOptions browse = buffered().mode(DequeueMode.BROWSE);
        assertThat(browser.dequeue(Q, browse).text()).isEqualTo("normal");
        assertThat(browser.dequeue(Q, browse).text()).isEqualTo("rush");
        assertThat(browser.dequeue(Q, browse).text()).isEqualTo("bulk");
        expectError(AqError.NO_MESSAGE, () -> browser.dequeue(Q, browse));
        assertThat(browser.dequeue(Q, browse.copy().navigation(Navigation.FIRST_MESSAGE)).text()).isEqualTo("normal");

        assertThat(s.dequeue(Q, buffered().messageId(rush)).text()).isEqualTo("rush");
        expectError(AqError.MESSAGE_NOT_FOUND, () -> s.dequeue(Q, buffered().messageId(rush)));
        Message nodata = s.dequeue(Q, buffered().mode(DequeueMode.REMOVE_NODATA).condition("priority > 5 AND corrid = 'BULK'"));
        assertThat(nodata.payload()).isNull();
        assertThat(nodata.properties().correlation()).isEqualTo("BULK");
        assertThat(s.dequeue(Q, buffered().navigation(Navigation.FIRST_MESSAGE)).id()).isEqualTo(normal);
        assertThat(bufferedQueue(Q).messages()).isZero();
    }

    @Test
    void a_dequeue_transformation_applies_to_a_buffered_message_and_a_failing_one_leaves_it_in_the_queue() {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        admin.createTransformation("SHOUT", "TEXT", "TEXT", ShoutingText.class.getName());
        admin.createTransformation("BROKEN", "TEXT", "TEXT", io.aqueduct.engine.transformation.FailingTransformer.class.getName());
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("quiet", MessageProperties.create()));

        expectError(AqError.TRANSFORMATION_FAILED, () -> s.dequeue(Q, buffered().transformation("BROKEN")));
        assertThat(bufferedQueue(Q).messages()).isEqualTo(1);
        assertThat(s.dequeue(Q, buffered().transformation("SHOUT")).text()).isEqualTo("QUIET!");
    }

    // ------------------------------------------------------------------ multi-consumer queues

    @Test
    void each_subscriber_whose_rule_is_true_gets_its_own_copy_and_the_message_leaves_memory_with_the_last() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true),
                QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("ALL"), null);
        admin.addSubscriber(Q, Agent.named("URGENT"), "priority < 2");
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("routine", MessageProperties.create().priority(5)));
        s.enqueue(Q, BUFFERED, text("urgent", MessageProperties.create().priority(1)));
        s.enqueue(Q, BUFFERED, text("direct", MessageProperties.create().recipients(List.of(Agent.named("AUDIT")))));

        assertThat(bufferedQueue(Q).subscriberMessages()).isEqualTo(Map.of("ALL", 2L, "URGENT", 1L, "AUDIT", 1L));
        assertThat(drain(s, Q, buffered().consumerName("urgent"))).containsExactly("urgent");
        assertThat(bufferedQueue(Q).messages()).as("ALL has still to get it").isEqualTo(3);
        assertThat(drain(s, Q, buffered().consumerName("ALL"))).containsExactly("routine", "urgent");
        assertThat(drain(s, Q, buffered().consumerName("AUDIT"))).containsExactly("direct");
        assertThat(bufferedQueue(Q).messages()).isZero();
        assertThat(bufferedQueue(Q).bytes()).isZero();
        expectError(AqError.CONSUMER_NAME_REQUIRED, () -> s.dequeue(Q, buffered()));
    }

    @Test
    void removing_a_subscriber_drops_its_buffered_copies_and_frees_what_nobody_else_has_to_dequeue() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true),
                QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("STAYS"), "corrid = 'BOTH'");
        admin.addSubscriber(Q, Agent.named("LEAVES"), null);
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, text("for both", MessageProperties.create().correlation("BOTH")));
        s.enqueue(Q, BUFFERED, text("for the leaver", MessageProperties.create().correlation("ONE")));

        admin.removeSubscriber(Q, Agent.named("LEAVES"));
        assertThat(bufferedQueue(Q).subscriberMessages()).isEqualTo(Map.of("STAYS", 1L));
        assertThat(bufferedQueue(Q).messages()).isEqualTo(1);
        assertThat(drain(s, Q, buffered().consumerName("LEAVES"))).isEmpty();
        assertThat(drain(s, Q, buffered().consumerName("STAYS"))).containsExactly("for both");
        assertThat(bufferedQueue(Q).bytes()).isZero();
    }

    @Test
    void a_buffered_message_only_consumers_no_propagation_serves_would_receive_is_refused() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true),
                QueueProperties.create());
        QueueSession s = session();
        expectError(AqError.NO_RECIPIENTS, () -> s.enqueue(Q, BUFFERED, text("far away",
                MessageProperties.create().recipients(List.of(new Agent("SHIP", "ship@example.com", 2))))));
        assertThat(bufferedQueue(Q)).isNull();
    }

    // ------------------------------------------------------------------ refusals, each with nothing changed

    @Test
    void what_aq_refuses_for_buffered_messages_is_refused_with_its_error_and_nothing_changes() throws Exception {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        startedQueue("GROUPED_Q", "GROUPED_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .messageGrouping(MessageGrouping.TRANSACTIONAL), QueueProperties.create());
        QueueSession s = session();
        Message m = text("x", MessageProperties.create());

        String onCommit = expectError(AqError.INVALID_VALUE, () -> s.enqueue(Q,
                EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED), m)).getMessage();
        assertThat(onCommit).contains("visibility IMMEDIATE");
        assertThat(expectError(AqError.BUFFERED_NOT_SUPPORTED, () -> s.enqueue("GROUPED_Q", BUFFERED, m)).getMessage())
                .contains("groups messages by transaction");
        expectError(AqError.INVALID_VALUE, () -> s.enqueue(Q, EnqueueOptions.create()
                .deliveryMode(DeliveryMode.PERSISTENT_OR_BUFFERED).visibility(Visibility.IMMEDIATE), m));
        expectError(AqError.INVALID_VALUE, () -> s.enqueueArray(Q, BUFFERED, List.of(m, m)));
        expectError(AqError.INVALID_VALUE, () -> s.enqueue(Q, BUFFERED,
                text("x", MessageProperties.create().exceptionQueue("AQ$_NEWS_QT_E"))));
        assertThat(admin.bufferedQueues()).isEmpty();
        assertThat(viewCount(QT)).isZero();
        assertThat(viewCount("GROUPED_QT")).isZero();

        s.enqueue(Q, BUFFERED, m);
        assertThat(expectError(AqError.INVALID_VALUE, () -> s.dequeue(Q, buffered().mode(DequeueMode.LOCKED))).getMessage())
                .contains("cannot be LOCKED");
        expectError(AqError.INVALID_VALUE, () -> s.dequeue(Q, noWait().deliveryMode(DeliveryMode.PERSISTENT_OR_BUFFERED)
                .mode(DequeueMode.LOCKED)));
        expectError(AqError.INVALID_VALUE, () -> s.dequeue(Q, buffered().visibility(Visibility.ON_COMMIT)));
        expectError(AqError.INVALID_VALUE, () -> s.dequeueArray(Q, buffered(), 2));
        expectError(AqError.BUFFERED_NOT_SUPPORTED, () -> s.dequeue("GROUPED_Q", buffered()));
        assertThat(bufferedQueue(Q).messages()).isEqualTo(1);
        assertThat(s.dequeueArray(Q, buffered(), 1)).extracting(Message::text).containsExactly("x");
    }

    @Test
    void buffered_enqueue_and_dequeue_need_the_same_privileges_as_persistent_ones() {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        QueueSession alice = session("alice");
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.enqueue(Q, BUFFERED, text("x", MessageProperties.create())));
        assertThat(admin.bufferedQueues()).isEmpty();
        admin.grantQueuePrivilege(QueuePrivilege.ENQUEUE, Q, "ALICE", false);
        alice.enqueue(Q, BUFFERED, text("x", MessageProperties.create()));
        expectError(AqError.INSUFFICIENT_PRIVILEGES, () -> alice.dequeue(Q, buffered()));
        assertThat(bufferedQueue(Q).messages()).isEqualTo(1);
        admin.grantQueuePrivilege(QueuePrivilege.DEQUEUE, Q, "ALICE", false);
        assertThat(alice.dequeue(Q, buffered()).text()).isEqualTo("x");
    }

    // ------------------------------------------------------------------ waits: blocking dequeue and LISTEN

    @Test
    void a_blocked_buffered_dequeue_and_a_buffered_listen_are_woken_by_a_buffered_enqueue() throws Exception {
        singleConsumerQueue(SortOrder.ENQ_TIME);
        FutureTask<Message> waiting = blockedDequeue(Q, buffered().waitSeconds(DequeueOptions.FOREVER));
        session().enqueue(Q, BUFFERED, text("ping", MessageProperties.create()));
        assertThat(waiting.get(10, TimeUnit.SECONDS).text()).isEqualTo("ping");

        FutureTask<Agent> listening = new FutureTask<>(() -> {
            try (QueueSession own = engine.openSession()) {
                return own.listen(List.of(new Agent(null, Q, 0)), DequeueOptions.FOREVER, DeliveryMode.BUFFERED);
            }
        });
        Thread listener = new Thread(listening, "buffered-listener");
        listener.setDaemon(true);
        listener.start();
        org.awaitility.Awaitility.await().atMost(10, TimeUnit.SECONDS)
                .until(() -> listener.getState() == Thread.State.WAITING || listening.isDone());
        assertThat(listening.isDone()).isFalse();
        session().enqueue(Q, BUFFERED, text("pong", MessageProperties.create()));
        assertThat(listening.get(10, TimeUnit.SECONDS).address()).isEqualTo(Q);
        // a LISTEN for persistent messages does not count buffered ones
        expectError(AqError.LISTEN_TIMEOUT, () -> session().listen(List.of(new Agent(null, Q, 0)), DequeueOptions.NO_WAIT));
    }

    // ------------------------------------------------------------------ lost at stop

    @Test
    void buffered_messages_are_lost_when_the_engine_stops_and_persistent_ones_are_not(@TempDir Path dir) {
        engine.close();
        engine = AqueductEngine.builder().clock(clock).user("TESTER").derbyDirectory(dir.resolve("store")).start();
        admin = engine.admin();
        singleConsumerQueue(SortOrder.ENQ_TIME);
        try (QueueSession s = engine.openSession()) {
            s.enqueue(Q, BUFFERED, text("in memory", MessageProperties.create()));
            s.enqueue(Q, text("stored", MessageProperties.create()));
            s.commit();
        }
        engine.close();
        engine = AqueductEngine.builder().clock(clock).user("TESTER").derbyDirectory(dir.resolve("store")).start();
        admin = engine.admin();
        try (QueueSession s = engine.openSession()) {
            expectError(AqError.NO_MESSAGE, () -> s.dequeue(Q, buffered()));
            assertThat(s.dequeue(Q, NO_WAIT).text()).isEqualTo("stored");
            s.commit();
        }
        assertThat(admin.bufferedQueues()).isEmpty();
    }
}
