package io.aqueduct.connector.inbound;

import io.aqueduct.api.AqNotificationListener;
import io.aqueduct.api.NotificationQos;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import java.beans.PropertyDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An MDB that receives AQ notifications ({@link AqNotificationListener}): the bean is the in-JVM target
 * of the registrations addressed {@code java:<listenerName>}. With a {@code queueName} the adapter also
 * makes that registration when the bean is activated (DBMS_AQ.REGISTER, kept when the bean goes, so that
 * RELIABLE notifications wait for its next deployment); without one, the application registers itself.
 */
@Activation(messageListeners = AqNotificationListener.class)
public class AqNotificationActivationSpec implements ActivationSpec {
    private static final Pattern NAME = Pattern.compile("([A-Za-z][A-Za-z0-9_$#]*\\.)?[A-Za-z][A-Za-z0-9_$#]*");

    @ConfigProperty(description = "The name this bean receives notifications by: registrations addressed java:<listenerName> "
            + "are delivered to it. Required; one bean per name.")
    private String listenerName;

    @ConfigProperty(description = "Register the bean for this queue ([schema.]name) when it is activated. Empty: the "
            + "application registers java:<listenerName> itself.", defaultValue = "")
    private String queueName = "";

    @ConfigProperty(description = "The consumer whose messages notify the bean: required with a multi-consumer queueName, "
            + "empty on single-consumer queues.", defaultValue = "")
    private String consumerName = "";

    @ConfigProperty(description = "Quality of service of the registration made with queueName, comma-separated: RELIABLE "
            + "(stored until delivered, survives restarts), PAYLOAD (the notification carries the payload). Empty: neither.",
            defaultValue = "")
    private String qos = "";

    @ConfigProperty(description = "Seconds after which the registration made with queueName ends (0: never).", defaultValue = "0")
    private Long timeoutSeconds = 0L;

    private transient ResourceAdapter resourceAdapter;

    @Override
    public void validate() throws InvalidPropertyException {
        List<String> problems = new ArrayList<>();
        List<PropertyDescriptor> bad = new ArrayList<>();
        if (listenerName == null || listenerName.isBlank()) {
            problems.add("listenerName is required: the name in the java:<listenerName> address of the registrations");
            bad.add(property("listenerName"));
        }
        String queue = blankToNull(queueName);
        if (queue != null && !NAME.matcher(queue).matches()) {
            problems.add("queueName '" + queueName + "' is not a valid [schema.]name");
            bad.add(property("queueName"));
        }
        if (consumerName != null && consumerName.getBytes(StandardCharsets.UTF_8).length > 30) {
            problems.add("consumerName '" + consumerName + "' is longer than 30 bytes");
            bad.add(property("consumerName"));
        }
        if (queue == null && (blankToNull(consumerName) != null || blankToNull(qos) != null
                || (timeoutSeconds != null && timeoutSeconds != 0))) {
            problems.add("consumerName, qos and timeoutSeconds describe the registration made with queueName: give "
                    + "queueName too, or leave them out");
            bad.add(property("queueName"));
        }
        try {
            qosFlags();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            bad.add(property("qos"));
        }
        if (timeoutSeconds == null || timeoutSeconds < 0) {
            problems.add("timeoutSeconds must be 0 (never) or more; got " + timeoutSeconds);
            bad.add(property("timeoutSeconds"));
        }
        if (!problems.isEmpty()) {
            InvalidPropertyException e = new InvalidPropertyException("Invalid Aqueduct notification activation config: "
                    + String.join("; ", problems) + ".");
            e.setInvalidPropertyDescriptors(bad.stream().filter(p -> p != null).toArray(PropertyDescriptor[]::new));
            throw e;
        }
    }

    /** The flags named by {@code qos}; an unknown one is an IllegalArgumentException naming the known ones. */
    Set<NotificationQos> qosFlags() {
        Set<NotificationQos> flags = EnumSet.noneOf(NotificationQos.class);
        if (qos == null || qos.isBlank()) {
            return flags;
        }
        for (String part : qos.split(",")) {
            String name = part.strip().toUpperCase(Locale.ROOT);
            try {
                flags.add(NotificationQos.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("qos '" + qos + "' names '" + part.strip() + "', which is none of "
                        + java.util.Arrays.toString(NotificationQos.values()));
            }
        }
        return flags;
    }

    private static PropertyDescriptor property(String name) {
        try {
            return new PropertyDescriptor(name, AqNotificationActivationSpec.class);
        } catch (java.beans.IntrospectionException e) {
            return null;
        }
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    public String getListenerName() {
        return listenerName;
    }

    public void setListenerName(String listenerName) {
        this.listenerName = listenerName;
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

    public String getQos() {
        return qos;
    }

    public void setQos(String qos) {
        this.qos = qos;
    }

    public Long getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public void setTimeoutSeconds(Long timeoutSeconds) {
        this.timeoutSeconds = timeoutSeconds;
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
        return "AqNotificationActivationSpec[listenerName=" + listenerName + ", queueName=" + queueName + ", consumerName="
                + consumerName + ", qos=" + qos + ", timeoutSeconds=" + timeoutSeconds + "]";
    }
}
