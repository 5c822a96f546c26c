package io.aqueduct.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The store codec: round trips of every type and value, and refusal of anything it did not write. */
class JmsMessageCodecTest {

    private final JmsMessageCodec codec = new JmsMessageCodec(TestDestinations.RESOLVER);

    private JmsMessage roundTrip(JmsMessage m) throws JMSException {
        return codec.decode(codec.encode(m));
    }

    /** Every value a property can hold, extremes included. */
    private static Map<String, Object> allPropertyValues() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("bTrue", true);
        p.put("bFalse", false);
        p.put("byteMin", Byte.MIN_VALUE);
        p.put("byteMax", Byte.MAX_VALUE);
        p.put("shortMin", Short.MIN_VALUE);
        p.put("shortMax", Short.MAX_VALUE);
        p.put("intMin", Integer.MIN_VALUE);
        p.put("intMax", Integer.MAX_VALUE);
        p.put("intZero", 0);
        p.put("intNeg", -1);
        p.put("longMin", Long.MIN_VALUE);
        p.put("longMax", Long.MAX_VALUE);
        p.put("floatNaN", Float.NaN);
        p.put("floatNegZero", -0.0f);
        p.put("floatInf", Float.NEGATIVE_INFINITY);
        p.put("floatMin", Float.MIN_VALUE);
        p.put("doubleNaN", Double.NaN);
        p.put("doubleMax", Double.MAX_VALUE);
        p.put("doubleNegZero", -0.0d);
        p.put("stringEmpty", "");
        p.put("stringUnicode", "grüße 日本 \uD83D\uDE00 \u0000 \uD800 end"); // an unpaired surrogate survives too
        p.put("stringNull", null);
        p.put("JMSXGroupID", "g");
        p.put("JMSXGroupSeq", 2);
        p.put("JMSXDeliveryCount", 3);
        p.put("JMSXRcvTimestamp", 99L);
        return p;
    }

    private static JmsMessage withHeadersAndProperties(JmsMessage m) throws JMSException {
        m.setJMSCorrelationID("corr-1");
        m.setJMSType("order");
        m.setJMSReplyTo(new TestDestinations.TestQueue("REPLIES"));
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSPriority(9);
        m.setJMSTimestamp(1_700_000_000_000L);
        m.setJMSDeliveryTime(Long.MAX_VALUE);
        m.setJMSExpiration(Long.MIN_VALUE);
        for (Map.Entry<String, Object> e : allPropertyValues().entrySet()) {
            m.setProviderProperty(e.getKey(), e.getValue());
        }
        return m;
    }

    private static void assertSameHeadersAndProperties(JmsMessage decoded, JmsMessage original) throws JMSException {
        assertThat(decoded).isInstanceOf(original.getClass());
        assertThat(decoded.messageType()).isEqualTo(original.messageType());
        assertThat(decoded.getJMSCorrelationID()).isEqualTo(original.getJMSCorrelationID());
        assertThat(decoded.isCorrelationIdBytes()).isEqualTo(original.isCorrelationIdBytes());
        assertThat(decoded.getJMSCorrelationIDAsBytes()).isEqualTo(original.getJMSCorrelationIDAsBytes());
        assertThat(decoded.getJMSType()).isEqualTo(original.getJMSType());
        assertThat(decoded.getJMSReplyTo()).isEqualTo(original.getJMSReplyTo());
        assertThat(decoded.getJMSDeliveryMode()).isEqualTo(original.getJMSDeliveryMode());
        assertThat(decoded.getJMSPriority()).isEqualTo(original.getJMSPriority());
        assertThat(decoded.getJMSTimestamp()).isEqualTo(original.getJMSTimestamp());
        assertThat(decoded.getJMSDeliveryTime()).isEqualTo(original.getJMSDeliveryTime());
        assertThat(decoded.getJMSExpiration()).isEqualTo(original.getJMSExpiration());
        assertThat(Collections.list(decoded.getPropertyNames())).isEqualTo(Collections.list(original.getPropertyNames()));
        for (String name : Collections.list(original.getPropertyNames())) {
            Object expected = original.getObjectProperty(name);
            Object actual = decoded.getObjectProperty(name);
            // same Java type and, for floating point, the same bits (NaN, -0.0)
            assertThat(actual).as(name).isEqualTo(expected);
            if (expected != null) {
                assertThat(actual.getClass()).as(name).isEqualTo(expected.getClass());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JmsMessageType.class)
    void every_message_type_round_trips_with_all_headers_and_property_types(JmsMessageType type) throws JMSException {
        JmsMessage original = withHeadersAndProperties(filled(type));
        JmsMessage decoded = roundTrip(original);
        assertSameHeadersAndProperties(decoded, original);
        assertSameBody(decoded, original);
    }

    @ParameterizedTest
    @EnumSource(JmsMessageType.class)
    void every_message_type_round_trips_empty_and_with_default_headers(JmsMessageType type) throws JMSException {
        JmsMessage original = empty(type);
        JmsMessage decoded = roundTrip(original);
        assertSameHeadersAndProperties(decoded, original);
        assertSameBody(decoded, original);
        assertThat(decoded.getJMSPriority()).isEqualTo(4);
        assertThat(decoded.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(decoded.getJMSCorrelationID()).isNull();
        assertThat(decoded.getJMSReplyTo()).isNull();
    }

    @Test
    void a_null_text_and_an_empty_text_stay_distinct() throws JMSException {
        assertThat(((JmsTextMessage) roundTrip(new JmsTextMessage(null))).getText()).isNull();
        assertThat(((JmsTextMessage) roundTrip(new JmsTextMessage(""))).getText()).isEmpty();
    }

    @Test
    void a_correlation_id_set_as_bytes_comes_back_as_bytes() throws JMSException {
        JmsMessage m = new JmsMessage();
        m.setJMSCorrelationIDAsBytes(new byte[] {0, (byte) 0xff, 7});
        JmsMessage decoded = roundTrip(m);
        assertThat(decoded.isCorrelationIdBytes()).isTrue();
        assertThat(decoded.getJMSCorrelationIDAsBytes()).containsExactly(0, 0xff, 7);
        m.setJMSCorrelationIDAsBytes(new byte[0]);
        assertThat(roundTrip(m).getJMSCorrelationIDAsBytes()).isEmpty();
    }

    @Test
    void every_kind_of_reply_to_comes_back_as_the_same_kind_and_name() throws JMSException {
        for (Destination d : List.<Destination>of(new TestDestinations.TestQueue("q"), new TestDestinations.TestTopic("t"),
                new TestDestinations.TestTemporaryQueue("tq"), new TestDestinations.TestTemporaryTopic("tt"),
                new TestDestinations.TestQueue(""))) {
            JmsMessage m = new JmsMessage();
            m.setJMSReplyTo(d);
            assertThat(roundTrip(m).getJMSReplyTo()).isEqualTo(d);
        }
    }

    @Test
    void a_reply_to_that_is_neither_queue_nor_topic_or_has_no_name_cannot_be_stored() {
        JmsMessage m = new JmsMessage();
        m.setJMSReplyTo(new Destination() {
        });
        assertThatThrownBy(() -> codec.encode(m)).isInstanceOf(MessageFormatException.class).hasMessageContaining("neither");
        m.setJMSReplyTo(new TestDestinations.TestQueue(null));
        assertThatThrownBy(() -> codec.encode(m)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void message_id_destination_and_redelivered_are_not_stored() throws JMSException {
        // the facade takes them from the AQ message on delivery
        JmsMessage m = new JmsMessage();
        m.setJMSMessageID("ID:x");
        m.setJMSDestination(new TestDestinations.TestQueue("q"));
        m.setJMSRedelivered(true);
        JmsMessage decoded = roundTrip(m);
        assertThat(decoded.getJMSMessageID()).isNull();
        assertThat(decoded.getJMSDestination()).isNull();
        assertThat(decoded.getJMSRedelivered()).isFalse();
    }

    @Test
    void map_and_stream_bodies_keep_every_value_type_including_null_char_and_bytes() throws JMSException {
        List<Object> values = new ArrayList<>(allPropertyValues().values());
        values.addAll(Arrays.asList('c', '\u0000', Character.MAX_VALUE, new byte[0], new byte[] {-1, 0, 1}, null));
        JmsMapMessage map = new JmsMapMessage();
        JmsStreamMessage stream = new JmsStreamMessage();
        for (int i = 0; i < values.size(); i++) {
            map.setObject("k" + i + " any name", values.get(i));
            stream.writeObject(values.get(i));
        }
        JmsMapMessage mapBack = (JmsMapMessage) roundTrip(map);
        JmsStreamMessage streamBack = (JmsStreamMessage) roundTrip(stream);
        streamBack.reset();
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            Object fromMap = mapBack.getObject("k" + i + " any name");
            Object fromStream = streamBack.readObject();
            assertThat(fromMap).isEqualTo(v);
            assertThat(fromStream).isEqualTo(v);
            if (v != null) {
                assertThat(fromMap.getClass()).isEqualTo(v.getClass());
                assertThat(fromStream.getClass()).isEqualTo(v.getClass());
            }
        }
        assertThat(Collections.list(mapBack.getMapNames())).isEqualTo(Collections.list(map.getMapNames()));
    }

    @Test
    void large_bodies_round_trip() throws JMSException {
        byte[] big = new byte[16 << 20];
        new Random(1).nextBytes(big);
        JmsBytesMessage bytes = new JmsBytesMessage();
        bytes.writeBytes(big);
        assertThat(roundTrip(bytes).getBody(byte[].class)).isEqualTo(big);

        String text = "aé日\uD83D\uDE00".repeat(1 << 20);
        assertThat(((JmsTextMessage) roundTrip(new JmsTextMessage(text))).getText()).isEqualTo(text);

        JmsMapMessage map = new JmsMapMessage();
        JmsStreamMessage stream = new JmsStreamMessage();
        for (int i = 0; i < 20_000; i++) {
            map.setInt("k" + i, i);
            stream.writeLong(i * 1_000_000_007L);
        }
        JmsMapMessage mapBack = (JmsMapMessage) roundTrip(map);
        assertThat(mapBack.getInt("k19999")).isEqualTo(19_999);
        JmsStreamMessage streamBack = (JmsStreamMessage) roundTrip(stream);
        streamBack.reset();
        for (int i = 0; i < 20_000; i++) {
            assertThat(streamBack.readLong()).isEqualTo(i * 1_000_000_007L);
        }

        JmsObjectMessage object = new JmsObjectMessage();
        object.setObject(big);
        assertThat((byte[]) ((JmsObjectMessage) roundTrip(object)).getObject()).isEqualTo(big);
    }

    @Test
    void the_encoding_is_compact() throws JMSException {
        // magic 4, version 1, type 1, flags 1, mode 1, priority 1, three zero times 3, no properties 1, CRC 4
        assertThat(codec.encode(new JmsMessage())).hasSize(17);
        JmsTextMessage t = new JmsTextMessage("hi");
        t.setIntProperty("n", 5);
        assertThat(codec.encode(t)).hasSizeLessThan(30);
    }

    @Test
    void encoding_leaves_the_message_state_alone() throws JMSException {
        JmsStreamMessage s = new JmsStreamMessage();
        s.writeInt(1);
        s.writeInt(2);
        s.reset();
        s.readInt();
        codec.encode(s);
        assertThat(s.readInt()).isEqualTo(2);
        JmsBytesMessage b = new JmsBytesMessage();
        b.writeInt(1);
        codec.encode(b);
        b.writeInt(2); // still in write mode
        b.reset();
        assertThat(b.getBodyLength()).isEqualTo(8);
    }

    @Test
    void a_decoded_message_is_writable_until_the_consumer_marks_it_received() throws JMSException {
        JmsBytesMessage b = new JmsBytesMessage();
        b.writeInt(42);
        b.setIntProperty("p", 1);
        JmsBytesMessage decoded = (JmsBytesMessage) roundTrip(b);
        decoded.setIntProperty("q", 2);
        decoded.markReceived();
        assertThat(decoded.readInt()).isEqualTo(42);
        assertThatThrownBy(decoded::readByte).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(() -> decoded.setIntProperty("r", 3)).isInstanceOf(jakarta.jms.MessageNotWriteableException.class);
    }

    @Test
    void a_decoded_object_message_deserializes_through_the_codec_filter() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new ObjectMessageTest.Payload("p", 1));
        JmsMessageCodec filtering = new JmsMessageCodec(TestDestinations.RESOLVER,
                ObjectInputFilter.Config.createFilter("!" + ObjectMessageTest.Payload.class.getName()));
        JmsObjectMessage decoded = (JmsObjectMessage) filtering.decode(filtering.encode(m));
        assertThatThrownBy(decoded::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(ObjectMessageTest.Payload.class.getName());
        assertThat(((JmsObjectMessage) roundTrip(m)).getObject()).isEqualTo(new ObjectMessageTest.Payload("p", 1));
    }

    @Test
    void version_1_bytes_stay_readable_and_are_written_the_same() throws JMSException {
        // a stored message outlives the build that wrote it: this fixes format version 1 byte for byte
        JmsTextMessage m = new JmsTextMessage("hé");
        m.setJMSCorrelationID("c");
        m.setJMSReplyTo(new TestDestinations.TestQueue("R"));
        m.setJMSPriority(7);
        m.setJMSTimestamp(-1);
        m.setLongProperty("n", 300);
        m.setStringProperty("s", null);
        String golden = GOLDEN_V1;
        assertThat(java.util.HexFormat.of().formatHex(codec.encode(m))).isEqualTo(golden);
        JmsTextMessage back = (JmsTextMessage) codec.decode(java.util.HexFormat.of().parseHex(golden));
        assertSameHeadersAndProperties(back, m);
        assertThat(back.getText()).isEqualTo("hé");
    }

    private static final String GOLDEN_V1 = "41514a4d0101090163010152020701000002016e06d804017300010368c3a90349af15";

    // ------------------------------------------------------------------ refusals

    private static MessageCodecException refusal(JmsMessageCodec codec, byte[] bytes) {
        Throwable t = catchThrowable(() -> codec.decode(bytes));
        assertThat(t).as("decoding %s", bytes == null ? "null" : Arrays.toString(Arrays.copyOf(bytes, Math.min(bytes.length, 40))))
                .isInstanceOf(MessageCodecException.class);
        return (MessageCodecException) t;
    }

    @Test
    void null_empty_and_foreign_bytes_are_not_a_message() {
        assertThat(refusal(codec, null).getErrorCode()).isEqualTo(MessageCodecException.NOT_A_MESSAGE);
        assertThat(refusal(codec, new byte[0]).getErrorCode()).isEqualTo(MessageCodecException.TRUNCATED);
        assertThat(refusal(codec, "hello world, not a message".getBytes()).getErrorCode()).isEqualTo(MessageCodecException.NOT_A_MESSAGE);
        // Java serialization is not this format either
        assertThat(refusal(codec, new byte[] {(byte) 0xac, (byte) 0xed, 0, 5, 0x74, 0, 1, 'x'}).getErrorCode())
                .isEqualTo(MessageCodecException.NOT_A_MESSAGE);
    }

    @Test
    void an_unknown_version_is_refused_by_name() throws JMSException {
        byte[] bytes = codec.encode(new JmsTextMessage("x"));
        for (int version : new int[] {0, 2, 255}) {
            bytes[4] = (byte) version;
            MessageCodecException e = refusal(codec, withCrc(bytes));
            assertThat(e.getErrorCode()).isEqualTo(MessageCodecException.UNKNOWN_VERSION);
            assertThat(e.getMessage()).contains("version " + version);
        }
    }

    @Test
    void every_truncation_of_every_message_type_is_refused() throws JMSException {
        for (JmsMessageType type : JmsMessageType.values()) {
            byte[] full = codec.encode(withHeadersAndProperties(filled(type)));
            for (int n = 0; n < full.length; n++) {
                refusal(codec, Arrays.copyOf(full, n));
            }
        }
    }

    @Test
    void every_single_byte_corruption_is_refused() throws JMSException {
        for (JmsMessageType type : JmsMessageType.values()) {
            byte[] full = codec.encode(withHeadersAndProperties(filled(type)));
            for (int i = 0; i < full.length; i++) {
                byte[] bad = full.clone();
                bad[i] ^= (byte) (1 + (i % 255));
                refusal(codec, bad);
            }
        }
    }

    @Test
    void trailing_bytes_are_refused() throws JMSException {
        byte[] full = codec.encode(new JmsTextMessage("x"));
        byte[] longer = Arrays.copyOf(full, full.length + 3);
        assertThat(refusal(codec, longer).getErrorCode()).isEqualTo(MessageCodecException.CORRUPT); // checksum
        byte[] forged = withCrc(concat(Arrays.copyOf(full, full.length - 4), new byte[] {1, 2, 3}, new byte[4]));
        assertThat(refusal(codec, forged).getMessage()).contains("after the body");
    }

    // Forged inputs: a valid checksum over a body that breaks the format, as a bug or an attacker could write.
    // A plain message with defaults is: magic 0-3, version 4, type 5, flags 6, mode 7, priority 8,
    // times 9-11, property count 12, CRC 13-16.

    private byte[] plainPrefix() throws JMSException {
        byte[] full = codec.encode(new JmsMessage());
        return Arrays.copyOf(full, 12); // up to and without the property count
    }

    @Test
    void a_huge_count_is_refused_without_allocating_it() throws JMSException {
        byte[] forged = withCrc(concat(plainPrefix(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 0, 0, 0, 0}));
        assertThat(refusal(codec, forged).getErrorCode()).isEqualTo(MessageCodecException.TRUNCATED);
        byte[] beyondInt = withCrc(concat(plainPrefix(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 0, 0, 0, 0}));
        assertThat(refusal(codec, beyondInt).getErrorCode()).isEqualTo(MessageCodecException.CORRUPT);
        byte[] endless = withCrc(concat(plainPrefix(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0}));
        assertThat(refusal(codec, endless).getErrorCode()).isEqualTo(MessageCodecException.CORRUPT);
    }

    @Test
    void a_huge_bytes_body_length_is_refused_without_allocating_it() throws JMSException {
        byte[] prefix = plainPrefix();
        prefix[5] = (byte) JmsMessageType.BYTES.code();
        byte[] forged = withCrc(concat(prefix, new byte[] {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 1, 2, 0, 0, 0, 0}));
        assertThat(refusal(codec, forged).getErrorCode()).isEqualTo(MessageCodecException.TRUNCATED);
    }

    @Test
    void forged_headers_are_refused() throws JMSException {
        byte[] full = codec.encode(new JmsMessage());
        Object[][] cases = {
                {5, 77, "message type"},
                {6, 0x10, "flags"},
                {6, 0x02, "flags"}, // "bytes" without "present"
                {7, 7, "delivery mode"},
                {8, 10, "priority"},
        };
        for (Object[] c : cases) {
            byte[] bad = full.clone();
            bad[(int) c[0]] = (byte) (int) c[1];
            assertThat(refusal(codec, withCrc(bad)).getMessage()).contains((String) c[2]);
        }
        byte[] withReplyTo = plainPrefix();
        withReplyTo[6] = 0x08;
        byte[] forged = withCrc(concat(Arrays.copyOf(withReplyTo, 7), new byte[] {9, 1, 'q'}, Arrays.copyOfRange(full, 7, 13), new byte[4]));
        assertThat(refusal(codec, forged).getMessage()).contains("reply-to kind");
    }

    @Test
    void forged_properties_are_refused() throws JMSException {
        byte[] prefix = plainPrefix();
        Object[][] cases = {
                {new byte[] {1, 3, '1', 'a', 'b', 0}, "property name"},                 // not an identifier
                {new byte[] {1, 4, 'N', 'U', 'L', 'L', 0}, "property name"},            // reserved word
                {new byte[] {1, 1, 'a', 4, 0, 'c'}, "holds a Character"},               // char is no property type
                {new byte[] {1, 1, 'a', 10, 0}, "holds a byte[]"},
                {new byte[] {2, 1, 'a', 0, 1, 'a', 0}, "twice"},
                {new byte[] {1, 1, 'a', 42}, "tag"},
                {new byte[] {1, 1, 'a', 1, 2}, "boolean"},
                {new byte[] {1, 2, (byte) 0xc3, 'a', 0}, "malformed string"},
                {new byte[] {1, 1, (byte) 0xff, 0}, "malformed string"},
                {new byte[] {1, 1, 'a', 5, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}, "int out of range"},
        };
        for (Object[] c : cases) {
            byte[] forged = withCrc(concat(prefix, (byte[]) c[0], new byte[4]));
            MessageCodecException e = refusal(codec, forged);
            assertThat(e.getMessage()).contains((String) c[1]);
        }
    }

    @Test
    void forged_bodies_are_refused() throws JMSException {
        byte[] prefix = concat(plainPrefix(), new byte[] {0}); // no properties
        Object[][] cases = {
                {JmsMessageType.TEXT, new byte[] {2}, "presence"},
                {JmsMessageType.OBJECT, new byte[] {5}, "presence"},
                {JmsMessageType.MAP, new byte[] {1, 0, 0}, "empty map entry name"},
                {JmsMessageType.MAP, new byte[] {2, 1, 'a', 0, 1, 'a', 0}, "twice"},
                {JmsMessageType.STREAM, new byte[] {1, 99}, "tag"},
        };
        for (Object[] c : cases) {
            byte[] p = prefix.clone();
            p[5] = (byte) ((JmsMessageType) c[0]).code();
            assertThat(refusal(codec, withCrc(concat(p, (byte[]) c[1], new byte[4]))).getMessage()).contains((String) c[2]);
        }
    }

    @Test
    void random_input_behind_a_valid_envelope_never_escapes_as_a_runtime_exception() throws JMSException {
        Random random = new Random(42);
        byte[] header = Arrays.copyOf(codec.encode(new JmsMessage()), 5);
        for (int i = 0; i < 20_000; i++) {
            byte[] body = new byte[random.nextInt(64)];
            random.nextBytes(body);
            if (body.length > 0) {
                body[0] = (byte) random.nextInt(6); // mostly a valid type, to get further in
            }
            byte[] forged = withCrc(concat(header, body, new byte[4]));
            try {
                codec.decode(forged);
            } catch (MessageCodecException expected) {
                // the only acceptable failure
            }
        }
    }

    @Test
    void the_resolver_decides_what_a_reply_to_becomes() throws JMSException {
        JmsMessage m = new JmsMessage();
        m.setJMSReplyTo(new TestDestinations.TestTopic("T"));
        JmsMessageCodec refusing = new JmsMessageCodec((kind, name) -> {
            throw new jakarta.jms.InvalidDestinationException("no " + kind + " " + name);
        });
        assertThatThrownBy(() -> refusing.decode(codec.encode(m))).isInstanceOf(jakarta.jms.InvalidDestinationException.class)
                .hasMessageContaining("TOPIC T");
        assertThatThrownBy(() -> new JmsMessageCodec(null)).isInstanceOf(NullPointerException.class);
    }

    // ------------------------------------------------------------------ helpers

    private static JmsMessage empty(JmsMessageType type) {
        return switch (type) {
            case MESSAGE -> new JmsMessage();
            case TEXT -> new JmsTextMessage();
            case BYTES -> new JmsBytesMessage();
            case MAP -> new JmsMapMessage();
            case OBJECT -> new JmsObjectMessage();
            case STREAM -> new JmsStreamMessage();
        };
    }

    private static JmsMessage filled(JmsMessageType type) throws JMSException {
        JmsMessage m = empty(type);
        switch (type) {
            case MESSAGE -> {
            }
            case TEXT -> ((JmsTextMessage) m).setText("text é \uD83D\uDE00");
            case BYTES -> {
                ((JmsBytesMessage) m).writeLong(-5);
                ((JmsBytesMessage) m).writeUTF("u");
            }
            case MAP -> {
                ((JmsMapMessage) m).setString("s", "v");
                ((JmsMapMessage) m).setBytes("b", new byte[] {1, 2});
                ((JmsMapMessage) m).setChar("c", 'z');
            }
            case OBJECT -> ((JmsObjectMessage) m).setObject(new ArrayList<>(List.of("o", 1)));
            case STREAM -> {
                ((JmsStreamMessage) m).writeDouble(1.5);
                ((JmsStreamMessage) m).writeString(null);
                ((JmsStreamMessage) m).writeBytes(new byte[] {3});
            }
        }
        return m;
    }

    private static void assertSameBody(JmsMessage decoded, JmsMessage original) throws JMSException {
        switch (original.messageType()) {
            case MESSAGE -> {
            }
            case TEXT -> assertThat(((JmsTextMessage) decoded).getText()).isEqualTo(((JmsTextMessage) original).getText());
            case BYTES -> assertThat(((JmsBytesMessage) decoded).bodyBytes()).isEqualTo(((JmsBytesMessage) original).bodyBytes());
            case MAP -> assertThat(decoded.getBody(Map.class)).usingRecursiveComparison().isEqualTo(original.getBody(Map.class));
            case OBJECT -> assertThat(((JmsObjectMessage) decoded).getObject()).isEqualTo(((JmsObjectMessage) original).getObject());
            case STREAM -> {
                JmsStreamMessage a = (JmsStreamMessage) decoded;
                JmsStreamMessage b = (JmsStreamMessage) original;
                a.reset();
                b.reset();
                List<Object> fa = new ArrayList<>();
                List<Object> fb = new ArrayList<>();
                drain(a, fa);
                drain(b, fb);
                assertThat(fa).usingRecursiveComparison().isEqualTo(fb);
            }
        }
    }

    private static void drain(JmsStreamMessage s, List<Object> into) throws JMSException {
        while (true) {
            try {
                into.add(s.readObject());
            } catch (MessageEOFException end) {
                return;
            }
        }
    }

    /** {@code bytes} with its last four bytes replaced by the CRC-32 of the rest. */
    private static byte[] withCrc(byte[] bytes) {
        byte[] out = bytes.clone();
        CRC32 crc = new CRC32();
        crc.update(out, 0, out.length - 4);
        int v = (int) crc.getValue();
        out[out.length - 4] = (byte) (v >> 24);
        out[out.length - 3] = (byte) (v >> 16);
        out[out.length - 2] = (byte) (v >> 8);
        out[out.length - 1] = (byte) v;
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
