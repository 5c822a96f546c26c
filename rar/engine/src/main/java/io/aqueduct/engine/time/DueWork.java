package io.aqueduct.engine.time;

/**
 * What the rest of the engine hands to the time manager: instants at which something becomes due,
 * messages whose consumers may all be done, and settling work to retry until the store answers.
 */
public interface DueWork {
    /** Something becomes due at {@code epochMillis}. */
    void schedule(long epochMillis);

    /** Look at the table again now (a commit or rollback changed what is due). */
    void wake();

    /** A consumer removed its part of a multi-consumer message: complete the message when nobody has it pending. */
    void checkCompletion(String msgid);

    /**
     * Settling work that failed because the store was away: run it each round until it returns
     * (an {@code AqException} STORE_UNAVAILABLE or COMMIT_OUTCOME_UNKNOWN means "later"; anything
     * else gives it up with a warning).
     */
    void settleLater(String what, Runnable settle);
}
