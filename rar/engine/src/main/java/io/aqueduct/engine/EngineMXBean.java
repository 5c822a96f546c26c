package io.aqueduct.engine;

/**
 * An engine's health as JMX shows it ({@code io.aqueduct:type=Engine,store=..,node=..}, registered while the
 * engine is open): what its supervised loops can report honestly. A loop that is alive may be asleep until
 * the next thing it has to do (a quiet store has nothing due for hours), so "alive" means its thread is in
 * its loop, and "failing" that its last round failed (it backs off and tries again by itself). Names:
 * docs/metrics.md.
 */
public interface EngineMXBean {
    String getStore();

    String getNode();

    /** A probe of the store (JDBC isValid on a connection of its own) answered within 2 s. */
    boolean isStoreReachable();

    /** The time manager's thread is in its loop. */
    boolean isTimeManagerAlive();

    /** The time manager's last round failed. */
    boolean isTimeManagerFailing();

    /** The propagation job's thread is in its loop. */
    boolean isPropagationAlive();

    /** The propagation job's last round failed (not a schedule's failure: those are the schedules' own). */
    boolean isPropagationFailing();
}
