package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * The consumer of the propagation destination {@link ProbeQueues#PROPAGATED}: records each delivery
 * and the message's ORIGINAL_MSGID (the source message's id, set by propagation).
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.PROPAGATED)
})
public class PropagatedMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        MessageId original = message.properties().originalMessageId();
        Recorder.delivered(ProbeQueues.PROPAGATED, message.id().toString());
        if (original != null) {
            Recorder.ORIGINALS.put(original.toString(), message.id().toString());
        }
    }
}
