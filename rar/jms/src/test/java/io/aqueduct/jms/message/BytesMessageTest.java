package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** BytesMessage: modes, DataOutput encoding, partial reads, EOF, writeObject. */
class BytesMessageTest {

    private final JmsBytesMessage m = new JmsBytesMessage();

    @Test
    void every_type_written_reads_back_in_order() throws JMSException {
        m.writeBoolean(true);
        m.writeByte((byte) -1);
        m.writeShort((short) -2);
        m.writeChar('é');
        m.writeInt(Integer.MIN_VALUE);
        m.writeLong(Long.MAX_VALUE);
        m.writeFloat(Float.NaN);
        m.writeDouble(-0.0d);
        m.writeUTF("grüße \u0000 \uD83D\uDE00");
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeBytes(new byte[] {9, 8, 7, 6}, 1, 2);
        m.reset();
        assertThat(m.readBoolean()).isTrue();
        assertThat(m.readByte()).isEqualTo((byte) -1);
        assertThat(m.readShort()).isEqualTo((short) -2);
        assertThat(m.readChar()).isEqualTo('é');
        assertThat(m.readInt()).isEqualTo(Integer.MIN_VALUE);
        assertThat(m.readLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(m.readFloat()).isNaN();
        assertThat(Double.doubleToRawLongBits(m.readDouble())).isEqualTo(Double.doubleToRawLongBits(-0.0d));
        assertThat(m.readUTF()).isEqualTo("grüße \u0000 \uD83D\uDE00");
        byte[] rest = new byte[10];
        assertThat(m.readBytes(rest)).isEqualTo(5);
        assertThat(rest).startsWith(1, 2, 3, 8, 7);
        assertThat(m.readBytes(rest)).isEqualTo(-1);
    }

    @Test
    void the_encoding_is_that_of_java_io_data_output() throws Exception {
        // so that non-JMS readers of a stored BytesMessage (and AQ RAW consumers) can decode it
        m.writeInt(0x01020304);
        m.writeUTF("aé");
        m.writeDouble(1.25);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeInt(0x01020304);
        out.writeUTF("aé");
        out.writeDouble(1.25);
        assertThat(m.getBody(byte[].class)).isEqualTo(expected.toByteArray());
    }

    @Test
    void unsigned_reads_see_the_bytes_as_unsigned() throws JMSException {
        m.writeByte((byte) 0xff);
        m.writeShort((short) 0xfffe);
        m.reset();
        assertThat(m.readUnsignedByte()).isEqualTo(255);
        assertThat(m.readUnsignedShort()).isEqualTo(0xfffe);
    }

    @Test
    void a_new_message_is_write_only() throws JMSException {
        assertThatThrownBy(m::readByte).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::getBodyLength).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageNotReadableException.class);
        m.writeByte((byte) 1);
    }

    @Test
    void after_reset_the_message_is_read_only() throws JMSException {
        m.writeInt(5);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(4);
        List<Executable> writes = new ArrayList<>(List.of(
                () -> m.writeBoolean(true), () -> m.writeByte((byte) 1), () -> m.writeShort((short) 1),
                () -> m.writeChar('c'), () -> m.writeInt(1), () -> m.writeLong(1), () -> m.writeFloat(1),
                () -> m.writeDouble(1), () -> m.writeUTF("x"), () -> m.writeBytes(new byte[1]),
                () -> m.writeBytes(new byte[1], 0, 1), () -> m.writeObject(1)));
        for (Executable w : writes) {
            assertThatThrownBy(w::run).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThat(m.readInt()).isEqualTo(5);
    }

    @Test
    void reset_again_rereads_from_the_start() throws JMSException {
        m.writeInt(5);
        m.reset();
        m.readInt();
        m.reset();
        assertThat(m.readInt()).isEqualTo(5);
    }

    @Test
    void reading_past_the_end_is_eof_and_consumes_nothing() throws JMSException {
        m.writeShort((short) 7);
        m.reset();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readLong).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 7); // still there after the failed wider read
        for (Executable r : List.<Executable>of(m::readBoolean, m::readByte, m::readUnsignedByte, m::readShort,
                m::readUnsignedShort, m::readChar, m::readInt, m::readLong, m::readFloat, m::readDouble, m::readUTF)) {
            assertThatThrownBy(r::run).isInstanceOf(MessageEOFException.class);
        }
    }

    @Test
    void a_utf_string_whose_length_runs_past_the_end_is_eof_and_consumes_nothing() throws JMSException {
        m.writeShort((short) 10); // claims 10 bytes of UTF
        m.writeByte((byte) 'a');
        m.reset();
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 10);
    }

    @Test
    void malformed_utf_is_a_format_error() throws JMSException {
        m.writeShort((short) 1);
        m.writeByte((byte) 0xff);
        m.reset();
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void a_utf_string_longer_than_65535_encoded_bytes_is_refused() throws JMSException {
        assertThatThrownBy(() -> m.writeUTF("é".repeat(40_000))).isInstanceOf(MessageFormatException.class);
        m.writeUTF("x".repeat(65_535)); // the limit itself is fine
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(65_537);
    }

    @Test
    void read_bytes_fills_the_buffer_then_returns_the_rest_then_minus_one() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(1, 2);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).containsExactly(3, 4);
        assertThat(m.readBytes(buf)).isEqualTo(1); // fewer than asked: the end is reached
        assertThat(buf[0]).isEqualTo((byte) 5);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
    }

    @Test
    void read_bytes_with_a_length_reads_at_most_that_many() throws JMSException {
        m.writeBytes(new byte[] {1, 2, 3});
        m.reset();
        byte[] buf = new byte[10];
        assertThat(m.readBytes(buf, 2)).isEqualTo(2);
        assertThat(m.readBytes(buf, 0)).isEqualTo(0);
        assertThat(m.readBytes(buf, 10)).isEqualTo(1);
        assertThat(m.readBytes(buf, 10)).isEqualTo(-1);
    }

    @Test
    void read_bytes_with_a_length_outside_the_buffer_is_an_index_error() throws JMSException {
        m.writeBytes(new byte[] {1});
        m.reset();
        assertThatThrownBy(() -> m.readBytes(new byte[2], 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[2], -1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(m.readByte()).isEqualTo((byte) 1);
    }

    @Test
    void an_empty_body_reads_as_minus_one_and_has_length_zero() throws JMSException {
        m.reset();
        assertThat(m.getBodyLength()).isZero();
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1);
    }

    @Test
    void write_bytes_with_a_bad_range_is_an_index_error() {
        assertThatThrownBy(() -> m.writeBytes(new byte[3], 2, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.writeBytes(new byte[3], -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void written_bytes_are_copied_at_write_time() throws JMSException {
        byte[] data = {1, 2};
        m.writeBytes(data);
        data[0] = 9;
        m.reset();
        assertThat(m.readByte()).isEqualTo((byte) 1);
    }

    @Test
    void write_object_writes_each_supported_type_like_its_write_method() throws JMSException {
        JmsBytesMessage direct = new JmsBytesMessage();
        for (Object v : List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s", new byte[] {7})) {
            m.writeObject(v);
        }
        direct.writeBoolean(true);
        direct.writeByte((byte) 1);
        direct.writeShort((short) 2);
        direct.writeChar('c');
        direct.writeInt(3);
        direct.writeLong(4L);
        direct.writeFloat(5f);
        direct.writeDouble(6d);
        direct.writeUTF("s");
        direct.writeBytes(new byte[] {7});
        assertThat(m.getBody(byte[].class)).isEqualTo(direct.getBody(byte[].class));
    }

    @Test
    void write_object_refuses_null_with_npe_and_other_types_with_format_error() {
        assertThatThrownBy(() -> m.writeObject(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.writeObject(List.of())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.writeObject(new int[1])).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void a_large_body_grows_and_reads_back() throws JMSException {
        byte[] chunk = new byte[1 << 20];
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) i;
        }
        for (int i = 0; i < 8; i++) {
            m.writeBytes(chunk);
        }
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(8L << 20);
        byte[] buf = new byte[chunk.length];
        for (int i = 0; i < 8; i++) {
            assertThat(m.readBytes(buf)).isEqualTo(chunk.length);
            assertThat(buf).isEqualTo(chunk);
        }
        assertThat(m.readBytes(buf)).isEqualTo(-1);
    }

    @Test
    void a_received_bytes_message_is_in_read_mode_at_the_start() throws JMSException {
        m.writeInt(1);
        m.markReceived();
        assertThat(m.readInt()).isEqualTo(1);
        assertThatThrownBy(() -> m.writeInt(2)).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        m.writeInt(2);
    }

    @FunctionalInterface
    interface Executable {
        void run() throws Exception;
    }

}
