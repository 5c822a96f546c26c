package io.aqueduct.jms.client;

import io.aqueduct.api.MessageId;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.message.JmsMessage;
import io.aqueduct.jms.message.JmsMessages;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;

/**
 * A message producer. Every send stamps the application's message with the JMS headers (as the
 * specification requires) and enqueues an independent copy; messages from one producer keep their
 * order (per priority on a priority-ordered queue). Delivery delay and time to live are AQ delay
 * and expiration in whole seconds, rounded up.
 */
public final class AqueductProducer implements QueueSender, TopicPublisher {
    private final AqueductSession session;
    private final AqueductDestination destination; // null: a destination per send
    private volatile boolean closed;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageId;
    private boolean disableMessageTimestamp;

    AqueductProducer(AqueductSession session, AqueductDestination destination) {
        this.session = session;
        this.destination = destination;
    }

    // ------------------------------------------------------------------ settings

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        disableMessageId = value;
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return disableMessageId;
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        disableMessageTimestamp = value;
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return disableMessageTimestamp;
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        checkOpen();
        this.deliveryMode = checkDeliveryMode(deliveryMode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return deliveryMode;
    }

    @Override
    public void setPriority(int priority) throws JMSException {
        checkOpen();
        this.priority = checkPriority(priority);
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        checkOpen();
        this.timeToLive = checkNotNegative(timeToLive, "time to live");
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return timeToLive;
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        checkOpen();
        this.deliveryDelay = checkNotNegative(deliveryDelay, "delivery delay");
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return deliveryDelay;
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return destination;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return destination instanceof Queue q ? q : null;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return destination instanceof Topic t ? t : null;
    }

    // ------------------------------------------------------------------ sending

    @Override
    public void send(Message message) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        checkOpen();
        send(fixedDestination(), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        checkOpen();
        send(perSendDestination(destination), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, CompletionListener completionListener) throws JMSException {
        send(message, deliveryMode, priority, timeToLive, completionListener);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive,
            CompletionListener completionListener) throws JMSException {
        checkOpen();
        send(fixedDestination(), message, deliveryMode, priority, timeToLive, requireListener(completionListener));
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener completionListener) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive, completionListener);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
            CompletionListener completionListener) throws JMSException {
        checkOpen();
        send(perSendDestination(destination), message, deliveryMode, priority, timeToLive, requireListener(completionListener));
    }

    @Override
    public void send(Queue queue, Message message) throws JMSException {
        send((Destination) queue, message);
    }

    @Override
    public void send(Queue queue, Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send((Destination) queue, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Topic topic, Message message) throws JMSException {
        send((Destination) topic, message);
    }

    @Override
    public void publish(Topic topic, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send((Destination) topic, message, deliveryMode, priority, timeToLive);
    }

    private AqueductDestination fixedDestination() {
        if (destination == null) {
            throw new UnsupportedOperationException("This producer has no destination: name one in each send.");
        }
        return destination;
    }

    private AqueductDestination perSendDestination(Destination d) throws JMSException {
        if (destination != null) {
            throw new UnsupportedOperationException("This producer sends to " + destination.queueName()
                    + "; a destination per send is for producers created without one.");
        }
        if (d == null) {
            throw new InvalidDestinationException("The destination is null.");
        }
        return AqueductSession.destination(d);
    }

    private CompletionListener requireListener(CompletionListener l) throws JMSException {
        session.connection.refuseInContainer("An asynchronous send (with a CompletionListener)", "send synchronously");
        if (l == null) {
            throw new IllegalArgumentException("An asynchronous send needs a CompletionListener.");
        }
        return l;
    }

    private void send(AqueductDestination d, Message message, int mode, int prio, long ttl, CompletionListener listener)
            throws JMSException {
        if (message == null) {
            throw new MessageFormatException("The message to send is null.");
        }
        checkDeliveryMode(mode);
        checkPriority(prio);
        checkNotNegative(ttl, "time to live");
        session.connection.shape(d); // exists and of the kind named, before anything is changed
        long now = System.currentTimeMillis();
        // the headers go on the application's message (JMS 3.4.11 says so) and on the copy sent
        message.setJMSDestination(d);
        message.setJMSDeliveryMode(mode);
        message.setJMSPriority(prio);
        message.setJMSTimestamp(disableMessageTimestamp ? 0 : now);
        message.setJMSExpiration(ttl > 0 ? now + ttl : 0);
        message.setJMSDeliveryTime(now + deliveryDelay);
        JmsMessage copy = JmsMessages.providerCopy(message);
        if (session.connection.user != null) {
            copy.setProviderProperty("JMSXUserID", session.connection.user); // who sent it, as JMSX defines
        }
        long delay = deliveryDelay;
        if (listener == null) {
            MessageId id = session.enqueue(d, copy, delay, ttl);
            message.setJMSMessageID("ID:" + id);
            return;
        }
        session.sendAsync(() -> {
            try {
                MessageId id = session.enqueue(d, copy, delay, ttl);
                message.setJMSMessageID("ID:" + id);
            } catch (JMSException e) {
                listener.onException(message, e);
                return;
            } catch (RuntimeException e) {
                listener.onException(message, JmsErrors.of(e));
                return;
            }
            listener.onCompletion(message);
        });
    }

    static int checkDeliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("Delivery mode " + mode + " is neither PERSISTENT (2) nor NON_PERSISTENT (1).");
        }
        return mode;
    }

    static int checkPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("A JMS priority is 0 to 9, not " + priority + ".");
        }
        return priority;
    }

    private static long checkNotNegative(long value, String what) throws JMSException {
        if (value < 0) {
            throw new JMSException("The " + what + " is milliseconds, 0 or more, not " + value + ".");
        }
        return value;
    }

    @Override
    public void close() throws JMSException {
        session.checkNotCompleting("close");
        closed = true;
        session.producerClosed(this);
    }

    private void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("message producer");
        }
        session.checkOpen();
    }
}
