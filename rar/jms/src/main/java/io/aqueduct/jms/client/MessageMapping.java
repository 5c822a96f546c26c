package io.aqueduct.jms.client;

import io.aqueduct.api.AqException;
import io.aqueduct.api.JmsPriority;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.message.JmsBytesMessage;
import io.aqueduct.jms.message.JmsMessage;
import io.aqueduct.jms.message.JmsMessageCodec;
import io.aqueduct.jms.message.JmsObjectMessage;
import io.aqueduct.jms.message.JmsTextMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.TextMessage;

import java.io.Serializable;
import java.util.Enumeration;
import java.util.Map;

/**
 * A JMS message as an AQ message and back. On a RAW queue (what JMS destinations are) the whole
 * message is the payload, encoded by {@link JmsMessageCodec}; its properties are also AQ user
 * properties, so that selectors, dequeue conditions and subscriber rules read them. On a TEXT,
 * XML or JSON queue a TextMessage's text is the payload, on an OBJECT queue an ObjectMessage's
 * object: applications using the AQ api on the same queue read them as their own.
 */
final class MessageMapping {
    /** The sending connection, for noLocal consumers. */
    static final String CONNECTION_ID = "JMS_AqueductConnectionID";
    /** The sending connection's client id, for noLocal durable subscriptions. */
    static final String CLIENT_ID = "JMS_AqueductClientID";
    /** AQ's JMS extension: the exception queue of this message (Oracle's property name). */
    static final String EXCEPTION_QUEUE = "JMS_OracleExcpQ";
    /** AQ's JMS extension: a delay in seconds, overriding the producer's delivery delay (Oracle's name). */
    static final String DELAY = "JMS_OracleDelay";
    // JMSCorrelationID longer than AQ's correlation (128) is kept in the encoded message only
    private static final int MAX_CORRELATION = 128;

    private final JmsMessageCodec codec;

    MessageMapping(JmsMessageCodec codec) {
        this.codec = codec;
    }

    /**
     * The AQ message for a send. The JMS headers are already set on {@code m} (timestamp,
     * expiration, delivery time, priority, mode).
     */
    Message toAq(JmsMessage m, PayloadType payloadType, long deliveryDelayMillis, long timeToLiveMillis,
            String connectionId, String clientId, String user) throws JMSException {
        MessageProperties p = MessageProperties.create();
        if (user != null) {
            try {
                p.sender(io.aqueduct.api.Agent.named(user)); // AQ's sender id: the connection's user
            } catch (AqException notAnAgentName) {
                // a user name AQ cannot hold as an agent (over 30 bytes): JMSXUserID still names it
            }
        }
        p.priority(JmsPriority.toAq(m.getJMSPriority()));
        long delaySeconds = seconds(deliveryDelayMillis);
        Object oracleDelay = m.getObjectProperty(DELAY);
        if (oracleDelay != null) {
            delaySeconds = m.getLongProperty(DELAY);
            if (delaySeconds < 0) {
                throw new MessageFormatException(DELAY + " is a delay in seconds, not " + delaySeconds + ".");
            }
        }
        p.delay(delaySeconds);
        if (timeToLiveMillis > 0) {
            // JMS counts time to live from the send, AQ expiration from when the message becomes ready
            long afterDelay = Math.max(1, seconds(timeToLiveMillis) - delaySeconds);
            p.expiration(afterDelay);
        }
        String correlation = m.isCorrelationIdBytes() ? null : m.getJMSCorrelationID();
        if (correlation != null && !correlation.isEmpty() && correlation.length() <= MAX_CORRELATION) {
            p.correlation(correlation);
        }
        Object exceptionQueue = m.getObjectProperty(EXCEPTION_QUEUE);
        if (exceptionQueue != null) {
            p.exceptionQueue(m.getStringProperty(EXCEPTION_QUEUE));
        }
        try {
            for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                p.userProperty(name, m.getObjectProperty(name));
            }
            // the reserved user properties the engine's selector mode reads as JMSDeliveryMode / JMSType
            p.userProperty("JMSDeliveryMode", m.getJMSDeliveryMode() == DeliveryMode.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT");
            if (m.getJMSType() != null) {
                p.userProperty("JMSType", m.getJMSType());
            }
            p.userProperty(CONNECTION_ID, connectionId);
            if (clientId != null) {
                p.userProperty(CLIENT_ID, clientId);
            }
        } catch (AqException e) {
            throw JmsErrors.link(new MessageFormatException(e.getMessage(), JmsErrors.code(e)), e);
        }
        return Message.of(payload(m, payloadType), p);
    }

