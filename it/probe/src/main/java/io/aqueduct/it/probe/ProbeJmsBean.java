package io.aqueduct.it.probe;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSConnectionFactoryDefinition;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSDestinationDefinition;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Jakarta Messaging through the resource adapter, in container transactions (REQUIRED unless said
 * otherwise). The connection factory and destinations are declared here with the Jakarta EE
 * annotations, on the adapter of the EAR: Payara turns them into an application-scoped connector
 * connection pool + resource (the factory: properties UserName / Password / clientId) and admin
 * object resources (property Name = destinationName).
 */
@JMSConnectionFactoryDefinition(name = ProbeQueues.JMS_CF, interfaceName = "jakarta.jms.ConnectionFactory",
        resourceAdapter = ProbeQueues.RA_OF_THIS_APPLICATION, user = ProbeQueues.JMS_USER,
        clientId = ProbeQueues.JMS_CLIENT_ID, minPoolSize = 0, maxPoolSize = 32)
@JMSDestinationDefinition(name = ProbeQueues.JMS_QUEUE, interfaceName = "jakarta.jms.Queue",
        resourceAdapter = ProbeQueues.RA_OF_THIS_APPLICATION, destinationName = ProbeQueues.JMS_Q)
@JMSDestinationDefinition(name = ProbeQueues.JMS_TOPIC, interfaceName = "jakarta.jms.Topic",
        resourceAdapter = ProbeQueues.RA_OF_THIS_APPLICATION, destinationName = ProbeQueues.JMS_T)
@Stateless
public class ProbeJmsBean {
    /** The probe's own table in the EAR's XA data source: a JDBC row beside a JMS send. */
    static final String ROWS_TABLE = "PROBE_JMS_ROWS";
    static final String EXCEPTION_QUEUE_PROPERTY = "JMS_OracleExcpQ";

    /**
     * The injected JMSContext. In a transaction embedded Payara 6.2024.8 cannot make it here (its
     * TransactionScoped context fails: NullPointerException, "trxScopeInitializedEvent is null", in
     * TransactionScopedCDIEventHelperImpl, for an EJB of a WAR inside an EAR), so the transactional
     * sends take a JMSContext from the factory ({@link #context()}); outside a transaction (request
     * scope) it works and {@link #sendWithoutTransaction} uses it.
     */
    @Inject
    @JMSConnectionFactory(ProbeQueues.JMS_CF)
    private JMSContext jms;

    private ConnectionFactory factory;

    @Resource(lookup = "java:app/jdbc/BooksOnLine")
    private DataSource db;

    @Resource
    private SessionContext context;

    /**
     * An application-managed JMSContext of the factory: in a container transaction its session is
     * part of the transaction (closing it before the commit is fine); {@code injected}: the injected one.
     */
    private JMSContext context(boolean injected) {
        return injected ? jms : factory().createContext();
    }

    /** Looked up rather than injected, as ProbeBean's factory. */
    private ConnectionFactory factory() {
        if (factory == null) {
            try {
                factory = InitialContext.doLookup(ProbeQueues.JMS_CF);
            } catch (NamingException e) {
                throw new IllegalStateException("no " + ProbeQueues.JMS_CF + ": " + e, e);
            }
        }
        return factory;
    }

    /** Runs {@code work} with {@link #context(boolean)}, closing it afterwards unless it is the injected one. */
    private <T> T with(boolean injected, java.util.function.Function<JMSContext, T> work) {
        JMSContext c = context(injected);
        try {
            return work.apply(c);
        } finally {
            if (!injected) {
                c.close();
            }
        }
    }

    /** A JNDI name (java:...) is looked up; anything else is an AQ queue name, a Queue or (topic) a Topic. */
    static Destination destination(JMSContext jms, String name, boolean topic) {
        if (name.startsWith("java:")) {
            try {
                return InitialContext.doLookup(name);
            } catch (NamingException e) {
                throw new IllegalStateException("no " + name + ": " + e, e);
            }
        }
        return topic ? jms.createTopic(name) : jms.createQueue(name);
    }

