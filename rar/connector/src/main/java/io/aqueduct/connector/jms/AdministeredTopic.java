package io.aqueduct.connector.jms;

import jakarta.jms.JMSException;
import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import java.io.Serializable;
import java.util.Objects;
import javax.naming.Reference;

/**
 * A {@code jakarta.jms.Topic} an administrator creates ({@code asadmin create-admin-object --restype
 * jakarta.jms.Topic}) or an application defines ({@code @JMSDestinationDefinition}): its {@code name}
 * is the AQ queue, a multi-consumer queue.
 * Whether it exists is checked where it is used (InvalidDestinationException).
 */
@AdministeredObject(adminObjectInterfaces = jakarta.jms.Topic.class)
public class AdministeredTopic implements jakarta.jms.Topic, Serializable, Referenceable {
    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "The AQ queue this topic names, [schema.]name: a multi-consumer queue. Required.")
    private String name;
    private Reference reference;

    public AdministeredTopic() {
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public String getTopicName() throws JMSException {
        if (name == null || name.isBlank()) {
            throw new jakarta.jms.InvalidDestinationException("This jakarta.jms.Topic resource has no name: set its"
                    + " property name to the AQ queue ([schema.]name).");
        }
        return name.trim();
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AdministeredTopic other && Objects.equals(name, other.name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }

    @Override
    public String toString() {
        return "Aqueduct Topic[" + name + "]";
    }
}
