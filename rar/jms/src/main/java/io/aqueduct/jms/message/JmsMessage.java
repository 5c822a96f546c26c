package io.aqueduct.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JMS message without a body, and the base of the five body types: the header fields, the
 * properties, and the read-only state (Jakarta Messaging 3.1, chapter 3).
 *
 * <p><b>Headers</b> are plain fields; the provider sets JMSMessageID, JMSTimestamp, JMSDestination,
 * JMSDeliveryMode, JMSExpiration, JMSDeliveryTime, JMSPriority and JMSRedelivered on send or
 * delivery, the application JMSCorrelationID, JMSReplyTo and JMSType. Headers stay writable on a
 * received message (3.4.11). A correlation id is kept as it was set - a String or a byte[] - and
 * converted on demand (UTF-8) when read the other way.
 *
 * <p><b>Properties</b> follow {@link PropertyNames} for names and {@link Conversions} for values;
 * a property may hold null (set with {@code setStringProperty(name, null)} or
 * {@code setObjectProperty(name, null)}): it then exists, and reads as described in
 * {@link Conversions}. {@link #getPropertyNames()} lists every property, JMSX ones included, and
 * no header field.
 *
 * <p><b>Provider hooks</b> (explicitly named, public because the session lives in another
 * package): {@link #markReceived()} makes properties and body read-only as on a delivered
 * message; {@link #copy()} makes the independent copy a producer sends;
 * {@link #setProviderProperty(String, Object)} and {@link #setDeliveryCount(int)} set the JMSX
 * properties an application may not; {@link #setAcknowledger(Acknowledger)} connects
 * {@link #acknowledge()} to the session.
 *
 * <p>Not thread-safe, as the spec allows (a session and its messages are single-threaded).
 */
public class JmsMessage implements Message {

    private String messageId;
    private long timestamp;
    /** A String or a byte[], as set; null when none. */
    private Object correlationId;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DEFAULT_DELIVERY_MODE;
    private boolean redelivered;
    private transient boolean buffered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean propertiesReadOnly;
    /** True once the body may no longer change: a received message, or a Bytes/Stream message in read mode. */
    boolean bodyReadOnly;
    private Acknowledger acknowledger;

    /** A new, writable message without a body. */
    public JmsMessage() {
    }

    /** The kind of message, as {@link JmsMessageCodec} stores it. */
    public JmsMessageType messageType() {
        return JmsMessageType.MESSAGE;
    }

    // ---------------------------------------------------------------- headers

    @Override
    public String getJMSMessageID() {
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        this.messageId = id;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    /** The correlation id as bytes; a String id is returned as its UTF-8 encoding. A copy. */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationId instanceof byte[] b) {
            return b.clone();
        }
        return correlationId == null ? null : ((String) correlationId).getBytes(StandardCharsets.UTF_8);
    }

    /** Sets the correlation id to a copy of {@code correlationID} (null clears it). */
    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationId = correlationID == null ? null : correlationID.clone();
    }

    /** The correlation id; one set as bytes is returned decoded as UTF-8. */
    @Override
    public String getJMSCorrelationID() {
        if (correlationId instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        return (String) correlationId;
    }

    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
    }

    /** Whether the correlation id was set as bytes (the codec keeps the distinction). */
    public boolean isCorrelationIdBytes() {
        return correlationId instanceof byte[];
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    @Override
    public void setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination destination) {
        this.destination = destination;
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    /**
     * @throws JMSException when the mode is neither {@link DeliveryMode#PERSISTENT} nor
     *         {@link DeliveryMode#NON_PERSISTENT} (the store could not honour it)
     */
    @Override
    public void setJMSDeliveryMode(int deliveryMode) throws JMSException {
        if (deliveryMode != DeliveryMode.PERSISTENT && deliveryMode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("JMSDeliveryMode must be DeliveryMode.PERSISTENT (2) or NON_PERSISTENT (1), not " + deliveryMode);
        }
        this.deliveryMode = deliveryMode;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String type) {
        this.type = type;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long expiration) {
        this.expiration = expiration;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) {
        this.deliveryTime = deliveryTime;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    /** @throws JMSException when the priority is outside 0..9 (3.4.10) */
    @Override
    public void setJMSPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("JMSPriority must be 0..9, not " + priority);
        }
        this.priority = priority;
    }

    // ---------------------------------------------------------------- properties

    /** Removes every property, JMSX ones included, and makes the properties writable again. */
    @Override
    public void clearProperties() {
        properties.clear();
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return name != null && properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return Conversions.toBoolean(property(name));
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return Conversions.toByte(property(name));
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return Conversions.toShort(property(name));
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return Conversions.toInt(property(name));
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return Conversions.toLong(property(name));
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return Conversions.toFloat(property(name));
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return Conversions.toDouble(property(name));
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return Conversions.toStringValue(property(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return property(name);
    }

    /** Every property name, JMSX ones included, in the order they were first set; never a header name. */
    @Override
    public Enumeration<String> getPropertyNames() {
        return Collections.enumeration(new ArrayList<>(properties.keySet()));
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        putProperty(name, value);
    }

    /** A null value is kept: the property then exists and reads as null. */
    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        putProperty(name, value);
    }

    /**
     * @throws MessageFormatException when the value is not a Boolean, Byte, Short, Integer, Long,
     *         Float, Double, String or null (a Character or a byte[] included: properties hold neither)
     */
    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        putProperty(name, value);
    }

    private Object property(String name) {
        return name == null ? null : properties.get(name);
    }

    private void putProperty(String name, Object value) throws JMSException {
        checkPropertiesWritable();
        PropertyNames.checkSettable(name, value);
        properties.put(name, value);
    }

    private void checkPropertiesWritable() throws MessageNotWriteableException {
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException("the properties of a received message are read-only; clearProperties() makes them writable");
        }
    }

    // ---------------------------------------------------------------- provider hooks

    /**
     * Sets a property as the provider: any valid name, JMSX ones included, even when the
     * properties are read-only. A known JMSX property must have its spec type
     * (e.g. JMSXDeliveryCount an Integer, JMSXRcvTimestamp a Long).
     *
     * @throws IllegalArgumentException for an invalid name
     * @throws MessageFormatException for a value of the wrong type
     */
    public void setProviderProperty(String name, Object value) throws MessageFormatException {
        PropertyNames.checkIdentifier(name);
        if (value != null && !Conversions.isPropertyValue(value)) {
            throw new MessageFormatException("a property value must be a boxed primitive (not char) or a String, not a "
                    + value.getClass().getName());
        }
        Class<?> required = PropertyNames.PROVIDER_SET.get(name);
        if (required == null && name.equals(PropertyNames.JMSX_GROUP_ID)) {
            required = String.class;
        }
        if (required == null && name.equals(PropertyNames.JMSX_GROUP_SEQ)) {
            required = Integer.class;
        }
        if (required != null && value != null && !required.isInstance(value)) {
            throw new MessageFormatException(name + " must be a " + required.getSimpleName() + ", not a " + Conversions.typeName(value));
        }
        properties.put(name, value);
    }

    /**
     * Sets JMSXDeliveryCount (mandatory since JMS 2.0) and JMSRedelivered (true from the second
     * delivery on), as the provider does on every delivery.
     *
     * @throws IllegalArgumentException when the count is below 1
     */
    public void setDeliveryCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a delivery count starts at 1, not " + count);
        }
        properties.put(PropertyNames.JMSX_DELIVERY_COUNT, count);
        redelivered = count > 1;
    }

    /**
     * Marks a received message as an AQ buffered one (JMSDeliveryMode NON_PERSISTENT, kept in memory
     * only): it was removed at its dequeue, so no rollback delivers it again. Set by the provider.
     */
    public void markBuffered() {
        buffered = true;
        deliveryMode = DeliveryMode.NON_PERSISTENT;
    }

    /** Whether the provider received this message as an AQ buffered one (see {@link #markBuffered()}). */
    public boolean isBuffered() {
        return buffered;
    }

    /**
     * Makes the message as an application receives it: properties and body read-only, a Bytes or
     * Stream message reset to read its body from the start. {@link #clearProperties()} and
     * {@link #clearBody()} make them writable again.
     */
    public void markReceived() {
        propertiesReadOnly = true;
        enterReadOnlyBody();
    }

    /** Whether the properties are read-only (a received message, until clearProperties()). */
    public boolean arePropertiesReadOnly() {
        return propertiesReadOnly;
    }

    /** Whether the body is read-only (a received message, or a Bytes/Stream message in read mode). */
    public boolean isBodyReadOnly() {
        return bodyReadOnly;
    }

    /** Connects {@link #acknowledge()} to the session; null disconnects it. */
    public void setAcknowledger(Acknowledger acknowledger) {
        this.acknowledger = acknowledger;
    }

    /**
     * An independent copy with the same headers, properties and body, writable, without an
     * acknowledger: what a producer sends, so that later changes to either do not reach the other.
     */
    public JmsMessage copy() {
        JmsMessage c = newEmpty();
        copyHeadersAndPropertiesTo(c);
        copyBodyTo(c);
        return c;
    }

    void copyHeadersAndPropertiesTo(JmsMessage c) {
        c.messageId = messageId;
        c.timestamp = timestamp;
        c.correlationId = correlationId instanceof byte[] b ? b.clone() : correlationId;
        c.replyTo = replyTo;
        c.destination = destination;
        c.deliveryMode = deliveryMode;
        c.redelivered = redelivered;
        c.type = type;
        c.expiration = expiration;
        c.deliveryTime = deliveryTime;
        c.priority = priority;
        c.properties.putAll(properties); // the values are immutable
    }

    /** Properties for the codec: name to value, in order. */
    Map<String, Object> propertyMap() {
        return properties;
    }

    /** Correlation id as stored: a String, a byte[] (not copied) or null. */
    Object rawCorrelationId() {
        return correlationId;
    }

    // ---------------------------------------------------------------- body

    /** Empties the body and makes it writable; headers and properties stay. */
    @Override
    public void clearBody() throws JMSException {
        bodyReadOnly = false;
        clearBodyContent();
    }

    /** Delegates to the acknowledger the session set; without one (see {@link Acknowledger}) does nothing. */
    @Override
    public void acknowledge() throws JMSException {
        Acknowledger a = acknowledger;
        if (a != null) {
            a.acknowledge(this);
        }
    }

    /**
     * The body as {@code c}. A message without a body (a plain Message; a Text, Bytes, Map or
     * Object message whose body is null or empty) returns null whatever {@code c} is.
     *
     * @throws MessageFormatException when the body cannot be assigned to {@code c}; always for a
     *         StreamMessage
     */
    @Override
    public final <T> T getBody(Class<T> c) throws JMSException {
        if (hasNoBody()) {
            return null;
        }
        if (c == null) {
            throw new MessageFormatException("getBody needs a class");
        }
        return c.cast(bodyAs(c));
    }

    /** Whether {@link #getBody(Class)} would return the body as {@code c}: always true without a body. */
    @Override
    public final boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) throws JMSException {
        if (hasNoBody()) {
            return true;
        }
        return c != null && bodyAssignableTo(c);
    }

    /** A new empty message of the same type, for {@link #copy()}. */
    JmsMessage newEmpty() {
        return new JmsMessage();
    }

    /** Copies the body into {@code c}, a fresh message of the same class. */
    void copyBodyTo(JmsMessage c) {
    }

    void clearBodyContent() throws JMSException {
    }

    /** Makes the body read-only (Bytes and Stream messages also reset to read mode). */
    void enterReadOnlyBody() {
        bodyReadOnly = true;
    }

    boolean hasNoBody() throws JMSException {
        return true;
    }

    /** The body as {@code c} (never without a body); MessageFormatException when it cannot be. */
    Object bodyAs(Class<?> c) throws JMSException {
        return null;
    }

    boolean bodyAssignableTo(Class<?> c) throws JMSException {
        return true;
    }

    void checkBodyWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("the body is read-only (a received message, or read mode); clearBody() makes it writable");
        }
    }

    static MessageFormatException notAssignable(JmsMessageType t, Class<?> c, String bodyType) {
        return new MessageFormatException("the body of a " + t + " message is a " + bodyType + ", which cannot be assigned to " + c.getName());
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + messageId + ", properties=" + properties.keySet() + "]";
    }
}
