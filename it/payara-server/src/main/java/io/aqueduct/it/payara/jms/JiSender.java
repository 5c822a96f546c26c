package io.aqueduct.it.payara.jms;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSConnectionFactoryDefinition;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * Sends one TextMessage in a container transaction (REQUIRED), then marks the transaction
 * rollback-only on request: through the injected JMSContext of the Aqueduct factory, through one
 * the same factory creates ({@code createContext()}), or (the control) through the injected
 * JMSContext of the platform's default factory (OpenMQ) to a Payara JMS queue; or through the injected
 * JMSContext of an application-scoped factory of the adapter this bean declares.
 */
@JMSConnectionFactoryDefinition(name = Ji.DEFINED_FACTORY, interfaceName = "jakarta.jms.ConnectionFactory",
        resourceAdapter = Ji.RA, minPoolSize = 0, maxPoolSize = 8)
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class JiSender {
    @Inject
    @JMSConnectionFactory(Ji.FACTORY)
    private JMSContext aqueduct;

    @Inject
    @JMSConnectionFactory(Ji.DEFINED_FACTORY)
    private JMSContext defined;

    /** java:comp/DefaultJMSConnectionFactory: Payara's OpenMQ. */
    @Inject
    private JMSContext openMq;

    @Resource(lookup = Ji.FACTORY)
    private ConnectionFactory factory;

    @Resource(lookup = Ji.QUEUE)
    private Queue queue;

    @Resource(lookup = Ji.OPENMQ_QUEUE)
    private Queue openMqQueue;

    @Resource
    private SessionContext context;

    public void sendInjected(String text, boolean rollback) {
        aqueduct.createProducer().send(queue, text);
        end(rollback);
    }

    public void sendDefined(String text, boolean rollback) {
        defined.createProducer().send(queue, text);
        end(rollback);
    }

    public void sendCreated(String text, boolean rollback) {
        try (JMSContext jms = factory.createContext()) {
            jms.createProducer().send(queue, text);
        }
        end(rollback);
    }

    public void sendOpenMq(String text, boolean rollback) {
        openMq.createProducer().send(openMqQueue, text);
        end(rollback);
    }

    private void end(boolean rollback) {
        if (rollback) {
            context.setRollbackOnly();
        }
    }
}
