package io.aqueduct.jms.destination;

import jakarta.jms.JMSException;

/**
 * What a temporary destination needs from the connection that created it: the connection owns
 * the AQ queue behind it and deletes it (refusing while consumers use it).
 */
public interface TemporaryDestinations {

    /** Deletes {@code destination}'s queue and queue table; refused while a consumer uses it. */
    void delete(AqueductDestination destination) throws JMSException;

    /** Is {@code destination} one of this owner's? (Only its creator's connection may consume from it.) */
    boolean owns(AqueductDestination destination);
}
