package io.aqueduct.connector.jms;

import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueType;
import io.aqueduct.connector.inbound.DeliverySource;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import io.aqueduct.jms.client.EndpointConsumer;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import jakarta.jms.Destination;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * A {@code jakarta.jms.MessageListener} MDB's source: the destination its activation config names
 * (looked up, or an AQ queue), its selector and subscription, delivered as JMS messages.
 */
final class JmsDeliverySource implements DeliverySource {
    private static final Method ON_MESSAGE;

    static {
        try {
            ON_MESSAGE = MessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final EndpointConsumer consumer;

    private JmsDeliverySource(EndpointConsumer consumer) {
        this.consumer = consumer;
    }

    /** Resolves the activation config against JNDI and the store; a ResourceException names the property at fault. */
    static JmsDeliverySource open(AqueductEngine engine, MessageEndpointFactory factory, JmsActivationSpec spec)
            throws ResourceException {
        String clientId = JmsActivationSpec.blankToNull(spec.getClientId());
        String user = spec.sessionUser();
        String cfName = JmsActivationSpec.blankToNull(spec.getConnectionFactoryLookup());
        if (cfName != null) {
            Object cf = lookup(cfName, "connectionFactoryLookup");
            if (!(cf instanceof JmsConnectionFactoryImpl aq)) {
                throw invalid("connectionFactoryLookup '" + cfName + "' is not an Aqueduct JMS connection factory ("
                        + (cf == null ? "null" : cf.getClass().getName()) + ")", null);
            }
            if (clientId == null) {
                clientId = aq.configuredClientId();
            }
            if (user == null) {
                user = JmsActivationSpec.blankToNull(aq.managedConnectionFactory().getUserName());
            }
        }
        Destination destination = destination(engine, spec);
        boolean topic = destination instanceof Topic;
        Boolean durable = spec.durable();
        boolean shared = Boolean.TRUE.equals(spec.getShareSubscriptions());
        String aqSubscriber = JmsActivationSpec.blankToNull(spec.getConsumerName());
        String name = JmsActivationSpec.blankToNull(spec.getSubscriptionName());
        EndpointConsumer.Subscription kind;
        if (!topic) {
            if (aqSubscriber != null) {
                throw invalid("consumerName is for a Topic (an AQ subscriber of a multi-consumer queue); the"
                        + " destination is a Queue", null);
            }
            kind = null;
        } else if (aqSubscriber != null) {
            kind = EndpointConsumer.Subscription.AQ_SUBSCRIBER;
            name = aqSubscriber;
        } else if (Boolean.TRUE.equals(durable)) {
            kind = shared ? EndpointConsumer.Subscription.SHARED_DURABLE : EndpointConsumer.Subscription.DURABLE;
            if (!shared && clientId == null) {
                throw invalid("an unshared Durable subscription needs clientId (on the MDB, or its connection factory's"
                        + " ClientId through connectionFactoryLookup), or shareSubscriptions true", null);
            }
        } else if (shared) {
            kind = EndpointConsumer.Subscription.SHARED_NON_DURABLE;
            if (name == null) {
                name = factory.getEndpointClass().getName(); // one subscription for the MDB on every server
            }
        } else {
            kind = EndpointConsumer.Subscription.NON_DURABLE;
        }
        try {
            return new JmsDeliverySource(EndpointConsumer.open(new AqueductConnectionFactory(engine), user, clientId,
                    destination, JmsActivationSpec.blankToNull(spec.getMessageSelector()), kind, name,
                    JmsActivationSpec.blankToNull(spec.getCondition()), JmsActivationSpec.blankToNull(spec.getCorrelation()),
                    spec.deliveryMode()));
        } catch (InvalidSelectorException e) {
            throw invalid("messageSelector '" + spec.getMessageSelector() + "' is malformed: " + e.getMessage(), e);
        } catch (InvalidClientIDException e) {
            throw invalid("clientId '" + clientId + "': " + e.getMessage(), e);
        } catch (InvalidDestinationException e) {
            throw invalid(destinationProperty(spec) + ": " + e.getMessage(), e);
        } catch (jakarta.jms.IllegalStateException e) {
            throw invalid("subscriptionName '" + name + "': " + e.getMessage(), e);
        } catch (JMSException e) {
            throw invalid(e.getMessage(), e);
        }
    }

    private static String destinationProperty(JmsActivationSpec spec) {
        return JmsActivationSpec.blankToNull(spec.getDestinationLookup()) != null
                ? "destinationLookup '" + spec.getDestinationLookup().trim() + "'"
                : "destination '" + spec.getDestination().trim() + "'";
    }

    /** The Queue or Topic the config names, of the type it says (if it says one). */
    private static Destination destination(AqueductEngine engine, JmsActivationSpec spec) throws ResourceException {
        String type = JmsActivationSpec.blankToNull(spec.getDestinationType());
        Boolean wantTopic = type == null ? null : JmsActivationSpec.topicType(type);
        String jndi = JmsActivationSpec.blankToNull(spec.getDestinationLookup());
        try {
            if (jndi != null) {
                Object found = lookup(jndi, "destinationLookup");
                if (!(found instanceof Queue) && !(found instanceof Topic)) {
                    throw invalid("destinationLookup '" + jndi + "' is not a jakarta.jms.Queue or Topic ("
                            + (found == null ? "null" : found.getClass().getName()) + ")", null);
                }
                boolean isTopic = found instanceof Topic && !(found instanceof Queue);
                if (wantTopic != null && wantTopic != isTopic) {
                    throw invalid("destinationType '" + type + "' does not match destinationLookup '" + jndi
                            + "', a " + (isTopic ? "Topic" : "Queue"), null);
                }
                return isTopic ? new AqueductTopic(((Topic) found).getTopicName())
                        : new AqueductQueue(((Queue) found).getQueueName());
            }
            String queue = AqueductQueue.checkName(spec.getDestination());
            boolean isTopic;
            try (EngineSession probe = engine.openSession(null)) {
                if (!probe.queueExists(queue)) {
                    throw invalid("destination '" + queue + "' names no existing AQ queue (AQ-24010); create and start"
                            + " it first", null);
                }
                QueueInfo q = probe.admin().queue(queue);
                isTopic = q.queueType() != QueueType.EXCEPTION
                        && probe.admin().queueTable(q.owner() + "." + q.queueTable()).multipleConsumers();
            }
            if (wantTopic != null && wantTopic != isTopic) {
                throw invalid("destinationType '" + type + "' does not match destination '" + queue + "', a "
                        + (isTopic ? "multi-consumer queue (a Topic)" : "single-consumer queue (a Queue)"), null);
            }
            return isTopic ? new AqueductTopic(queue) : new AqueductQueue(queue);
        } catch (JMSException e) {
            throw invalid(destinationProperty(spec) + ": " + e.getMessage(), e);
        } catch (AqException e) {
            throw invalid(destinationProperty(spec) + ": " + e.getMessage(), e);
        }
    }

    private static Object lookup(String name, String property) throws ResourceException {
        try {
            return new InitialContext().lookup(name);
        } catch (NamingException e) {
            if (name.startsWith("java:app/") || name.startsWith("java:module/") || name.startsWith("java:comp/")) {
                // the container activates the MDB outside the application's naming context
                throw invalid(property + " '" + name + "' is an application-scoped name, which the resource adapter"
                        + " cannot see when the server activates the MDB; name a server-wide resource (e.g. jms/Orders,"
                        + " java:global/...)" + (property.equals("destinationLookup")
                        ? " or set destination to the AQ queue's name instead" : ""), e);
            }
            throw invalid(property + " '" + name + "' could not be looked up (" + e + "); name a resource the server"
                    + " has (e.g. jms/Orders or java:global/...)", e);
        }
    }

    private static ResourceException invalid(String problem, Exception cause) {
        return new jakarta.resource.spi.InvalidPropertyException("Invalid Aqueduct JMS activation config: " + problem + ".",
                cause);
    }

    @Override
    public String queue() {
        return consumer.queue();
    }

    @Override
    public String consumer() {
        return consumer.consumerName();
    }

    @Override
    public String correlation() {
        return consumer.correlation();
    }

    @Override
    public io.aqueduct.api.DeliveryMode deliveryMode() {
        return consumer.deliveryMode();
    }

    @Override
    public boolean buffered(Object message) {
        return EndpointConsumer.buffered((Message) message);
    }

    @Override
    public Method listenerMethod() {
        return ON_MESSAGE;
    }

    @Override
    public Object take(EngineSession session) {
        try {
            return consumer.receive(session);
        } catch (JMSException e) {
            if (e.getCause() instanceof AqException aq) {
                throw aq; // the store's failure: the worker backs off, replaces a broken session, resumes
            }
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void deliver(MessageEndpoint endpoint, Object message) {
        ((MessageListener) endpoint).onMessage((Message) message);
    }

    @Override
    public String describe(Object message) {
        try {
            return ((Message) message).getJMSMessageID();
        } catch (JMSException e) {
            return String.valueOf(message);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
