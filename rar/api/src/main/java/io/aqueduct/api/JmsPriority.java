package io.aqueduct.api;

/**
 * How a Jakarta Messaging priority maps to an AQ priority, in the api so that the JMS provider
 * (which depends on the api only) and the engine's selectors use one rule. JMS priorities run
 * 0..9 with 9 delivered first; AQ dequeues lower numbers first; so JMS {@code p} is AQ
 * {@code 9 - p}, and JMS 4, the default, is AQ 5.
 */
public final class JmsPriority {
    /** The lowest JMS priority. */
    public static final int MIN = 0;
    /** The highest JMS priority (delivered first). */
    public static final int MAX = 9;

    private JmsPriority() {
    }

    /**
     * The AQ priority of a JMS priority: {@code 9 - jmsPriority}.
     *
     * @throws AqException {@link AqError#INVALID_VALUE} (24097) when {@code jmsPriority} is not in 0..9
     */
    public static int toAq(int jmsPriority) {
        if (jmsPriority < MIN || jmsPriority > MAX) {
            throw new AqException(AqError.INVALID_VALUE, "JMS priority " + jmsPriority
                    + " is out of range: give a priority from 0 (lowest) to 9 (highest).");
        }
        return MAX - jmsPriority;
    }

    /**
     * The JMS priority of an AQ priority: {@code 9 - aqPriority}. AQ priorities are any int, so one
     * outside 0..9 (enqueued by a non-JMS producer) is clamped to the nearest end: below 0 reads as
     * JMS 9, above 9 as JMS 0. Never throws.
     */
    public static int toJms(int aqPriority) {
        long p = (long) MAX - aqPriority; // long: 9 - Integer.MIN_VALUE overflows an int
        return (int) Math.max(MIN, Math.min(MAX, p));
    }
}
