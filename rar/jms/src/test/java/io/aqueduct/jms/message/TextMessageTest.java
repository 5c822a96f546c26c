package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TextMessage: the text, and its read-only state on receipt. */
class TextMessageTest {

    @Test
    void the_text_reads_back_as_set_including_null_and_huge() throws JMSException {
        JmsTextMessage m = new JmsTextMessage();
        assertThat(m.getText()).isNull();
        m.setText("hello");
        assertThat(m.getText()).isEqualTo("hello");
        String huge = "ü\uD800".repeat(2_000_000); // unpaired surrogates too: a String is a String
        m.setText(huge);
        assertThat(m.getText()).isEqualTo(huge);
        m.setText(null);
        assertThat(m.getText()).isNull();
    }

    @Test
    void a_received_text_message_refuses_set_text_until_cleared() throws JMSException {
        JmsTextMessage m = new JmsTextMessage("a");
        m.markReceived();
        assertThatThrownBy(() -> m.setText("b")).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.getText()).isEqualTo("a");
        m.clearBody();
        assertThat(m.getText()).isNull();
        m.setText("b");
        assertThat(m.getText()).isEqualTo("b");
    }
}
