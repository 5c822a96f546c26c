package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Records when delayed messages arrive. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.DELAY)
})
public class DelayMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        Recorder.delivered(ProbeQueues.DELAY, message.id().toString());
    }
}
