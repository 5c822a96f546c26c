package io.aqueduct.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Header fields (3.4) and acknowledge(). */
class MessageHeadersTest {

    private final JmsMessage message = new JmsMessage();

    @Test
    void a_new_message_has_the_spec_defaults() {
        assertThat(message.getJMSDeliveryMode()).isEqualTo(Message.DEFAULT_DELIVERY_MODE).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(message.getJMSPriority()).isEqualTo(Message.DEFAULT_PRIORITY).isEqualTo(4);
        assertThat(message.getJMSMessageID()).isNull();
        assertThat(message.getJMSCorrelationID()).isNull();
        assertThat(message.getJMSCorrelationIDAsBytes()).isNull();
        assertThat(message.getJMSReplyTo()).isNull();
        assertThat(message.getJMSDestination()).isNull();
        assertThat(message.getJMSType()).isNull();
        assertThat(message.getJMSTimestamp()).isZero();
        assertThat(message.getJMSExpiration()).isZero();
        assertThat(message.getJMSDeliveryTime()).isZero();
        assertThat(message.getJMSRedelivered()).isFalse();
        assertThat(message.getPropertyNames().hasMoreElements()).isFalse();
    }

    @Test
    void every_header_reads_back_what_was_set() throws JMSException {
        var queue = new TestDestinations.TestQueue("Q");
        var reply = new TestDestinations.TestTopic("T");
        message.setJMSMessageID("ID:1");
        message.setJMSTimestamp(11);
        message.setJMSCorrelationID("corr");
        message.setJMSReplyTo(reply);
        message.setJMSDestination(queue);
        message.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        message.setJMSRedelivered(true);
        message.setJMSType("type");
        message.setJMSExpiration(Long.MAX_VALUE);
        message.setJMSDeliveryTime(33);
        message.setJMSPriority(9);
        assertThat(message.getJMSMessageID()).isEqualTo("ID:1");
        assertThat(message.getJMSTimestamp()).isEqualTo(11);
        assertThat(message.getJMSCorrelationID()).isEqualTo("corr");
        assertThat(message.getJMSReplyTo()).isSameAs(reply);
        assertThat(message.getJMSDestination()).isSameAs(queue);
        assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        assertThat(message.getJMSRedelivered()).isTrue();
        assertThat(message.getJMSType()).isEqualTo("type");
        assertThat(message.getJMSExpiration()).isEqualTo(Long.MAX_VALUE);
        assertThat(message.getJMSDeliveryTime()).isEqualTo(33);
        assertThat(message.getJMSPriority()).isEqualTo(9);
    }

    @Test
    void a_correlation_id_set_as_bytes_is_copied_and_reads_as_utf8_text() {
        byte[] id = "kör-1".getBytes(StandardCharsets.UTF_8);
        message.setJMSCorrelationIDAsBytes(id);
        id[0] = 'X'; // the caller's array is not the message's
        assertThat(message.getJMSCorrelationIDAsBytes()).isEqualTo("kör-1".getBytes(StandardCharsets.UTF_8));
        message.getJMSCorrelationIDAsBytes()[0] = 'Y'; // nor is the returned one
        assertThat(message.getJMSCorrelationID()).isEqualTo("kör-1");
        assertThat(message.isCorrelationIdBytes()).isTrue();
    }

    @Test
    void a_correlation_id_set_as_text_reads_as_utf8_bytes() {
        message.setJMSCorrelationID("abc");
        assertThat(message.getJMSCorrelationIDAsBytes()).isEqualTo(new byte[] {'a', 'b', 'c'});
        assertThat(message.isCorrelationIdBytes()).isFalse();
        message.setJMSCorrelationIDAsBytes(null);
        assertThat(message.getJMSCorrelationID()).isNull();
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 10, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void a_priority_outside_0_to_9_is_refused(int priority) {
        assertThatThrownBy(() -> message.setJMSPriority(priority)).isInstanceOf(JMSException.class).hasMessageContaining("0..9");
        assertThat(message.getJMSPriority()).isEqualTo(4);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, -1, 1000})
    void a_delivery_mode_other_than_persistent_or_non_persistent_is_refused(int mode) {
        assertThatThrownBy(() -> message.setJMSDeliveryMode(mode)).isInstanceOf(JMSException.class);
        assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
    }

    @Test
    void headers_stay_writable_on_a_received_message() throws JMSException {
        // 3.4.11: only properties and body become read-only on receipt
        message.markReceived();
        message.setJMSType("t");
        message.setJMSCorrelationID("c");
        message.setJMSPriority(0);
        assertThat(message.getJMSType()).isEqualTo("t");
    }

    @Test
    void acknowledge_without_an_acknowledger_does_nothing() throws JMSException {
        message.acknowledge(); // an application-created message, or an auto-ack / transacted delivery
    }

    @Test
    void acknowledge_delegates_to_the_acknowledger_the_session_set() throws JMSException {
        AtomicReference<JmsMessage> acked = new AtomicReference<>();
        message.setAcknowledger(acked::set);
        message.acknowledge();
        assertThat(acked.get()).isSameAs(message);
    }

    @Test
    void acknowledge_propagates_what_the_session_refuses() {
        message.setAcknowledger(m -> {
            throw new jakarta.jms.IllegalStateException("session closed");
        });
        assertThatThrownBy(message::acknowledge).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void a_copy_does_not_carry_the_acknowledger() throws JMSException {
        AtomicReference<JmsMessage> acked = new AtomicReference<>();
        message.setAcknowledger(acked::set);
        message.copy().acknowledge();
        assertThat(acked.get()).isNull();
    }
}
