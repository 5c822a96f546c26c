package io.aqueduct.jms.client;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.jms.context.AqueductXAJMSContext;
import io.aqueduct.jms.context.RuntimeExceptions;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueConnectionFactory;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicConnectionFactory;

/**
 * A connection factory whose XA connections give XA sessions: the session's XAResource is the
 * queue session's own, so a transaction manager commits the JMS work with the application's other
 * resources. Its plain connections work as {@link AqueductConnectionFactory}'s.
 */
public final class AqueductXAConnectionFactory extends AqueductConnectionFactory
        implements XAConnectionFactory, XAQueueConnectionFactory, XATopicConnectionFactory {

    public AqueductXAConnectionFactory(AqConnectionFactory sessions) {
        super(sessions);
    }

    public AqueductXAConnectionFactory(AqConnectionFactory sessions, Users users, String clientId) {
        super(sessions, users, clientId);
    }

    @Override
    public XAConnection createXAConnection() throws JMSException {
        return (XAConnection) open(null, null, true);
    }

    @Override
    public XAConnection createXAConnection(String userName, String password) throws JMSException {
        return (XAConnection) open(userName, password, true);
    }

    @Override
    public XAQueueConnection createXAQueueConnection() throws JMSException {
        return (XAQueueConnection) open(null, null, true).queueOnly();
    }

    @Override
    public XAQueueConnection createXAQueueConnection(String userName, String password) throws JMSException {
        return (XAQueueConnection) open(userName, password, true).queueOnly();
    }

    @Override
    public XATopicConnection createXATopicConnection() throws JMSException {
        return (XATopicConnection) open(null, null, true);
    }

    @Override
    public XATopicConnection createXATopicConnection(String userName, String password) throws JMSException {
        return (XATopicConnection) open(userName, password, true);
    }

    @Override
    public XAJMSContext createXAContext() {
        return createXAContext(null, null);
    }

    @Override
    public XAJMSContext createXAContext(String userName, String password) {
        try {
            return AqueductXAJMSContext.create((XAConnection) open(userName, password, true));
        } catch (JMSException e) {
            throw RuntimeExceptions.of(e);
        }
    }
}
