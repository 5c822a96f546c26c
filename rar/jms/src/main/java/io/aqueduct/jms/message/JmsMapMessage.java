package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message whose body is a set of name-value pairs: names are any non-null, non-empty String,
 * values a boxed primitive (char included), a String, a byte[] or null, read back through the
 * {@link Conversions} table. byte[] values are copied in and out. An empty map is "no body"; the
 * body as {@code getBody(Map.class)} is an unmodifiable copy.
 */
public class JmsMapMessage extends JmsMessage implements MapMessage {

    private final Map<String, Object> map = new LinkedHashMap<>();

    public JmsMapMessage() {
    }

    @Override
    public JmsMessageType messageType() {
        return JmsMessageType.MAP;
    }

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return Conversions.toBoolean(get(name));
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return Conversions.toByte(get(name));
    }

    @Override
    public short getShort(String name) throws JMSException {
        return Conversions.toShort(get(name));
    }

    @Override
    public char getChar(String name) throws JMSException {
        return Conversions.toChar(get(name));
    }

    @Override
    public int getInt(String name) throws JMSException {
        return Conversions.toInt(get(name));
    }

    @Override
    public long getLong(String name) throws JMSException {
        return Conversions.toLong(get(name));
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return Conversions.toFloat(get(name));
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return Conversions.toDouble(get(name));
    }

    @Override
    public String getString(String name) throws JMSException {
        return Conversions.toStringValue(get(name));
    }

    /** A copy of the byte[] value; null when there is no such entry. */
    @Override
    public byte[] getBytes(String name) throws JMSException {
        return Conversions.toBytes(get(name));
    }

    @Override
    public Object getObject(String name) {
        return Conversions.toObject(get(name));
    }

    @Override
    public Enumeration<String> getMapNames() {
        return Collections.enumeration(new ArrayList<>(map.keySet()));
    }

    @Override
    public boolean itemExists(String name) {
        return name != null && map.containsKey(name);
    }

    @Override
    public void setBoolean(String name, boolean value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setByte(String name, byte value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setShort(String name, short value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setChar(String name, char value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setInt(String name, int value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setLong(String name, long value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setFloat(String name, float value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setDouble(String name, double value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setString(String name, String value) throws JMSException {
        put(name, value);
    }

    /** Stores a copy of {@code value}; null stores a null entry. */
    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    /** @throws IndexOutOfBoundsException when offset and length do not lie within {@code value} */
    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        checkBodyWritable();
        checkName(name);
        java.util.Objects.checkFromIndexSize(offset, length, value.length);
        put(name, java.util.Arrays.copyOfRange(value, offset, offset + length));
    }

    /** @throws MessageFormatException for a value that is not a boxed primitive, String, byte[] or null */
    @Override
    public void setObject(String name, Object value) throws JMSException {
        checkBodyWritable();
        checkName(name);
        if (!Conversions.isMapOrStreamValue(value)) {
            throw new MessageFormatException("a MapMessage value must be a boxed primitive, a String or a byte[], not a "
                    + value.getClass().getName());
        }
        put(name, value instanceof byte[] b ? b.clone() : value);
    }

    private Object get(String name) {
        return name == null ? null : map.get(name);
    }

    private void put(String name, Object value) throws JMSException {
        checkBodyWritable();
        checkName(name);
        map.put(name, value);
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a MapMessage name must not be null or empty");
        }
    }

    /** The entries (values not copied) for the codec. */
    Map<String, Object> entries() {
        return map;
    }

    @Override
    JmsMessage newEmpty() {
        return new JmsMapMessage();
    }

    @Override
    void copyBodyTo(JmsMessage c) {
        Map<String, Object> target = ((JmsMapMessage) c).map;
        map.forEach((k, v) -> target.put(k, Conversions.toObject(v)));
    }

    @Override
    void clearBodyContent() {
        map.clear();
    }

    @Override
    boolean hasNoBody() {
        return map.isEmpty();
    }

    @Override
    Object bodyAs(Class<?> c) throws JMSException {
        if (!c.isAssignableFrom(Map.class)) {
            throw notAssignable(messageType(), c, "java.util.Map");
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(k, Conversions.toObject(v)));
        return Collections.unmodifiableMap(copy);
    }

    @Override
    boolean bodyAssignableTo(Class<?> c) {
        return c.isAssignableFrom(Map.class);
    }
}
