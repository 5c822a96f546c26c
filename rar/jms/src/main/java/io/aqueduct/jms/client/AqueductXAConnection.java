package io.aqueduct.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicSession;

/** A connection whose XA sessions take part in a transaction manager's transactions. */
public final class AqueductXAConnection extends AqueductConnection implements XAConnection, XAQueueConnection, XATopicConnection {

    AqueductXAConnection(AqueductConnectionFactory factory, String user) throws JMSException {
        super(factory, user);
    }

    @Override
    public XASession createXASession() throws JMSException {
        return xaSession(AqueductSession.Domain.ANY);
    }

    @Override
    public XAQueueSession createXAQueueSession() throws JMSException {
        return xaSession(AqueductSession.Domain.QUEUE);
    }

    @Override
    public XATopicSession createXATopicSession() throws JMSException {
        return xaSession(AqueductSession.Domain.TOPIC);
    }

    private AqueductXASession xaSession(AqueductSession.Domain domain) throws JMSException {
        return (AqueductXASession) newXa().domain(domain);
    }

    private AqueductSession newXa() throws JMSException {
        checkOpen();
        markUsed();
        AqueductXASession s = new AqueductXASession(this, openQueueSession());
        sessions.add(s);
        if (isClosed()) {
            s.close();
            throw JmsErrors.closed("connection");
        }
        return s;
    }
}
