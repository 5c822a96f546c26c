package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqMessageListener;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.beans.PropertyDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an AQ consumer chooses, as an MDB's activation config: the queue, the consumer name, a
 * correlation, and how many sessions deliver concurrently.
 */
@Activation(messageListeners = AqMessageListener.class)
public class AqActivationSpec implements EndpointSpec {
    private static final Pattern NAME = Pattern.compile("([A-Za-z][A-Za-z0-9_$#]*\\.)?[A-Za-z][A-Za-z0-9_$#]*");

    @ConfigProperty(description = "The queue to consume, [schema.]name. Required.")
    private String queueName;

    @ConfigProperty(description = "Consumer name: required on multi-consumer queues (the subscriber to consume as), "
            + "empty on single-consumer queues.", defaultValue = "")
    private String consumerName = "";

    @ConfigProperty(description = "Deliver only messages with this correlation identifier; % and _ are wildcards. "
            + "Empty: every message.", defaultValue = "")
    private String correlation = "";

    @ConfigProperty(description = "Dequeue condition: deliver only messages for which it is true, a SQL-WHERE-like "
            + "expression on message properties and payload, e.g. tab.user_data.orderregion = 'WESTERN'. Empty: every message.",
            defaultValue = "")
    private String condition = "";

    @ConfigProperty(description = "Which messages are delivered, AQ's dequeue delivery mode: PERSISTENT (stored messages,"
            + " the default as in AQ), BUFFERED (this server's in-memory buffered messages) or PERSISTENT_OR_BUFFERED"
            + " (both). A buffered message is removed at its dequeue, outside the delivery's transaction: when the MDB"
            + " fails on it, it is not delivered again.", defaultValue = "PERSISTENT")
    private String deliveryMode = "PERSISTENT";

    @ConfigProperty(description = "Maximum number of messages delivered concurrently (one queue session each).",
            defaultValue = "1")
    private Integer maxSessions = 1;

    @ConfigProperty(description = "User recorded as dequeue user. Empty: the resource adapter's user.", defaultValue = "")
    private String user = "";

    private transient ResourceAdapter resourceAdapter;

    /** Rejects bad values, naming the property. */
    @Override
    public void validate() throws InvalidPropertyException {
        List<String> problems = new ArrayList<>();
        List<PropertyDescriptor> bad = new ArrayList<>();
        if (queueName == null || queueName.isBlank()) {
            problems.add("queueName is required: the [schema.]name of the queue to consume");
            bad.add(property("queueName"));
        } else if (!NAME.matcher(queueName.trim()).matches()) {
            problems.add("queueName '" + queueName + "' is not a valid [schema.]name");
            bad.add(property("queueName"));
        }
        if (maxSessions == null || maxSessions < 1) {
            problems.add("maxSessions must be 1 or more; got " + maxSessions);
            bad.add(property("maxSessions"));
        }
        if (consumerName != null && consumerName.getBytes(StandardCharsets.UTF_8).length > 30) {
            problems.add("consumerName '" + consumerName + "' is longer than 30 bytes");
            bad.add(property("consumerName"));
        }
        if (correlation != null && correlation.getBytes(StandardCharsets.UTF_8).length > 128) {
            problems.add("correlation is longer than 128 bytes");
            bad.add(property("correlation"));
        }
        if (condition != null && !condition.isBlank()) {
            try {
                io.aqueduct.engine.expression.Expression.parse(condition);
            } catch (io.aqueduct.api.AqException e) {
                problems.add("condition '" + condition + "' is malformed: " + e.getMessage());
                bad.add(property("condition"));
            }
        }
        if (DeliveryModes.parse(deliveryMode, io.aqueduct.api.DeliveryMode.PERSISTENT) == null) {
            problems.add(DeliveryModes.problem(deliveryMode));
            bad.add(property("deliveryMode"));
        }
        if (!problems.isEmpty()) {
            InvalidPropertyException e = new InvalidPropertyException("Invalid Aqueduct activation config: "
                    + String.join("; ", problems) + ".");
            e.setInvalidPropertyDescriptors(bad.stream().filter(p -> p != null).toArray(PropertyDescriptor[]::new));
            throw e;
        }
    }

    private static PropertyDescriptor property(String name) {
        try {
            return new PropertyDescriptor(name, AqActivationSpec.class);
        } catch (java.beans.IntrospectionException e) {
            return null;
        }
    }

    @Override
    public DeliverySource source(io.aqueduct.engine.AqueductEngine engine,
            jakarta.resource.spi.endpoint.MessageEndpointFactory factory) throws ResourceException {
        return new NativeSource(engine, this);
    }

    @Override
    public int sessions() {
        return maxSessions;
    }

    @Override
    public String sessionUser() {
        return blankToNull(user);
    }

    String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    public String getQueueName() {
        return queueName;
    }

    public void setQueueName(String queueName) {
        this.queueName = queueName;
    }

    public String getConsumerName() {
        return consumerName;
    }

    public void setConsumerName(String consumerName) {
        this.consumerName = consumerName;
    }

    public String getCorrelation() {
        return correlation;
    }

    public void setCorrelation(String correlation) {
        this.correlation = correlation;
    }

    public String getDeliveryMode() {
        return deliveryMode;
    }

    public void setDeliveryMode(String deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    /** The dequeue delivery mode of the deliveries (validated). */
    io.aqueduct.api.DeliveryMode deliveryMode() {
        return DeliveryModes.parse(deliveryMode, io.aqueduct.api.DeliveryMode.PERSISTENT);
    }

    public String getCondition() {
        return condition;
    }

    public void setCondition(String condition) {
        this.condition = condition;
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

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        this.resourceAdapter = ra;
    }

    @Override
    public String toString() {
        return "AqActivationSpec[queueName=" + queueName + ", consumerName=" + consumerName + ", correlation="
                + correlation + ", condition=" + condition + ", maxSessions=" + maxSessions + "]";
    }
}
