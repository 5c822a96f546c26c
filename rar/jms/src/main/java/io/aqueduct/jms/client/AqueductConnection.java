package io.aqueduct.jms.client;

import io.aqueduct.api.AqException;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.jms.destination.AqueductDestination;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTemporaryQueue;
import io.aqueduct.jms.destination.AqueductTemporaryTopic;
import io.aqueduct.jms.destination.AqueductTopic;
import io.aqueduct.jms.destination.TemporaryDestinations;
import io.aqueduct.jms.message.DestinationKind;
import io.aqueduct.jms.message.JmsMessageCodec;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A JMS connection: the user its sessions work as, the client id, start / stop of delivery, the
 * temporary destinations it owns. Each session has a queue session of its own.
 */
public class AqueductConnection implements Connection, QueueConnection, TopicConnection, TemporaryDestinations {
    private static final Logger LOG = Logger.getLogger(AqueductConnection.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    // client ids in use per store (AqConnectionFactory): two open connections never share one
    private static final Map<Object, Set<String>> CLIENT_IDS = new WeakHashMap<>();

    final AqueductConnectionFactory factory;
    final String user;
    final String connectionId = randomName(20);
    final MessageMapping mapping;
    private final boolean clientIdFixed;
    private volatile String clientId;
    private volatile boolean used;
    private volatile ExceptionListener exceptionListener;
    final CopyOnWriteArrayList<AqueductSession> sessions = new CopyOnWriteArrayList<>();
    private final Set<AqueductDestination> temporaries = ConcurrentHashMap.newKeySet();
    private final CopyOnWriteArrayList<ConnectionConsumerImpl> connectionConsumers = new CopyOnWriteArrayList<>();
    private final Map<String, QueueShape> shapes;

    // start / stop: deliveries enter the gate only while started; stop waits for those inside
    private final Object gate = new Object();
    private boolean started;
    private int inFlight;
    private volatile boolean closed;
    /** The connection whose message listener this thread is running, if any. */
    static final ThreadLocal<AqueductConnection> DELIVERING = new ThreadLocal<>();

    AqueductConnection(AqueductConnectionFactory factory, String user) throws JMSException {
        this.factory = factory;
        this.user = user;
        this.mapping = new MessageMapping(new JmsMessageCodec(this::replyTo));
        this.clientIdFixed = factory.clientId != null;
        this.shapes = factory.inContainer() ? factory.shapes : new ConcurrentHashMap<>();
        if (clientIdFixed) {
            if (!factory.inContainer()) {
                claimClientId(factory.clientId);
            }
            this.clientId = factory.clientId;
        }
    }

    // ------------------------------------------------------------------ sessions

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return createSession(sessionMode(transacted, acknowledgeMode));
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return newSession(sessionMode);
    }

