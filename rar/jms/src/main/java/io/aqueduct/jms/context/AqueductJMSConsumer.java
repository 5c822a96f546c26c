package io.aqueduct.jms.context;

import static io.aqueduct.jms.context.AqueductJMSContext.call;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageListener;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

/**
 * A JMSConsumer over a classic MessageConsumer of its context's session.
 *
 * <p>In AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE a {@code receiveBody} whose message cannot give
 * its body as asked throws, and this consumer keeps the (unacknowledged) message and hands it out
 * again on the next receive, before anything newer: the javadoc's "as if the unsuccessful call
 * had not occurred" - not a redelivery, so JMSRedelivered and JMSXDeliveryCount stay as they
 * were. In CLIENT_ACKNOWLEDGE and in a transaction the message counts as delivered.
 */
final class AqueductJMSConsumer implements JMSConsumer {

    private final AqueductJMSContext context;
    private final MessageConsumer consumer;
    private volatile MessageListener listener;
    /** The message of a failed receiveBody in AUTO / DUPS_OK, delivered again first. */
    private volatile Message held;
    private volatile boolean closed;

    AqueductJMSConsumer(AqueductJMSContext context, MessageConsumer consumer) {
        this.context = context;
        this.consumer = consumer;
    }

    @FunctionalInterface
    private interface Receive {
        Message next() throws JMSException;
    }

    @Override
    public String getMessageSelector() {
        checkOpen();
        return call(consumer::getMessageSelector);
    }

    @Override
    public MessageListener getMessageListener() {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        checkOpen();
        call(() -> {
            consumer.setMessageListener(listener == null ? null : new Listener(listener));
            return null;
        });
        this.listener = listener;
    }

    @Override
    public Message receive() {
        return received(next(consumer::receive));
    }

    @Override
    public Message receive(long timeout) {
        return received(next(() -> consumer.receive(timeout)));
    }

    @Override
    public Message receiveNoWait() {
        return received(next(consumer::receiveNoWait));
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return body(next(consumer::receive), c);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return body(next(() -> consumer.receive(timeout)), c);
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return body(next(consumer::receiveNoWait), c);
    }

    /** The held message if there is one, else the classic consumer's next. */
    private Message next(Receive receive) {
        checkOpen();
        Message m = held;
        if (m != null) {
            held = null;
            return m;
        }
        return call(receive::next);
    }

    private Message received(Message m) {
        if (m != null) {
            context.delivered(m);
            context.processed(m);
        }
        return m;
    }

    private <T> T body(Message m, Class<T> c) {
        if (m == null) {
            return null;
        }
        T body;
        try {
            body = bodyOf(m, c);
        } catch (MessageFormatRuntimeException e) {
            if (context.acknowledgesForApplication()) {
                held = m;
            } else {
                context.delivered(m);
            }
            throw e;
        }
        received(m);
        return body;
    }

    /**
     * The body as {@code c}, under receiveBody's rules, stricter than {@link Message#getBody}'s: a
     * StreamMessage, a plain Message and a message without a body are refused.
     */
    static <T> T bodyOf(Message m, Class<T> c) {
        if (m instanceof StreamMessage) {
            throw new MessageFormatRuntimeException("receiveBody cannot give the body of a StreamMessage; use receive().");
        }
        if (!(m instanceof TextMessage || m instanceof BytesMessage || m instanceof MapMessage || m instanceof ObjectMessage)) {
            throw new MessageFormatRuntimeException("receiveBody cannot give the body of a Message that has none; use receive().");
        }
        if (c == null) {
            throw new MessageFormatRuntimeException("receiveBody needs the class of the body.");
        }
        T body = call(() -> {
            if (!m.isBodyAssignableTo(c)) {
                throw new jakarta.jms.MessageFormatException("The body of the " + kind(m) + " cannot be assigned to "
                        + c.getName() + ".");
            }
            return m.getBody(c);
        });
        if (body == null) {
            throw new MessageFormatRuntimeException("The " + kind(m) + " has no body.");
        }
        return body;
    }

    private static String kind(Message m) {
        if (m instanceof TextMessage) {
            return "TextMessage";
        }
        if (m instanceof BytesMessage) {
            return "BytesMessage";
        }
        if (m instanceof MapMessage) {
            return "MapMessage";
        }
        return "ObjectMessage";
    }

    /**
     * May be called from this consumer's own listener, and concurrently with a receive (which then
     * returns null): the classic close has both rules too.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        held = null;
        context.forget(this);
        call(() -> {
            consumer.close();
            return null;
        });
    }

    /** The context closed the session, and with it the classic consumer. */
    void contextClosed() {
        closed = true;
        held = null;
    }

    /** The context recovered: a held message comes again from the session, so it must not come from here too. */
    void dropHeld() {
        held = null;
    }

    private void checkOpen() {
        if (closed) {
            throw new jakarta.jms.IllegalStateRuntimeException("The JMSConsumer is closed.");
        }
    }

    /** The application's listener, run as this context's listener, acknowledged for the application in AUTO / DUPS_OK. */
    private final class Listener implements MessageListener {
        private final MessageListener application;

        Listener(MessageListener application) {
            this.application = application;
        }

        @Override
        public void onMessage(Message message) {
            CallbackThreads.asMessageListener(context, () -> {
                context.delivered(message);
                try {
                    application.onMessage(message);
                } catch (RuntimeException e) {
                    if (context.acknowledgesForApplication()) {
                        context.redeliverAfterListenerFailure();
                    }
                    throw e;
                }
                context.processed(message);
            });
        }
    }
}
