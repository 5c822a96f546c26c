package io.aqueduct.connector.jms;

import io.aqueduct.connector.inbound.DeliveryModes;
import io.aqueduct.connector.inbound.DeliverySource;
import io.aqueduct.connector.inbound.EndpointSpec;
import io.aqueduct.engine.AqueductEngine;
import jakarta.jms.MessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.beans.PropertyDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The activation config of an MDB implementing {@code jakarta.jms.MessageListener}: the standard
 * Jakarta Messaging properties (destinationLookup or destination, destinationType,
 * messageSelector, subscriptionDurability, subscriptionName, clientId, acknowledgeMode,
 * connectionFactoryLookup) and Aqueduct's (maxSessions, shareSubscriptions, user, and AQ's
 * consumerName, condition, correlation). The native {@code AqMessageListener} MDBs keep their own
 * spec ({@code AqActivationSpec}); both run on the same delivery.
 */
@Activation(messageListeners = MessageListener.class)
public class JmsActivationSpec implements EndpointSpec {

    @ConfigProperty(description = "JNDI name of the jakarta.jms.Queue or jakarta.jms.Topic to consume (an Aqueduct "
            + "admin object). Either this or destination.", defaultValue = "")
    private String destinationLookup = "";

    @ConfigProperty(description = "The AQ queue to consume, [schema.]name: a single-consumer queue as a Queue, a "
            + "multi-consumer queue as a Topic. Either this or destinationLookup.", defaultValue = "")
    private String destination = "";

    @ConfigProperty(description = "jakarta.jms.Queue or jakarta.jms.Topic. Empty: what the destination is (the looked-up "
            + "object's type, or the AQ queue's: multi-consumer is a Topic).", defaultValue = "")
    private String destinationType = "";

    @ConfigProperty(description = "Jakarta Messaging message selector: deliver only the messages it selects. Empty: all.",
            defaultValue = "")
    private String messageSelector = "";

    @ConfigProperty(description = "Topics: Durable (the subscription keeps messages while the MDB is not deployed; "
            + "needs subscriptionName, and clientId unless shareSubscriptions) or NonDurable.", defaultValue = "NonDurable")
    private String subscriptionDurability = "NonDurable";

    @ConfigProperty(description = "Topics: the subscription's name (required when Durable).", defaultValue = "")
    private String subscriptionName = "";

    @ConfigProperty(description = "Topics: the client id of an unshared durable subscription. Empty: the connection "
            + "factory's (connectionFactoryLookup), if any.", defaultValue = "")
    private String clientId = "";

    @ConfigProperty(description = "Topics: true to share the subscription by name with other MDBs and servers on the "
            + "same store (each message to one of them); false: a durable subscription is this MDB's alone, a non-durable "
            + "one this server's.", defaultValue = "false")
    private Boolean shareSubscriptions = Boolean.FALSE;

    @ConfigProperty(description = "For bean-managed or NOT_SUPPORTED MDBs: Auto-acknowledge or Dups-ok-acknowledge "
            + "(both acknowledge after onMessage returns; a RuntimeException has the message delivered again). "
            + "Container-managed MDBs receive in the container's transaction.", defaultValue = "Auto-acknowledge")
    private String acknowledgeMode = "Auto-acknowledge";

    @ConfigProperty(description = "JNDI name of an Aqueduct JMS connection factory whose ClientId and UserName the MDB "
            + "uses. Empty: none.", defaultValue = "")
    private String connectionFactoryLookup = "";

    @ConfigProperty(description = "Maximum number of messages delivered concurrently (one queue session each).",
            defaultValue = "1")
    private Integer maxSessions = 1;

    @ConfigProperty(description = "AQ user recorded as dequeue user. Empty: the connection factory's UserName, else "
            + "the resource adapter's user.", defaultValue = "")
    private String user = "";

    @ConfigProperty(description = "AQ: consume a Topic as this existing AQ subscriber of its queue instead of a JMS "
            + "subscription (subscriptionDurability and subscriptionName then stay unset).", defaultValue = "")
    private String consumerName = "";

    @ConfigProperty(description = "AQ dequeue condition, with or instead of messageSelector: a SQL-WHERE-like expression "
            + "on message properties, e.g. priority < 3. Empty: none.", defaultValue = "")
    private String condition = "";

