package io.aqueduct.engine;

/**
 * One propagation schedule as JMX shows it ({@code io.aqueduct:type=PropagationSchedule,store=..,node=..,
 * queue=OWNER.QUEUE,destination=..}, registered by each engine while the schedule exists, also one another
 * node created or runs): the schedule and its statistics as {@code QueueAdmin.propagationSchedules()} and
 * AQ's DBA_QUEUE_SCHEDULES give them, read from the store at most once a second. Times are ISO-8601
 * instants, null when there is none. Names and units: docs/metrics.md.
 */
public interface PropagationScheduleMXBean {
    /** The source queue, OWNER.QUEUE. */
    String getQueue();

    /** The destination: a database link, or AQ$_LOCAL. */
    String getDestination();

    /** DBA_QUEUE_SCHEDULES.SCHEDULE_DISABLED. */
    boolean isDisabled();

    /** The node running it now (PROCESS_NAME), null when none holds it. */
    String getProcessName();

    String getStartTime();

    /** The window's length in seconds (PROPAGATION_WINDOW), null: windows without end. */
    Long getWindowSeconds();

    String getNextTime();

    long getLatencySeconds();

    String getLastRun();

    String getCurrentStart();

    String getNextRun();

    /** TOTAL_TIME: seconds spent propagating. */
    double getTotalTimeSeconds();

    /** TOTAL_NUMBER: messages propagated. */
    long getTotalNumber();

    /** TOTAL_BYTES: payload bytes propagated. */
    long getTotalBytes();

    /** MAX_NUMBER: the most messages propagated in one window. */
    long getMaxNumber();

    /** MAX_BYTES: the most bytes propagated in one window. */
    long getMaxBytes();

    double getAverageNumber();

    double getAverageSize();

    double getAverageTimeSeconds();

    /** FAILURES: failures in a row (the 16th disables the schedule). */
    int getFailures();

    String getLastErrorTime();

    String getLastErrorMessage();
}
