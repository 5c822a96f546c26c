package io.aqueduct.connector.jms;

import jakarta.jms.JMSException;
import jakarta.resource.Referenceable;
import jakarta.resource.spi.AdministeredObject;
import jakarta.resource.spi.ConfigProperty;
import java.io.Serializable;
import java.util.Objects;
import javax.naming.Reference;

/**
 * A {@code jakarta.jms.Queue} an administrator creates ({@code asadmin create-admin-object --restype
 * jakarta.jms.Queue}) or an application defines ({@code @JMSDestinationDefinition}): its {@code name}
 * is the AQ queue, a single-consumer queue (or an exception queue, to consume from it).
 * Whether it exists is checked where it is used (InvalidDestinationException).
 */
@AdministeredObject(adminObjectInterfaces = jakarta.jms.Queue.class)
public class AdministeredQueue implements jakarta.jms.Queue, Serializable, Referenceable {
    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "The AQ queue this queue names, [schema.]name: a single-consumer queue, or an exception queue to consume from. Required.")
    private String name;
    private Reference reference;

    public AdministeredQueue() {
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public String getQueueName() throws JMSException {
        if (name == null || name.isBlank()) {
            throw new jakarta.jms.InvalidDestinationException("This jakarta.jms.Queue resource has no name: set its"
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
        return o instanceof AdministeredQueue other && Objects.equals(name, other.name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }

    @Override
    public String toString() {
        return "Aqueduct Queue[" + name + "]";
    }
}
