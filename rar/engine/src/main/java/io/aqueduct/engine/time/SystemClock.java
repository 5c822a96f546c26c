package io.aqueduct.engine.time;

import java.time.Instant;

final class SystemClock implements AqClock {
    static final SystemClock INSTANCE = new SystemClock();

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public void onAdvance(Runnable listener) {
        // real time does not jump; waiters' own timeouts are enough
    }
}
