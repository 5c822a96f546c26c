package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Four sessions draining one queue: counts every delivery of every message. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.DRAIN),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "4")
})
public class DrainMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        Recorder.enter(ProbeQueues.DRAIN);
        try {
            Recorder.delivered(ProbeQueues.DRAIN, message.id().toString());
            pause();
        } finally {
            Recorder.leave(ProbeQueues.DRAIN);
        }
    }

    /** A little work, so that deliveries overlap and the test sees the sessions run concurrently. */
    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
