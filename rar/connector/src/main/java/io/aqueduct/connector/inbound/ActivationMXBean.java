package io.aqueduct.connector.inbound;

/**
 * One MDB activation as JMX shows it ({@code io.aqueduct:type=Activation,queue=..,endpoint=..,id=..},
 * registered while the endpoint is activated): what its delivery workers did since activation. Names and
 * units: docs/metrics.md.
 */
public interface ActivationMXBean {
    /** The queue delivered from. */
    String getQueue();

    /** The MDB's class. */
    String getEndpoint();

    /** The delivery workers (maxSessions). */
    int getSessions();

    /** Messages handed to the MDB (its listener method called) since activation. */
    long getDeliveries();

    /**
     * Of those, deliveries that failed as the adapter sees it: the listener threw, or the container's
     * transaction ended with an error (afterDelivery). A rollback the bean asks for quietly
     * (setRollbackOnly) is not seen here: the queue's FailedAttempts counts every rollback.
     */
    long getFailures();

    /** Messages in the MDB's hands now. */
    int getInFlight();

    /**
     * Delivery workers in their loop now: {@link #getSessions()} once the WorkManager has started them all;
     * fewer while it has not, or after a worker ended (it ends only when the activation stops).
     */
    int getWorkersRunning();

    /** Of those, workers whose last try failed: they back off and try again by themselves. */
    int getWorkersFailing();
}
