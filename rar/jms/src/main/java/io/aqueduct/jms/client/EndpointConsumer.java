package io.aqueduct.jms.client;

import io.aqueduct.api.AqException;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Visibility;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.destination.AqueductTopic;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

import java.util.List;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a resource adapter delivers to a {@code jakarta.jms.MessageListener} message-driven bean:
 * one destination with its selector and, for a topic, its subscription (created when the consumer
 * opens, a non-durable one removed when it closes), read through whatever queue session the
 * adapter's delivery works in. {@link #receive(QueueSession)} dequeues one message in that
 * session's current transaction (the container's XA transaction, or the session's own) and gives
 * it as the JMS message the listener is handed.
 *
 * <p>Opened on a factory outside the container's rules (its sessions are the adapter's own):
 * a client id given here is reserved in this JVM while the consumer is open, as a connection's is.
 */
public final class EndpointConsumer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EndpointConsumer.class.getName());

    /** How a topic is subscribed to; ignored for a queue. */
    public enum Subscription {
        /** A subscription of this consumer alone, ended when it closes. */
        NON_DURABLE,
        /** A subscription kept while no consumer is open (needs a client id unless shared). */
        DURABLE,
        /** A non-durable subscription several consumers (several servers) share, by name. */
        SHARED_NON_DURABLE,
        /** A durable subscription several consumers share, by name (and client id, if any). */
        SHARED_DURABLE,
        /** No JMS subscription: an existing AQ subscriber of the topic's queue, named as the consumer name. */
        AQ_SUBSCRIBER
    }

    private final AqueductConnection connection;
    private final AqueductSession control;
    private final AqueductDestination destination;
    private final Subscriptions.Subscription subscription;
    private final String consumerName;
    private final String selector;
    private final String condition;
    private final String correlation;
    private final DeliveryMode deliveryMode;
    private volatile boolean closed;

    private EndpointConsumer(AqueductConnection connection, AqueductSession control, AqueductDestination destination,
            Subscriptions.Subscription subscription, String consumerName, String selector, String condition,
            String correlation, DeliveryMode deliveryMode) {
        this.connection = connection;
        this.control = control;
        this.destination = destination;
        this.subscription = subscription;
        this.consumerName = consumerName;
        this.selector = selector;
        this.condition = condition;
        this.correlation = correlation;
        this.deliveryMode = deliveryMode == null ? DeliveryMode.PERSISTENT_OR_BUFFERED : deliveryMode;
    }

    /**
     * Opens the consumer: checks the destination (it exists and is of the kind named:
     * InvalidDestinationException), the selector (InvalidSelectorException) and the condition,
     * then creates the topic's subscription.
     *
     * @param factory a factory whose sessions are the adapter's own (not the container's pool)
     * @param user the AQ user the deliveries' sessions work as (recorded on the connection)
     * @param clientId the client id of a durable subscription, or null
     * @param destination a Queue (a single-consumer AQ queue, or an exception queue) or a Topic
     * @param selector the JMS message selector, or null
     * @param kind for a topic, how it is subscribed to
     * @param subscriptionName the subscription's name (durable and shared kinds); for
     *        {@link Subscription#AQ_SUBSCRIBER} the AQ subscriber's name
     * @param condition an AQ dequeue condition, or null
     * @param correlation an AQ correlation the messages must have, or null
     */
    public static EndpointConsumer open(AqueductConnectionFactory factory, String user, String clientId,
            Destination destination, String selector, Subscription kind, String subscriptionName, String condition,
            String correlation) throws JMSException {
        return open(factory, user, clientId, destination, selector, kind, subscriptionName, condition, correlation,
                DeliveryMode.PERSISTENT_OR_BUFFERED);
    }

    /**
     * As above, delivering the messages of AQ dequeue delivery mode {@code deliveryMode}:
     * PERSISTENT_OR_BUFFERED (what the other form does: PERSISTENT and NON_PERSISTENT messages, as
     * a JMS consumer receives), PERSISTENT, or BUFFERED (NON_PERSISTENT ones only).
     */
    public static EndpointConsumer open(AqueductConnectionFactory factory, String user, String clientId,
            Destination destination, String selector, Subscription kind, String subscriptionName, String condition,
            String correlation, DeliveryMode deliveryMode) throws JMSException {
        Objects.requireNonNull(factory, "factory");
        if (factory.inContainer()) {
            throw new IllegalArgumentException("An endpoint consumer works on the adapter's own sessions, not on a"
                    + " container-managed factory.");
        }
        AqueductDestination d = AqueductSession.destination(AqueductSession.requireDestination(destination));
        String sel = blankToNull(selector);
        AqueductConnection connection = new AqueductConnection(factory, user);
        AqueductSession control = null;
        try {
            if (clientId != null && !clientId.isBlank()) {
                connection.setClientID(clientId);
            }
            connection.shape(d);
            control = connection.open(Session.AUTO_ACKNOWLEDGE);
            Subscriptions.Subscription s = null;
            String consumer = null;
            if (d instanceof AqueductTopic t) {
                Subscription k = Objects.requireNonNull(kind, "kind");
                s = switch (k) {
                    case NON_DURABLE -> Subscriptions.nonDurable(control, t, sel, false);
                    case DURABLE -> Subscriptions.durable(control, t, subscriptionName, sel, false, false);
                    case SHARED_DURABLE -> Subscriptions.durable(control, t, subscriptionName, sel, false, true);
                    case SHARED_NON_DURABLE -> Subscriptions.sharedNonDurable(control, t, subscriptionName, sel);
                    case AQ_SUBSCRIBER -> null;
                };
                consumer = s != null ? s.consumerName() : blankToNull(subscriptionName);
                if (consumer == null) {
                    throw new JMSException("Consuming a topic as an AQ subscriber needs the subscriber's name.");
                }
            }
            EndpointConsumer c = new EndpointConsumer(connection, control, d, s, consumer,
                    s != null ? null : sel, blankToNull(condition), blankToNull(correlation), deliveryMode);
            try {
                c.check(); // the selector (a queue's, or one applied to an AQ subscriber's messages) and the condition
            } catch (JMSException | RuntimeException e) {
                c.close();
                throw e;
            }
            return c;
        } catch (JMSException | RuntimeException e) {
            if (control != null && !control.isClosed()) {
                closeQuietly(control);
            }
            try {
                connection.close();
            } catch (JMSException closing) {
                LOG.log(Level.FINE, "closing an endpoint consumer's connection", closing);
            }
            throw e;
        }
    }

    /** A browse with the options: a malformed selector or condition is refused here, not at the first delivery. */
    private void check() throws JMSException {
        control.lock.lock();
        try {
            control.aq.dequeueArray(destination.queueName(), options().mode(DequeueMode.BROWSE), 1);
        } catch (AqException e) {
            throw selector != null ? JmsErrors.ofSelector(e, selector) : JmsErrors.of(e);
        } finally {
            control.lock.unlock();
        }
    }

    private DequeueOptions options() {
        DequeueOptions o = DequeueOptions.create().mode(DequeueMode.REMOVE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT).consumerName(consumerName).selector(selector).condition(condition)
                .correlation(correlation).deliveryMode(deliveryMode);
        // AQ: a BUFFERED dequeue is visibility IMMEDIATE (the other modes take persistent ones in the transaction)
        return deliveryMode == DeliveryMode.BUFFERED ? o.visibility(Visibility.IMMEDIATE) : o;
    }

    /** The AQ dequeue delivery mode of the deliveries. */
    public DeliveryMode deliveryMode() {
        return deliveryMode;
    }

    /**
     * Whether {@code m}, as {@link #receive} gave it, was an AQ buffered (NON_PERSISTENT) message:
     * removed at its dequeue, outside the session's transaction, so a rollback does not bring it back.
     */
    public static boolean buffered(jakarta.jms.Message m) {
        return m instanceof io.aqueduct.jms.message.JmsMessage j && j.isBuffered();
    }

    /** The AQ queue delivered from. */
    public String queue() {
        return destination.queueName();
    }

    /** The AQ consumer (subscriber) the messages are dequeued for; null on a single-consumer queue. */
    public String consumerName() {
        return consumerName;
    }

    /** The correlation the messages must have, or null. */
    public String correlation() {
        return correlation;
    }

    /**
     * Dequeues the next message (REMOVE, no wait) in {@code session}'s current transaction and
     * returns it as a JMS message (JMSRedelivered / JMSXDeliveryCount from its attempts); null when
     * none is there now. The caller commits or rolls back; a rollback counts a failed attempt.
     */
    public jakarta.jms.Message receive(QueueSession session) throws JMSException {
        List<Message> got;
        try {
            got = session.dequeueArray(destination.queueName(), options(), 1);
        } catch (AqException e) {
            throw JmsErrors.ofSelector(e, selector);
        }
        if (got.isEmpty()) {
            return null;
        }
        return connection.mapping.toJms(got.get(0), destination);
    }

    /** Closes the consumer: a non-durable subscription ends (its subscriber is removed); a durable one stays. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (subscription != null) {
            subscription.consumerClosed();
        }
        closeQuietly(control);
        try {
            connection.close();
        } catch (JMSException e) {
            LOG.log(Level.FINE, "closing an endpoint consumer's connection", e);
        }
    }

    private static void closeQuietly(AqueductSession s) {
        try {
            s.close();
        } catch (JMSException | RuntimeException e) {
            LOG.log(Level.FINE, "closing an endpoint consumer's session", e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    @Override
    public String toString() {
        return "EndpointConsumer[" + destination + (consumerName == null ? "" : " as " + consumerName)
                + (selector == null ? "" : " selector " + selector) + "]";
    }
}