    @ConfigProperty(description = "AQ: deliver only messages with this correlation (JMSCorrelationID); % and _ are "
            + "wildcards. Empty: any.", defaultValue = "")
    private String correlation = "";

    @ConfigProperty(description = "AQ: which messages are delivered, AQ's dequeue delivery mode: PERSISTENT_OR_BUFFERED"
            + " (the default: PERSISTENT and NON_PERSISTENT messages, as every JMS consumer receives both), PERSISTENT"
            + " or BUFFERED (NON_PERSISTENT messages only). A NON_PERSISTENT message is removed at its dequeue,"
            + " outside the delivery's transaction: when the MDB fails on it, it is not delivered again.",
            defaultValue = "PERSISTENT_OR_BUFFERED")
    private String deliveryMode = "PERSISTENT_OR_BUFFERED";

    private transient ResourceAdapter resourceAdapter;

    /** Rejects bad values before anything opens, naming the property. */
    @Override
    public void validate() throws InvalidPropertyException {
        List<String> problems = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        boolean lookup = blankToNull(destinationLookup) != null;
        boolean named = blankToNull(destination) != null;
        if (lookup == named) {
            problems.add(lookup ? "set destinationLookup or destination, not both"
                    : "destinationLookup (a JNDI name) or destination (an AQ queue name) is required");
            bad.add(lookup ? "destination" : "destinationLookup");
        }
        String type = blankToNull(destinationType);
        if (type != null && topicType(type) == null) {
            problems.add("destinationType '" + destinationType + "' is not jakarta.jms.Queue or jakarta.jms.Topic");
            bad.add("destinationType");
        }
        Boolean durable = durable();
        if (durable == null) {
            problems.add("subscriptionDurability '" + subscriptionDurability + "' is not Durable or NonDurable");
            bad.add("subscriptionDurability");
        }
        boolean aqSubscriber = blankToNull(consumerName) != null;
        if (Boolean.TRUE.equals(durable) && blankToNull(subscriptionName) == null && !aqSubscriber) {
            problems.add("subscriptionDurability Durable needs subscriptionName: the durable subscription's name");
            bad.add("subscriptionName");
        }
        if (aqSubscriber && (Boolean.TRUE.equals(durable) || blankToNull(subscriptionName) != null)) {
            problems.add("consumerName (an AQ subscriber) replaces the JMS subscription: leave subscriptionDurability"
                    + " and subscriptionName unset");
            bad.add("consumerName");
        }
        if (aqSubscriber && consumerName.getBytes(StandardCharsets.UTF_8).length > 30) {
            problems.add("consumerName '" + consumerName + "' is longer than 30 bytes");
            bad.add("consumerName");
        }
        if (ackModeValid() == null) {
            problems.add("acknowledgeMode '" + acknowledgeMode + "' is not Auto-acknowledge or Dups-ok-acknowledge");
            bad.add("acknowledgeMode");
        }
        if (maxSessions == null || maxSessions < 1) {
            problems.add("maxSessions must be 1 or more; got " + maxSessions);
            bad.add("maxSessions");
        }
        if (blankToNull(condition) != null) {
            try {
                io.aqueduct.engine.expression.Expression.parse(condition);
            } catch (io.aqueduct.api.AqException e) {
                problems.add("condition '" + condition + "' is malformed: " + e.getMessage());
                bad.add("condition");
            }
        }
        if (correlation != null && correlation.getBytes(StandardCharsets.UTF_8).length > 128) {
            problems.add("correlation is longer than 128 bytes");
            bad.add("correlation");
        }
        if (DeliveryModes.parse(deliveryMode, io.aqueduct.api.DeliveryMode.PERSISTENT_OR_BUFFERED) == null) {
            problems.add(DeliveryModes.problem(deliveryMode));
            bad.add("deliveryMode");
        }
        if (!problems.isEmpty()) {
            InvalidPropertyException e = new InvalidPropertyException("Invalid Aqueduct JMS activation config: "
                    + String.join("; ", problems) + ".");
            e.setInvalidPropertyDescriptors(bad.stream().map(JmsActivationSpec::property).filter(p -> p != null)
                    .toArray(PropertyDescriptor[]::new));
            throw e;
        }
    }

