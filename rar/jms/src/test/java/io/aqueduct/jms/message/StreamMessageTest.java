package io.aqueduct.jms.message;

import io.aqueduct.jms.message.ConversionTable.Kind;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** StreamMessage: the conversion table, no advance on failure, byte[] chunks, nulls, modes. */
class StreamMessageTest {

    private final JmsStreamMessage m = new JmsStreamMessage();

    static Stream<Arguments> bodyPairs() {
        return ConversionTable.pairs(ConversionTable.BODY_KINDS);
    }

    static Object read(StreamMessage m, Kind as) throws JMSException {
        return switch (as) {
            case BOOLEAN -> m.readBoolean();
            case BYTE -> m.readByte();
            case SHORT -> m.readShort();
            case CHAR -> m.readChar();
            case INT -> m.readInt();
            case LONG -> m.readLong();
            case FLOAT -> m.readFloat();
            case DOUBLE -> m.readDouble();
            case STRING -> m.readString();
            case BYTES -> {
                byte[] buf = new byte[64];
                int n = m.readBytes(buf);
                yield java.util.Arrays.copyOf(buf, n);
            }
        };
    }

    static void write(StreamMessage m, Kind kind, Object v) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.writeBoolean((Boolean) v);
            case BYTE -> m.writeByte((Byte) v);
            case SHORT -> m.writeShort((Short) v);
            case CHAR -> m.writeChar((Character) v);
            case INT -> m.writeInt((Integer) v);
            case LONG -> m.writeLong((Long) v);
            case FLOAT -> m.writeFloat((Float) v);
            case DOUBLE -> m.writeDouble((Double) v);
            case STRING -> m.writeString((String) v);
            case BYTES -> m.writeBytes((byte[]) v);
        }
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("bodyPairs")
    void a_stream_value_reads_as_the_table_allows_and_a_refused_read_does_not_advance(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        write(m, written, value);
        m.writeString("next");
        m.reset();
        if (allowed) {
            assertThat(read(m, as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(m, as)).isInstanceOf(MessageFormatException.class);
            // the spec: a failed read leaves the position, so the value can be read as another type
            assertThat(m.readObject()).isEqualTo(value);
        }
        assertThat(m.readString()).isEqualTo("next");
    }

    @ParameterizedTest(name = "{0} via writeObject read as {1}: allowed={2}")
    @MethodSource("bodyPairs")
    void a_value_written_as_an_object_follows_the_same_table(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        m.writeObject(value);
        m.reset();
        if (allowed) {
            assertThat(read(m, as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(m, as)).isInstanceOf(MessageFormatException.class);
        }
    }

    @Test
    void an_unparsable_string_throws_number_format_exception_and_does_not_advance() throws JMSException {
        m.writeString("abc");
        m.reset();
        assertThatThrownBy(m::readInt).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readDouble).isInstanceOf(NumberFormatException.class);
        assertThat(m.readString()).isEqualTo("abc");
    }

    @Test
    void a_null_field_reads_as_valueOf_null_and_a_failed_read_does_not_advance() throws JMSException {
        m.writeString(null);
        m.reset();
        assertThatThrownBy(m::readByte).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readShort).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readInt).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readLong).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readFloat).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(m::readDouble).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(m::readChar).isInstanceOf(NullPointerException.class);
        assertThat(m.readBoolean()).isFalse(); // Boolean.valueOf(null), and this one advances
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
        m.reset();
        assertThat(m.readString()).isNull();
        m.reset();
        assertThat(m.readObject()).isNull();
        m.reset();
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1); // the javadoc: a null byte[] field reads as -1
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void a_byte_array_field_is_read_in_chunks_ending_with_a_short_count() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.writeInt(9);
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(1, 2);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(3, 4);
        assertThat(m.readBytes(buf)).isEqualTo(1); // short: the field is done
        assertThat(buf[0]).isEqualTo((byte) 5);
        assertThat(m.readInt()).isEqualTo(9);
    }

    @Test
    void a_byte_array_field_that_fills_the_last_buffer_ends_with_minus_one() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3, 4});
        m.writeBytes(new byte[] {5});
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(m.readBytes(buf)).isEqualTo(-1); // the end of the first field
        assertThat(m.readBytes(buf)).isEqualTo(1);  // the second field
        assertThat(buf[0]).isEqualTo((byte) 5);
        assertThatThrownBy(() -> m.readBytes(buf)).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void an_empty_byte_array_field_reads_as_zero() throws JMSException {
        m.writeBytes(new byte[0]);
        m.writeBoolean(true);
        m.reset();
        assertThat(m.readBytes(new byte[3])).isZero();
        assertThat(m.readBoolean()).isTrue();
    }

    @Test
    void reading_another_type_inside_a_byte_array_field_is_refused() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeInt(4);
        m.reset();
        assertThat(m.readBytes(new byte[1])).isEqualTo(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageFormatException.class);
        byte[] rest = new byte[5];
        assertThat(m.readBytes(rest)).isEqualTo(2);
        assertThat(m.readInt()).isEqualTo(4);
    }

    @Test
    void read_bytes_of_a_non_byte_array_field_is_refused_without_advancing() throws JMSException {
        m.writeString("s");
        m.reset();
        assertThatThrownBy(() -> m.readBytes(new byte[3])).isInstanceOf(MessageFormatException.class);
        assertThat(m.readString()).isEqualTo("s");
    }

    @Test
    void read_object_returns_a_copy_of_a_byte_array() throws JMSException {
        byte[] data = {1, 2};
        m.writeBytes(data);
        m.writeBytes(data, 1, 1);
        data[0] = 9;
        m.reset();
        byte[] read = (byte[]) m.readObject();
        assertThat(read).containsExactly(1, 2);
        read[0] = 7;
        assertThat((byte[]) m.readObject()).containsExactly(2);
        m.reset();
        assertThat((byte[]) m.readObject()).containsExactly(1, 2);
    }

    @Test
    void reading_past_the_last_field_is_eof() throws JMSException {
        m.reset();
        for (BytesMessageTest.Executable r : List.<BytesMessageTest.Executable>of(m::readBoolean, m::readByte, m::readShort,
                m::readChar, m::readInt, m::readLong, m::readFloat, m::readDouble, m::readString, m::readObject,
                () -> m.readBytes(new byte[1]))) {
            assertThatThrownBy(r::run).isInstanceOf(MessageEOFException.class);
        }
    }

    @Test
    void write_mode_refuses_reads_and_read_mode_refuses_writes() throws JMSException {
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageNotReadableException.class);
        m.writeInt(1);
        m.reset();
        List<BytesMessageTest.Executable> writes = List.of(() -> m.writeBoolean(true), () -> m.writeByte((byte) 1),
                () -> m.writeShort((short) 1), () -> m.writeChar('c'), () -> m.writeInt(1), () -> m.writeLong(1),
                () -> m.writeFloat(1), () -> m.writeDouble(1), () -> m.writeString("s"), () -> m.writeBytes(new byte[1]),
                () -> m.writeBytes(new byte[1], 0, 1), () -> m.writeObject(1));
        for (BytesMessageTest.Executable w : writes) {
            assertThat(catchThrowable(w::run)).isInstanceOf(MessageNotWriteableException.class);
        }
    }

    @Test
    void reset_rereads_from_the_first_field_even_inside_a_byte_array() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3});
        m.reset();
        m.readBytes(new byte[1]);
        m.reset();
        assertThat((byte[]) m.readObject()).containsExactly(1, 2, 3);
    }

    @Test
    void write_object_refuses_types_a_stream_cannot_hold() {
        for (Object bad : List.of(new Object(), new ArrayList<>(), new int[1], new StringBuilder())) {
            assertThatThrownBy(() -> m.writeObject(bad)).isInstanceOf(MessageFormatException.class);
        }
    }

    @Test
    void write_bytes_with_a_bad_range_is_an_index_error() {
        assertThatThrownBy(() -> m.writeBytes(new byte[2], 2, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void a_received_stream_message_reads_from_the_start_and_refuses_writes_until_cleared() throws JMSException {
        m.writeInt(1);
        m.writeInt(2);
        m.markReceived();
        assertThat(m.readInt()).isEqualTo(1);
        assertThatThrownBy(() -> m.writeInt(3)).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        m.writeInt(3);
        m.reset();
        assertThat(m.readInt()).isEqualTo(3);
    }
}
