package io.aqueduct.engine.store;

import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How a background loop lives through a store it cannot reach (or any failure): it waits 0.5 s,
 * doubling up to {@value #MAX_MS} ms between tries, logs one warning when the trouble starts and one
 * line when it works again, and never gives up. One per loop; not thread-safe.
 */
public final class Outage {
    static final long FIRST_MS = 500;
    public static final long MAX_MS = 10_000;

    private final Logger log;
    private final String who;
    private long failures;
    private long sinceNanos;
    private long delay;

    public Outage(Logger log, String who) {
        this.log = log;
        this.who = who;
    }

    /** The loop failed: logs (once per outage) and returns how long to wait before the next try, in ms. */
    public long failed(Throwable e) {
        if (failures++ == 0) {
            sinceNanos = System.nanoTime();
            delay = FIRST_MS;
            String message = String.valueOf(e.getMessage());
            log.log(Level.WARNING, who + " failed: " + message + (message.endsWith(".") ? "" : ".") + " It tries again after " + FIRST_MS
                    + " ms, backing off up to " + MAX_MS / 1000 + " s, and says when it works again.", e);
        } else {
            delay = Math.min(delay * 2, MAX_MS);
            log.log(Level.FINE, who + " failed again (" + failures + " tries)", e);
        }
        return delay;
    }

    /** The loop worked: if it had failed, says so once. */
    public void succeeded() {
        if (failures > 0) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - sinceNanos);
            log.info(who + " works again after " + seconds + " s and " + failures + " failed tries.");
            failures = 0;
        }
    }

    /** Is the loop in an outage now? */
    public boolean failing() {
        return failures > 0;
    }
}
