package io.aqueduct.engine.time;

import java.time.Instant;

/**
 * The one clock of the engine: enqueue time, delay, expiration, retry delay, retention and every
 * wait are measured on it. Tests drive a {@link ManualClock}; production runs on {@link #system()}.
 */
public interface AqClock {

    Instant now();

    default long millis() {
        return now().toEpochMilli();
    }

    /**
     * Registers a callback run whenever the clock jumps (a manual clock being advanced), so that
     * waiters measuring time on this clock re-check their deadlines. The system clock never jumps.
     */
    void onAdvance(Runnable listener);

    static AqClock system() {
        return SystemClock.INSTANCE;
    }
}
