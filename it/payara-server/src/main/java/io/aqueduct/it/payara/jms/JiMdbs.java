package io.aqueduct.it.payara.jms;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The MessageListener MDBs of the two queues; each records the texts it receives (read by {@link JiServlet}). */
public final class JiMdbs {
    static final List<String> AQUEDUCT = new CopyOnWriteArrayList<>();
    static final List<String> OPENMQ = new CopyOnWriteArrayList<>();

    private JiMdbs() {
    }

    static String text(Message m) {
        try {
            return ((TextMessage) m).getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Aqueduct queue, found by its admin object (destinationLookup). */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Ji.RA),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Ji.QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
    })
    public static class Aqueduct implements MessageListener {
        @Override
        public void onMessage(Message message) {
            AQUEDUCT.add(text(message));
        }
    }

    /** The control: Payara's own JMS (OpenMQ, the default resource adapter jmsra). */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = Ji.OPENMQ_QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
    })
    public static class OpenMq implements MessageListener {
        @Override
        public void onMessage(Message message) {
            OPENMQ.add(text(message));
        }
    }
}
