package io.aqueduct.jms.context;

import static io.aqueduct.jms.context.AqueductJMSContext.call;

import io.aqueduct.jms.message.PropertyRules;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A JMSProducer: send options, properties and headers, applied to each message it sends. It sends
 * with its context's one anonymous MessageProducer, setting that producer's options for each send
 * (a context is single-threaded, so no other send comes between).
 *
 * <p>Properties follow the message model's rules ({@link PropertyRules}): a bad name is an
 * {@code IllegalArgumentException} when set, a value a property cannot hold a
 * {@code MessageFormatRuntimeException}; reading converts as a message does.
 */
final class AqueductJMSProducer implements JMSProducer {

    private final AqueductJMSContext context;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private int deliveryMode = Message.DEFAULT_DELIVERY_MODE;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageID;
    private boolean disableMessageTimestamp;
    private CompletionListener completionListener;
    /** The correlation id as last set: a String, a byte[] (copied) or null (none set: the message's own stays). */
    private Object correlationId;
    private String type;
    private Destination replyTo;

    AqueductJMSProducer(AqueductJMSContext context) {
        this.context = context;
    }

    // ---------------------------------------------------------------- send

    @Override
    public JMSProducer send(Destination destination, Message message) {
        if (message == null) {
            throw new MessageFormatRuntimeException("A null message cannot be sent.");
        }
        context.checkOpen();
        call(() -> {
            apply(message);
            MessageProducer producer = context.messageProducer();
            producer.setDeliveryDelay(deliveryDelay);
            producer.setDisableMessageID(disableMessageID);
            producer.setDisableMessageTimestamp(disableMessageTimestamp);
            CompletionListener listener = completionListener;
            if (listener == null) {
                producer.send(destination, message, deliveryMode, priority, timeToLive);
            } else {
                producer.send(destination, message, deliveryMode, priority, timeToLive, new Completion(listener));
            }
            return null;
        });
        return this;
    }

    @Override
    public JMSProducer send(Destination destination, String body) {
        return send(destination, context.createTextMessage(body));
    }

    /** A null map sends a MapMessage without entries; an entry of a type a MapMessage cannot hold is a MessageFormatRuntimeException. */
    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        MapMessage message = context.createMapMessage();
        if (body != null) {
            call(() -> {
                for (Map.Entry<String, Object> e : body.entrySet()) {
                    message.setObject(e.getKey(), e.getValue());
                }
                return null;
            });
        }
        return send(destination, message);
    }

    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        BytesMessage message = context.createBytesMessage();
        if (body != null) {
            call(() -> {
                message.writeBytes(body);
                return null;
            });
        }
        return send(destination, message);
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        return send(destination, context.createObjectMessage(body));
    }

    /** Puts this producer's headers and properties on the message: they override the message's own (the JMSProducer javadoc). */
    private void apply(Message message) throws JMSException {
        if (correlationId instanceof byte[] bytes) {
            message.setJMSCorrelationIDAsBytes(bytes.clone());
        } else if (correlationId != null) {
            message.setJMSCorrelationID((String) correlationId);
        }
        if (type != null) {
            message.setJMSType(type);
        }
        if (replyTo != null) {
            message.setJMSReplyTo(replyTo);
        }
        for (Map.Entry<String, Object> p : properties.entrySet()) {
            message.setObjectProperty(p.getKey(), p.getValue());
        }
    }

    /** Runs the application's callbacks as this context's, so that they cannot close, commit or roll it back. */
    private final class Completion implements CompletionListener {
        private final CompletionListener application;

        Completion(CompletionListener application) {
            this.application = application;
        }

        @Override
        public void onCompletion(Message message) {
            CallbackThreads.asCompletionListener(context, () -> application.onCompletion(message));
        }

        @Override
        public void onException(Message message, Exception exception) {
            CallbackThreads.asCompletionListener(context, () -> application.onException(message, exception));
        }
    }

    // ---------------------------------------------------------------- send options

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        disableMessageID = value;
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return disableMessageID;
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        disableMessageTimestamp = value;
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return disableMessageTimestamp;
    }

    /** @throws JMSRuntimeException for a mode other than PERSISTENT and NON_PERSISTENT (checked now, not at the next send) */
    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        if (deliveryMode != DeliveryMode.PERSISTENT && deliveryMode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSRuntimeException("Delivery mode " + deliveryMode + " is neither DeliveryMode.PERSISTENT ("
                    + DeliveryMode.PERSISTENT + ") nor DeliveryMode.NON_PERSISTENT (" + DeliveryMode.NON_PERSISTENT + ").");
        }
        this.deliveryMode = deliveryMode;
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return deliveryMode;
    }

    /** @throws JMSRuntimeException for a priority outside 0-9 */
    @Override
    public JMSProducer setPriority(int priority) {
        if (priority < 0 || priority > 9) {
            throw new JMSRuntimeException("Priority " + priority + " is outside 0-9.");
        }
        this.priority = priority;
        return this;
    }

    @Override
    public int getPriority() {
        return priority;
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        this.timeToLive = timeToLive;
        return this;
    }

    @Override
    public long getTimeToLive() {
        return timeToLive;
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        this.deliveryDelay = deliveryDelay;
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return deliveryDelay;
    }

    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        this.completionListener = completionListener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return completionListener;
    }

    // ---------------------------------------------------------------- properties

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        return put(name, value);
    }

    private JMSProducer put(String name, Object value) {
        call(() -> {
            PropertyRules.checkSettable(name, value);
            return null;
        });
        properties.put(name, value);
        return this;
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clear();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return name != null && properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) {
        return call(() -> PropertyRules.toBoolean(property(name)));
    }

    @Override
    public byte getByteProperty(String name) {
        return call(() -> PropertyRules.toByte(property(name)));
    }

    @Override
    public short getShortProperty(String name) {
        return call(() -> PropertyRules.toShort(property(name)));
    }

    @Override
    public int getIntProperty(String name) {
        return call(() -> PropertyRules.toInt(property(name)));
    }

    @Override
    public long getLongProperty(String name) {
        return call(() -> PropertyRules.toLong(property(name)));
    }

    @Override
    public float getFloatProperty(String name) {
        return call(() -> PropertyRules.toFloat(property(name)));
    }

    @Override
    public double getDoubleProperty(String name) {
        return call(() -> PropertyRules.toDouble(property(name)));
    }

    @Override
    public String getStringProperty(String name) {
        return call(() -> PropertyRules.toStringValue(property(name)));
    }

    @Override
    public Object getObjectProperty(String name) {
        return property(name);
    }

    private Object property(String name) {
        return name == null ? null : properties.get(name);
    }

    /** An unmodifiable view: later setProperty and clearProperties show through, as the javadoc says. */
    @Override
    public Set<String> getPropertyNames() {
        return Collections.unmodifiableSet(properties.keySet());
    }

    // ---------------------------------------------------------------- headers

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        correlationId = correlationID == null ? null : correlationID.clone();
        return this;
    }

    /** A String id reads as its UTF-8 bytes, as on an Aqueduct message. */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationId instanceof byte[] bytes) {
            return bytes.clone();
        }
        return correlationId == null ? null : ((String) correlationId).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        correlationId = correlationID;
        return this;
    }

    /** Bytes read as UTF-8, as on an Aqueduct message. */
    @Override
    public String getJMSCorrelationID() {
        if (correlationId instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return (String) correlationId;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }
}
