package io.aqueduct.it.openmq;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The OpenMQ side of the MDB benchmark: MDBs on Payara's own broker (the platform's jmsra, container
 * transactions, XA), pool 1 and pool 4 (WEB-INF/glassfish-ejb-jar.xml's bean pool, the way Payara
 * sizes an OpenMQ MDB, and the activation spec's endpointPoolMaxSize). They only count.
 */
public final class OmqMdbs {
    static final String ONE = "AqOmqBench1";
    static final String FOUR = "AqOmqBench4";

    private OmqMdbs() {
    }

    static void record(String queue, Message m) {
        OmqRecorder.entered(queue);
        try {
            OmqRecorder.left(queue, m.getJMSMessageID());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    @MessageDriven(name = "OmqOne", activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ONE),
            @ActivationConfigProperty(propertyName = "endpointPoolMaxSize", propertyValue = "1")
    })
    public static class One implements MessageListener {
        @Override
        public void onMessage(Message message) {
            record(ONE, message);
        }
    }

    @MessageDriven(name = "OmqFour", activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = FOUR),
            @ActivationConfigProperty(propertyName = "endpointPoolMaxSize", propertyValue = "4")
    })
    public static class Four implements MessageListener {
        @Override
        public void onMessage(Message message) {
            record(FOUR, message);
        }
    }
}
