package io.aqueduct.engine.session;

import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;

/**
 * A message a propagator delivers to a destination queue: what it holds (the subscriber's
 * transformation already applied, delay and expiration already adjusted for the time it spent
 * in the source queue; its recipients, if any, are the destination's consumers), the source
 * message's id (the new message's ORIGINAL_MSGID) and whether it starts a new transaction group
 * (messages of one source group are delivered together and stay one group where the
 * destination groups them).
 */
public record PropagatedMessage(Message message, String originalMsgid, boolean startsGroup) {

    /** What became of one propagated message: its id at the destination, or why the destination refused it. */
    public record Delivery(MessageId id, AqException refused) {
        public boolean delivered() {
            return refused == null;
        }
    }
}
