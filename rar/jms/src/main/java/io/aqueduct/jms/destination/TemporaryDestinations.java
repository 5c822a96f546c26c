package io.aqueduct.jms.destination;

import jakarta.jms.JMSException;

/**
 * What a temporary destination needs from the connection that created it: the connection owns
 * the AQ queue behind it and deletes it (refusing while consumers use it).
 */
public interface TemporaryDestinations {

    /** Deletes {@code destination}'s queue and queue table; refused while a consumer uses it. */
    void delete(AqueductDestination destination) throws JMSException;

    /** A temporary destination's delete(): its creating connection's, or refused for one read from a message. */
    static void delete(TemporaryDestinations owner, AqueductDestination destination, String kind) throws JMSException {
        if (owner == null) {
            throw new jakarta.jms.IllegalStateException("Only the connection that created temporary " + kind + " "
                    + destination.queueName() + " can delete it.");
        }
        owner.delete(destination);
    }

    /** Is {@code destination} one of this owner's? (Only its creator's connection may consume from it.) */
    boolean owns(AqueductDestination destination);
}
