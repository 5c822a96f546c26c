package io.aqueduct.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class StatisticsPollerTest {
    private final MovableClock clock = new MovableClock();
    private final AtomicInteger reads = new AtomicInteger();
    private volatile RuntimeException storeFailure;
    private volatile long ready = 3;

    @Test
    void aPollReadsTheStoreOnlyWhileAPageAsksForFigures() {
        StatisticsPoller poller = new StatisticsPoller(sessions(), () -> java.util.Map.of("APP.Q", new StatisticsPoller.Counters(7, 4, 1)), clock);
        poller.poll();
        assertThat(reads).as("no page has asked yet").hasValue(0);

        assertThat(poller.latest().time()).as("nothing read yet").isNull();
        poller.poll();
        assertThat(reads).hasValue(1);
        StatisticsPoller.Snapshot s = poller.latest();
        assertThat(s.time()).isEqualTo(clock.instant());
        assertThat(s.queues()).extracting(QueueStatistics::ready).containsExactly(3L);
        assertThat(s.counters()).containsEntry("APP.Q", new StatisticsPoller.Counters(7, 4, 1));

        clock.move(StatisticsPoller.IDLE.plusSeconds(1));
        poller.poll();
        assertThat(reads).as("every page closed: the store is left alone").hasValue(1);
    }

    @Test
    void aFailedPollKeepsTheLastFiguresWithTheFailureAndTheNextOneRecovers() {
        StatisticsPoller poller = new StatisticsPoller(sessions(), () -> java.util.Map.of("APP.Q", new StatisticsPoller.Counters(7, 4, 1)), clock);
        poller.latest();
        poller.poll();
        Instant first = clock.instant();

        clock.move(Duration.ofSeconds(1));
        storeFailure = new AqException(0, "store failed: lock timeout");
        poller.poll();
        StatisticsPoller.Snapshot failed = poller.latest();
        assertThat(failed.time()).as("the figures are those of the last good poll").isEqualTo(first);
        assertThat(failed.queues()).extracting(QueueStatistics::ready).containsExactly(3L);
        assertThat(failed.failure()).contains("lock timeout");

        storeFailure = null;
        ready = 5;
        clock.move(Duration.ofSeconds(1));
        poller.poll();
        StatisticsPoller.Snapshot recovered = poller.latest();
        assertThat(recovered.failure()).isNull();
        assertThat(recovered.time()).isEqualTo(clock.instant());
        assertThat(recovered.queues()).extracting(QueueStatistics::ready).containsExactly(5L);
    }

    private Supplier<QueueSession> sessions() {
        QueueAdmin admin = (QueueAdmin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {QueueAdmin.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("queueStatistics") && args == null) {
                        reads.incrementAndGet();
                        if (storeFailure != null) {
                            throw storeFailure;
                        }
                        return List.of(new QueueStatistics("APP", "Q", 1, 0, ready, 0, 0, 0, 0, List.of()));
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return () -> (QueueSession) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {QueueSession.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "admin" -> admin;
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-12-05T02:00:00Z");

        void move(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
