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
    default Agent listen(java.util.List<Agent> agents, long waitSeconds) {
        return listen(agents, waitSeconds, DeliveryMode.PERSISTENT);
    }

    /**
     * LISTEN for messages of a delivery mode (AQ's listen_delivery_mode): PERSISTENT (as
     * {@link #listen(java.util.List, long)}), BUFFERED (messages in this engine's memory) or
     * PERSISTENT_OR_BUFFERED. A buffered enqueue wakes a LISTEN for buffered messages at once.
     */
    Agent listen(java.util.List<Agent> agents, long waitSeconds, DeliveryMode deliveryMode);

    /** Commits the session's local transaction. Refused while the session is in an XA transaction. */
    void commit();

    /** Rolls back the session's local transaction; each REMOVEd message counts a failed attempt. */
    void rollback();

    /**
     * Waits until {@code queue} has a message this session could dequeue for {@code consumerName}
     * (null on a single-consumer queue) and matching {@code correlation} (null: any), without taking
     * it: true when there is one, false when {@code waitMillis} passed, the queue went or
     * {@code cancelled} became true. {@code cancelled} is read whenever the queue changes and after
     * {@link #wakeWaiters(String)}; a caller that cancels from another thread calls that next.
     * Conditions and selectors are not considered: a caller that uses them dequeues with
     * {@link DequeueOptions#NO_WAIT} and, when nothing matched, waits with {@link #awaitQueueChange}.
     */
    boolean awaitAvailable(String queue, String consumerName, String correlation, long waitMillis,
            java.util.function.BooleanSupplier cancelled);

    /**
     * As {@link #awaitAvailable(String, String, String, long, java.util.function.BooleanSupplier)},
     * for messages of {@code deliveryMode} as a dequeue with that mode would take them: {@code
     * PERSISTENT} (what the other form waits for), {@code BUFFERED} (this engine's buffered messages)
     * or {@code PERSISTENT_OR_BUFFERED} (either kind).
     */
    boolean awaitAvailable(String queue, String consumerName, String correlation, DeliveryMode deliveryMode,
            long waitMillis, java.util.function.BooleanSupplier cancelled);

    /** The change count of a queue: it grows when a message is committed, released, expires or becomes ready. */
    long queueVersion(String queue);

    /** Waits until {@code queue}'s change count passes {@code seen}, or {@code millis} pass. */
    void awaitQueueChange(String queue, long seen, long millis);

    /** Wakes every thread of this JVM waiting on {@code queue} so that it reads its cancellation. */
    void wakeWaiters(String queue);

    /**
     * The session's XAResource: a transaction manager enlists it, and the session's work then
     * belongs to the global transaction between {@code start} and {@code end}. In the resource
     * adapter the container enlists it itself.
     */
    javax.transaction.xa.XAResource xaResource();

    /**
     * Whether the session now works in a global (XA) transaction branch, between its XAResource's
     * {@code start} and {@code end}: its ON_COMMIT work is then committed or rolled back by the
     * transaction manager, and {@link #commit()} / {@link #rollback()} are refused. In the resource
     * adapter: whether the container has the session in a transaction it will end (an XA one, or
     * the local transaction of a pool with LocalTransaction support).
     */
    default boolean inGlobalTransaction() {
        return false;
    }

    /**
     * DBMS_AQ.REGISTER: registers for notifications of the messages that become available on the
     * registrations' queues (see {@link Registration}). All are checked before any is stored; each is
     * stored and takes effect at once (it commits on its own, not in the session's transaction), on
     * every node of a shared store. Registering the same queue, consumer and address again replaces it.
     *
     * @throws AqException 24010 unknown queue; 25231 no consumer on a multi-consumer queue; 24035 not a
     *         subscriber; 24915 an address of no known scheme; 24097 a negative timeout or context over
     *         2000 bytes
     */
    void register(java.util.List<Registration> registrations);

    default void register(Registration registration) {
        register(java.util.List.of(registration));
    }

    /**
     * DBMS_AQ.UNREGISTER: removes the registrations (queue, consumer and address identify each) and
     * their pending notifications.
     *
     * @throws AqException 24950 when one is not registered (then none is removed)
     */
    void unregister(java.util.List<Registration> registrations);

    default void unregister(Registration registration) {
        unregister(java.util.List.of(registration));
    }

    /**
     * Propagation that arrives over HTTP (AQ's propagation servlet): runs a request another Aqueduct's
     * propagation sent to this server's servlet ({@code application/vnd.aqueduct.propagation}, opaque to
     * the caller) in this session's transaction and returns the answer to send back; the caller commits
     * before it answers, and rolls back when this throws. The messages are enqueued as this session's
     * user, who needs ENQUEUE on their queues. Only in a local transaction.
     *
     * @throws AqException 1031 the user may not enqueue to a destination queue; 25207 one is stopped for
     *         enqueue; 24097 the request is not one Aqueduct wrote
     */
    byte[] receivePropagation(byte[] request);

    /** The administrative interface, working through this session. */
    QueueAdmin admin();

    /** Rolls back what is not committed and releases the connection. */
    @Override
    void close();
}
