package io.aqueduct.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.TemporaryTopic;

/** A temporary topic: a multi-consumer AQ queue living as long as the connection that created it. */
public final class AqueductTemporaryTopic extends AqueductTopic implements TemporaryTopic {
    private static final long serialVersionUID = 1L;
    private final transient TemporaryDestinations owner;

    public AqueductTemporaryTopic(String name, TemporaryDestinations owner) throws InvalidDestinationException {
        super(name);
        this.owner = owner;
    }

    /** The connection that created this topic, or null for one named by a received message. */
    public TemporaryDestinations owner() {
        return owner;
    }

    @Override
    public void delete() throws JMSException {
        TemporaryDestinations.delete(owner, this, "topic");
    }
}
