package io.aqueduct.jms.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

import java.util.Enumeration;

/**
 * The copy a producer sends. For an Aqueduct message it is {@link JmsMessage#copy()}; a message
 * of another provider (Jakarta Messaging 3.1, 3.12: a provider must accept "foreign" messages) is
 * rebuilt as the Aqueduct type of its interface through the public API alone. A foreign Bytes or
 * Stream message is reset to read it, and left in read mode - the only way the API allows.
 */
public final class JmsMessages {

    private JmsMessages() {
    }

    /** An independent Aqueduct copy of {@code message}, headers, properties and body. */
    public static JmsMessage providerCopy(Message message) throws JMSException {
        if (message instanceof JmsMessage own) {
            return own.copy();
        }
        JmsMessage copy;
        if (message instanceof TextMessage t) {
            copy = new JmsTextMessage(t.getText());
        } else if (message instanceof BytesMessage b) {
            JmsBytesMessage c = new JmsBytesMessage();
            b.reset();
            long length = b.getBodyLength();
            if (length > JmsBytesMessage.MAX_LENGTH) {
                throw new jakarta.jms.MessageFormatException("a BytesMessage of " + length + " bytes is too large");
            }
            byte[] body = new byte[(int) length];
            int read = length == 0 ? 0 : b.readBytes(body);
            if (read != length) {
                throw new JMSException("the foreign BytesMessage gave " + read + " of its " + length + " bytes");
            }
            c.setBodyBytes(body);
            copy = c;
        } else if (message instanceof MapMessage m) {
            JmsMapMessage c = new JmsMapMessage();
            for (Enumeration<?> names = m.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                c.setObject(name, m.getObject(name));
            }
            copy = c;
        } else if (message instanceof ObjectMessage o) {
            JmsObjectMessage c = new JmsObjectMessage();
            c.setObject(o.getObject());
            copy = c;
        } else if (message instanceof StreamMessage s) {
            JmsStreamMessage c = new JmsStreamMessage();
            s.reset();
            while (true) {
                Object v;
                try {
                    v = s.readObject();
                } catch (MessageEOFException end) {
                    break;
                }
                c.writeObject(v);
            }
            copy = c;
        } else {
            copy = new JmsMessage();
        }
        byte[] correlationBytes = null;
        String correlation = message.getJMSCorrelationID();
        if (correlation == null) {
            try {
                correlationBytes = message.getJMSCorrelationIDAsBytes();
            } catch (UnsupportedOperationException | JMSException notNative) {
                // that provider keeps no byte correlation ids: there is none to copy
            }
        }
        if (correlationBytes != null) {
            copy.setJMSCorrelationIDAsBytes(correlationBytes);
        } else {
            copy.setJMSCorrelationID(correlation);
        }
        copy.setJMSMessageID(message.getJMSMessageID());
        copy.setJMSTimestamp(message.getJMSTimestamp());
        copy.setJMSReplyTo(message.getJMSReplyTo());
        copy.setJMSDestination(message.getJMSDestination());
        copy.setJMSDeliveryMode(message.getJMSDeliveryMode());
        copy.setJMSRedelivered(message.getJMSRedelivered());
        copy.setJMSType(message.getJMSType());
        copy.setJMSExpiration(message.getJMSExpiration());
        copy.setJMSDeliveryTime(message.getJMSDeliveryTime());
        copy.setJMSPriority(message.getJMSPriority());
        for (Enumeration<?> names = message.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            copy.setProviderProperty(name, message.getObjectProperty(name));
        }
        return copy;
    }
}
