package io.aqueduct.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * The cross-node signal loops are supervised: one that throws is logged and started again; both end on
 * close. While datagrams reach every other node, the database's signal is their paced fallback.
 */
class CoalescingSignalsTest {

    private static Connection noConnection() {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getReturnType() == boolean.class ? false : null);
    }

    /** Signals over no database: connections that do nothing, a LISTEN that hears nothing; the test says how a batch goes out. */
    private abstract static class Unconnected extends CoalescingSignals {
        private final CountDownLatch nothingArrives = new CountDownLatch(1);
        /** The threads the loops run on. */
        final List<Thread> loops = new CopyOnWriteArrayList<>();

        @Override
        protected Connection connect() {
            return noConnection();
        }

        @Override
        protected void subscribe(Connection c) {
        }

        @Override
        protected void receive(Connection c, long millis, LongConsumer receiver) {
            try {
                nothingArrives.await(millis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Starts the loops, each on a thread of its own (as the engine's background does). */
        void start() {
            start(id -> { }, (name, task) -> {
                Thread t = new Thread(task, name);
                loops.add(t);
                t.start();
            });
        }
    }

    @Test
    void a_send_loop_that_throws_starts_again_and_later_signals_go_out() {
        AtomicInteger sends = new AtomicInteger();
        List<Set<Long>> sent = new CopyOnWriteArrayList<>();
        Unconnected signals = new Unconnected() {
            @Override
            protected void send(Connection c, Set<Long> queueIds) {
                if (sends.getAndIncrement() == 0) {
                    throw new IllegalStateException("a driver bug, once");
                }
                sent.add(Set.copyOf(queueIds));
            }
        };
        signals.start();
        List<Thread> loops = signals.loops;
        assertThat(loops).as("both loops run where the engine runs its loops").hasSize(2);
        signals.publish(1); // lost to the failure: a lost signal costs latency only
        await().atMost(Duration.ofSeconds(5)).until(() -> sends.get() >= 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            signals.publish(2);
            assertThat(sent).contains(Set.of(2L));
        });

        signals.close();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(loops).noneMatch(Thread::isAlive));
    }

    @Test
    void while_datagrams_reach_every_node_the_database_signal_goes_out_at_most_every_100_ms_and_loses_no_queue() {
        List<Long> sentAt = new CopyOnWriteArrayList<>();
        Set<Long> sentIds = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Unconnected signals = new Unconnected() {
            @Override
            protected boolean allDirect() {
                return true; // as the registry says when every live node has a signal address
            }

            @Override
            protected void send(Connection c, Set<Long> queueIds) {
                sentAt.add(System.nanoTime());
                sentIds.addAll(queueIds);
            }
        };
        signals.start();
        long start = System.nanoTime();
        for (long queue = 1; queue <= 300; queue++) { // a busy node: one commit after the other, on 300 queues
            signals.publish(queue);
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(sentIds).hasSize(300));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(sentAt.size()).as("sends in %d ms", elapsedMs).isLessThanOrEqualTo((int) (elapsedMs / CoalescingSignals.FALLBACK_MS) + 1);
        for (int i = 1; i < sentAt.size(); i++) {
            assertThat(TimeUnit.NANOSECONDS.toMillis(sentAt.get(i) - sentAt.get(i - 1))).isGreaterThanOrEqualTo(CoalescingSignals.FALLBACK_MS);
        }
        signals.close();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(signals.loops).noneMatch(Thread::isAlive));
    }
}
