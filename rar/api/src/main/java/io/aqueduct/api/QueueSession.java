package io.aqueduct.api;

import java.util.List;

/**
 * A queue session: AQ's operational interface on one database connection. Work done with
 * ON_COMMIT visibility belongs to the session's transaction (a local one ended by {@link #commit()}
 * / {@link #rollback()}, or the container's XA transaction when the session comes from the resource
 * adapter). A session is used by one thread at a time.
 */
public interface QueueSession extends AutoCloseable {

    /** Enqueues one message into {@code queue} ([schema.]name) and returns its id. */
    MessageId enqueue(String queue, EnqueueOptions options, Message message);

    default MessageId enqueue(String queue, Message message) {
        return enqueue(queue, EnqueueOptions.create(), message);
    }

    /** Array enqueue: all messages in one call, in order; returns their ids in the same order. */
    List<MessageId> enqueueArray(String queue, EnqueueOptions options, List<Message> messages);

    /**
     * Dequeues one message as the options say (mode, navigation, msgid / correlation, wait).
     *
     * @throws AqException 25228 when no message is available within the wait; 25235 at the end of
     *         a transaction group with NEXT_MESSAGE
     */
    Message dequeue(String queue, DequeueOptions options);

    /**
     * Array dequeue: up to {@code max} messages; waits (as the options say) only for the first.
     * Returns an empty list when the wait ends with none.
     */
    List<Message> dequeueArray(String queue, DequeueOptions options, int max);

    /**
     * LISTEN: waits until one of the agents has a message and returns the first such agent in the
     * order given (not fair: an agent early in the list can starve later ones). An agent names the
     * queue in its address and, on a multi-consumer queue, the consumer in its name. No message is
     * dequeued: dequeue it next.
     *
     * @param waitSeconds {@link DequeueOptions#FOREVER}, {@link DequeueOptions#NO_WAIT} or seconds
     * @throws AqException 25254 when the wait passes without a message
     */
    Agent listen(java.util.List<Agent> agents, long waitSeconds);

    /** Commits the session's local transaction. Refused while the session is in an XA transaction. */
    void commit();

    /** Rolls back the session's local transaction; each REMOVEd message counts a failed attempt. */
    void rollback();

    /** The administrative interface, working through this session. */
    QueueAdmin admin();

    /** Rolls back what is not committed and releases the connection. */
    @Override
    void close();
}
