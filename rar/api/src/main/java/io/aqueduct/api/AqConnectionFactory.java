package io.aqueduct.api;

/**
 * What an application looks up (a connector resource, e.g. {@code java:app/aq/QueueSessions}) to
 * get queue sessions. In a container-managed transaction a session's ON_COMMIT work is part of
 * that transaction: commit makes it visible, rollback makes it never have happened. Close the
 * session when done (try-with-resources); that returns its connection to the pool.
 */
public interface AqConnectionFactory {

    /** A queue session working as the caller (or the resource's configured user). */
    QueueSession openSession();

    /** A queue session that records {@code user} as enqueue / dequeue user. */
    QueueSession openSession(String user);
}
