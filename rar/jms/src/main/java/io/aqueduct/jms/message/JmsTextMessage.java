package io.aqueduct.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;

/**
 * A message whose body is a String. A null text is "no body" (getBody returns null for any class);
 * an empty string is a body.
 */
public class JmsTextMessage extends JmsMessage implements TextMessage {

    private String text;

    public JmsTextMessage() {
    }

    public JmsTextMessage(String text) {
        this.text = text;
    }

    @Override
    public JmsMessageType messageType() {
        return JmsMessageType.TEXT;
    }

    /** @throws jakarta.jms.MessageNotWriteableException when the body is read-only */
    @Override
    public void setText(String string) throws JMSException {
        checkBodyWritable();
        this.text = string;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    JmsMessage newEmpty() {
        return new JmsTextMessage();
    }

    @Override
    void copyBodyTo(JmsMessage c) {
        ((JmsTextMessage) c).text = text;
    }

    @Override
    void clearBodyContent() {
        text = null;
    }

    @Override
    boolean hasNoBody() {
        return text == null;
    }

    @Override
    Object bodyAs(Class<?> c) throws JMSException {
        if (!c.isAssignableFrom(String.class)) {
            throw notAssignable(messageType(), c, "String");
        }
        return text;
    }

    @Override
    boolean bodyAssignableTo(Class<?> c) {
        return c.isAssignableFrom(String.class);
    }
}
