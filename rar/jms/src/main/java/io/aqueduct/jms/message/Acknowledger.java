package io.aqueduct.jms.message;

import jakarta.jms.JMSException;

/**
 * The hook {@link JmsMessage#acknowledge()} delegates to. The session that delivers a message in
 * {@code CLIENT_ACKNOWLEDGE} mode sets one with {@link JmsMessage#setAcknowledger(Acknowledger)};
 * a message without one (created by the application, or delivered in a transacted or
 * auto-acknowledge session) ignores {@code acknowledge()}, as the {@code Message} javadoc says.
 */
@FunctionalInterface
public interface Acknowledger {

    /**
     * Acknowledges all messages the session has consumed, up to and including {@code message}.
     *
     * @throws JMSException e.g. {@link jakarta.jms.IllegalStateException} when the session is closed
     */
    void acknowledge(JmsMessage message) throws JMSException;
}
