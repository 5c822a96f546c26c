package io.aqueduct.connector.jms;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.AqResourceAdapter;
import io.aqueduct.connector.outbound.AqConnectionFactoryImpl;
import io.aqueduct.connector.outbound.AqManagedConnection;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import io.aqueduct.connector.outbound.AqSessionHandle;
import io.aqueduct.connector.outbound.UnpooledConnectionManager;
import io.aqueduct.jms.client.Users;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnectionFactory;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionDefinitions;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.ResourceAllocationException;
import jakarta.resource.spi.TransactionSupport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * The adapter's Jakarta Messaging connection factories ({@code ConnectionFactory},
 * {@code QueueConnectionFactory}, {@code TopicConnectionFactory}): each JMS session works on one
 * pooled queue session (a managed connection, as the native factory's), which the container enlists
 * in its transaction; what a session needs outside the transaction (administration, subscriptions,
 * temporary destinations) goes through sessions of the adapter's own.
 */
@ConnectionDefinitions({
        @ConnectionDefinition(connectionFactory = ConnectionFactory.class, connectionFactoryImpl = JmsConnectionFactoryImpl.class,
                connection = QueueSession.class, connectionImpl = AqSessionHandle.class),
        @ConnectionDefinition(connectionFactory = QueueConnectionFactory.class,
                connectionFactoryImpl = JmsConnectionFactoryImpl.class, connection = QueueSession.class,
                connectionImpl = AqSessionHandle.class),
        @ConnectionDefinition(connectionFactory = TopicConnectionFactory.class,
                connectionFactoryImpl = JmsConnectionFactoryImpl.class, connection = QueueSession.class,
                connectionImpl = AqSessionHandle.class)})
public class JmsManagedConnectionFactory implements ManagedConnectionFactory, ResourceAdapterAssociation, TransactionSupport {
    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "The AQ user of createConnection() / createContext() without a user name (the "
            + "enqueue / dequeue user, JMSXUserID). Empty: the container's sign-on for the pool (res-auth Container), else "
            + "the resource adapter's user.", defaultValue = "")
    private String userName = "";

    @ConfigProperty(description = "Password of UserName. Checked only when Users declares users: createConnection() "
            + "then works as UserName only if this is its password.", defaultValue = "", confidential = true)
    private String password = "";

    @ConfigProperty(description = "Client id of every connection of this factory (applications cannot set one in the "
            + "container); needed for unshared durable subscriptions. Empty: none.", defaultValue = "")
    private String clientId = "";

    @ConfigProperty(description = "Who may connect with createConnection(user, password): 'name=password' pairs "
            + "separated by ';'. Empty: any user name is accepted (its password is not checked) and becomes the AQ user.",
            defaultValue = "", confidential = true)
    private String users = "";

    private transient AqResourceAdapter resourceAdapter;
    private transient PrintWriter logWriter;

    @Override
    public Object createConnectionFactory(ConnectionManager cm) throws ResourceException {
        return new JmsConnectionFactoryImpl(this, new AqConnectionFactoryImpl(this, cm), controlSessions(), users(),
                blankToNull(clientId));
    }

    /** Outside a container: a factory whose sessions are not pooled. */
    @Override
    public Object createConnectionFactory() throws ResourceException {
        return createConnectionFactory(new UnpooledConnectionManager());
    }

    /** Sessions of the adapter's own, never enlisted: administration commits by itself, as AQ's DDL does. */
    private AqConnectionFactory controlSessions() {
        return new AqConnectionFactory() {
            @Override
            public QueueSession openSession() {
                return openSession(null);
            }

            @Override
            public QueueSession openSession(String user) {
                try {
                    return resourceAdapter().engine().openSession(user == null ? defaultUser() : user);
                } catch (ResourceException e) {
                    throw new io.aqueduct.api.AqException(io.aqueduct.api.AqError.STORE_UNAVAILABLE, e.getMessage(), e);
                }
            }
        };
    }

    private String defaultUser() {
        String u = blankToNull(userName);
        return u != null ? u : resourceAdapter.getUser();
    }

    /** The Users property as the provider's Users; a malformed one fails the lookup, naming it. */
    Users users() throws InvalidPropertyException {
        String declared = blankToNull(users);
        if (declared == null) {
            // without UserName the default identity is resolved per session: the container's sign-on, else the adapter's user
            return Users.anyone(blankToNull(userName));
        }
        Map<String, String> passwords = new LinkedHashMap<>();
        for (String pair : declared.split(";")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? "" : pair.substring(0, eq).trim();
            if (name.isEmpty()) {
                throw new InvalidPropertyException("Invalid Aqueduct JMS connection factory property Users: '"
                        + pair.trim().replaceAll("=.*", "=...") + "' is not name=password.");
            }
            if (passwords.put(name, pair.substring(eq + 1)) != null) {
                throw new InvalidPropertyException("Invalid Aqueduct JMS connection factory property Users: user '"
                        + name + "' is declared twice.");
            }
        }
        String user = blankToNull(userName);
        if (user != null && (!passwords.containsKey(user) || !passwords.get(user).equals(password == null ? "" : password))) {
            throw new InvalidPropertyException("Invalid Aqueduct JMS connection factory properties: UserName '" + user
                    + "' is not one of Users with the Password given.");
        }
        return Users.of(passwords, user);
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        String user = AqManagedConnectionFactory.userOf(this, subject, info, userName, resourceAdapter());
        try {
            return new AqManagedConnection(this, resourceAdapter().engine().openSession(user), user);
        } catch (RuntimeException e) {
            throw new ResourceAllocationException("Aqueduct could not open a queue session for JMS: " + e.getMessage(), e);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        return AqManagedConnectionFactory.match(this, candidates,
                AqManagedConnectionFactory.userOf(this, subject, info, userName, resourceAdapter()));
    }

    private AqResourceAdapter resourceAdapter() throws ResourceException {
        if (resourceAdapter == null) {
            throw new ResourceException("This Aqueduct JMS connection factory is not associated with the Aqueduct resource adapter.");
        }
        return resourceAdapter;
    }

    @Override
    public TransactionSupportLevel getTransactionSupport() {
        return TransactionSupportLevel.XATransaction;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        this.resourceAdapter = (AqResourceAdapter) ra;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    public String getUserName() {
        return userName;
    }

    public void setUserName(String userName) {
        this.userName = userName;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public String getUsers() {
        return users;
    }

    public void setUsers(String users) {
        this.users = users;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JmsManagedConnectionFactory other && Objects.equals(userName, other.userName)
                && Objects.equals(password, other.password) && Objects.equals(clientId, other.clientId)
                && Objects.equals(users, other.users) && resourceAdapter == other.resourceAdapter;
    }

    @Override
    public int hashCode() {
        return Objects.hash(userName, clientId);
    }
}
