package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The provider hooks: the copy a producer sends, foreign messages, markReceived. */
class SendCopyAndReceiptTest {

    private static List<JmsMessage> oneOfEach() throws JMSException {
        JmsTextMessage t = new JmsTextMessage("t");
        JmsBytesMessage b = new JmsBytesMessage();
        b.writeInt(1);
        JmsMapMessage m = new JmsMapMessage();
        m.setBytes("b", new byte[] {1});
        JmsObjectMessage o = new JmsObjectMessage();
        o.setObject(new java.util.ArrayList<>(List.of("o")));
        JmsStreamMessage s = new JmsStreamMessage();
        s.writeBytes(new byte[] {1});
        List<JmsMessage> all = List.of(new JmsMessage(), t, b, m, o, s);
        for (JmsMessage msg : all) {
            msg.setIntProperty("p", 1);
            msg.setJMSCorrelationIDAsBytes(new byte[] {1});
            msg.setJMSType("type");
        }
        return all;
    }

    @Test
    void a_sent_copy_does_not_change_when_the_application_changes_its_message() throws JMSException {
        for (JmsMessage original : oneOfEach()) {
            JmsMessage sent = original.copy();
            assertThat(sent).isInstanceOf(original.getClass()).isNotSameAs(original);
            original.setIntProperty("p", 2);
            original.setJMSType("changed");
            original.getJMSCorrelationIDAsBytes()[0] = 9;
            original.setJMSCorrelationIDAsBytes(new byte[] {8});
            mutateBody(original);
            assertThat(sent.getIntProperty("p")).isEqualTo(1);
            assertThat(sent.getJMSType()).isEqualTo("type");
            assertThat(sent.getJMSCorrelationIDAsBytes()).containsExactly(1);
            assertUnchangedBody(sent);
        }
    }

    @Test
    void changing_the_sent_copy_does_not_change_the_application_message() throws JMSException {
        for (JmsMessage original : oneOfEach()) {
            JmsMessage sent = original.copy();
            sent.setIntProperty("p", 2);
            mutateBody(sent);
            assertThat(original.getIntProperty("p")).isEqualTo(1);
            assertUnchangedBody(original);
        }
    }

    private static void mutateBody(JmsMessage m) throws JMSException {
        if (m instanceof JmsTextMessage t) {
            t.setText("changed");
        } else if (m instanceof JmsBytesMessage b) {
            b.writeInt(2);
        } else if (m instanceof JmsMapMessage map) {
            map.setInt("x", 2);
        } else if (m instanceof JmsObjectMessage o) {
            o.setObject("changed");
        } else if (m instanceof JmsStreamMessage s) {
            s.writeInt(2);
        }
    }

    private static void assertUnchangedBody(JmsMessage m) throws JMSException {
        if (m instanceof JmsTextMessage t) {
            assertThat(t.getText()).isEqualTo("t");
        } else if (m instanceof JmsBytesMessage b) {
            assertThat(b.getBody(byte[].class)).containsExactly(0, 0, 0, 1);
        } else if (m instanceof JmsMapMessage map) {
            assertThat(Collections.list(map.getMapNames())).containsExactly("b");
            assertThat(map.getBytes("b")).containsExactly(1);
        } else if (m instanceof JmsObjectMessage o) {
            assertThat(o.getObject()).isEqualTo(List.of("o"));
        } else if (m instanceof JmsStreamMessage s) {
            s.reset();
            assertThat((byte[]) s.readObject()).containsExactly(1);
            assertThatThrownBy(s::readObject).isInstanceOf(jakarta.jms.MessageEOFException.class);
        }
    }

    @Test
    void a_copy_is_writable_even_when_the_original_was_received() throws JMSException {
        for (JmsMessage received : oneOfEach()) {
            received.markReceived();
            JmsMessage copy = received.copy();
            assertThat(copy.arePropertiesReadOnly()).isFalse();
            assertThat(copy.isBodyReadOnly()).isFalse();
            copy.setIntProperty("q", 1);
        }
    }

