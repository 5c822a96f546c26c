package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.StreamMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * A message whose body is a sequence of typed values, read back in order through the
 * {@link Conversions} table (the StreamMessage javadoc's table).
 *
 * <p>Modes as for {@link JmsBytesMessage}: write mode after creation or clearBody, read mode after
 * {@link #reset()} or {@link #markReceived()}. A read that fails - a conversion the table refuses
 * ({@link MessageFormatException}), a String that does not parse ({@link NumberFormatException}),
 * a null read as a primitive ({@link NullPointerException} for char, float, double) - does not
 * move the read position, so the value can be read again as another type.
 *
 * <p>A byte[] field is read with {@link #readBytes(byte[])} in chunks: each call returns how many
 * bytes it copied; a call that fills the buffer means more may follow; a short count or -1 ends
 * the field (-1 also for a null field, 0 for an empty one). Once a byte[] field has been started,
 * reading another type before it is finished is a {@link MessageFormatException}. A StreamMessage
 * has no body getBody can return: getBody always throws MessageFormatException and
 * isBodyAssignableTo is false (the Message javadoc).
 */
public class JmsStreamMessage extends JmsMessage implements StreamMessage {

    private final List<Object> values = new ArrayList<>();
    private int index;
    /** Bytes already read of the byte[] field at {@link #index}; -1 when no byte[] field is being read. */
    private int bytesOffset = -1;

    public JmsStreamMessage() {
    }

    @Override
    public JmsMessageType messageType() {
        return JmsMessageType.STREAM;
    }

    @Override
    public void reset() {
        bodyReadOnly = true;
        index = 0;
        bytesOffset = -1;
    }

    // ------------------------------------------------------------ reading

    @Override
    public boolean readBoolean() throws JMSException {
        boolean v = Conversions.toBoolean(peek());
        index++;
        return v;
    }

    @Override
    public byte readByte() throws JMSException {
        byte v = Conversions.toByte(peek());
        index++;
        return v;
    }

    @Override
    public short readShort() throws JMSException {
        short v = Conversions.toShort(peek());
        index++;
        return v;
    }

    @Override
    public char readChar() throws JMSException {
        char v = Conversions.toChar(peek());
        index++;
        return v;
    }

    @Override
    public int readInt() throws JMSException {
        int v = Conversions.toInt(peek());
        index++;
        return v;
    }

    @Override
    public long readLong() throws JMSException {
        long v = Conversions.toLong(peek());
        index++;
        return v;
    }

    @Override
    public float readFloat() throws JMSException {
        float v = Conversions.toFloat(peek());
        index++;
        return v;
    }

    @Override
    public double readDouble() throws JMSException {
        double v = Conversions.toDouble(peek());
        index++;
        return v;
    }

    @Override
    public String readString() throws JMSException {
        String v = Conversions.toStringValue(peek());
        index++;
        return v;
    }

    /** The next value as written (a byte[] as a copy); null for a null field. */
    @Override
    public Object readObject() throws JMSException {
        Object v = Conversions.toObject(peek());
        index++;
        return v;
    }

    /** Reads the next chunk of a byte[] field; see the class comment. */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        checkReadable();
        if (bytesOffset < 0) {
            if (index >= values.size()) {
                throw new MessageEOFException("no more fields in the StreamMessage (" + values.size() + " in all)");
            }
            Object v = values.get(index);
            if (v == null) {
                index++;
                return -1;
            }
            if (!(v instanceof byte[])) {
                throw new MessageFormatException("field " + index + " is a " + Conversions.typeName(v) + ", not a byte[]");
            }
            if (((byte[]) v).length == 0) {
                index++;
                return 0;
            }
            bytesOffset = 0;
        }
        byte[] field = (byte[]) values.get(index);
        int remaining = field.length - bytesOffset;
        if (remaining == 0) {
            endBytesField();
            return -1;
        }
        int n = Math.min(remaining, value.length);
        System.arraycopy(field, bytesOffset, value, 0, n);
        bytesOffset += n;
        if (n < value.length) {
            endBytesField();
        }
        return n;
    }

    private void endBytesField() {
        bytesOffset = -1;
        index++;
    }

    private Object peek() throws JMSException {
        checkReadable();
        if (bytesOffset >= 0) {
            throw new MessageFormatException("field " + index + " is a byte[] being read with readBytes: read it to its end first");
        }
        if (index >= values.size()) {
            throw new MessageEOFException("no more fields in the StreamMessage (" + values.size() + " in all)");
        }
        return values.get(index);
    }

    private void checkReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("the StreamMessage is in write mode; reset() switches it to read mode");
        }
    }

    // ------------------------------------------------------------ writing

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        add(value);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        add(value);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        add(value);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        add(value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        add(value);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        add(value);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        add(value);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        add(value);
    }

    /** A null string is written as a null field. */
    @Override
    public void writeString(String value) throws JMSException {
        add(value);
    }

    /** Writes a copy of {@code value} as one byte[] field; null writes a null field. */
    @Override
    public void writeBytes(byte[] value) throws JMSException {
        add(value == null ? null : value.clone());
    }

    /** @throws IndexOutOfBoundsException when offset and length do not lie within {@code value} */
    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        checkBodyWritable();
        java.util.Objects.checkFromIndexSize(offset, length, value.length);
        add(java.util.Arrays.copyOfRange(value, offset, offset + length));
    }

    /** @throws MessageFormatException for a value that is not a boxed primitive, String, byte[] or null */
    @Override
    public void writeObject(Object value) throws JMSException {
        checkBodyWritable();
        if (!Conversions.isMapOrStreamValue(value)) {
            throw new MessageFormatException("a StreamMessage value must be a boxed primitive, a String or a byte[], not a "
                    + value.getClass().getName());
        }
        add(value instanceof byte[] b ? b.clone() : value);
    }

    private void add(Object value) throws JMSException {
        checkBodyWritable();
        values.add(value);
    }

    /** The fields (not copied) for the codec. */
    List<Object> fields() {
        return values;
    }

    @Override
    JmsMessage newEmpty() {
        return new JmsStreamMessage();
    }

    @Override
    void copyBodyTo(JmsMessage c) {
        List<Object> target = ((JmsStreamMessage) c).values;
        for (Object v : values) {
            target.add(Conversions.toObject(v));
        }
    }

    @Override
    void clearBodyContent() {
        values.clear();
        index = 0;
        bytesOffset = -1;
    }

    @Override
    void enterReadOnlyBody() {
        reset();
    }

    /** Never "no body": getBody refuses a StreamMessage whatever it holds. */
    @Override
    boolean hasNoBody() {
        return false;
    }

    @Override
    Object bodyAs(Class<?> c) throws JMSException {
        throw new MessageFormatException("the body of a StreamMessage cannot be returned by getBody (Message javadoc); read it with readXxx");
    }

    @Override
    boolean bodyAssignableTo(Class<?> c) {
        return false;
    }
}