    /** True for a Topic type, false for a Queue type, null for neither (javax.jms names of older applications too). */
    static Boolean topicType(String type) {
        return switch (type.trim()) {
            case "jakarta.jms.Topic", "javax.jms.Topic", "Topic" -> Boolean.TRUE;
            case "jakarta.jms.Queue", "javax.jms.Queue", "Queue" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** Durable: true, NonDurable / unset: false, else null. */
    Boolean durable() {
        String d = blankToNull(subscriptionDurability);
        if (d == null) {
            return Boolean.FALSE;
        }
        return switch (d.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "")) {
            case "durable" -> Boolean.TRUE;
            case "nondurable" -> Boolean.FALSE;
            default -> null;
        };
    }

    private Boolean ackModeValid() {
        String a = blankToNull(acknowledgeMode);
        if (a == null) {
            return Boolean.TRUE;
        }
        return switch (a.toLowerCase(Locale.ROOT).replace("_", "-")) {
            case "auto-acknowledge", "dups-ok-acknowledge" -> Boolean.TRUE;
            default -> null;
        };
    }

    private static PropertyDescriptor property(String name) {
        try {
            return new PropertyDescriptor(name, JmsActivationSpec.class);
        } catch (java.beans.IntrospectionException e) {
            return null;
        }
    }

    @Override
    public DeliverySource source(AqueductEngine engine, MessageEndpointFactory factory) throws ResourceException {
        return JmsDeliverySource.open(engine, factory, this);
    }

    @Override
    public int sessions() {
        return maxSessions;
    }

    @Override
    public String sessionUser() {
        return blankToNull(user);
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    public String getDestinationLookup() {
        return destinationLookup;
    }

    public void setDestinationLookup(String destinationLookup) {
        this.destinationLookup = destinationLookup;
    }

    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType;
    }

    public String getMessageSelector() {
        return messageSelector;
    }

    public void setMessageSelector(String messageSelector) {
        this.messageSelector = messageSelector;
    }

    public String getSubscriptionDurability() {
        return subscriptionDurability;
    }

    public void setSubscriptionDurability(String subscriptionDurability) {
        this.subscriptionDurability = subscriptionDurability;
    }

    public String getSubscriptionName() {
        return subscriptionName;
    }

    public void setSubscriptionName(String subscriptionName) {
        this.subscriptionName = subscriptionName;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Boolean getShareSubscriptions() {
        return shareSubscriptions;
    }

    public void setShareSubscriptions(Boolean shareSubscriptions) {
        this.shareSubscriptions = shareSubscriptions;
    }

    public String getAcknowledgeMode() {
        return acknowledgeMode;
    }

    public void setAcknowledgeMode(String acknowledgeMode) {
        this.acknowledgeMode = acknowledgeMode;
    }

    public String getConnectionFactoryLookup() {
        return connectionFactoryLookup;
    }

    public void setConnectionFactoryLookup(String connectionFactoryLookup) {
        this.connectionFactoryLookup = connectionFactoryLookup;
    }

    public Integer getMaxSessions() {
        return maxSessions;
    }

    public void setMaxSessions(Integer maxSessions) {
        this.maxSessions = maxSessions;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getConsumerName() {
        return consumerName;
    }

    public void setConsumerName(String consumerName) {
        this.consumerName = consumerName;
    }

    public String getCondition() {
        return condition;
    }

    public void setCondition(String condition) {
        this.condition = condition;
    }

    public String getDeliveryMode() {
        return deliveryMode;
    }

    public void setDeliveryMode(String deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    /** The dequeue delivery mode of the deliveries (validated). */
    io.aqueduct.api.DeliveryMode deliveryMode() {
        return DeliveryModes.parse(deliveryMode, io.aqueduct.api.DeliveryMode.PERSISTENT_OR_BUFFERED);
    }

    public String getCorrelation() {
        return correlation;
    }

    public void setCorrelation(String correlation) {
        this.correlation = correlation;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        this.resourceAdapter = ra;
    }

    @Override
    public String toString() {
        return "JmsActivationSpec[" + (blankToNull(destinationLookup) != null ? "destinationLookup=" + destinationLookup
                : "destination=" + destination) + ", destinationType=" + destinationType + ", messageSelector="
                + messageSelector + ", subscriptionDurability=" + subscriptionDurability + ", subscriptionName="
                + subscriptionName + ", clientId=" + clientId + ", shareSubscriptions=" + shareSubscriptions
                + ", maxSessions=" + maxSessions + ", consumerName=" + consumerName + "]";
    }
}
