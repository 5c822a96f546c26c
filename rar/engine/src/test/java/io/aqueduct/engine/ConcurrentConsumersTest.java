package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several consumers, each on its own session, REMOVE from one queue and commit per message: every
 * message is received exactly once, none is lost, and the queue ends empty.
 */
class ConcurrentConsumersTest extends EngineFixture {
    private static final String Q = "WORK_Q";
    private static final String QT = "WORK_QT";
    private static final String STOP = "STOP";

    private ExecutorService pool;

    @BeforeEach
    void createQueue() {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "aq-test-worker");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterEach
    void stopPool() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** What one consumer received, in the order it received it. */
    private record Received(List<MessageId> ids, List<String> texts) {
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void four_consumers_drain_10000_messages_each_received_exactly_once() throws Exception {
        // on a shared store every commit is a round trip and a disk flush of a server: fewer messages,
        // the same race (MultiNodeTest moves 20,000 over two JVMs)
        int total = sharedStore() ? 4_000 : 10_000;
        Set<MessageId> enqueued = new HashSet<>();
        QueueSession producer = session();
        for (int batch = 0; batch < total / 500; batch++) {
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                messages.add(Message.of("m-" + (batch * 500 + i)));
            }
            enqueued.addAll(producer.enqueueArray(Q, EnqueueOptions.create(), messages));
            producer.commit();
        }
        assertThat(enqueued).hasSize(total);

