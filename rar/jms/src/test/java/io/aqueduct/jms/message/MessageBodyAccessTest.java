package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** getBody(Class) and isBodyAssignableTo(Class) for every message type (Message javadoc). */
class MessageBodyAccessTest {

    private static final List<Class<?>> ANY = List.of(Object.class, String.class, byte[].class, Map.class, Integer.class, List.class);

    @Test
    void a_plain_message_has_no_body_and_is_assignable_to_anything() throws JMSException {
        JmsMessage m = new JmsMessage();
        for (Class<?> c : ANY) {
            assertThat(m.getBody(c)).isNull();
            assertThat(m.isBodyAssignableTo(c)).isTrue();
        }
    }

    @Test
    void empty_text_bytes_map_and_object_messages_return_null_for_any_class() throws JMSException {
        // the javadoc: without a body "this parameter may be set to any type; the returned value will always be null"
        for (JmsMessage m : List.of(new JmsTextMessage(), new JmsBytesMessage(), new JmsMapMessage(), new JmsObjectMessage())) {
            for (Class<?> c : ANY) {
                assertThat(m.getBody(c)).as(m + " " + c).isNull();
                assertThat(m.isBodyAssignableTo(c)).isTrue();
            }
        }
    }

    @Test
    void a_text_body_is_a_string() throws JMSException {
        JmsTextMessage m = new JmsTextMessage("hi");
        assertThat(m.getBody(String.class)).isEqualTo("hi");
        assertThat(m.getBody(Object.class)).isEqualTo("hi");
        assertThat(m.getBody(CharSequence.class)).isEqualTo("hi");
        assertThat(m.isBodyAssignableTo(String.class)).isTrue();
        assertThat(m.isBodyAssignableTo(Serializable.class)).isTrue();
        assertThat(m.isBodyAssignableTo(Integer.class)).isFalse();
        assertThat(m.isBodyAssignableTo(StringBuilder.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(Integer.class)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.getBody(byte[].class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void an_empty_string_is_a_text_body() throws JMSException {
        JmsTextMessage m = new JmsTextMessage("");
        assertThat(m.getBody(String.class)).isEmpty();
        assertThat(m.isBodyAssignableTo(Integer.class)).isFalse();
    }

    @Test
    void a_bytes_body_is_a_copied_byte_array_in_either_mode_and_leaves_the_position_alone() throws JMSException {
        JmsBytesMessage m = new JmsBytesMessage();
        m.writeInt(7);
        m.writeByte((byte) 9);
        assertThat(m.getBody(byte[].class)).containsExactly(0, 0, 0, 7, 9); // write mode
        m.reset();
        assertThat(m.readInt()).isEqualTo(7);
        byte[] body = m.getBody(byte[].class);
        assertThat(body).containsExactly(0, 0, 0, 7, 9);
        body[4] = 1;
        assertThat(m.readByte()).isEqualTo((byte) 9); // position and content untouched
        assertThat(m.getBody(Object.class)).isInstanceOf(byte[].class);
        assertThat(m.isBodyAssignableTo(byte[].class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void a_map_body_is_an_unmodifiable_copy() throws JMSException {
        JmsMapMessage m = new JmsMapMessage();
        m.setInt("i", 1);
        m.setBytes("b", new byte[] {5});
        @SuppressWarnings("unchecked")
        Map<String, Object> body = m.getBody(Map.class);
        assertThat(body).containsEntry("i", 1).containsKey("b");
        assertThatThrownBy(() -> body.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        ((byte[]) body.get("b"))[0] = 0;
        assertThat(m.getBytes("b")).containsExactly(5);
        assertThat(m.getBody(Object.class)).isInstanceOf(Map.class);
        assertThat(m.isBodyAssignableTo(Map.class)).isTrue();
        assertThat(m.isBodyAssignableTo(HashMap.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(HashMap.class)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void an_object_body_is_assignable_to_the_types_of_the_deserialized_object() throws JMSException {
        JmsObjectMessage m = new JmsObjectMessage();
        m.setObject(new ArrayList<>(List.of("a")));
        assertThat(m.getBody(List.class)).containsExactly("a");
        assertThat(m.getBody(ArrayList.class)).containsExactly("a");
        assertThat(m.getBody(Serializable.class)).isInstanceOf(ArrayList.class);
        assertThat(m.isBodyAssignableTo(List.class)).isTrue();
        assertThat(m.isBodyAssignableTo(String.class)).isFalse();
        assertThatThrownBy(() -> m.getBody(String.class)).isInstanceOf(MessageFormatException.class).hasMessageContaining("ArrayList");
    }

    @Test
    void a_stream_message_never_gives_its_body_even_empty() throws JMSException {
        JmsStreamMessage m = new JmsStreamMessage();
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        assertThat(m.isBodyAssignableTo(Object.class)).isFalse();
        m.writeInt(1);
        assertThatThrownBy(() -> m.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        assertThat(m.isBodyAssignableTo(Object.class)).isFalse();
    }

    @Test
    void get_body_with_a_null_class_is_refused_when_there_is_a_body() throws JMSException {
        assertThatThrownBy(() -> new JmsTextMessage("x").getBody(null)).isInstanceOf(MessageFormatException.class);
        assertThat(new JmsTextMessage("x").isBodyAssignableTo(null)).isFalse();
        assertThat((Object) new JmsMessage().getBody((Class<Object>) null)).isNull();
    }

    @Test
    void clear_body_empties_every_type_and_makes_it_writable() throws JMSException {
        JmsTextMessage t = new JmsTextMessage("x");
        JmsBytesMessage b = new JmsBytesMessage();
        b.writeInt(1);
        JmsMapMessage m = new JmsMapMessage();
        m.setInt("i", 1);
        JmsObjectMessage o = new JmsObjectMessage();
        o.setObject("s");
        JmsStreamMessage s = new JmsStreamMessage();
        s.writeInt(1);
        for (JmsMessage msg : List.of(t, b, m, o, s)) {
            msg.setIntProperty("keep", 1);
            msg.markReceived();
            msg.clearBody();
            assertThat(msg.isBodyReadOnly()).isFalse();
            assertThat(msg.getIntProperty("keep")).isEqualTo(1); // properties survive clearBody
            assertThat(msg.arePropertiesReadOnly()).isTrue();      // and stay read-only
        }
        assertThat(t.getText()).isNull();
        b.writeByte((byte) 2);
        b.reset();
        assertThat(b.getBodyLength()).isEqualTo(1);
        assertThat(m.getMapNames().hasMoreElements()).isFalse();
        assertThat(o.getObject()).isNull();
        s.writeString("only");
        s.reset();
        assertThat(s.readObject()).isEqualTo("only");
        assertThatThrownBy(s::readObject).isInstanceOf(jakarta.jms.MessageEOFException.class);
    }
}
