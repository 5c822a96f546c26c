package io.aqueduct.it.openmq;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;

/** Sends the load to Payara's broker with the platform's default connection factory (OpenMQ). */
@Stateless
public class OmqSender {
    @Inject
    private JMSContext context;

    /** count persistent BytesMessages of payload.length bytes, in the caller's (one) container transaction. */
    public void send(String queue, int count, byte[] payload) {
        var q = context.createQueue(queue);
        var producer = context.createProducer().setDeliveryMode(DeliveryMode.PERSISTENT);
        for (int i = 0; i < count; i++) {
            producer.send(q, payload);
        }
    }
}
