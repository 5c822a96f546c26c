package io.aqueduct.engine.session;

import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Agent;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.Subscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * AQ's LISTEN over several queues and agents, and the connector's wait for a message to become
 * available (without claiming it) before a delivery transaction starts.
 */
final class Listening {
    private final EngineSession session;
    private final SessionContext context;

    Listening(EngineSession session) {
        this.session = session;
        this.context = session.context;
    }

    Agent listen(List<Agent> agents, long waitSeconds, io.aqueduct.api.DeliveryMode deliveryMode) {
        io.aqueduct.api.DeliveryMode mode = deliveryMode == null ? io.aqueduct.api.DeliveryMode.PERSISTENT : deliveryMode;
        if (agents == null || agents.isEmpty() || agents.stream().anyMatch(java.util.Objects::isNull)) {
            throw new AqException(AqError.INVALID_VALUE, "LISTEN needs at least one agent, and no null ones.");
        }
        if (waitSeconds < DequeueOptions.FOREVER) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid wait " + waitSeconds
                    + ": use FOREVER (-1), NO_WAIT (0) or a number of seconds.");
        }
        List<QueueRuntime> queues = new ArrayList<>(agents.size());
        List<String> consumers = new ArrayList<>(agents.size());
        for (Agent a : agents) {
            if (a.address() == null) {
                throw new AqException(AqError.INVALID_VALUE, "A LISTEN agent names its queue in its address; agent "
                        + a.name() + " has none.");
            }
            QueueRuntime q = session.resolve(a.address(), QueuePrivilege.DEQUEUE);
            boolean multi = q.meta().table().multipleConsumers() && !q.meta().isException();
            if (multi && a.name() == null) {
                throw new AqException(AqError.CONSUMER_NAME_REQUIRED, "Queue " + q.meta().qualifiedName()
                        + " is a multi-consumer queue: the LISTEN agent must name the consumer.");
            }
            if (!multi && a.name() != null) {
                throw new AqException(AqError.INVALID_VALUE, "Queue " + q.meta().qualifiedName()
                        + " is a single-consumer queue: its LISTEN agent has no name.");
            }
            queues.add(q);
            consumers.add(multi ? Subscriber.localKey(a.name()) : null);
        }
        io.aqueduct.engine.queue.Listeners listeners = context.catalog().listeners();
        long deadline = EngineSession.deadline(context.clock().millis(), EngineSession.waitMillis(waitSeconds));
        listeners.enter();
        try {
            while (true) {
                long seen = listeners.version();
                for (int i = 0; i < agents.size(); i++) {
                    QueueRuntime q = queues.get(i);
                    if (!q.dropped() && q.meta().dequeueEnabled() && (mode != io.aqueduct.api.DeliveryMode.PERSISTENT
                            && context.buffered().hasAvailable(q, consumers.get(i), null)
                            || mode != io.aqueduct.api.DeliveryMode.BUFFERED
                            && q.hasAvailable(consumers.get(i), null, context.clock().millis(), session::autonomous))) {
                        return agents.get(i);
                    }
                }
                if (context.engineClosed().getAsBoolean()) {
                    throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine was session.closed during LISTEN.");
                }
                long remaining = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - context.clock().millis();
                if (remaining <= 0) {
                    throw new AqException(AqError.LISTEN_TIMEOUT, "No message arrived for any of the " + agents.size()
                            + " agents within the LISTEN wait.");
                }
                try {
                    // a shared store: also look again on our own now and then (a dead node's locks go silently)
                    listeners.await(seen, queues.get(0).recheckWithin(remaining));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AqException(AqError.LISTEN_TIMEOUT, "LISTEN was interrupted.");
                }
            }
        } finally {
            listeners.leave();
        }
    }

    boolean awaitAvailable(String queue, String consumerName, String correlation, io.aqueduct.api.DeliveryMode mode,
            long waitMillis, java.util.function.BooleanSupplier cancelled) {
        QueueRuntime q = session.resolve(queue, QueuePrivilege.DEQUEUE);
        String consumer = consumerName == null || !q.meta().table().multipleConsumers() || q.meta().isException()
                ? null : Subscriber.localKey(consumerName);
        Predicate<String> match = correlation == null ? null : CorrelationPattern.compile(correlation);
        long deadline = EngineSession.deadline(context.clock().millis(), waitMillis);
        while (!q.dropped() && !context.engineClosed().getAsBoolean() && !cancelled.getAsBoolean()) {
            long version = q.version();
            if (q.meta().dequeueEnabled() && (mode != io.aqueduct.api.DeliveryMode.PERSISTENT
                    && context.buffered().hasAvailable(q, consumer, match)
                    || mode != io.aqueduct.api.DeliveryMode.BUFFERED
                    && q.hasAvailable(consumer, match, context.clock().millis(), session::autonomous))) {
                return true;
            }
            long remaining = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - context.clock().millis();
            if (remaining <= 0) {
                return false;
            }
            try {
                q.awaitChange(version, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
