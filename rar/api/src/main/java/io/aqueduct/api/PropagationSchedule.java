package io.aqueduct.api;

import java.time.Instant;

/**
 * A propagation schedule as DBA_QUEUE_SCHEDULES shows it: its definition, where it runs, its
 * statistics and its failures. Times are instants (the views show them as UTC dates and times).
 *
 * @param schema the source queue's schema
 * @param queue the source queue's name
 * @param destination the database link it propagates to, or {@link #LOCAL} for queues of this store
 * @param startTime when the first window starts
 * @param windowSeconds the window's length in seconds; null: one window without end
 * @param nextTime the expression giving the next window's start (SYSDATE = the end of the window), or null
 * @param latencySeconds the longest a new message waits before it is propagated, in a window
 * @param disabled disabled by an administrator, or by 16 consecutive failures
 * @param processName the node running it now (null while no node runs it)
 * @param sessionId the run's identifier on that node (null while no node runs it)
 * @param instance the node's process id and host (null while no node runs it)
 * @param lastRun when it last propagated successfully (null: never)
 * @param currentStart when the current window started (null outside a window)
 * @param nextRun when it runs next: the next window's start, or the end of a failure's backoff (null: not planned)
 * @param totalTimeSeconds the time spent propagating, in seconds
 * @param totalNumber the messages propagated
 * @param totalBytes the payload bytes propagated
 * @param maxNumber the most messages propagated in one window
 * @param maxBytes the most bytes propagated in one window
 * @param averageNumber the messages propagated per window
 * @param averageSize the bytes per message propagated
 * @param averageTimeSeconds the seconds spent per message propagated
 * @param failures consecutive failures (reset by a success; 16 disable the schedule)
 * @param lastErrorTime when the last failure happened (null: never)
 * @param lastErrorMessage the last failure's message (null: none since the last success)
 */
public record PropagationSchedule(String schema, String queue, String destination, Instant startTime, Long windowSeconds,
        String nextTime, long latencySeconds, boolean disabled, String processName, String sessionId, String instance,
        Instant lastRun, Instant currentStart, Instant nextRun, double totalTimeSeconds, long totalNumber, long totalBytes,
        long maxNumber, long maxBytes, double averageNumber, double averageSize, double averageTimeSeconds, int failures,
        Instant lastErrorTime, String lastErrorMessage) {

    /** The destination of a schedule to queues of the same store (a null destination), as AQ names it. */
    public static final String LOCAL = "AQ$_LOCAL";

    /** The source queue as {@code schema.queue}. */
    public String qualifiedQueue() {
        return schema + "." + queue;
    }
}
