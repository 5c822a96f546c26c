package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.session.EngineSession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import java.lang.reflect.Method;

/** An {@link AqMessageListener} MDB's queue, consumer name, correlation and condition. */
final class NativeSource implements DeliverySource {
    private static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = AqMessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String queue;
    private final String consumer;
    private final String correlation;
    private final DequeueOptions options;
    private final DeliveryMode deliveryMode;

    NativeSource(AqueductEngine engine, AqActivationSpec spec) throws ResourceException {
        this.queue = spec.getQueueName().trim();
        this.correlation = spec.blankToNull(spec.getCorrelation());
        this.consumer = spec.blankToNull(spec.getConsumerName());
        this.deliveryMode = spec.deliveryMode();
        this.options = DequeueOptions.create().mode(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT).correlation(correlation).consumerName(consumer)
                .condition(spec.blankToNull(spec.getCondition())).deliveryMode(deliveryMode);
        if (deliveryMode == DeliveryMode.BUFFERED) {
            options.visibility(Visibility.IMMEDIATE); // AQ: a BUFFERED dequeue is visibility IMMEDIATE
        }
        checkQueue(engine);
    }

    /** The queue must exist and fit the consumer name, or the deployment fails naming the problem. */
    private void checkQueue(AqueductEngine engine) throws ResourceException {
        try (EngineSession probe = engine.openSession(null)) {
            if (!probe.queueExists(queue)) {
                throw new ResourceException("Invalid Aqueduct activation config: queueName '" + queue
                        + "' names no existing queue (AQ-24010). Create and start the queue first.");
            }
            var meta = probe.admin().queue(queue);
            var table = probe.admin().queueTable(meta.owner() + "." + meta.queueTable());
            if (table.multipleConsumers() && consumer == null && meta.queueType() != io.aqueduct.api.QueueType.EXCEPTION) {
                throw new ResourceException("Invalid Aqueduct activation config: queue '" + queue
                        + "' is a multi-consumer queue; set consumerName to the subscriber to consume as.");
            }
            if (deliveryMode == DeliveryMode.BUFFERED && table.messageGrouping() == io.aqueduct.api.MessageGrouping.TRANSACTIONAL) {
                throw new ResourceException("Invalid Aqueduct activation config: deliveryMode BUFFERED, but queue '" + queue
                        + "' holds no buffered messages: its queue table groups messages by transaction (AQ-25292).");
            }
            if (!table.multipleConsumers() && consumer != null) {
                throw new ResourceException("Invalid Aqueduct activation config: queue '" + queue
                        + "' is a single-consumer queue; leave consumerName empty.");
            }
        } catch (AqException e) {
            throw new ResourceException("Invalid Aqueduct activation config: queueName '" + queue + "': " + e.getMessage(), e);
        }
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public String consumer() {
        return consumer;
    }

    @Override
    public String correlation() {
        return correlation;
    }

    @Override
    public DeliveryMode deliveryMode() {
        return deliveryMode;
    }

    @Override
    public boolean buffered(Object message) {
        return ((Message) message).properties().deliveryMode() == DeliveryMode.BUFFERED;
    }

    @Override
    public Method listenerMethod() {
        return ON_MESSAGE;
    }

    @Override
    public Object take(EngineSession session) {
        try {
            return session.dequeue(queue, options);
        } catch (AqException e) {
            if (e.errorCode() == AqError.NO_MESSAGE) {
                return null; // another worker took it first
            }
            throw e;
        }
    }

    @Override
    public void deliver(MessageEndpoint endpoint, Object message) {
        ((AqMessageListener) endpoint).onMessage((Message) message);
    }

    @Override
    public String describe(Object message) {
        return String.valueOf(((Message) message).id());
    }

    @Override
    public void close() {
        // nothing held
    }
}
