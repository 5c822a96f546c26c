package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqException;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.AqNotificationListener;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Registration;
import io.aqueduct.engine.AqueductEngine;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.util.List;

/**
 * A notification MDB while it is active: the engine's notification loop hands each notification for
 * {@code java:<listenerName>} to a fresh endpoint of the bean (the container runs it in its own
 * transaction when the bean's method is transacted). A call that throws, or a bean the container cannot
 * give, is a failed delivery for the engine: a RELIABLE notification is retried with back-off.
 */
public final class NotificationActivation {
    /** How long a delivery waits for a bean instance of a busy pool before it counts as failed. */
    private static final long ENDPOINT_WAIT_MILLIS = 30_000;

    private final AqueductEngine engine;
    private final MessageEndpointFactory factory;
    private final AqNotificationActivationSpec spec;

    public NotificationActivation(AqueductEngine engine, MessageEndpointFactory factory, AqNotificationActivationSpec spec) {
        this.engine = engine;
        this.factory = factory;
        this.spec = spec;
    }

    public String listenerName() {
        return spec.getListenerName().trim();
    }

    /** Makes the spec's registration (when it names a queue), then binds the bean; a refused registration fails the deployment. */
    public void start() throws ResourceException {
        String queue = AqNotificationActivationSpec.blankToNull(spec.getQueueName());
        if (queue != null) {
            Registration r = Registration.forQueue(queue)
                    .consumer(AqNotificationActivationSpec.blankToNull(spec.getConsumerName()))
                    .notifyUrl("java:" + listenerName())
                    .timeoutSeconds(spec.getTimeoutSeconds());
            if (!spec.qosFlags().isEmpty()) {
                r = r.qos(spec.qosFlags().toArray(io.aqueduct.api.NotificationQos[]::new));
            }
            try (QueueSession s = engine.openSession()) {
                s.register(List.of(r));
            } catch (AqException e) {
                throw new ResourceException("Aqueduct could not register " + factory.getEndpointClass().getName()
                        + " for notifications of " + queue + ": " + e.getMessage(), e);
            }
        }
        engine.bindNotificationListener(listenerName(), this::deliver);
    }

    public void stop() {
        engine.unbindNotificationListener(listenerName());
    }

    private void deliver(AqNotification notification) throws Exception {
        MessageEndpoint endpoint = factory.createEndpoint(null, ENDPOINT_WAIT_MILLIS);
        try {
            ((AqNotificationListener) endpoint).onNotification(notification);
        } finally {
            endpoint.release();
        }
    }
}
