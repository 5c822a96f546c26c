package io.aqueduct.http.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.QueueSession;
import io.aqueduct.http.HttpAccessException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Transactions held between HTTP requests, on a clock the test moves: the idle timeout rolls back, a user's cap,
 * another user's id, a transaction in use, commit and rollback reaching the session.
 */
class HeldTransactionsTest {
    private final MovableClock clock = new MovableClock();
    private final HeldTransactions transactions = new HeldTransactions(Duration.ofSeconds(180), 2, clock,
            Executors.defaultThreadFactory());
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @AfterEach
    void endTheirThreads() {
        transactions.rollBackAll();
    }

    @Test
    void anIdleTransactionIsRolledBackAtTheTimeoutAndItsClientToldSo() {
        HeldTransaction t = transactions.begin("john", this::session);
        transactions.release(t);
        clock.advance(Duration.ofSeconds(180));
        transactions.sweep();
        assertThat(calls).as("idle exactly the timeout: kept").isEmpty();

        clock.advance(Duration.ofSeconds(1));
        transactions.sweep();
        assertThat(calls).containsExactly("rollback", "close");
        assertThat(transactions.open()).isZero();
        assertThatThrownBy(() -> transactions.acquire(t.id(), "john")).isInstanceOfSatisfying(HttpAccessException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(408);
                    assertThat(e.getMessage()).contains("rolled back after 180 s");
                });
    }

    @Test
    void aTransactionInUseIsNotIdleAndASecondRequestIsRefused() {
        HeldTransaction t = transactions.begin("john", this::session);
        clock.advance(Duration.ofHours(1));
        transactions.sweep();
        assertThat(calls).isEmpty();
        assertThatThrownBy(() -> transactions.acquire(t.id(), "john"))
                .isInstanceOfSatisfying(HttpAccessException.class, e -> assertThat(e.status()).isEqualTo(409));
        transactions.release(t);
        // released now: idle from now on
        transactions.sweep();
        assertThat(calls).isEmpty();
    }

    @Test
    void commitAndRollbackReachTheSessionAndEndTheTransaction() {
        HeldTransaction committed = transactions.begin("john", this::session);
        // the work runs in the held session, on the transaction's own thread (not the request's)
        String where = committed.run(s -> s + " on " + Thread.currentThread().getName());
        assertThat(where).startsWith("session on ").isNotEqualTo("session on " + Thread.currentThread().getName());
        transactions.end(committed, true);
        HeldTransaction rolledBack = transactions.begin("john", this::session);
        transactions.end(rolledBack, false);
        assertThat(calls).containsExactly("commit", "close", "rollback", "close");
        assertThatThrownBy(() -> transactions.acquire(committed.id(), "john"))
                .isInstanceOfSatisfying(HttpAccessException.class, e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void aUserHoldsAtMostTheCapAndNobodyElsesTransaction() {
        HeldTransaction first = transactions.begin("john", this::session);
        transactions.release(first);
        transactions.release(transactions.begin("john", this::session));
        assertThatThrownBy(() -> transactions.begin("john", this::session))
                .isInstanceOfSatisfying(HttpAccessException.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.getMessage()).contains("john already holds 2 open transactions");
                });
        assertThat(calls).as("no session opened for the refused one").isEmpty();
        transactions.release(transactions.begin("mary", this::session));
        assertThatThrownBy(() -> transactions.acquire(first.id(), "mary"))
                .isInstanceOfSatisfying(HttpAccessException.class, e -> assertThat(e.status()).isEqualTo(404));
        assertThat(transactions.acquire(first.id(), "john")).isSameAs(first);
        transactions.release(first);
    }

    @Test
    void aSessionThatCannotBeOpenedLeavesNothingHeld() {
        assertThatThrownBy(() -> transactions.begin("john", () -> {
            throw new IllegalStateException("pool exhausted");
        })).hasMessage("pool exhausted");
        assertThat(transactions.open()).isZero();
    }

    /** A queue session that records commit, rollback and close. */
    private QueueSession session() {
        return (QueueSession) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {QueueSession.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "commit", "rollback", "close" -> calls.add(method.getName());
                        case "toString" -> {
                            return "session";
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    }
                    return null;
                });
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-12-04T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
