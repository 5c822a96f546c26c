package io.aqueduct.engine.time;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A clock that only moves when told to: a 15-day delay is tested in milliseconds. */
public final class ManualClock implements AqClock {
    private volatile Instant now;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    public ManualClock(Instant start) {
        this.now = start;
    }

    public ManualClock() {
        this(Instant.parse("2026-01-05T09:00:00Z"));
    }

    @Override
    public Instant now() {
        return now;
    }

    public synchronized void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("A clock does not run backwards: " + by);
        }
        now = now.plus(by);
        listeners.forEach(Runnable::run);
    }

    public void advanceSeconds(long seconds) {
        advance(Duration.ofSeconds(seconds));
    }

    @Override
    public void onAdvance(Runnable listener) {
        listeners.add(listener);
    }
}
