package io.aqueduct.jms.context;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import java.io.Serializable;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simplified API (Jakarta Messaging 3.1, 2.8): a connection and one session in one object,
 * built on the classic API's interfaces alone.
 *
 * <p><b>Lazy session.</b> The session is created on first use, not with the context, because
 * {@link #setClientID(String)} must come before any other action on the connection, and creating
 * a session is one.
 *
 * <p><b>AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE</b> run on a CLIENT_ACKNOWLEDGE session that this
 * context acknowledges itself: after every message a receive returns and after every listener
 * call that returns normally. That is what lets {@code receiveBody} leave a message whose body
 * is not of the asked type unacknowledged (the {@link JMSConsumer#receiveBody} javadoc: "as if
 * the unsuccessful call had not occurred"), which a classic auto-acknowledge receive cannot: it
 * has acknowledged before it returns. A listener that throws has its message redelivered, as
 * 4.5.2 requires of AUTO_ACKNOWLEDGE, through {@code recover()}. Acknowledging is cumulative, so
 * a message held back by one consumer of this context is acknowledged with the next message
 * another consumer of the same context takes.
 *
 * <p>Not thread-safe, as the specification allows, except {@link #close()}.
 */
public class AqueductJMSContext implements JMSContext {

    private final SharedConnection shared;
    private final int sessionMode;
    private final Object lock = new Object();
    private Session session;
    private MessageProducer producer;
    private volatile boolean closed;
    private volatile boolean autoStart = true;
    /** CLIENT_ACKNOWLEDGE: the newest message delivered, whose acknowledge() acknowledges the session's. */
    private volatile Message lastDelivered;
    private final Set<AqueductJMSConsumer> consumers = ConcurrentHashMap.newKeySet();

    AqueductJMSContext(SharedConnection shared, int sessionMode) {
        this(shared, sessionMode, false);
    }

    private AqueductJMSContext(SharedConnection shared, int sessionMode, boolean inContainer) {
        this.shared = shared;
        this.sessionMode = sessionMode;
        this.inContainer = inContainer;
    }

    /** In a Jakarta EE container a connection has one session: {@link #createContext(int)} is refused. */
    private final boolean inContainer;

    /**
     * A context over {@code connection}, which it owns from now on: the connection closes when
     * this context and every context made from it with {@link #createContext(int)} have closed.
     *
     * @param sessionMode {@link #AUTO_ACKNOWLEDGE}, {@link #CLIENT_ACKNOWLEDGE},
     *        {@link #DUPS_OK_ACKNOWLEDGE} or {@link #SESSION_TRANSACTED}
     * @throws JMSRuntimeException for any other session mode; the connection is then closed
     */
    public static JMSContext create(Connection connection, int sessionMode) {
        return create(connection, sessionMode, false);
    }

    /**
     * {@link #create(Connection, int)}; {@code inContainer}: the connection follows a Jakarta EE
     * container's rules (one session per connection), so {@link #createContext(int)} is refused
     * with IllegalStateRuntimeException, as Jakarta Messaging says.
     */
    public static JMSContext create(Connection connection, int sessionMode, boolean inContainer) {
        Objects.requireNonNull(connection, "connection");
        try {
            checkSessionMode(sessionMode);
        } catch (JMSRuntimeException e) {
            try {
                connection.close();
            } catch (JMSException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new AqueductJMSContext(new SharedConnection(connection), sessionMode, inContainer);
    }

    static void checkSessionMode(int sessionMode) {
        switch (sessionMode) {
            case AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE, DUPS_OK_ACKNOWLEDGE, SESSION_TRANSACTED -> {
            }
            default -> throw new JMSRuntimeException("Session mode " + sessionMode + " is none of JMSContext.AUTO_ACKNOWLEDGE ("
                    + AUTO_ACKNOWLEDGE + "), CLIENT_ACKNOWLEDGE (" + CLIENT_ACKNOWLEDGE + "), DUPS_OK_ACKNOWLEDGE ("
                    + DUPS_OK_ACKNOWLEDGE + ") and SESSION_TRANSACTED (" + SESSION_TRANSACTED + ").");
        }
    }

    // ---------------------------------------------------------------- the session underneath

    /** The session, created on first use. */
    Session session() {
        synchronized (lock) {
            checkOpen();
            if (session == null) {
                session = call(this::openSession);
            }
            return session;
        }
    }

    /** Opens this context's session on the shared connection. */
    Session openSession() throws JMSException {
        int mode = acknowledgesForApplication() ? Session.CLIENT_ACKNOWLEDGE : sessionMode;
        return shared.connection().createSession(mode);
    }

    /** The one anonymous producer every JMSProducer of this context sends with (they are lightweight). */
    MessageProducer messageProducer() {
        Session s = session();
        synchronized (lock) {
            if (producer == null) {
                producer = call(() -> s.createProducer(null));
            }
            return producer;
        }
    }

    /** Whether this context acknowledges for the application (AUTO / DUPS_OK over a CLIENT_ACKNOWLEDGE session). */
    boolean acknowledgesForApplication() {
        return sessionMode == AUTO_ACKNOWLEDGE || sessionMode == DUPS_OK_ACKNOWLEDGE;
    }

    /** A message is handed to the application (a receive returns it, or a listener is about to get it). */
    void delivered(Message message) {
        if (sessionMode == CLIENT_ACKNOWLEDGE) {
            lastDelivered = message;
        }
    }

    /** The application is done with a message: in AUTO / DUPS_OK this is where it is acknowledged. */
    void processed(Message message) {
        if (acknowledgesForApplication()) {
            call(() -> {
                message.acknowledge();
                return null;
            });
        }
    }

    /** A listener of AUTO / DUPS_OK threw: its message comes again (4.5.2). */
    void redeliverAfterListenerFailure() {
        recoverSession();
    }

    void forget(AqueductJMSConsumer consumer) {
        consumers.remove(consumer);
    }

    SharedConnection shared() {
        return shared;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("The JMSContext is closed.");
        }
    }

    @FunctionalInterface
    interface JmsCall<T> {
        T call() throws JMSException;
    }

    /** Runs a classic call, turning its checked exception into the simplified API's twin. */
    static <T> T call(JmsCall<T> c) {
        try {
            return c.call();
        } catch (JMSException e) {
            throw RuntimeExceptions.of(e);
        }
    }

    // ---------------------------------------------------------------- connection

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        if (inContainer) {
            throw new jakarta.jms.IllegalStateRuntimeException("JMSContext.createContext is not allowed in a Jakarta EE web"
                    + " or EJB container: it would give the connection a second session (Jakarta Messaging 12.2). Create"
                    + " another context from the connection factory.");
        }
        checkSessionMode(sessionMode);
        shared.acquire();
        return new AqueductJMSContext(shared, sessionMode);
    }

    @Override
    public String getClientID() {
        checkOpen();
        return call(() -> shared.connection().getClientID());
    }

    @Override
    public void setClientID(String clientID) {
        checkOpen();
        call(() -> {
            shared.connection().setClientID(clientID);
            return null;
        });
    }

    @Override
    public ConnectionMetaData getMetaData() {
        checkOpen();
        return call(() -> shared.connection().getMetaData());
    }

    @Override
    public ExceptionListener getExceptionListener() {
        checkOpen();
        return call(() -> shared.connection().getExceptionListener());
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        checkOpen();
        call(() -> {
            shared.connection().setExceptionListener(listener);
            return null;
        });
    }

    @Override
    public void start() {
        checkOpen();
        call(() -> {
            shared.connection().start();
            return null;
        });
    }

    /**
     * @throws IllegalStateRuntimeException when called by a MessageListener of any context on this
     *         connection: stop waits for the listeners to return (the javadoc allows failing here)
     */
    @Override
    public void stop() {
        checkOpen();
        AqueductJMSContext listening = CallbackThreads.messageListenerContext();
        if (listening != null && listening.shared == shared) {
            throw new IllegalStateRuntimeException("A MessageListener must not stop its own connection: stop waits for the"
                    + " running listeners to return, this one included.");
        }
        call(() -> {
            shared.connection().stop();
            return null;
        });
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        checkOpen();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        checkOpen();
        return autoStart;
    }

    /**
     * Closes the session (and with it the producers and consumers, after pending asynchronous sends
     * have completed), and the connection when no other context uses it. Closing a closed context
     * does nothing.
     *
     * @throws IllegalStateRuntimeException when called by a MessageListener or a CompletionListener
     *         of this context
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (CallbackThreads.messageListenerContext() == this) {
            throw new IllegalStateRuntimeException("A MessageListener must not close its own JMSContext: close waits for the"
                    + " listener to return.");
        }
        if (CallbackThreads.completionListenerContext() == this) {
            throw new IllegalStateRuntimeException("A CompletionListener must not close its own JMSContext: close waits for"
                    + " the completion callbacks to return.");
        }
        Session s;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            s = session;
            session = null;
            producer = null;
        }
        consumers.forEach(AqueductJMSConsumer::contextClosed);
        consumers.clear();
        lastDelivered = null;
        JMSException failure = null;
        if (s != null) {
            try {
                s.close();
            } catch (JMSException e) {
                failure = e;
            }
        }
        try {
            shared.release();
        } catch (JMSException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw RuntimeExceptions.of(failure);
        }
    }

    // ---------------------------------------------------------------- session

    @Override
    public boolean getTransacted() {
        checkOpen();
        return sessionMode == SESSION_TRANSACTED;
    }

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    /**
     * @throws IllegalStateRuntimeException when the session is not transacted, or when called by a
     *         CompletionListener of this context
     */
    @Override
    public void commit() {
        checkNotInOwnCompletionListener("commit");
        Session s = session();
        call(() -> {
            s.commit();
            return null;
        });
    }

    @Override
    public void rollback() {
        checkNotInOwnCompletionListener("rollback");
        Session s = session();
        call(() -> {
            s.rollback();
            return null;
        });
    }

    private void checkNotInOwnCompletionListener(String what) {
        checkOpen();
        if (CallbackThreads.completionListenerContext() == this) {
            throw new IllegalStateRuntimeException("A CompletionListener must not " + what + " its own JMSContext: " + what
                    + " waits for the completion callbacks to return.");
        }
    }

    /**
     * Redelivers every unacknowledged message. In AUTO / DUPS_OK a message a consumer held back
     * after a failed receiveBody is among them: it is dropped from the consumer, or it would come
     * twice.
     *
     * @throws IllegalStateRuntimeException when the session is transacted
     */
    @Override
    public void recover() {
        checkOpen();
        if (sessionMode == SESSION_TRANSACTED) {
            throw new IllegalStateRuntimeException("recover() is for a non-transacted JMSContext; a transacted one rolls back.");
        }
        recoverSession();
    }

    private void recoverSession() {
        Session s = session();
        consumers.forEach(AqueductJMSConsumer::dropHeld);
        call(() -> {
            s.recover();
            return null;
        });
    }

    /**
     * CLIENT_ACKNOWLEDGE: acknowledges every message this context's session has consumed. Other
     * modes: nothing.
     *
     * @throws IllegalStateRuntimeException when the context is closed
     */
    @Override
    public void acknowledge() {
        checkOpen();
        if (sessionMode != CLIENT_ACKNOWLEDGE) {
            return;
        }
        Message last = lastDelivered;
        if (last != null) {
            call(() -> {
                last.acknowledge();
                return null;
            });
            // only clear what was acknowledged: a listener may have delivered a newer one meanwhile
            if (lastDelivered == last) {
                lastDelivered = null;
            }
        }
    }

    // ---------------------------------------------------------------- producers and consumers

    @Override
    public JMSProducer createProducer() {
        checkOpen();
        return new AqueductJMSProducer(this);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return consumer(s -> s.createConsumer(destination));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return consumer(s -> s.createConsumer(destination, messageSelector));
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(s -> s.createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(s -> s.createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(s -> s.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(s -> s.createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(s -> s.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(s -> s.createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(s -> s.createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @FunctionalInterface
    private interface ConsumerFactory {
        MessageConsumer create(Session session) throws JMSException;
    }

    /** Creates the classic consumer, wraps it, and starts the connection when autoStart says so. */
    private JMSConsumer consumer(ConsumerFactory factory) {
        Session s = session();
        MessageConsumer classic = call(() -> factory.create(s));
        AqueductJMSConsumer consumer = new AqueductJMSConsumer(this, classic);
        consumers.add(consumer);
        if (autoStart) {
            try {
                shared.connection().start();
            } catch (JMSException e) {
                consumer.close();
                throw RuntimeExceptions.of(e);
            }
        }
        return consumer;
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        Session s = session();
        return call(() -> s.createBrowser(queue));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        Session s = session();
        return call(() -> s.createBrowser(queue, messageSelector));
    }

    @Override
    public void unsubscribe(String name) {
        Session s = session();
        call(() -> {
            s.unsubscribe(name);
            return null;
        });
    }

    // ---------------------------------------------------------------- destinations

    @Override
    public Queue createQueue(String queueName) {
        Session s = session();
        return call(() -> s.createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        Session s = session();
        return call(() -> s.createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        Session s = session();
        return call(s::createTemporaryQueue);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        Session s = session();
        return call(s::createTemporaryTopic);
    }

    // ---------------------------------------------------------------- messages

    @Override
    public BytesMessage createBytesMessage() {
        Session s = session();
        return call(s::createBytesMessage);
    }

    @Override
    public MapMessage createMapMessage() {
        Session s = session();
        return call(s::createMapMessage);
    }

    @Override
    public Message createMessage() {
        Session s = session();
        return call(s::createMessage);
    }

    @Override
    public ObjectMessage createObjectMessage() {
        Session s = session();
        return call(s::createObjectMessage);
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        Session s = session();
        return call(() -> s.createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        Session s = session();
        return call(s::createStreamMessage);
    }

    @Override
    public TextMessage createTextMessage() {
        Session s = session();
        return call(s::createTextMessage);
    }

    @Override
    public TextMessage createTextMessage(String text) {
        Session s = session();
        return call(() -> s.createTextMessage(text));
    }
}
