package io.aqueduct.it.probe;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/**
 * Two MDBs on one multi-consumer queue, each consuming as a named subscriber: each records what it
 * receives under {@code IT.SHIP_Q/<consumer>}.
 */
public final class ShippingMdbs {
    private ShippingMdbs() {
    }

    /** Where a consumer's deliveries are recorded (the key for the probe's deliveries?queue=...). */
    static String key(String consumer) {
        return ProbeQueues.SHIP + "/" + consumer;
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.SHIP),
            @ActivationConfigProperty(propertyName = "consumerName", propertyValue = ProbeQueues.WEST),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
    })
    public static class West implements AqMessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(key(ProbeQueues.WEST), message.id().toString());
        }
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.SHIP),
            @ActivationConfigProperty(propertyName = "consumerName", propertyValue = ProbeQueues.EAST)
    })
    public static class East implements AqMessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(key(ProbeQueues.EAST), message.id().toString());
        }
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "queueName", propertyValue = ProbeQueues.SHIP),
            @ActivationConfigProperty(propertyName = "consumerName", propertyValue = ProbeQueues.OVERSEAS),
            @ActivationConfigProperty(propertyName = "condition", propertyValue = "corrid = 'INTERNATIONAL'")
    })
    public static class Overseas implements AqMessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(key(ProbeQueues.OVERSEAS), message.id().toString());
        }
    }
}
