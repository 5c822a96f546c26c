package io.aqueduct.jms.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.util.Arrays;

/**
 * A message whose body is a stream of uninterpreted bytes, written and read in the encoding of
 * {@link java.io.DataOutput} / {@link java.io.DataInput} (big-endian; modified UTF-8 with a
 * two-byte length for writeUTF).
 *
 * <p>A new or cleared message is in write mode: reads throw {@link MessageNotReadableException}.
 * {@link #reset()} (and {@link #markReceived()}) switch to read mode at the first byte: writes then
 * throw {@link jakarta.jms.MessageNotWriteableException}. A read past the end throws
 * {@link MessageEOFException} and consumes nothing, so a short value is never half read.
 * An empty body is "no body" for getBody.
 */
public class JmsBytesMessage extends JmsMessage implements BytesMessage {

    /** Largest body: the array limit of the JVM, less a margin. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 16;

    private byte[] data = new byte[32];
    private int length;
    private int position;

    public JmsBytesMessage() {
    }

    @Override
    public JmsMessageType messageType() {
        return JmsMessageType.BYTES;
    }

    /** @throws MessageNotReadableException in write mode */
    @Override
    public long getBodyLength() throws JMSException {
        checkReadable();
        return length;
    }

    /** Switches to read mode at the first byte (and makes the body read-only). */
    @Override
    public void reset() {
        bodyReadOnly = true;
        position = 0;
    }

    // ------------------------------------------------------------ reading

    @Override
    public boolean readBoolean() throws JMSException {
        return take(1)[0] != 0;
    }

    @Override
    public byte readByte() throws JMSException {
        return take(1)[0];
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return take(1)[0] & 0xff;
    }

    @Override
    public short readShort() throws JMSException {
        byte[] b = take(2);
        return (short) (((b[0] & 0xff) << 8) | (b[1] & 0xff));
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return readShort() & 0xffff;
    }

    @Override
    public char readChar() throws JMSException {
        return (char) readShort();
    }