    private Object payload(JmsMessage m, PayloadType payloadType) throws JMSException {
        return switch (payloadType) {
            case RAW -> codec.encode(m);
            case TEXT, XML, JSON -> {
                if (!(m instanceof TextMessage t)) {
                    throw new MessageFormatException("This queue holds " + payloadType + " payloads: send a TextMessage, not a "
                            + m.messageType() + ".");
                }
                yield t.getText();
            }
            case OBJECT -> {
                if (!(m instanceof ObjectMessage o)) {
                    throw new MessageFormatException("This queue holds objects: send an ObjectMessage, not a "
                            + m.messageType() + ".");
                }
                yield o.getObject();
            }
        };
    }

    /** The JMS message an application receives for {@code m}, read-only, headers set. */
    JmsMessage toJms(Message m, AqueductDestination from) throws JMSException {
        Object payload = m.payload();
        JmsMessage j;
        boolean encoded = payload instanceof byte[] b && JmsMessageCodec.isEncoded(b);
        if (encoded) {
            j = codec.decode((byte[]) payload);
        } else {
            j = foreign(payload);
            MessageProperties p = m.properties();
            j.setJMSPriority(JmsPriority.toJms(p.priority()));
            if (p.correlation() != null) {
                j.setJMSCorrelationID(p.correlation());
            }
            if (p.enqueueTime() != null) {
                j.setJMSTimestamp(p.enqueueTime().toEpochMilli());
            }
            for (Map.Entry<String, Object> e : p.userProperties().entrySet()) {
                try {
                    j.setProviderProperty(e.getKey(), e.getValue());
                } catch (IllegalArgumentException | MessageFormatException notAJmsProperty) {
                    // an AQ user property whose name is not a JMS identifier stays AQ's
                }
            }
        }
        if (m.id() != null) {
            j.setJMSMessageID("ID:" + m.id());
        }
        j.setJMSDestination(from);
        if (m.properties().deliveryMode() == io.aqueduct.api.DeliveryMode.BUFFERED) {
            j.markBuffered(); // NON_PERSISTENT: kept in memory only, whoever enqueued it
        }
        j.setDeliveryCount(m.properties().attempts() + 1);
        j.markReceived();
        return j;
    }

    private static JmsMessage foreign(Object payload) throws JMSException {
        if (payload == null) {
            return new JmsMessage();
        }
        if (payload instanceof byte[] bytes) {
            JmsBytesMessage b = new JmsBytesMessage();
            b.writeBytes(bytes);
            return b;
        }
        if (payload instanceof String text) {
            return new JmsTextMessage(text);
        }
        if (payload instanceof org.w3c.dom.Node node) {
            return new JmsTextMessage(xml(node));
        }
        if (payload instanceof Serializable s && !(payload.getClass().getName().startsWith("jakarta.json"))) {
            JmsObjectMessage o = new JmsObjectMessage();
            o.setObject(s);
            return o;
        }
        return new JmsTextMessage(payload.toString()); // a JSON value: its text
    }

    private static String xml(org.w3c.dom.Node node) throws JMSException {
        try {
            var out = new java.io.StringWriter();
            var t = javax.xml.transform.TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
            t.transform(new javax.xml.transform.dom.DOMSource(node), new javax.xml.transform.stream.StreamResult(out));
            return out.toString();
        } catch (javax.xml.transform.TransformerException e) {
            throw JmsErrors.link(new MessageFormatException("The XML payload cannot be written as text: " + e.getMessage()), e);
        }
    }

    /** Milliseconds as AQ's whole seconds, rounded up: a delay or lifetime never shrinks. */
    static long seconds(long millis) {
        return millis <= 0 ? 0 : (millis + 999) / 1000;
    }
}
