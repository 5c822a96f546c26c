package io.aqueduct.engine.time;

import java.util.List;

/**
 * Told of the messages the time manager makes available (a delay or a retry delay ends): their
 * notifications are planned in the transaction that makes them READY, so that a listener told of one
 * can dequeue it at once. What is planned to be kept in memory is handed back after the commit, once
 * the ready indexes show the messages.
 */
public interface Availability {
    /** Whether messages of queue {@code queueId} may give notifications: nothing more is asked when not. */
    boolean watched(long queueId);

    /**
     * Message {@code msgid} of queue {@code queueId} is available to {@code consumer} (a consumer key; null
     * on a single-consumer queue) from {@code now}: rows for the caller's transaction go into {@code rows},
     * what is kept in memory after the commit into {@code later}.
     */
    void available(long queueId, String msgid, String consumer, long now, List<Object> rows, List<Object> later);

    /** The transaction committed and the ready indexes show its messages. */
    void committed(List<Object> later, boolean wroteRows);
}
