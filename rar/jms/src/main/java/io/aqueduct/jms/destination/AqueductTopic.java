package io.aqueduct.jms.destination;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Topic;

/** A JMS Topic: a multi-consumer AQ queue; each subscription is one of its subscribers. */
public sealed class AqueductTopic extends AqueductDestination implements Topic permits AqueductTemporaryTopic {
    private static final long serialVersionUID = 1L;

    public AqueductTopic(String name) throws InvalidDestinationException {
        super(name);
    }

    @Override
    public String getTopicName() {
        return queueName();
    }
}
