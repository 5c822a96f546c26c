package io.aqueduct.jms.client;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.jms.context.AqueductJMSContext;
import io.aqueduct.jms.context.RuntimeExceptions;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;

import java.util.Objects;

/**
 * Jakarta Messaging connections over Aqueduct queue sessions. An application that starts the
 * engine itself passes it ({@code new AqueductConnectionFactory(engine)}); the JNDI context of
 * {@code io.aqueduct.jms.jndi} builds factories from {@code jndi.properties}.
 *
 * <p>A factory with a client id gives it to every connection (administratively configured: the
 * application cannot change it); two open connections never share a client id in this JVM.
 */
public class AqueductConnectionFactory implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory {
    final AqConnectionFactory sessions;
    final Users users;
    final String clientId;
    private volatile java.util.concurrent.Executor executor;
    /** In a Jakarta EE container: where sessions that must not join its transactions come from; null in Java SE. */
    private volatile AqConnectionFactory controlSessions;
    /** In a container, connections live for one transaction or one call: what queues are is kept here, for all. */
    final java.util.Map<String, AqueductConnection.QueueShape> shapes = new java.util.concurrent.ConcurrentHashMap<>();

    /** Anyone may connect, as the store's default user unless a user name is given. */
    public AqueductConnectionFactory(AqConnectionFactory sessions) {
        this(sessions, Users.anyone(null), null);
    }

    /**
     * @param sessions where queue sessions come from (the engine, in Java SE)
     * @param users who may connect and the default identity
     * @param clientId the client id of every connection (null: the application sets one, or none)
     */
    public AqueductConnectionFactory(AqConnectionFactory sessions, Users users, String clientId) {
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.users = Objects.requireNonNull(users, "users");
        if (clientId != null && clientId.isBlank()) {
            throw new IllegalArgumentException("A configured client id must not be blank.");
        }
        this.clientId = clientId;
    }

    /**
     * Where the provider's background work runs: sessions' listener delivery, asynchronous sends,
     * connection consumers. By default each runs on a daemon thread of its own; a container passes
     * its managed executor (in the resource adapter: the WorkManager). Returns this factory.
     */
    public AqueductConnectionFactory executor(java.util.concurrent.Executor executor) {
        this.executor = executor;
        return this;
    }

    /**
     * Makes this a factory of a Jakarta EE container (the resource adapter's JMS connection
     * factories): {@code sessions} are the container's pooled queue sessions, enlisted in its
     * transactions, and {@code controlSessions} sessions that never are (administration: queue
     * lookups, subscriptions, temporary destinations). Its connections then follow the platform's
     * rules (Jakarta Messaging 3.1, 12.2 / 12.3): in a transaction a session's work is the
     * transaction's (the {@code transacted} and acknowledge mode arguments are ignored); outside one
     * a session is not transacted; one session per connection; {@code setClientID},
     * {@code setExceptionListener}, {@code stop}, message listeners, connection consumers and
     * asynchronous sends are refused with {@code IllegalStateException}. A configured client id is
     * not reserved per connection (many connections of one factory are open at once there).
     * Returns this factory.
     */
    public AqueductConnectionFactory containerManaged(AqConnectionFactory controlSessions) {
        this.controlSessions = Objects.requireNonNull(controlSessions, "controlSessions");
        return this;
    }

    /** Whether this factory's connections follow the Jakarta EE container's rules. */
    public boolean inContainer() {
        return controlSessions != null;
    }

    AqConnectionFactory controlSessions() {
        AqConnectionFactory c = controlSessions;
        return c == null ? sessions : c;
    }

    /** Runs a long-lived background task (a loop that ends by itself when its owner closes). */
    void runInBackground(String name, Runnable task) {
        java.util.concurrent.Executor e = executor;
        if (e != null) {
            e.execute(task);
            return;
        }
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
    }

    /** The sessions this factory's connections work on. */
    public AqConnectionFactory sessions() {
        return sessions;
    }

    /** The users this factory accepts. */
    public Users users() {
        return users;
    }

    /** The client id this factory gives its connections, or null. */
    public String configuredClientId() {
        return clientId;
    }

    AqueductConnection open(String user, String password, boolean xa) throws JMSException {
        String aqUser = users.authenticate(user, password);
        return xa ? new AqueductXAConnection(this, aqUser) : new AqueductConnection(this, aqUser);
    }

    @Override
    public Connection createConnection() throws JMSException {
        return open(null, null, false);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return open(userName, password, false);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return open(null, null, false).queueOnly();
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return open(userName, password, false).queueOnly();
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return open(null, null, false);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return open(userName, password, false);
    }

    @Override
    public JMSContext createContext() {
        return createContext(null, null, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return createContext(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return createContext(null, null, sessionMode);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        try {
            return AqueductJMSContext.create(open(userName, password, false), sessionMode, inContainer());
        } catch (JMSException e) {
            throw RuntimeExceptions.of(e);
        }
    }
}