        List<Future<Received>> consumers = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            consumers.add(pool.submit(drainUntilEmpty()));
        }
        List<MessageId> all = new ArrayList<>();
        List<Integer> perConsumer = new ArrayList<>();
        for (Future<Received> f : consumers) {
            Received r = f.get(80, TimeUnit.SECONDS);
            all.addAll(r.ids());
            perConsumer.add(r.ids().size());
            assertThat(r.texts()).as("each consumer gets messages in FIFO order").isSortedAccordingTo(
                    (a, b) -> Integer.compare(Integer.parseInt(a.substring(2)), Integer.parseInt(b.substring(2))));
        }
        assertThat(all).as("no message received twice").doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).as("every message received").isEqualTo(enqueued);
        assertThat(perConsumer).as("the consumers shared the work").allSatisfy(n -> assertThat(n).isPositive());
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void two_producers_and_two_consumers_working_at_the_same_time_lose_and_duplicate_nothing() throws Exception {
        int perProducer = 2_500;
        Set<MessageId> enqueued = ConcurrentHashMap.newKeySet();
        List<Future<Received>> consumers = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            consumers.add(pool.submit(consumeUntilStop()));
        }
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            String prefix = "p" + p + "-";
            producers.add(pool.submit(() -> {
                try (QueueSession s = engine.openSession()) {
                    for (int i = 0; i < perProducer; i++) {
                        enqueued.add(s.enqueue(Q, Message.of(prefix + i)));
                        s.commit();
                    }
                }
                return null;
            }));
        }
        for (Future<?> p : producers) {
            p.get(80, TimeUnit.SECONDS);
        }
        QueueSession s = session();
        s.enqueue(Q, Message.of(STOP));
        s.enqueue(Q, Message.of(STOP));
        s.commit();

        List<MessageId> all = new ArrayList<>();
        for (Future<Received> f : consumers) {
            Received r = f.get(80, TimeUnit.SECONDS);
            all.addAll(r.ids());
            // each producer's messages reach each consumer in the order they were committed
            for (String prefix : List.of("p0-", "p1-")) {
                List<Integer> seq = r.texts().stream().filter(t -> t.startsWith(prefix))
                        .map(t -> Integer.parseInt(t.substring(prefix.length()))).toList();
                assertThat(seq).isSorted();
            }
        }
        assertThat(enqueued).hasSize(2 * perProducer);
        assertThat(all).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(enqueued);
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void consumers_that_sometimes_roll_back_still_consume_every_message_exactly_once() throws Exception {
        int total = 1_000;
        Set<MessageId> enqueued = new HashSet<>();
        QueueSession producer = session();
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            messages.add(Message.of("m-" + i));
        }
        enqueued.addAll(producer.enqueueArray(Q, EnqueueOptions.create(), messages));
        producer.commit();

        AtomicInteger committed = new AtomicInteger();
        AtomicInteger rolledBack = new AtomicInteger();
        List<Future<List<MessageId>>> consumers = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            consumers.add(pool.submit(() -> {
                List<MessageId> mine = new ArrayList<>();
                DequeueOptions first = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
                        .navigation(Navigation.FIRST_MESSAGE);
                try (QueueSession s = engine.openSession()) {
                    while (committed.get() < total) {
                        Message m;
                        try {
                            m = s.dequeue(Q, first);
                        } catch (AqException e) {
                            if (e.errorCode() != AqError.NO_MESSAGE) {
                                throw e;
                            }
                            Thread.yield(); // a rolled-back message is on its way back
                            continue;
                        }
                        int n = Integer.parseInt(m.text().substring(2));
                        if (n % 7 == 0 && m.properties().attempts() == 0) {
                            s.rollback(); // a failed attempt: the message comes back with attempts 1
                            rolledBack.incrementAndGet();
                        } else {
                            s.commit();
                            mine.add(m.id());
                            committed.incrementAndGet();
                        }
                    }
                }
                return mine;
            }));
        }
        List<MessageId> all = new ArrayList<>();
        for (Future<List<MessageId>> f : consumers) {
            all.addAll(f.get(80, TimeUnit.SECONDS));
        }
        assertThat(all).doesNotHaveDuplicates();
        assertThat(new HashSet<>(all)).isEqualTo(enqueued);
        if (TestStore.CURRENT.kind == TestStore.Kind.POSTGRES) {
            // PostgreSQL: a claim may, very rarely, take the message in the instant between its look at
            // the attempt ledger and its lock (docs/shared-stores.md, limits): it then sees one attempt
            // fewer, and rolls it back once more here
            assertThat(rolledBack.get()).isBetween((total + 6) / 7, (total + 6) / 7 + 2);
        } else {
            assertThat(rolledBack.get()).as("each failed attempt counted before the next delivery").isEqualTo((total + 6) / 7);
        }
        assertThat(viewCount(QT)).isZero();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void under_consumers_that_always_roll_back_each_message_is_delivered_max_retries_plus_one_times_then_moved()
            throws Exception {
        deliveredMaxRetriesPlusOneTimesThenMoved(null);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void under_sessions_of_one_subscriber_that_always_roll_back_each_message_is_delivered_max_retries_plus_one_times_then_moved()
            throws Exception {
        deliveredMaxRetriesPlusOneTimesThenMoved("AUDIT");
    }

    /**
     * Four sessions (as {@code consumer} of a multi-consumer queue, when given) dequeue the head and
     * roll back, over and over: a delivery racing the count of the rollback before it would see an
     * attempt too few, and the message would be delivered once more than max_retries allows.
     */
    private void deliveredMaxRetriesPlusOneTimesThenMoved(String consumer) throws Exception {
        int total = sharedStore() ? 300 : 600;
        int maxRetries = 2;
        startedQueue("RETRY_Q", "RETRY_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .multipleConsumers(consumer != null), QueueProperties.create().maxRetries(maxRetries));
        if (consumer != null) {
            admin.addSubscriber("RETRY_Q", io.aqueduct.api.Agent.named(consumer), null);
        }
        String exceptionQueue = "AQ$_RETRY_QT_E";
        QueueSession producer = session();
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            messages.add(Message.of("m-" + i));
        }
        Set<MessageId> enqueued = new HashSet<>(producer.enqueueArray("RETRY_Q", EnqueueOptions.create(), messages));
        producer.commit();

        Map<MessageId, List<Integer>> attemptsSeen = new ConcurrentHashMap<>();
        List<Future<?>> consumers = new ArrayList<>();
        DequeueOptions first = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT).navigation(Navigation.FIRST_MESSAGE)
                .consumerName(consumer);
        for (int c = 0; c < 4; c++) {
            consumers.add(pool.submit(() -> {
                try (QueueSession s = engine.openSession()) {
                    while (true) {
                        try {
                            Message m = s.dequeue("RETRY_Q", first);
                            attemptsSeen.computeIfAbsent(m.id(), id -> java.util.Collections.synchronizedList(new ArrayList<>()))
                                    .add(m.properties().attempts());
                            s.rollback();
                        } catch (AqException e) {
                            if (e.errorCode() != AqError.NO_MESSAGE) {
                                throw e;
                            }
                            if (admin.queueStatistics(exceptionQueue).expired() == total) {
                                return null;
                            }
                            Thread.yield(); // a rolled-back message is on its way back
                        }
                    }
                }
            }));
        }
        for (Future<?> f : consumers) {
            f.get(80, TimeUnit.SECONDS);
        }
        assertThat(attemptsSeen.keySet()).isEqualTo(enqueued);
        List<Integer> expected = java.util.stream.IntStream.rangeClosed(0, maxRetries).boxed().toList();
        Map<MessageId, List<Integer>> deviating = new java.util.HashMap<>(attemptsSeen);
        deviating.values().removeIf(expected::equals);
        if (TestStore.CURRENT.kind == TestStore.Kind.POSTGRES) {
            // the instant of docs/shared-stores.md (limits): at most a delivery or two once more, one attempt
            // seen twice (a count lost or an attempt seen twice every time would show here as many)
            assertThat(deviating).hasSizeLessThanOrEqualTo(2).allSatisfy((id, seen) -> {
                assertThat(seen).as("the attempts of %s as its deliveries saw them", id).hasSize(maxRetries + 2);
                assertThat(new HashSet<>(seen)).as("the attempts of %s", id).isEqualTo(new HashSet<>(expected));
            });
        } else {
            assertThat(deviating).as("messages whose deliveries saw attempts other than 0, 1, 2").isEmpty();
        }
        assertThat(admin.queueStatistics("RETRY_Q").ready()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    /** A consumer that commits per message and stops when the queue has nothing left (all enqueued before). */
    private Callable<Received> drainUntilEmpty() {
        return () -> {
            List<MessageId> ids = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            DequeueOptions noWait = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);
            try (QueueSession s = engine.openSession()) {
                while (true) {
                    Message m;
                    try {
                        m = s.dequeue(Q, noWait);
                    } catch (AqException e) {
                        if (e.errorCode() == AqError.NO_MESSAGE) {
                            return new Received(ids, texts);
                        }
                        throw e;
                    }
                    s.commit();
                    ids.add(m.id());
                    texts.add(m.text());
                }
            }
        };
    }

    /**
     * A consumer blocked (FOREVER) between messages, stopping at the first STOP message. It always
     * takes the head of the queue (FIRST_MESSAGE): with producers still committing, NEXT_MESSAGE
     * would legitimately skip a message committed behind its position.
     */
    private Callable<Received> consumeUntilStop() {
        return () -> {
            List<MessageId> ids = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            DequeueOptions forever = DequeueOptions.create().waitSeconds(DequeueOptions.FOREVER)
                    .navigation(Navigation.FIRST_MESSAGE);
            try (QueueSession s = engine.openSession()) {
                while (true) {
                    Message m = s.dequeue(Q, forever);
                    s.commit();
                    if (STOP.equals(m.text())) {
                        return new Received(ids, texts);
                    }
                    ids.add(m.id());
                    texts.add(m.text());
                }
            }
        };
    }
}
