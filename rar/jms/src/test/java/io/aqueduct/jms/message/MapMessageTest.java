package io.aqueduct.jms.message;

import io.aqueduct.jms.message.ConversionTable.Kind;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** MapMessage: the conversion table, names, nulls, copies, read-only state. */
class MapMessageTest {

    private final JmsMapMessage m = new JmsMapMessage();

    static Stream<Arguments> bodyPairs() {
        return ConversionTable.pairs(ConversionTable.BODY_KINDS);
    }

    static Object read(MapMessage m, String name, Kind as) throws JMSException {
        return switch (as) {
            case BOOLEAN -> m.getBoolean(name);
            case BYTE -> m.getByte(name);
            case SHORT -> m.getShort(name);
            case CHAR -> m.getChar(name);
            case INT -> m.getInt(name);
            case LONG -> m.getLong(name);
            case FLOAT -> m.getFloat(name);
            case DOUBLE -> m.getDouble(name);
            case STRING -> m.getString(name);
            case BYTES -> m.getBytes(name);
        };
    }

    static void write(MapMessage m, String name, Kind kind, Object v) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.setBoolean(name, (Boolean) v);
            case BYTE -> m.setByte(name, (Byte) v);
            case SHORT -> m.setShort(name, (Short) v);
            case CHAR -> m.setChar(name, (Character) v);
            case INT -> m.setInt(name, (Integer) v);
            case LONG -> m.setLong(name, (Long) v);
            case FLOAT -> m.setFloat(name, (Float) v);
            case DOUBLE -> m.setDouble(name, (Double) v);
            case STRING -> m.setString(name, (String) v);
            case BYTES -> m.setBytes(name, (byte[]) v);
        }
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("bodyPairs")
    void a_map_value_reads_as_the_conversion_table_allows_and_is_refused_otherwise(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        write(m, "v", written, value);
        if (allowed) {
            assertThat(read(m, "v", as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(m, "v", as)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest(name = "{0} via setObject read as {1}: allowed={2}")
    @MethodSource("bodyPairs")
    void a_map_value_set_as_an_object_follows_the_same_table(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        m.setObject("v", value);
        assertThat(m.getObject("v")).isEqualTo(value);
        if (allowed) {
            assertThat(read(m, "v", as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(m, "v", as)).isInstanceOf(MessageFormatException.class);
        }
    }

    @Test
    void a_missing_entry_reads_as_valueOf_null() throws JMSException {
        assertThat(m.getBoolean("none")).isFalse();
        assertThatThrownBy(() -> m.getByte("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getShort("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getInt("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getLong("none")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getFloat("none")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.getDouble("none")).isInstanceOf(NullPointerException.class);
        // char has no String conversion: the spec makes a null char a NullPointerException
        assertThatThrownBy(() -> m.getChar("none")).isInstanceOf(NullPointerException.class);
        assertThat(m.getString("none")).isNull();
        assertThat(m.getBytes("none")).isNull();
        assertThat(m.getObject("none")).isNull();
        assertThat(m.itemExists("none")).isFalse();
        assertThat(m.itemExists(null)).isFalse();
    }

    @Test
    void null_values_are_entries() throws JMSException {
        m.setString("s", null);
        m.setBytes("b", null);
        m.setObject("o", null);
        assertThat(m.itemExists("s")).isTrue();
        assertThat(m.getBytes("b")).isNull();
        assertThat(m.getObject("o")).isNull();
        assertThat(Collections.list(m.getMapNames())).containsExactly("s", "b", "o");
    }

    @Test
    void an_unparsable_string_propagates_number_format_exception() throws JMSException {
        m.setString("s", "1.5x");
        assertThatThrownBy(() -> m.getDouble("s")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getInt("s")).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void a_null_or_empty_name_is_an_illegal_argument_for_every_setter() {
        for (String name : new String[] {null, ""}) {
            for (MessagePropertiesTest.ThrowingSetter s : allSetters(name)) {
                assertThat(catchThrowable(s::set)).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void any_other_string_is_a_map_name() throws JMSException {
        // map names are not selector identifiers: no identifier rules
        for (String name : List.of("a b", "1", "NULL", "JMSXUserID", "JMSPriority", "\u0000", "x".repeat(100_000))) {
            m.setInt(name, 1);
            assertThat(m.getInt(name)).isEqualTo(1);
        }
    }

    @Test
    void set_object_refuses_types_a_map_cannot_hold() {
        for (Object bad : List.of(new Object(), new ArrayList<>(), new int[1], new StringBuilder(), java.math.BigInteger.ONE)) {
            assertThatThrownBy(() -> m.setObject("x", bad)).isInstanceOf(MessageFormatException.class);
        }
        assertThat(m.itemExists("x")).isFalse();
    }

    @Test
    void bytes_are_copied_in_and_out() throws JMSException {
        byte[] data = {1, 2, 3};
        m.setBytes("b", data);
        m.setObject("o", data);
        m.setBytes("part", data, 1, 2);
        data[0] = 9;
        assertThat(m.getBytes("b")).containsExactly(1, 2, 3);
        assertThat((byte[]) m.getObject("o")).containsExactly(1, 2, 3);
        assertThat(m.getBytes("part")).containsExactly(2, 3);
        m.getBytes("b")[0] = 7;
        ((byte[]) m.getObject("b"))[0] = 7;
        assertThat(m.getBytes("b")).containsExactly(1, 2, 3);
    }

    @Test
    void set_bytes_with_a_bad_range_is_an_index_error() {
        assertThatThrownBy(() -> m.setBytes("b", new byte[2], 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(m.itemExists("b")).isFalse();
    }

    @Test
    void map_names_are_a_snapshot_in_insertion_order() throws JMSException {
        m.setInt("b", 1);
        m.setInt("a", 2);
        var names = m.getMapNames();
        m.setInt("c", 3);
        assertThat(Collections.list(names)).containsExactly("b", "a");
    }

    @Test
    void a_received_map_message_refuses_changes_until_cleared() throws JMSException {
        m.setInt("i", 1);
        m.markReceived();
        for (MessagePropertiesTest.ThrowingSetter s : allSetters("x")) {
            assertThat(catchThrowable(s::set)).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThat(m.getInt("i")).isEqualTo(1);
        m.clearBody();
        assertThat(m.itemExists("i")).isFalse();
        m.setInt("x", 2);
    }

    private List<MessagePropertiesTest.ThrowingSetter> allSetters(String name) {
        return List.of(
                () -> m.setBoolean(name, true), () -> m.setByte(name, (byte) 1), () -> m.setShort(name, (short) 1),
                () -> m.setChar(name, 'c'), () -> m.setInt(name, 1), () -> m.setLong(name, 1L),
                () -> m.setFloat(name, 1f), () -> m.setDouble(name, 1d), () -> m.setString(name, "s"),
                () -> m.setBytes(name, new byte[1]), () -> m.setBytes(name, new byte[1], 0, 1),
                () -> m.setObject(name, 1));
    }
}
