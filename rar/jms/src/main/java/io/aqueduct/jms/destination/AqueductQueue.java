package io.aqueduct.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Queue;

/** A JMS Queue: a single-consumer AQ queue (or an exception queue, to consume from it). */
public sealed class AqueductQueue extends AqueductDestination implements Queue permits AqueductTemporaryQueue {
    private static final long serialVersionUID = 1L;

    public AqueductQueue(String name) throws InvalidDestinationException {
        super(name);
    }

    @Override
    public String getQueueName() {
        return queueName();
    }
}
