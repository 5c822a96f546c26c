package io.aqueduct.jms.message;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;

import java.io.ObjectInputFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Turns a {@link JmsMessage} of any type into a compact, versioned byte[] - what a RAW payload of an
 * Aqueduct queue holds - and back. No Java serialization: only an ObjectMessage's body is
 * serialized bytes, and those are stored as they are.
 *
 * <h2>Format, version 1</h2>
 * <pre>
 * magic      4 bytes  'A' 'Q' 'J' 'M'
 * version    1 byte   1
 * type       1 byte   {@link JmsMessageType#code()}
 * flags      1 byte   bit 0 correlation id, bit 1 it is bytes, bit 2 JMSType, bit 3 reply-to
 * [correlation id]    string, or bytes when bit 1
 * [JMSType]           string
 * [reply-to]          1 byte {@link DestinationKind#code()}, string name
 * delivery mode       1 byte (1 or 2)
 * priority            1 byte (0..9)
 * timestamp, delivery time, expiration: zig-zag varlong each
 * properties          varint count, then name (string) and tagged value each
 * body                by type: none | present byte + string | bytes | varint count + (name, tagged value)*
 *                     | present byte + bytes | varint count + tagged value*
 * checksum   4 bytes  CRC-32 of everything before it
 * </pre>
 * A string is a varint byte count and Java's modified UTF-8 (so any String, unpaired surrogates
 * included, comes back equal); bytes are a varint count and the bytes. A tagged value is a tag
 * byte - 0 null, 1 boolean, 2 byte, 3 short, 4 char, 5 int (zig-zag varint), 6 long (zig-zag
 * varlong), 7 float, 8 double (IEEE bits, big-endian), 9 string, 10 bytes - and the value.
 *
 * <p>Kept: the headers the store needs (correlation id as String or bytes, JMSType, JMSReplyTo as a
 * kind and a name, delivery mode, priority, timestamp, delivery time, expiration), every property
 * with its Java type, the body. Not kept: JMSMessageID, JMSDestination and JMSRedelivered, which
 * the facade takes from the AQ message (its id, its queue, its attempt count) on delivery.
 *
 * <p>{@link #decode(byte[])} returns a writable message (Bytes and Stream messages in write mode
 * with their content); the consumer then calls {@link JmsMessage#markReceived()}. It refuses
 * anything else than what {@link #encode(JmsMessage)} writes with a {@link MessageCodecException}:
 * bad magic, unknown version, truncation, checksum mismatch, or a malformed value - never a
 * runtime exception, and without allocating more than the input's size.
 */
public final class JmsMessageCodec {

    /** The format version this class writes (and the only one it reads so far). */
    public static final int VERSION = 1;

    private static final byte[] MAGIC = {'A', 'Q', 'J', 'M'};
    private static final int HEADER = MAGIC.length + 1;
    private static final int CHECKSUM = 4;

    private static final int F_CORRELATION = 1;
    private static final int F_CORRELATION_BYTES = 2;
    private static final int F_TYPE = 4;
    private static final int F_REPLY_TO = 8;

    static final int T_NULL = 0;
    static final int T_BOOLEAN = 1;
    static final int T_BYTE = 2;
    static final int T_SHORT = 3;
    static final int T_CHAR = 4;
    static final int T_INT = 5;
    static final int T_LONG = 6;
    static final int T_FLOAT = 7;
    static final int T_DOUBLE = 8;
    static final int T_STRING = 9;
    static final int T_BYTES = 10;

    /** Turns a stored reply-to (kind and name) back into a Destination; the facade supplies it. */
    @FunctionalInterface
    public interface ReplyToResolver {
        Destination resolve(DestinationKind kind, String name) throws JMSException;
    }

    private final ReplyToResolver replyToResolver;
    private final ObjectInputFilter objectFilter;

    /** A codec whose decoded ObjectMessages deserialize through the JVM-wide filter. */
    public JmsMessageCodec(ReplyToResolver replyToResolver) {
        this(replyToResolver, null);
    }

    /**
     * @param replyToResolver makes the JMSReplyTo of decoded messages
     * @param objectFilter the filter decoded ObjectMessages deserialize through (null: the JVM-wide one)
     */
    public JmsMessageCodec(ReplyToResolver replyToResolver, ObjectInputFilter objectFilter) {
        this.replyToResolver = java.util.Objects.requireNonNull(replyToResolver, "replyToResolver");
        this.objectFilter = objectFilter;
    }

    /**
     * Does {@code bytes} begin as an encoded JMS message? A RAW payload that does not is an
     * application's bytes (enqueued through the AQ api), delivered as a BytesMessage.
     */
    public static boolean isEncoded(byte[] bytes) {
        return bytes != null && bytes.length >= HEADER && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    // ================================================================ encode

    /**
     * Encodes {@code message}; its state (mode, read position) does not change.
     *
     * @throws MessageFormatException for a reply-to that is not a Queue or a Topic, or has no name,
     *         or when the encoding would exceed 2 GB
     * @throws JMSException when the reply-to destination cannot tell its name
     */
    public byte[] encode(JmsMessage message) throws JMSException {
        try {
            return encodeUnchecked(message);
        } catch (IllegalStateException tooLarge) {
            MessageFormatException x = new MessageFormatException("cannot encode the message: " + tooLarge.getMessage());
            x.setLinkedException(tooLarge);
            throw x;
        }
    }

    private byte[] encodeUnchecked(JmsMessage message) throws JMSException {
        Out out = new Out();
        out.raw(MAGIC);
        out.u8(VERSION);
        out.u8(message.messageType().code());

        Object correlation = message.rawCorrelationId();
        String type = message.getJMSType();
        Destination replyTo = message.getJMSReplyTo();
        int flags = (correlation != null ? F_CORRELATION : 0) | (correlation instanceof byte[] ? F_CORRELATION_BYTES : 0)
                | (type != null ? F_TYPE : 0) | (replyTo != null ? F_REPLY_TO : 0);
        out.u8(flags);
        if (correlation instanceof byte[] b) {
            out.bytes(b);
        } else if (correlation != null) {
            out.string((String) correlation);
        }
        if (type != null) {
            out.string(type);
        }
        if (replyTo != null) {
            writeReplyTo(out, replyTo);
        }
        out.u8(message.getJMSDeliveryMode());
        out.u8(message.getJMSPriority());
        out.varlong(message.getJMSTimestamp());
        out.varlong(message.getJMSDeliveryTime());
        out.varlong(message.getJMSExpiration());

        Map<String, Object> properties = message.propertyMap();
        out.varint(properties.size());
        for (Map.Entry<String, Object> e : properties.entrySet()) {
            out.string(e.getKey());
            out.value(e.getValue());
        }

        switch (message.messageType()) {
            case MESSAGE -> {
            }
            case TEXT -> {
                String text = ((JmsTextMessage) message).getText();
                out.u8(text == null ? 0 : 1);
                if (text != null) {
                    out.string(text);
                }
            }
            case BYTES -> out.bytes(((JmsBytesMessage) message).bodyBytes());
            case MAP -> {
                Map<String, Object> entries = ((JmsMapMessage) message).entries();
                out.varint(entries.size());
                for (Map.Entry<String, Object> e : entries.entrySet()) {
                    out.string(e.getKey());
                    out.value(e.getValue());
                }
            }
            case OBJECT -> {
                byte[] body = ((JmsObjectMessage) message).serializedBody();
                out.u8(body == null ? 0 : 1);
                if (body != null) {
                    out.bytes(body);
                }
            }
            case STREAM -> {
                List<Object> fields = ((JmsStreamMessage) message).fields();
                out.varint(fields.size());
                for (Object v : fields) {
                    out.value(v);
                }
            }
            default -> throw new IllegalStateException("unknown message type " + message.messageType());
        }
        CRC32 crc = new CRC32();
        crc.update(out.buf, 0, out.len);
        out.int32((int) crc.getValue());
        return out.toByteArray();
    }

    private static void writeReplyTo(Out out, Destination d) throws JMSException {
        DestinationKind kind;
        String name;
        if (d instanceof TemporaryQueue q) {
            kind = DestinationKind.TEMPORARY_QUEUE;
            name = q.getQueueName();
        } else if (d instanceof TemporaryTopic t) {
            kind = DestinationKind.TEMPORARY_TOPIC;
            name = t.getTopicName();
        } else if (d instanceof Queue q) {
            kind = DestinationKind.QUEUE;
            name = q.getQueueName();
        } else if (d instanceof Topic t) {
            kind = DestinationKind.TOPIC;
            name = t.getTopicName();
        } else {
            throw new MessageFormatException("cannot store a JMSReplyTo of class " + d.getClass().getName()
                    + ": it is neither a Queue nor a Topic");
        }
        if (name == null) {
            throw new MessageFormatException("cannot store a JMSReplyTo without a name (" + d + ")");
        }
        out.u8(kind.code());
        out.string(name);
    }

    // ================================================================ decode

    /**
     * Decodes what {@link #encode(JmsMessage)} wrote.
     *
     * @throws MessageCodecException when {@code bytes} is null, not an encoded message, of an
     *         unknown version, truncated or corrupt
     * @throws JMSException what the {@link ReplyToResolver} throws
     */
    public JmsMessage decode(byte[] bytes) throws JMSException {
        if (bytes == null) {
            throw new MessageCodecException("no bytes to decode (null)", MessageCodecException.NOT_A_MESSAGE);
        }
        if (bytes.length < MAGIC.length || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            if (bytes.length < MAGIC.length && Arrays.equals(bytes, 0, bytes.length, MAGIC, 0, bytes.length)) {
                throw new MessageCodecException("truncated JMS message: " + bytes.length + " bytes", MessageCodecException.TRUNCATED);
            }
            throw new MessageCodecException("not an encoded JMS message (bad magic number)", MessageCodecException.NOT_A_MESSAGE);
        }
        if (bytes.length < HEADER) {
            throw new MessageCodecException("truncated JMS message: " + bytes.length + " bytes", MessageCodecException.TRUNCATED);
        }
        int version = bytes[MAGIC.length] & 0xff;
        if (version != VERSION) {
            throw new MessageCodecException("unknown JMS message format version " + version + " (this build reads version "
                    + VERSION + ")", MessageCodecException.UNKNOWN_VERSION);
        }
        if (bytes.length < HEADER + 1 + 1 + 1 + 1 + 3 + 1 + CHECKSUM) {
            throw new MessageCodecException("truncated JMS message: " + bytes.length + " bytes", MessageCodecException.TRUNCATED);
        }
        int end = bytes.length - CHECKSUM;
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, end);
        int stored = ((bytes[end] & 0xff) << 24) | ((bytes[end + 1] & 0xff) << 16) | ((bytes[end + 2] & 0xff) << 8) | (bytes[end + 3] & 0xff);
        if ((int) crc.getValue() != stored) {
            throw new MessageCodecException("corrupt or truncated JMS message: checksum mismatch over " + end + " bytes",
                    MessageCodecException.CORRUPT);
        }
        try {
            return read(new In(bytes, HEADER, end));
        } catch (MessageCodecException e) {
            throw e;
        } catch (RuntimeException e) {
            // a checksum collision that still breaks the format: refuse it the same way
            MessageCodecException x = new MessageCodecException("corrupt JMS message: " + e, MessageCodecException.CORRUPT);
            x.setLinkedException(e);
            throw x;
        }
    }

    private JmsMessage read(In in) throws JMSException {
        int typeCode = in.u8();
        JmsMessageType type = JmsMessageType.ofCode(typeCode);
        if (type == null) {
            throw in.corrupt("unknown message type code " + typeCode);
        }
        JmsMessage m = switch (type) {
            case MESSAGE -> new JmsMessage();
            case TEXT -> new JmsTextMessage();
            case BYTES -> new JmsBytesMessage();
            case MAP -> new JmsMapMessage();
            case OBJECT -> new JmsObjectMessage(objectFilter);
            case STREAM -> new JmsStreamMessage();
        };
        int flags = in.u8();
        if ((flags & ~(F_CORRELATION | F_CORRELATION_BYTES | F_TYPE | F_REPLY_TO)) != 0
                || (flags & (F_CORRELATION | F_CORRELATION_BYTES)) == F_CORRELATION_BYTES) {
            throw in.corrupt("unknown header flags " + flags);
        }
        if ((flags & F_CORRELATION_BYTES) != 0) {
            m.setJMSCorrelationIDAsBytes(in.bytes());
        } else if ((flags & F_CORRELATION) != 0) {
            m.setJMSCorrelationID(in.string());
        }
        if ((flags & F_TYPE) != 0) {
            m.setJMSType(in.string());
        }
        if ((flags & F_REPLY_TO) != 0) {
            int kindCode = in.u8();
            DestinationKind kind = DestinationKind.ofCode(kindCode);
            if (kind == null) {
                throw in.corrupt("unknown reply-to kind " + kindCode);
            }
            m.setJMSReplyTo(replyToResolver.resolve(kind, in.string()));
        }
        int mode = in.u8();
        if (mode != 1 && mode != 2) {
            throw in.corrupt("delivery mode " + mode);
        }
        m.setJMSDeliveryMode(mode);
        int priority = in.u8();
        if (priority > 9) {
            throw in.corrupt("priority " + priority);
        }
        m.setJMSPriority(priority);
        m.setJMSTimestamp(in.varlong());
        m.setJMSDeliveryTime(in.varlong());
        m.setJMSExpiration(in.varlong());

        int count = in.count(2);
        Map<String, Object> properties = m.propertyMap();
        for (int i = 0; i < count; i++) {
            String name = in.string();
            try {
                PropertyNames.checkIdentifier(name);
            } catch (IllegalArgumentException e) {
                throw in.corrupt("invalid property name: " + e.getMessage());
            }
            Object value = in.value();
            if (value != null && !Conversions.isPropertyValue(value)) {
                throw in.corrupt("property " + name + " holds a " + Conversions.typeName(value));
            }
            if (properties.containsKey(name)) {
                throw in.corrupt("property " + name + " appears twice");
            }
            properties.put(name, value);
        }

        switch (type) {
            case MESSAGE -> {
            }
            case TEXT -> {
                if (in.presence()) {
                    ((JmsTextMessage) m).setText(in.string());
                }
            }
            case BYTES -> ((JmsBytesMessage) m).setBodyBytes(in.bytes());
            case MAP -> {
                int entries = in.count(2);
                Map<String, Object> map = ((JmsMapMessage) m).entries();
                for (int i = 0; i < entries; i++) {
                    String name = in.string();
                    if (name.isEmpty()) {
                        throw in.corrupt("an empty map entry name");
                    }
                    Object value = in.value();
                    boolean existed = map.containsKey(name);
                    map.put(name, value);
                    if (existed) {
                        throw in.corrupt("map entry " + name + " appears twice");
                    }
                }
            }
            case OBJECT -> {
                if (in.presence()) {
                    ((JmsObjectMessage) m).setSerializedBody(in.bytes());
                }
            }
            case STREAM -> {
                int fields = in.count(1);
                List<Object> list = ((JmsStreamMessage) m).fields();
                for (int i = 0; i < fields; i++) {
                    list.add(in.value());
                }
            }
        }
        if (in.pos != in.end) {
            throw in.corrupt((in.end - in.pos) + " unexpected byte(s) after the body");
        }
        return m;
    }

    // ================================================================ primitives

    /** A growable output buffer. */
    private static final class Out {
        byte[] buf = new byte[128];
        int len;

        void ensure(int n) {
            if (n > Integer.MAX_VALUE - 16 - len) {
                throw new IllegalStateException("an encoded JMS message cannot exceed 2 GB");
            }
            if (len + n > buf.length) {
                buf = Arrays.copyOf(buf, (int) Math.min(Math.max((long) buf.length * 2, (long) len + n), Integer.MAX_VALUE - 16));
            }
        }

        void u8(int v) {
            ensure(1);
            buf[len++] = (byte) v;
        }

        void raw(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
        }

        void int16(int v) {
            u8(v >> 8);
            u8(v);
        }

        void int32(int v) {
            u8(v >> 24);
            u8(v >> 16);
            u8(v >> 8);
            u8(v);
        }

        void int64(long v) {
            int32((int) (v >> 32));
            int32((int) v);
        }

        void varint(int v) {
            varunsigned(v & 0xffffffffL);
        }

        void varlong(long v) {
            varunsigned((v << 1) ^ (v >> 63));
        }

        private void varunsigned(long v) {
            while ((v & ~0x7fL) != 0) {
                u8((int) ((v & 0x7f) | 0x80));
                v >>>= 7;
            }
            u8((int) v);
        }

        void bytes(byte[] b) {
            varint(b.length);
            raw(b);
        }

        void string(String s) {
            long n = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                n += c >= 1 && c <= 0x7f ? 1 : c <= 0x7ff ? 2 : 3;
            }
            if (n > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a string of " + n + " encoded bytes is too long to store");
            }
            varint((int) n);
            ensure((int) n);
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c >= 1 && c <= 0x7f) {
                    buf[len++] = (byte) c;
                } else if (c <= 0x7ff) {
                    buf[len++] = (byte) (0xc0 | (c >> 6));
                    buf[len++] = (byte) (0x80 | (c & 0x3f));
                } else {
                    buf[len++] = (byte) (0xe0 | (c >> 12));
                    buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                    buf[len++] = (byte) (0x80 | (c & 0x3f));
                }
            }
        }

        void value(Object v) {
            if (v == null) {
                u8(T_NULL);
            } else if (v instanceof Boolean b) {
                u8(T_BOOLEAN);
                u8(b ? 1 : 0);
            } else if (v instanceof Byte b) {
                u8(T_BYTE);
                u8(b);
            } else if (v instanceof Short s) {
                u8(T_SHORT);
                int16(s);
            } else if (v instanceof Character c) {
                u8(T_CHAR);
                int16(c);
            } else if (v instanceof Integer i) {
                u8(T_INT);
                varlong(i);
            } else if (v instanceof Long l) {
                u8(T_LONG);
                varlong(l);
            } else if (v instanceof Float f) {
                u8(T_FLOAT);
                int32(Float.floatToRawIntBits(f));
            } else if (v instanceof Double d) {
                u8(T_DOUBLE);
                int64(Double.doubleToRawLongBits(d));
            } else if (v instanceof String s) {
                u8(T_STRING);
                string(s);
            } else if (v instanceof byte[] b) {
                u8(T_BYTES);
                bytes(b);
            } else {
                throw new IllegalStateException("a message holds a value of type " + v.getClass().getName());
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, len);
        }
    }

    /** A bounds-checked reader over {@code [pos, end)}; every failure is a MessageCodecException. */
    private static final class In {
        final byte[] b;
        int pos;
        final int end;

        In(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        MessageCodecException corrupt(String what) {
            return new MessageCodecException("corrupt JMS message at byte " + pos + ": " + what, MessageCodecException.CORRUPT);
        }

        private void need(int n) throws MessageCodecException {
            if (n < 0 || end - pos < n) {
                throw new MessageCodecException("truncated JMS message: " + n + " byte(s) needed at byte " + pos + ", "
                        + Math.max(0, end - pos) + " left", MessageCodecException.TRUNCATED);
            }
        }

        int u8() throws MessageCodecException {
            need(1);
            return b[pos++] & 0xff;
        }

        int int16() throws MessageCodecException {
            need(2);
            int v = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
            pos += 2;
            return v;
        }

        int int32() throws MessageCodecException {
            need(4);
            int v = ((b[pos] & 0xff) << 24) | ((b[pos + 1] & 0xff) << 16) | ((b[pos + 2] & 0xff) << 8) | (b[pos + 3] & 0xff);
            pos += 4;
            return v;
        }

        long int64() throws MessageCodecException {
            long hi = int32() & 0xffffffffL;
            return (hi << 32) | (int32() & 0xffffffffL);
        }

        private long varunsigned(int maxBytes) throws MessageCodecException {
            long v = 0;
            for (int i = 0; i < maxBytes; i++) {
                int x = u8();
                v |= (long) (x & 0x7f) << (7 * i);
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw corrupt("a variable-length number longer than " + maxBytes + " bytes");
        }

        /** A length or count: non-negative, and at most what is left divided by the least bytes per item. */
        int count(int minBytesPerItem) throws MessageCodecException {
            long v = varunsigned(5);
            if (v > Integer.MAX_VALUE) {
                throw corrupt("a count of " + v);
            }
            if (v * minBytesPerItem > end - pos) {
                throw new MessageCodecException("truncated JMS message: a count of " + v + " at byte " + pos
                        + " exceeds the " + (end - pos) + " byte(s) left", MessageCodecException.TRUNCATED);
            }
            return (int) v;
        }

        long varlong() throws MessageCodecException {
            long v = varunsigned(10);
            return (v >>> 1) ^ -(v & 1);
        }

        boolean presence() throws MessageCodecException {
            int p = u8();
            if (p > 1) {
                throw corrupt("presence byte " + p);
            }
            return p == 1;
        }

        byte[] bytes() throws MessageCodecException {
            int n = count(1);
            byte[] r = Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return r;
        }

        String string() throws MessageCodecException {
            int n = count(1);
            int stop = pos + n;
            char[] chars = new char[n];
            int c = 0;
            while (pos < stop) {
                int x = b[pos] & 0xff;
                if (x >= 1 && x <= 0x7f) {
                    chars[c++] = (char) x;
                    pos++;
                } else if ((x & 0xe0) == 0xc0) {
                    if (stop - pos < 2 || (b[pos + 1] & 0xc0) != 0x80) {
                        throw corrupt("malformed string");
                    }
                    chars[c++] = (char) (((x & 0x1f) << 6) | (b[pos + 1] & 0x3f));
                    pos += 2;
                } else if ((x & 0xf0) == 0xe0) {
                    if (stop - pos < 3 || (b[pos + 1] & 0xc0) != 0x80 || (b[pos + 2] & 0xc0) != 0x80) {
                        throw corrupt("malformed string");
                    }
                    chars[c++] = (char) (((x & 0x0f) << 12) | ((b[pos + 1] & 0x3f) << 6) | (b[pos + 2] & 0x3f));
                    pos += 3;
                } else {
                    throw corrupt("malformed string");
                }
            }
            return new String(chars, 0, c);
        }

        Object value() throws MessageCodecException {
            int tag = u8();
            return switch (tag) {
                case T_NULL -> null;
                case T_BOOLEAN -> {
                    int v = u8();
                    if (v > 1) {
                        throw corrupt("boolean " + v);
                    }
                    yield v == 1;
                }
                case T_BYTE -> (byte) u8();
                case T_SHORT -> (short) int16();
                case T_CHAR -> (char) int16();
                case T_INT -> {
                    long v = varlong();
                    if (v != (int) v) {
                        throw corrupt("int out of range " + v);
                    }
                    yield (int) v;
                }
                case T_LONG -> varlong();
                case T_FLOAT -> Float.intBitsToFloat(int32());
                case T_DOUBLE -> Double.longBitsToDouble(int64());
                case T_STRING -> string();
                case T_BYTES -> bytes();
                default -> throw corrupt("unknown value tag " + tag);
            };
        }
    }
}