    @Test
    void mark_received_makes_properties_and_body_read_only_for_every_type() throws JMSException {
        for (JmsMessage m : oneOfEach()) {
            m.markReceived();
            assertThat(m.arePropertiesReadOnly()).isTrue();
            assertThat(m.isBodyReadOnly()).isTrue();
            assertThatThrownBy(() -> m.setIntProperty("p", 3)).isInstanceOf(MessageNotWriteableException.class);
        }
    }

    @Test
    void a_foreign_text_message_is_copied_through_the_public_api() throws JMSException {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("p", 5);
        props.put("JMSXDeliveryCount", 2); // a provider property of the other provider comes along
        TextMessage foreign = foreignText("body", props);
        JmsMessage copy = JmsMessages.providerCopy(foreign);
        assertThat(copy).isInstanceOf(JmsTextMessage.class);
        assertThat(((JmsTextMessage) copy).getText()).isEqualTo("body");
        assertThat(copy.getJMSCorrelationID()).isEqualTo("corr");
        assertThat(copy.getJMSPriority()).isEqualTo(7);
        assertThat(copy.getIntProperty("p")).isEqualTo(5);
        assertThat(copy.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
    }

    @Test
    void an_aqueduct_message_is_copied_with_copy() throws JMSException {
        JmsTextMessage own = new JmsTextMessage("x");
        JmsMessage copy = JmsMessages.providerCopy(own);
        assertThat(copy).isNotSameAs(own).isInstanceOf(JmsTextMessage.class);
    }

    @Test
    void a_foreign_message_of_every_type_is_rebuilt_as_the_aqueduct_type() throws Exception {
        // each Aqueduct message, seen only through its interface by a proxy, stands in for another provider's
        Map<JmsMessageType, Class<?>> interfaces = Map.of(JmsMessageType.MESSAGE, Message.class, JmsMessageType.TEXT, TextMessage.class,
                JmsMessageType.BYTES, jakarta.jms.BytesMessage.class, JmsMessageType.MAP, jakarta.jms.MapMessage.class,
                JmsMessageType.OBJECT, jakarta.jms.ObjectMessage.class, JmsMessageType.STREAM, jakarta.jms.StreamMessage.class);
        for (JmsMessage real : oneOfEach()) {
            real.setJMSReplyTo(new TestDestinations.TestTopic("R"));
            real.setJMSDeliveryTime(5);
            Message foreign = (Message) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {interfaces.get(real.messageType())}, (proxy, method, args) -> {
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            JmsMessage copy = JmsMessages.providerCopy(foreign);
            assertThat(copy.messageType()).isEqualTo(real.messageType());
            assertThat(copy.getIntProperty("p")).isEqualTo(1);
            assertThat(copy.getJMSCorrelationIDAsBytes()).containsExactly(1);
            assertThat(copy.getJMSType()).isEqualTo("type");
            assertThat(copy.getJMSReplyTo()).isEqualTo(new TestDestinations.TestTopic("R"));
            assertThat(copy.getJMSDeliveryTime()).isEqualTo(5);
            assertUnchangedBody(copy);
        }
    }

    /** A TextMessage of "another provider": a proxy, so it is not a JmsMessage. */
    private static TextMessage foreignText(String text, Map<String, Object> props) {
        return (TextMessage) Proxy.newProxyInstance(SendCopyAndReceiptTest.class.getClassLoader(), new Class<?>[] {TextMessage.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getText" -> text;
                    case "getJMSCorrelationID" -> "corr";
                    case "getJMSPriority" -> 7;
                    case "getJMSDeliveryMode" -> Message.DEFAULT_DELIVERY_MODE;
                    case "getJMSTimestamp", "getJMSExpiration", "getJMSDeliveryTime" -> 0L;
                    case "getJMSRedelivered" -> false;
                    case "getPropertyNames" -> Collections.enumeration(props.keySet());
                    case "getObjectProperty" -> props.get((String) args[0]);
                    default -> null;
                });
    }
}
