package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;

import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ObjectMessage: serialized copies, filtered deserialization, refusals that name the class. */
class ObjectMessageTest {

    record Payload(String name, int n) implements Serializable {
    }

    /** Refused by the JVM-wide filter this test installs; nothing else is affected by it. */
    record RefusedEverywhere(String s) implements Serializable {
    }

    static final class HoldsANonSerializableField implements Serializable {
        @SuppressWarnings("unused")
        private final Object notSerializable = new Object();
    }

    @Test
    void set_object_takes_a_snapshot_so_later_changes_do_not_reach_the_message() throws JMSException {
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(list);
        list.add("b");
        assertThat(m.getObject()).isEqualTo(List.of("a"));
    }

    @Test
    void get_object_returns_a_new_copy_each_time() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new ArrayList<>(List.of("a")));
        @SuppressWarnings("unchecked")
        List<String> first = (List<String>) m.getObject();
        first.add("changed");
        assertThat(m.getObject()).isEqualTo(List.of("a")).isNotSameAs(first);
    }

    @Test
    void a_record_round_trips() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new Payload("p", 3));
        assertThat(m.getObject()).isEqualTo(new Payload("p", 3));
        assertThat(m.getBody(Payload.class)).isEqualTo(new Payload("p", 3));
    }

    @Test
    void a_null_object_is_no_body() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject("x");
        m.setObject(null);
        assertThat(m.getObject()).isNull();
        assertThat(m.getBody(Integer.class)).isNull();
    }

    @Test
    void an_object_that_cannot_be_serialized_is_refused_at_set_time() {
        JmsObjectMessage m = new JmsObjectMessage();
        assertThatThrownBy(() -> m.setObject(new HoldsANonSerializableField())).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(HoldsANonSerializableField.class.getName());
    }

    @Test
    void a_class_the_message_filter_refuses_is_a_format_error_naming_the_class() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage(ObjectInputFilter.Config.createFilter("!" + Payload.class.getName()));
        m.setObject(new Payload("p", 1)); // serializing is not filtered
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(Payload.class.getName()).hasMessageContaining("filter");
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class)
                .hasMessageContaining(Payload.class.getName());
        // the javadoc: isBodyAssignableTo throws MessageFormatException when deserialization fails
        assertThatThrownBy(() -> m.isBodyAssignableTo(Object.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void a_class_nested_inside_an_allowed_one_is_refused_too() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage(ObjectInputFilter.Config.createFilter("java.util.*;java.lang.*;!*"));
        m.setObject(new ArrayList<>(List.of(new Payload("p", 1))));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class).hasMessageContaining(Payload.class.getName());
    }

    @Test
    void a_graph_beyond_the_filter_limits_is_refused_with_the_limits_named() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage(ObjectInputFilter.Config.createFilter("maxdepth=2"));
        ArrayList<Object> deep = new ArrayList<>(List.of(new ArrayList<>(List.of(new ArrayList<>(List.of("x"))))));
        m.setObject(deep);
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class).hasMessageContaining("depth");
    }

    @Test
    void without_its_own_filter_a_message_uses_the_jvm_wide_filter() throws JMSException {
        // the JVM-wide filter can be set once per JVM: this one refuses only a class no other test uses
        synchronized (ObjectInputFilter.Config.class) {
            if (ObjectInputFilter.Config.getSerialFilter() == null) {
                ObjectInputFilter.Config.setSerialFilter(ObjectInputFilter.Config.createFilter("!" + RefusedEverywhere.class.getName()));
            }
        }
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new RefusedEverywhere("s"));
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class).hasMessageContaining(RefusedEverywhere.class.getName());
        m.setObject(new Payload("p", 1));
        assertThat(m.getObject()).isEqualTo(new Payload("p", 1));
        // a filter of its own replaces the JVM-wide one
        m.setObjectInputFilter(info -> ObjectInputFilter.Status.ALLOWED);
        m.setObject(new RefusedEverywhere("s"));
        assertThat(m.getObject()).isEqualTo(new RefusedEverywhere("s"));
    }

    @Test
    void a_class_that_cannot_be_found_is_a_format_error_naming_it() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new Payload("p", 1));
        // rename the class inside the stream to one of the same length that does not exist
        String real = Payload.class.getName();
        String ghost = real.substring(0, real.length() - 1) + "X";
        byte[] bytes = m.serializedBody().clone();
        byte[] from = real.getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bytes, from);
        System.arraycopy(ghost.getBytes(StandardCharsets.UTF_8), 0, bytes, at, from.length);
        m.setSerializedBody(bytes);
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class).hasMessageContaining(ghost);
    }

    @Test
    void garbage_instead_of_a_serialized_object_is_a_format_error() {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setSerializedBody(new byte[] {1, 2, 3, 4, 5});
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class);
        m.setSerializedBody(new byte[0]);
        assertThatThrownBy(m::getObject).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void a_received_object_message_refuses_set_object_until_cleared() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject("a");
        m.markReceived();
        assertThatThrownBy(() -> m.setObject("b")).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.getObject()).isEqualTo("a");
        m.clearBody();
        m.setObject("b");
        assertThat(m.getObject()).isEqualTo("b");
    }

    @Test
    void a_copy_keeps_the_filter() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage(ObjectInputFilter.Config.createFilter("!" + Payload.class.getName()));
        m.setObject(new Payload("p", 1));
        JmsObjectMessage copy = (JmsObjectMessage) m.copy();
        assertThatThrownBy(copy::getObject).isInstanceOf(MessageFormatException.class);
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
