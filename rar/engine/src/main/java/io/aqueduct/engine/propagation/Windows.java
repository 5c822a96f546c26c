package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.expression.MessageView;
import io.aqueduct.engine.expression.PayloadView;
import java.time.Instant;

/**
 * A schedule's propagation windows: the first starts at START_TIME and lasts DURATION seconds
 * (no duration: one window without end); each next one starts where NEXT_TIME, evaluated with
 * SYSDATE = the end of the window before, says (AQ's rule), and never before that end. Without a
 * NEXT_TIME there is no window after the first.
 */
final class Windows {
    /** Walking from an old window to the current one stops after this many windows (then starts from there). */
    private static final int MAX_STEPS = 100_000;
    /** The longest window or latency: about 1,000 years, so that instants stay dates every store keeps. */
    static final long MAX_SECONDS = 1000L * 365 * 86_400;

    private Windows() {
    }

    /** A window: [start, end), end null for a window without end. */
    record Window(long start, Long end) {
        boolean contains(long t) {
            return t >= start && (end == null || t < end);
        }
    }

    /** Compiles a NEXT_TIME (null stays null): 25448 when it does not parse. */
    static Expression compile(String nextTime) {
        return nextTime == null ? null : Expression.parseValue(nextTime);
    }

    /**
     * Checks a schedule's definition before it is stored: a positive duration, a NEXT_TIME that
     * gives a date later than the window's start (24097 otherwise).
     */
    static void check(long startMs, Long durationSeconds, String nextTime) {
        if (durationSeconds != null && durationSeconds < 1) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid duration " + durationSeconds
                    + ": a propagation window lasts at least 1 second (null: one window without end).");
        }
        if (durationSeconds != null && durationSeconds > MAX_SECONDS) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid duration " + durationSeconds + ": at most "
                    + MAX_SECONDS + " seconds.");
        }
        if (nextTime == null) {
            return;
        }
        Expression e = compile(nextTime);
        long end = durationSeconds == null ? startMs : startMs + durationSeconds * 1000;
        Long next = evaluate(e, end);
        if (next == null || next <= startMs) {
            throw new AqException(AqError.INVALID_VALUE, "next_time '" + nextTime + "' gives "
                    + (next == null ? "no date" : Instant.ofEpochMilli(next)) + " for a window starting at "
                    + Instant.ofEpochMilli(startMs) + ": it must give a date later than the window's start, such as"
                    + " SYSDATE + 1/24 (SYSDATE is the end of the window).");
        }
    }

    /** NEXT_TIME's value with SYSDATE = {@code windowEnd}, in epoch ms; null when it gives no date. */
    static Long evaluate(Expression nextTime, long windowEnd) {
        Object v = nextTime.value(new SysdateView(Instant.ofEpochMilli(windowEnd)));
        if (v instanceof Instant i) {
            return i.toEpochMilli();
        }
        return null;
    }

    /**
     * The window that contains {@code now}, else the next one to come; null when no window is left.
     * {@code knownStart}: a window start computed before (the schedule's current window), to walk from.
     */
    static Window current(long startMs, Long durationSeconds, Expression nextTime, Long knownStart, long now) {
        if (durationSeconds == null) {
            return new Window(startMs, null);
        }
        long length = durationSeconds * 1000;
        long start = knownStart != null && knownStart >= startMs ? knownStart : startMs;
        for (int step = 0; step < MAX_STEPS; step++) {
            long end = start + length;
            if (now < end) {
                return new Window(start, end);
            }
            if (nextTime == null) {
                return null;
            }
            Long next = evaluate(nextTime, end);
            if (next == null) {
                return null;
            }
            start = Math.max(next, end);
        }
        return new Window(start, start + length);
    }

    /** The start of the window after the one ending at {@code end}; null when there is none. */
    static Long after(Expression nextTime, long end) {
        if (nextTime == null) {
            return null;
        }
        Long next = evaluate(nextTime, end);
        return next == null ? null : Math.max(next, end);
    }

    /** What NEXT_TIME sees: SYSDATE, and no message. */
    private static final class SysdateView implements MessageView {
        private final Instant sysdate;

        SysdateView(Instant sysdate) {
            this.sysdate = sysdate;
        }

        @Override
        public Instant sysdate() {
            return sysdate;
        }

        @Override
        public int priority() {
            return 0;
        }

        @Override
        public String correlation() {
            return null;
        }

        @Override
        public Instant enqueueTime() {
            return null;
        }

        @Override
        public long delay() {
            return 0;
        }

        @Override
        public long expiration() {
            return -1;
        }

        @Override
        public int retryCount() {
            return 0;
        }

        @Override
        public String senderName() {
            return null;
        }

        @Override
        public String messageId() {
            return null;
        }

        @Override
        public Object userProperty(String name) {
            return null;
        }

        @Override
        public PayloadView payload() {
            return PayloadView.none();
        }
    }
}