    @Override
    public int readInt() throws JMSException {
        byte[] b = take(4);
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    @Override
    public long readLong() throws JMSException {
        byte[] b = take(8);
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xff);
        }
        return v;
    }

    @Override
    public float readFloat() throws JMSException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws JMSException {
        return Double.longBitsToDouble(readLong());
    }

    /**
     * @throws MessageEOFException when the length or the characters run past the end (nothing consumed)
     * @throws MessageFormatException when the bytes are not modified UTF-8 (nothing consumed)
     */
    @Override
    public String readUTF() throws JMSException {
        checkReadable();
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, position, length - position));
            String s = in.readUTF();
            position = length - in.available();
            return s;
        } catch (EOFException e) {
            throw eof("a UTF string");
        } catch (UTFDataFormatException e) {
            MessageFormatException x = new MessageFormatException("the bytes at position " + position + " are not modified UTF-8: " + e.getMessage());
            x.setLinkedException(e);
            throw x;
        } catch (IOException e) {
            throw new IllegalStateException("in-memory stream", e);
        }
    }

    /** Same as {@code readBytes(value, value.length)}. */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    /**
     * Reads up to {@code length} bytes into the start of {@code value}.
     *
     * @return the number read: less than {@code length} when the body ended; -1 when nothing was left
     * @throws IndexOutOfBoundsException when {@code length} is negative or above {@code value.length}
     */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        checkReadable();
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " is outside 0.." + value.length);
        }
        int remaining = this.length - position;
        if (remaining == 0) {
            return -1;
        }
        int n = Math.min(remaining, length);
        System.arraycopy(data, position, value, 0, n);
        position += n;
        return n;
    }

    private byte[] take(int n) throws JMSException {
        checkReadable();
        if (length - position < n) {
            throw eof(n + " byte(s)");
        }
        byte[] b = Arrays.copyOfRange(data, position, position + n);
        position += n;
        return b;
    }

    private MessageEOFException eof(String what) {
        return new MessageEOFException("cannot read " + what + " at position " + position + " of " + length + ": end of the body");
    }

    private void checkReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("the BytesMessage is in write mode; reset() switches it to read mode");
        }
    }

    // ------------------------------------------------------------ writing

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        put(new byte[] {(byte) (value ? 1 : 0)});
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        put(new byte[] {value});
    }

    @Override
    public void writeShort(short value) throws JMSException {
        put(new byte[] {(byte) (value >> 8), (byte) value});
    }

    @Override
    public void writeChar(char value) throws JMSException {
        writeShort((short) value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        put(new byte[] {(byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value});
    }

    @Override
    public void writeLong(long value) throws JMSException {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) value;
            value >>>= 8;
        }
        put(b);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        writeInt(Float.floatToIntBits(value));
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        writeLong(Double.doubleToLongBits(value));
    }

    /**
     * @throws NullPointerException for a null string
     * @throws MessageFormatException when the encoding is longer than 65535 bytes (the format's limit)
     */
    @Override
    public void writeUTF(String value) throws JMSException {
        checkBodyWritable();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new DataOutputStream(bytes).writeUTF(value);
        } catch (UTFDataFormatException e) {
            MessageFormatException x = new MessageFormatException("writeUTF takes a string of at most 65535 encoded bytes: " + e.getMessage());
            x.setLinkedException(e);
            throw x;
        } catch (IOException e) {
            throw new IllegalStateException("in-memory stream", e);
        }
        put(bytes.toByteArray());
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        writeBytes(value, 0, value.length);
    }

    /** @throws IndexOutOfBoundsException when offset and length do not lie within {@code value} */
    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        checkBodyWritable();
        java.util.Objects.checkFromIndexSize(offset, length, value.length);
        put(value, offset, length);
    }

    /**
     * Writes a Boolean, Byte, Short, Character, Integer, Long, Float, Double, String (as writeUTF)
     * or byte[] as the matching writeXxx does.
     *
     * @throws NullPointerException for null
     * @throws MessageFormatException for any other type
     */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("BytesMessage.writeObject does not take null");
        }
        if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException("BytesMessage.writeObject takes a boxed primitive, a String or a byte[], not a "
                    + value.getClass().getName());
        }
    }

    private void put(byte[] b) throws JMSException {
        checkBodyWritable();
        put(b, 0, b.length);
    }

    private void put(byte[] b, int offset, int n) throws MessageFormatException {
        if (n > MAX_LENGTH - length) {
            throw new MessageFormatException("a BytesMessage body cannot grow beyond " + MAX_LENGTH + " bytes");
        }
        int needed = length + n;
        if (needed > data.length) {
            long grown = Math.max((long) data.length * 2, needed);
            data = Arrays.copyOf(data, (int) Math.min(grown, MAX_LENGTH));
        }
        System.arraycopy(b, offset, data, length, n);
        length = needed;
    }

    // ------------------------------------------------------------ body plumbing

    /** The whole body, whatever the mode and position. A copy. */
    byte[] bodyBytes() {
        return Arrays.copyOf(data, length);
    }

    /** Replaces the body (the codec and copies), leaving the mode as it is. */
    void setBodyBytes(byte[] body) {
        data = body.length == 0 ? new byte[32] : body;
        length = body.length;
        position = 0;
    }

    @Override
    JmsMessage newEmpty() {
        return new JmsBytesMessage();
    }

    @Override
    void copyBodyTo(JmsMessage c) {
        ((JmsBytesMessage) c).setBodyBytes(bodyBytes());
    }

    @Override
    void clearBodyContent() {
        data = new byte[32];
        length = 0;
        position = 0;
    }

    @Override
    void enterReadOnlyBody() {
        reset();
    }

    @Override
    boolean hasNoBody() {
        return length == 0;
    }

    /** The whole body as a byte[], in either mode; the read position does not move. */
    @Override
    Object bodyAs(Class<?> c) throws JMSException {
        if (!c.isAssignableFrom(byte[].class)) {
            throw notAssignable(messageType(), c, "byte[]");
        }
        return bodyBytes();
    }

    @Override
    boolean bodyAssignableTo(Class<?> c) {
        return c.isAssignableFrom(byte[].class);
    }
}
