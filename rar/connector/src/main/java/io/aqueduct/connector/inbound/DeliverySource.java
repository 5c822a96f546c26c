package io.aqueduct.connector.inbound;

import io.aqueduct.engine.session.EngineSession;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.lang.reflect.Method;

/**
 * What one activated MDB consumes and how its listener is called: the native
 * {@code AqMessageListener} (an AQ message) or a {@code jakarta.jms.MessageListener} (the message as
 * JMS gives it). {@link DeliveryActivation} runs the workers, the transactions and the retries for both.
 */
public interface DeliverySource {
    /** The queue delivered from. */
    String queue();

    /** The consumer (subscriber) dequeued for; null on a single-consumer queue. */
    String consumer();

    /** The correlation every delivered message has, or null. */
    String correlation();

    /** Which messages are delivered: AQ's dequeue delivery mode (the activation's {@code deliveryMode}). */
    io.aqueduct.api.DeliveryMode deliveryMode();

    /**
     * Whether {@code message} was a buffered one: removed at its dequeue, outside the delivery's
     * transaction, so a rollback does not bring it back.
     */
    boolean buffered(Object message);

    /** The listener method the container is told of (beforeDelivery, isDeliveryTransacted). */
    Method listenerMethod();

    /**
     * Dequeues one message (REMOVE, no wait) in {@code session}'s current transaction; null when
     * none is there now. A store failure is thrown as the engine's AqException.
     */
    Object take(EngineSession session);

    /** Calls the endpoint's listener with {@code message}; a RuntimeException is the listener's failure. */
    void deliver(MessageEndpoint endpoint, Object message);

    /** The message as a log line names it. */
    String describe(Object message);

    /** The activation ended: what the source holds (a non-durable subscription) is released. */
    void close();
}