    @Override
    public Session createSession() throws JMSException {
        return newSession(Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(sessionMode(transacted, acknowledgeMode)).domain(AqueductSession.Domain.QUEUE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(sessionMode(transacted, acknowledgeMode)).domain(AqueductSession.Domain.TOPIC);
    }

    /** (transacted, acknowledgeMode) as a session mode: not transacted, SESSION_TRANSACTED is no acknowledge mode. */
    private static int sessionMode(boolean transacted, int acknowledgeMode) throws JMSException {
        if (!transacted && acknowledgeMode == Session.SESSION_TRANSACTED) {
            throw new JMSException("A session that is not transacted needs AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2)"
                    + " or DUPS_OK_ACKNOWLEDGE (3), not SESSION_TRANSACTED (0).");
        }
        return transacted ? Session.SESSION_TRANSACTED : acknowledgeMode;
    }

    AqueductSession newSession(int mode) throws JMSException {
        checkOpen();
        if (factory.inContainer()) {
            if (sessions.stream().anyMatch(s -> !s.isClosed())) {
                throw new jakarta.jms.IllegalStateException("This connection has an open session: in a Jakarta EE web or"
                        + " EJB container a connection has one session at a time (Jakarta Messaging 12.2). Close it, or"
                        + " create another connection.");
            }
            // in a transaction the session's work is the transaction's whatever was asked; outside one a session
            // asked to be transacted is not (the platform's recommended choice): it acknowledges automatically
            if (mode == Session.SESSION_TRANSACTED) {
                mode = Session.AUTO_ACKNOWLEDGE;
            }
        }
        if (mode != Session.SESSION_TRANSACTED && mode != Session.AUTO_ACKNOWLEDGE && mode != Session.CLIENT_ACKNOWLEDGE
                && mode != Session.DUPS_OK_ACKNOWLEDGE) {
            throw new JMSException("Session mode " + mode + " is not one of SESSION_TRANSACTED (0), AUTO_ACKNOWLEDGE (1),"
                    + " CLIENT_ACKNOWLEDGE (2), DUPS_OK_ACKNOWLEDGE (3).");
        }
        markUsed();
        AqueductSession s = open(mode);
        sessions.add(s);
        if (closed) { // closed meanwhile by another thread
            s.close();
            throw JmsErrors.closed("connection");
        }
        return s;
    }

    AqueductSession open(int mode) throws JMSException {
        return new AqueductSession(this, mode, openQueueSession());
    }

    io.aqueduct.api.QueueSession openQueueSession() throws JMSException {
        try {
            return factory.sessions.openSession(user);
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    void sessionClosed(AqueductSession s) {
        sessions.remove(s);
    }

    /**
     * In a Jakarta EE web or EJB container (a factory of the resource adapter) the platform forbids
     * some methods (Jakarta Messaging 3.1, 12.2): they throw {@code IllegalStateException}.
     */
    void refuseInContainer(String what, String instead) throws jakarta.jms.IllegalStateException {
        if (factory.inContainer()) {
            throw new jakarta.jms.IllegalStateException(what + " is not allowed in a Jakarta EE web or EJB container"
                    + " (Jakarta Messaging 12.2): " + instead + ".");
        }
    }

    // ------------------------------------------------------------------ client id

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return clientId;
    }

    @Override
    public void setClientID(String id) throws JMSException {
        checkOpen();
        refuseInContainer("Connection.setClientID", "configure the client id on the connection factory (ClientId)");
        if (clientIdFixed) {
            throw new jakarta.jms.IllegalStateException("This connection's client id '" + clientId
                    + "' is configured on its connection factory and cannot be changed.");
        }
        if (clientId != null) {
            throw new jakarta.jms.IllegalStateException("The client id is already set to '" + clientId + "'; it is set once.");
        }
        if (used) {
            throw new jakarta.jms.IllegalStateException("The client id must be set before the connection is used"
                    + " (before any session, start or listener).");
        }
        if (id == null || id.isEmpty()) {
            throw new InvalidClientIDException("A client id must not be null or empty.");
        }
        claimClientId(id);
        clientId = id;
        used = true;
    }

    private void claimClientId(String id) throws InvalidClientIDException {
        synchronized (CLIENT_IDS) {
            Set<String> inUse = CLIENT_IDS.computeIfAbsent(factory.sessions, k -> new HashSet<>());
            if (!inUse.add(id)) {
                throw new InvalidClientIDException("Client id '" + id + "' is in use by another open connection.");
            }
        }
    }

    private void releaseClientId() {
        if (clientId == null) {
            return;
        }
        synchronized (CLIENT_IDS) {
            Set<String> inUse = CLIENT_IDS.get(factory.sessions);
            if (inUse != null) {
                inUse.remove(clientId);
            }
        }
    }

    String clientIdOrNull() {
        return clientId;
    }

    void markUsed() {
        used = true;
    }

    // ------------------------------------------------------------------ start / stop

    @Override
    public void start() throws JMSException {
        checkOpen();
        markUsed();
        synchronized (gate) {
            started = true;
            gate.notifyAll();
        }
        for (AqueductSession s : sessions) {
            s.connectionStarted();
        }
    }

    @Override
    public void stop() throws JMSException {
        checkOpen();
        refuseInContainer("Connection.stop", "close the connection instead");
        markUsed();
        if (DELIVERING.get() == this) {
            throw new jakarta.jms.IllegalStateException("A message listener must not stop its own connection.");
        }
        AqueductSession.checkNotInCompletionListener(this, "stop");
        synchronized (gate) {
            started = false;
            while (inFlight > 0) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new JMSException("Interrupted while waiting for deliveries in progress to end.");
                }
            }
        }
    }

    boolean isStarted() {
        synchronized (gate) {
            return started;
        }
    }

    /**
     * Enters a delivery: waits while the connection is stopped, up to {@code deadlineNanos}
     * ({@code Long.MAX_VALUE}: no limit). False when the time passed, the connection closed or
     * {@code cancelled} said so.
     */
    boolean enterDelivery(long deadlineNanos, java.util.function.BooleanSupplier cancelled) {
        synchronized (gate) {
            while (!started && !closed && !cancelled.getAsBoolean()) {
                long left = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                // rounded up (never early); no deadline: a bounded wait, then look again
                long waitMillis = left == Long.MAX_VALUE ? 250 : Math.min(250, (left + 999_999) / 1_000_000);
                try {
                    gate.wait(waitMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (closed || cancelled.getAsBoolean()) {
                return false;
            }
            inFlight++;
            return true;
        }
    }

    void leaveDelivery() {
        synchronized (gate) {
            inFlight--;
            gate.notifyAll();
        }
    }

    // ------------------------------------------------------------------ listeners, metadata

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        refuseInContainer("Connection.setExceptionListener", "failures reach the caller as exceptions");
        markUsed();
        exceptionListener = listener;
    }

    /** Tells the exception listener of a problem no call of the application can report (a delivery that failed). */
    void report(JMSException e) {
        ExceptionListener l = exceptionListener;
        if (l == null || closed) {
            return;
        }
        try {
            l.onException(e);
        } catch (RuntimeException thrown) {
            LOG.log(Level.WARNING, "The JMS ExceptionListener threw", thrown);
        }
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return new MetaData();
    }

    // ------------------------------------------------------------------ connection consumers (application servers)

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        return connectionConsumer(destination, null, false, false, messageSelector, sessionPool, maxMessages);
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String messageSelector, ServerSessionPool sessionPool,
            int maxMessages) throws JMSException {
        return connectionConsumer(queue, null, false, false, messageSelector, sessionPool, maxMessages);
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector, ServerSessionPool sessionPool,
            int maxMessages) throws JMSException {
        return connectionConsumer(topic, null, false, false, messageSelector, sessionPool, maxMessages);
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        return connectionConsumer(topic, subscriptionName, false, true, messageSelector, sessionPool, maxMessages);
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName, String messageSelector,
            ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        return connectionConsumer(topic, subscriptionName, true, false, messageSelector, sessionPool, maxMessages);
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
            String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        return connectionConsumer(topic, subscriptionName, true, true, messageSelector, sessionPool, maxMessages);
    }

    /** Created as a QueueConnection: the subscription-based connection consumers are refused. */
    private volatile boolean queueOnly;

    AqueductConnection queueOnly() {
        queueOnly = true;
        return this;
    }

    private ConnectionConsumer connectionConsumer(Destination destination, String subscription, boolean durable,
            boolean shared, String selector, ServerSessionPool pool, int maxMessages) throws JMSException {
        checkOpen();
        refuseInContainer("a connection consumer", "use a message-driven bean");
        if (queueOnly && (durable || shared)) {
            throw new jakarta.jms.IllegalStateException("Shared and durable connection consumers are not available on a"
                    + " QueueConnection.");
        }
        markUsed();
        if (pool == null) {
            throw new JMSException("A connection consumer needs a ServerSessionPool.");
        }
        if (maxMessages < 1) {
            throw new JMSException("maxMessages must be at least 1, not " + maxMessages + ".");
        }
        ConnectionConsumerImpl c = new ConnectionConsumerImpl(this, destination, subscription, durable, shared, selector,
                pool, maxMessages);
        connectionConsumers.add(c);
        c.begin();
        return c;
    }

    void connectionConsumerClosed(ConnectionConsumerImpl c) {
        connectionConsumers.remove(c);
    }

    // ------------------------------------------------------------------ destinations

    /** What a queue is, looked up once per connection: its payload type and whether it has subscribers. */
    record QueueShape(PayloadType payloadType, boolean multipleConsumers, boolean exceptionQueue) {
    }

    /** The shape of {@code d}'s queue; InvalidDestinationException when it does not exist or is of the other kind. */
    QueueShape shape(AqueductDestination d) throws JMSException {
        QueueShape s = shapes.get(d.canonicalName());
        if (s == null) {
            try {
                QueueAdmin admin = adminSession();
                QueueInfo q = admin.queue(d.queueName());
                QueueTableInfo t = admin.queueTable(q.owner() + "." + q.queueTable());
                s = new QueueShape(t.payloadType(), t.multipleConsumers(), q.queueType() == io.aqueduct.api.QueueType.EXCEPTION);
            } catch (AqException e) {
                throw JmsErrors.of(e);
            }
            shapes.put(d.canonicalName(), s);
        }
        if (d instanceof AqueductTopic && (!s.multipleConsumers() || s.exceptionQueue())) {
            throw new InvalidDestinationException("AQ queue " + d.queueName() + " is a single-consumer queue: name it as"
                    + " a Queue, not a Topic.");
        }
        if (d instanceof AqueductQueue && s.multipleConsumers() && !s.exceptionQueue()) {
            throw new InvalidDestinationException("AQ queue " + d.queueName() + " is a multi-consumer queue: name it as"
                    + " a Topic, not a Queue.");
        }
        return s;
    }

    /**
     * The administrative interface, through a queue session of the connection's own that carries no
     * messaging work (administration commits on its own, as AQ's DDL does).
     */
    synchronized QueueAdmin adminSession() throws JMSException {
        if (control == null) {
            try {
                // in a container: a session outside its transactions (administration commits on its own anyway)
                control = factory.controlSessions().openSession(user);
            } catch (AqException e) {
                throw JmsErrors.of(e);
            }
        }
        try {
            return control.admin();
        } catch (AqException e) {
            control.close(); // its connection may be gone: the next call opens another
            control = null;
            throw JmsErrors.of(e);
        }
    }

    private io.aqueduct.api.QueueSession control;

    void forget(AqueductDestination d) {
        shapes.remove(d.canonicalName());
    }

    private Destination replyTo(DestinationKind kind, String name) throws JMSException {
        return switch (kind) {
            case QUEUE -> new AqueductQueue(name);
            case TOPIC -> new AqueductTopic(name);
            case TEMPORARY_QUEUE -> temporaryNamed(name, false);
            case TEMPORARY_TOPIC -> temporaryNamed(name, true);
        };
    }

    private Destination temporaryNamed(String name, boolean topic) throws JMSException {
        for (AqueductDestination d : temporaries) {
            if (d.queueName().equalsIgnoreCase(name)) {
                return d; // our own: this connection may consume from it and delete it
            }
        }
        return topic ? new AqueductTemporaryTopic(name, null) : new AqueductTemporaryQueue(name, null);
    }

    AqueductTemporaryQueue createTemporaryQueue() throws JMSException {
        String name = "TMPQ_" + randomName(16);
        createTemporary(name, false);
        AqueductTemporaryQueue q = new AqueductTemporaryQueue(name, this);
        temporaries.add(q);
        return q;
    }

    AqueductTemporaryTopic createTemporaryTopic() throws JMSException {
        String name = "TMPT_" + randomName(16);
        createTemporary(name, true);
        AqueductTemporaryTopic t = new AqueductTemporaryTopic(name, this);
        temporaries.add(t);
        return t;
    }

    private void createTemporary(String name, boolean topic) throws JMSException {
        checkOpen();
        markUsed();
        try {
            // the engine's operation for it: any user may create one (no MANAGE_ANY), and receives ALL on it
            adminSession().createTemporaryQueue(name, topic);
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    @Override
    public boolean owns(AqueductDestination destination) {
        return temporaries.contains(destination);
    }

    @Override
    public void delete(AqueductDestination destination) throws JMSException {
        checkOpen();
        if (!temporaries.contains(destination)) {
            throw new InvalidDestinationException("Temporary destination " + destination.queueName()
                    + " is already deleted.");
        }
        for (AqueductSession s : sessions) {
            if (s.hasConsumerOn(destination)) {
                throw new jakarta.jms.IllegalStateException("Temporary destination " + destination.queueName()
                        + " still has consumers; close them first.");
            }
        }
        dropTemporary(destination);
    }

    private void dropTemporary(AqueductDestination d) throws JMSException {
        temporaries.remove(d);
        forget(d);
        try {
            adminSession().dropTemporaryQueue(d.queueName());
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() throws JMSException {
        if (DELIVERING.get() == this) {
            throw new jakarta.jms.IllegalStateException("A message listener must not close its own connection.");
        }
        AqueductSession.checkNotInCompletionListener(this, "close");
        if (closed) {
            return;
        }
        synchronized (gate) {
            closed = true;
            gate.notifyAll();
        }
        JMSException first = null;
        for (ConnectionConsumerImpl c : connectionConsumers) {
            c.close();
        }
        for (AqueductSession s : sessions) {
            try {
                s.close();
            } catch (JMSException e) {
                first = first == null ? e : first;
            }
        }
        for (AqueductDestination d : Set.copyOf(temporaries)) {
            try {
                dropTemporary(d);
            } catch (JMSException e) {
                LOG.log(Level.WARNING, "Could not drop temporary destination " + d.queueName(), e);
            }
        }
        synchronized (this) {
            if (control != null) {
                try {
                    control.close();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "closing the connection's control session", e);
                }
                control = null;
            }
        }
        releaseClientId();
        if (first != null) {
            throw first;
        }
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("connection");
        }
    }

    static String randomName(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /** Jakarta Messaging 3.1, Aqueduct; the JMSX properties it sets or honours. */
    static final class MetaData implements ConnectionMetaData {
        @Override
        public String getJMSVersion() {
            return "3.1";
        }

        @Override
        public int getJMSMajorVersion() {
            return 3;
        }

        @Override
        public int getJMSMinorVersion() {
            return 1;
        }

        @Override
        public String getJMSProviderName() {
            return "Aqueduct";
        }

        @Override
        public String getProviderVersion() {
            String v = AqueductConnection.class.getPackage().getImplementationVersion();
            return v == null ? "0.1" : v;
        }

        @Override
        public int getProviderMajorVersion() {
            return 0;
        }

        @Override
        public int getProviderMinorVersion() {
            return 1;
        }

        @Override
        public java.util.Enumeration<String> getJMSXPropertyNames() {
            return java.util.Collections.enumeration(java.util.List.of("JMSXUserID", "JMSXGroupID", "JMSXGroupSeq", "JMSXDeliveryCount"));
        }
    }
}
