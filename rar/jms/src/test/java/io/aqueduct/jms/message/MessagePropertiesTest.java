package io.aqueduct.jms.message;

import io.aqueduct.jms.message.ConversionTable.Kind;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Message properties: names, the 3.5.4 conversion table, nulls, JMSX, read-only state. */
class MessagePropertiesTest {

    private final JmsMessage message = new JmsMessage();

    static Stream<Arguments> propertyPairs() {
        return ConversionTable.pairs(ConversionTable.PROPERTY_KINDS);
    }

    private static Object read(Message m, String name, Kind as) throws JMSException {
        return switch (as) {
            case BOOLEAN -> m.getBooleanProperty(name);
            case BYTE -> m.getByteProperty(name);
            case SHORT -> m.getShortProperty(name);
            case INT -> m.getIntProperty(name);
            case LONG -> m.getLongProperty(name);
            case FLOAT -> m.getFloatProperty(name);
            case DOUBLE -> m.getDoubleProperty(name);
            case STRING -> m.getStringProperty(name);
            default -> throw new AssertionError(as);
        };
    }

    private static void write(Message m, String name, Kind kind, Object v) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.setBooleanProperty(name, (Boolean) v);
            case BYTE -> m.setByteProperty(name, (Byte) v);
            case SHORT -> m.setShortProperty(name, (Short) v);
            case INT -> m.setIntProperty(name, (Integer) v);
            case LONG -> m.setLongProperty(name, (Long) v);
            case FLOAT -> m.setFloatProperty(name, (Float) v);
            case DOUBLE -> m.setDoubleProperty(name, (Double) v);
            case STRING -> m.setStringProperty(name, (String) v);
            default -> throw new AssertionError(kind);
        }
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("propertyPairs")
    void a_property_reads_as_the_conversion_table_allows_and_is_refused_otherwise(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        write(message, "p", written, value);
        if (allowed) {
            assertThat(read(message, "p", as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(message, "p", as)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest(name = "{0} via setObjectProperty read as {1}: allowed={2}")
    @MethodSource("propertyPairs")
    void a_property_set_as_an_object_follows_the_same_table(Kind written, Kind as, boolean allowed) throws JMSException {
        Object value = ConversionTable.sample(written);
        message.setObjectProperty("p", value);
        assertThat(message.getObjectProperty("p")).isEqualTo(value);
        if (allowed) {
            assertThat(read(message, "p", as)).isEqualTo(ConversionTable.expected(value, as));
        } else {
            assertThatThrownBy(() -> read(message, "p", as)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", "True"})
    void a_string_property_reads_as_true_when_boolean_valueOf_says_so(String s) throws JMSException {
        message.setStringProperty("flag", s);
        assertThat(message.getBooleanProperty("flag")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "", "false", " true"})
    void any_other_string_property_reads_as_false(String s) throws JMSException {
        message.setStringProperty("flag", s);
        assertThat(message.getBooleanProperty("flag")).isFalse();
    }

    @Test
    void an_unparsable_string_property_propagates_number_format_exception() throws JMSException {
        message.setStringProperty("n", "abc");
        for (Kind k : List.of(Kind.BYTE, Kind.SHORT, Kind.INT, Kind.LONG, Kind.FLOAT, Kind.DOUBLE)) {
            assertThatThrownBy(() -> read(message, "n", k)).as(k.name()).isInstanceOf(NumberFormatException.class);
        }
        // out of range for the narrower type: valueOf refuses it the same way
        message.setStringProperty("big", "300");
        assertThatThrownBy(() -> message.getByteProperty("big")).isInstanceOf(NumberFormatException.class);
        assertThat(message.getShortProperty("big")).isEqualTo((short) 300);
    }

    @Test
    void a_missing_property_reads_as_valueOf_null() throws JMSException {
        // the spec: reading a null as a primitive behaves as the primitive's valueOf(null)
        assertThat(message.getBooleanProperty("missing")).isFalse();
        assertThatThrownBy(() -> message.getByteProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> message.getShortProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> message.getIntProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> message.getLongProperty("missing")).isInstanceOf(NumberFormatException.class);
        // Float.valueOf(null) and Double.valueOf(null) throw NullPointerException, not NumberFormatException
        assertThatThrownBy(() -> message.getFloatProperty("missing")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> message.getDoubleProperty("missing")).isInstanceOf(NullPointerException.class);
        assertThat(message.getStringProperty("missing")).isNull();
        assertThat(message.getObjectProperty("missing")).isNull();
        assertThat(message.propertyExists("missing")).isFalse();
    }

    @Test
    void a_property_set_to_null_exists_and_reads_as_null() throws JMSException {
        message.setStringProperty("s", null);
        message.setObjectProperty("o", null);
        assertThat(message.propertyExists("s")).isTrue();
        assertThat(message.propertyExists("o")).isTrue();
        assertThat(message.getStringProperty("s")).isNull();
        assertThat(message.getObjectProperty("o")).isNull();
        assertThat(message.getBooleanProperty("o")).isFalse();
        assertThatThrownBy(() -> message.getIntProperty("o")).isInstanceOf(NumberFormatException.class);
        assertThat(Collections.list(message.getPropertyNames())).containsExactly("s", "o");
    }

    @Test
    void a_getter_with_a_null_name_reads_as_a_missing_property() throws JMSException {
        assertThat(message.getStringProperty(null)).isNull();
        assertThat(message.getObjectProperty(null)).isNull();
        assertThat(message.propertyExists(null)).isFalse();
    }

    @Test
    void set_object_property_refuses_anything_but_boxed_primitives_and_strings() {
        // char and byte[] are body values (Map/Stream), not property values
        for (Object bad : List.of('c', new byte[1], new ArrayList<>(), new Object(), new StringBuilder("x"), java.math.BigDecimal.ONE)) {
            assertThatThrownBy(() -> message.setObjectProperty("p", bad)).as(bad.getClass().getName())
                    .isInstanceOf(MessageFormatException.class);
        }
        assertThat(message.propertyExists("p")).isFalse();
    }

    @Test
    void set_object_property_with_a_bad_name_is_an_illegal_argument_even_with_a_bad_value() {
        assertThatThrownBy(() -> message.setObjectProperty(null, new Object())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_null_or_empty_property_name_is_an_illegal_argument_for_every_setter() {
        for (String name : new String[] {null, ""}) {
            List<ThrowingSetter> setters = allSetters(name);
            for (ThrowingSetter s : setters) {
                assertThat(catchThrowable(s::set)).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "null", "TRUE", "true", "FALSE", "False", "NOT", "not", "AND", "OR", "BETWEEN",
            "between", "LIKE", "IN", "in", "IS", "is", "ESCAPE", "escape"})
    void a_selector_reserved_word_is_not_a_property_name(String name) {
        assertThatThrownBy(() -> message.setIntProperty(name, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1abc", "a-b", "a b", "a.b", "a+b", " a", "a\u0000b", "é-", "\t", "a\nb", "#x", "x'y", "a=b"})
    void a_name_that_is_not_a_java_identifier_is_refused(String name) {
        assertThatThrownBy(() -> message.setStringProperty(name, "v")).isInstanceOf(IllegalArgumentException.class);
        assertThat(message.propertyExists(name)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "_", "$", "_x1", "$dollar", "héllo", "名前", "Null1", "ORDER", "IS_IT", "JMS_vendor_x", "inn",
            "JMSCorrelationIDx", "\uD835\uDC9Cx"})
    void a_java_identifier_that_is_not_reserved_is_a_property_name(String name) throws JMSException {
        message.setStringProperty(name, "v");
        assertThat(message.getStringProperty(name)).isEqualTo("v");
    }

    @Test
    void a_very_long_identifier_and_a_very_long_value_are_accepted() throws JMSException {
        String name = "p" + "x".repeat(100_000);
        String value = "v".repeat(1_000_000);
        message.setStringProperty(name, value);
        assertThat(message.getStringProperty(name)).isEqualTo(value);
    }

    @Test
    void a_hostile_name_is_shown_bounded_and_without_control_characters() {
        String name = "\u0001" + "y".repeat(10_000);
        Throwable t = catchThrowable(() -> message.setIntProperty(name, 1));
        assertThat(t).isInstanceOf(IllegalArgumentException.class);
        assertThat(t.getMessage()).hasSizeLessThan(300).doesNotContain("\u0001").contains("\\u0001");
    }

    @ParameterizedTest
    @ValueSource(strings = {"JMSDestination", "JMSDeliveryMode", "JMSExpiration", "JMSDeliveryTime", "JMSPriority",
            "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSReplyTo", "JMSType", "JMSRedelivered"})
    void a_header_field_name_is_not_a_property_name(String name) {
        assertThatThrownBy(() -> message.setStringProperty(name, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("header");
    }

    @ParameterizedTest
    @ValueSource(strings = {"JMSXUserID", "JMSXAppID", "JMSXDeliveryCount", "JMSXProducerTXID", "JMSXConsumerTXID",
            "JMSXRcvTimestamp", "JMSXState", "JMSXSomethingElse"})
    void the_application_cannot_set_a_provider_set_jmsx_property(String name) {
        assertThatThrownBy(() -> message.setObjectProperty(name, name.endsWith("Count") ? (Object) 1 : "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("provider");
    }

    @Test
    void the_application_sets_group_id_as_a_string_and_group_seq_as_an_int() throws JMSException {
        message.setStringProperty("JMSXGroupID", "orders-7");
        message.setIntProperty("JMSXGroupSeq", 3);
        assertThat(message.getStringProperty("JMSXGroupID")).isEqualTo("orders-7");
        assertThat(message.getIntProperty("JMSXGroupSeq")).isEqualTo(3);
        assertThat(message.getLongProperty("JMSXGroupSeq")).isEqualTo(3L);
    }

    @Test
    void group_properties_of_the_wrong_type_are_refused() {
        assertThatThrownBy(() -> message.setIntProperty("JMSXGroupID", 1)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> message.setStringProperty("JMSXGroupSeq", "1")).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> message.setLongProperty("JMSXGroupSeq", 1L)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void the_provider_sets_jmsx_properties_with_their_spec_types() throws JMSException {
        message.setDeliveryCount(2);
        message.setProviderProperty("JMSXUserID", "scott");
        message.setProviderProperty("JMSXRcvTimestamp", 123L);
        assertThat(message.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        assertThat(message.getJMSRedelivered()).isTrue();
        assertThat(message.getStringProperty("JMSXUserID")).isEqualTo("scott");
        assertThat(message.getLongProperty("JMSXRcvTimestamp")).isEqualTo(123L);
        assertThatThrownBy(() -> message.setProviderProperty("JMSXDeliveryCount", "2")).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> message.setProviderProperty("JMSXRcvTimestamp", 1)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> message.setProviderProperty("bad name", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> message.setProviderProperty("x", 'c')).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> message.setDeliveryCount(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_first_delivery_is_not_redelivered() {
        message.setDeliveryCount(1);
        assertThat(message.getJMSRedelivered()).isFalse();
    }

    @Test
    void property_names_list_every_property_including_jmsx_and_no_header() throws JMSException {
        message.setJMSCorrelationID("c");
        message.setJMSType("t");
        message.setIntProperty("a", 1);
        message.setStringProperty("JMSXGroupID", "g");
        message.setDeliveryCount(1);
        assertThat(Collections.list(message.getPropertyNames())).containsExactly("a", "JMSXGroupID", "JMSXDeliveryCount");
    }

    @Test
    void the_property_name_enumeration_is_a_snapshot() throws JMSException {
        message.setIntProperty("a", 1);
        var names = message.getPropertyNames();
        message.setIntProperty("b", 2); // must not break the enumeration already handed out
        assertThat(Collections.list(names)).containsExactly("a");
    }

    @Test
    void setting_a_property_again_replaces_its_value_and_type() throws JMSException {
        message.setIntProperty("p", 1);
        message.setStringProperty("p", "two");
        assertThat(message.getObjectProperty("p")).isEqualTo("two");
        assertThat(Collections.list(message.getPropertyNames())).containsExactly("p");
    }

    @Test
    void a_received_message_refuses_property_changes_until_cleared() throws JMSException {
        message.setIntProperty("p", 1);
        message.markReceived();
        for (ThrowingSetter s : allSetters("q")) {
            assertThat(catchThrowable(s::set)).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThat(message.getIntProperty("p")).isEqualTo(1); // reading is fine
        message.clearProperties();
        assertThat(message.propertyExists("p")).isFalse();
        message.setIntProperty("q", 2);
        assertThat(message.getIntProperty("q")).isEqualTo(2);
    }

    @Test
    void the_provider_can_still_set_properties_on_a_received_message() throws JMSException {
        message.markReceived();
        message.setDeliveryCount(3);
        message.setProviderProperty("JMSXUserID", "u");
        assertThat(message.getIntProperty("JMSXDeliveryCount")).isEqualTo(3);
    }

    @Test
    void clear_properties_removes_jmsx_properties_and_keeps_headers() throws JMSException {
        message.setDeliveryCount(2);
        message.setJMSType("t");
        message.clearProperties();
        assertThat(message.getPropertyNames().hasMoreElements()).isFalse();
        assertThat(message.getJMSType()).isEqualTo("t");
    }

    @FunctionalInterface
    interface ThrowingSetter {
        void set() throws Exception;
    }

    private List<ThrowingSetter> allSetters(String name) {
        return List.of(
                () -> message.setBooleanProperty(name, true),
                () -> message.setByteProperty(name, (byte) 1),
                () -> message.setShortProperty(name, (short) 1),
                () -> message.setIntProperty(name, 1),
                () -> message.setLongProperty(name, 1L),
                () -> message.setFloatProperty(name, 1f),
                () -> message.setDoubleProperty(name, 1d),
                () -> message.setStringProperty(name, "s"),
                () -> message.setObjectProperty(name, 1));
    }
}