    /**
     * Sends the texts (TextMessages with the given string properties) in this bean's transaction,
     * then holds the transaction open for {@code holdMillis} and rolls it back on request; returns
     * their JMSMessageIDs.
     */
    public List<String> send(String destination, boolean topic, List<String> texts, Map<String, String> properties,
            long holdMillis, boolean rollback, boolean injected) {
        List<String> ids = with(injected, jms -> {
            Destination d = destination(jms, destination, topic);
            List<String> sent = new ArrayList<>(texts.size());
            try {
                for (String t : texts) {
                    TextMessage m = jms.createTextMessage(t);
                    for (Map.Entry<String, String> p : properties.entrySet()) {
                        m.setStringProperty(p.getKey(), p.getValue());
                    }
                    jms.createProducer().send(d, m);
                    sent.add(m.getJMSMessageID());
                }
            } catch (JMSException e) {
                throw new EJBException(e);
            }
            return sent;
        });
        hold(holdMillis);
        if (rollback) {
            context.setRollbackOnly();
        }
        return ids;
    }

    /**
     * Tries, in this container transaction, what the platform forbids an application in the
     * container (Jakarta EE, Messaging 12.2), on a connection and on a JMSContext of the factory;
     * one {@code operation=<exception class or "allowed">} line each.
     */
    public String restrictions() {
        StringBuilder out = new StringBuilder();
        try (jakarta.jms.Connection c = factory().createConnection()) {
            jakarta.jms.Session s = c.createSession();
            Destination q = s.createQueue(ProbeQueues.JMS_Q);
            try_(out, "Connection.setClientID", () -> c.setClientID("not-allowed"));
            try_(out, "Connection.setExceptionListener", () -> c.setExceptionListener(e -> { }));
            try_(out, "Connection.stop", c::stop);
            try_(out, "Connection.createSession(second)", () -> c.createSession());
            try_(out, "Connection.createConnectionConsumer", () -> c.createConnectionConsumer(q, null, null, 1));
            try_(out, "MessageConsumer.setMessageListener", () -> s.createConsumer(q).setMessageListener(m -> { }));
            try_(out, "MessageProducer.send(CompletionListener)", () -> s.createProducer(q).send(s.createTextMessage("async"),
                    new jakarta.jms.CompletionListener() {
                        @Override
                        public void onCompletion(Message message) {
                        }

                        @Override
                        public void onException(Message message, Exception exception) {
                        }
                    }));
        } catch (JMSException e) {
            throw new EJBException(e);
        }
        try (JMSContext c = factory().createContext()) {
            Destination q = c.createQueue(ProbeQueues.JMS_Q);
            try_(out, "JMSContext.setClientID", () -> c.setClientID("not-allowed"));
            try_(out, "JMSContext.setExceptionListener", () -> c.setExceptionListener(e -> { }));
            try_(out, "JMSContext.stop", c::stop);
            try_(out, "JMSConsumer.setMessageListener", () -> c.createConsumer(q).setMessageListener(m -> { }));
            try_(out, "JMSProducer.setAsync", () -> c.createProducer().setAsync(new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                }

                @Override
                public void onException(Message message, Exception exception) {
                }
            }).send(q, "async"));
        }
        return out.toString();
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private static void try_(StringBuilder out, String operation, Attempt attempt) {
        String result;
        try {
            attempt.run();
            result = "allowed";
        } catch (Exception e) {
            result = e.getClass().getName();
        }
        out.append(operation).append('=').append(result).append('\n');
    }

    /** The client id of the factory's contexts (the definition's clientId: ClientId of the connection definition). */
    public String clientId() {
        return with(false, JMSContext::getClientID);
    }

    /** One 1 KiB-ish BytesMessage in a transaction of its own (the JMS EJB-send benchmark calls this in a loop). */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void sendOne(String queue, byte[] payload) {
        with(false, jms -> jms.createProducer().send(jms.createQueue(queue), payload));
    }

    /** Sends {@code count} BytesMessages in one transaction (the benchmark's load). */
    public void sendBytes(String queue, int count, byte[] payload) {
        with(false, jms -> {
            Destination d = jms.createQueue(queue);
            for (int i = 0; i < count; i++) {
                jms.createProducer().send(d, payload);
            }
            return null;
        });
    }

    /**
     * Outside any transaction: the session is non-transacted, so the message is there as soon as
     * send returns. Sends one text to {@link ProbeQueues#JMS_QUEUE} and, still in this method, waits
     * up to {@code waitMillis} for {@link JmsMdbs.Received} to get it; returns {@code id,receivedAt}
     * (-1: not received before this method returned).
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public String sendWithoutTransaction(String text, long waitMillis, boolean nonPersistent) {
        TextMessage m = jms.createTextMessage(text);
        // NON_PERSISTENT outside a transaction: an AQ buffered message, in the adapter's memory
        jms.createProducer().setDeliveryMode(nonPersistent ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT)
                .send(destination(jms, ProbeQueues.JMS_QUEUE, false), m);
        String id;
        try {
            id = m.getJMSMessageID();
        } catch (JMSException e) {
            throw new EJBException(e);
        }
        long until = System.currentTimeMillis() + waitMillis;
        while (!Recorder.RECEIVED_AT.containsKey(id) && System.currentTimeMillis() < until) {
            hold(20);
        }
        Long at = Recorder.RECEIVED_AT.get(id);
        return id + "," + (at == null ? -1 : at);
    }

    /**
     * A JDBC row and a JMS message in one transaction: sends {@code rowId} (text and property rowId)
     * to {@link ProbeQueues#JMS_QUEUE}, then inserts the row; with {@code duplicate} inserts it twice
     * (the second insert fails: a system exception, the container rolls back); with {@code rollback}
     * marks the transaction rollback-only. Returns the JMSMessageID.
     */
    public String sendWithRow(String rowId, boolean rollback, boolean duplicate) {
        context.getBusinessObject(ProbeJmsBean.class).createRowsTable();
        String id = send(ProbeQueues.JMS_QUEUE, false, List.of(rowId), Map.of("rowId", rowId), 0, false, false).get(0);
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + ROWS_TABLE
                + " (ID) VALUES (?)")) {
            ps.setString(1, rowId);
            ps.executeUpdate();
            if (duplicate) {
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new EJBException("the row " + rowId + ": " + e.getMessage(), e);
        }
        if (rollback) {
            context.setRollbackOnly();
        }
        return id;
    }

    public boolean hasRow(String rowId) {
        context.getBusinessObject(ProbeJmsBean.class).createRowsTable();
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + ROWS_TABLE
                + " WHERE ID = ?")) {
            ps.setString(1, rowId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        } catch (SQLException e) {
            throw new EJBException(e);
        }
    }

    /** DDL in no transaction of the caller's: an existing table is fine (Derby X0Y32). */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public void createRowsTable() {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE " + ROWS_TABLE + " (ID VARCHAR(100) PRIMARY KEY)");
        } catch (SQLException e) {
            if (!"X0Y32".equals(e.getSQLState())) {
                throw new EJBException(e);
            }
        }
    }

    /**
     * Receives (no wait) one message from the queue, in this bean's transaction, with a selector
     * (null: any); {@code id|text|JMSXDeliveryCount|JMSRedelivered}, or null when there is none.
     */
    public String receive(String queue, String selector) {
        return with(false, jms -> {
            try (JMSConsumer consumer = jms.createConsumer(destination(jms, queue, false), selector)) {
                Message m = consumer.receiveNoWait();
                if (m == null) {
                    return null;
                }
                return m.getJMSMessageID() + "|" + (m instanceof TextMessage t ? t.getText() : "") + "|"
                        + m.getIntProperty("JMSXDeliveryCount") + "|" + m.getJMSRedelivered();
            } catch (JMSException e) {
                throw new EJBException(e);
            }
        });
    }

    private static void hold(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
