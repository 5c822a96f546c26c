package io.aqueduct.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.TemporaryQueue;

/**
 * A temporary queue: an AQ queue (in a queue table of its own) that lives as long as the
 * connection that created it. Received as a JMSReplyTo it has no owner here: only the creating
 * connection consumes from it or deletes it.
 */
public final class AqueductTemporaryQueue extends AqueductQueue implements TemporaryQueue {
    private static final long serialVersionUID = 1L;
    private final transient TemporaryDestinations owner;

    public AqueductTemporaryQueue(String name, TemporaryDestinations owner) throws InvalidDestinationException {
        super(name);
        this.owner = owner;
    }

    /** The connection that created this queue, or null for one named by a received message. */
    public TemporaryDestinations owner() {
        return owner;
    }

    @Override
    public void delete() throws JMSException {
        TemporaryDestinations.delete(owner, this, "queue");
    }
}
