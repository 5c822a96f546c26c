package io.aqueduct.connector.outbound;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.AqResourceAdapter;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.TransactionSupport;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * Makes pooled queue sessions: each managed connection is one engine session on its own store
 * connection, enlisted in the container's transactions through the store's XAResource.
 */
@ConnectionDefinition(connectionFactory = AqConnectionFactory.class, connectionFactoryImpl = AqConnectionFactoryImpl.class,
        connection = QueueSession.class, connectionImpl = AqSessionHandle.class)
public class AqManagedConnectionFactory implements ManagedConnectionFactory, ResourceAdapterAssociation, TransactionSupport {
    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "User recorded as enqueue / dequeue user of this resource's sessions when the "
            + "application names none. Empty: the resource adapter's user.", defaultValue = "")
    private String user = "";

    private transient AqResourceAdapter resourceAdapter;
    private transient PrintWriter logWriter;

    @Override
    public Object createConnectionFactory(ConnectionManager cm) {
        return new AqConnectionFactoryImpl(this, cm);
    }

    /** Outside a container: a factory whose sessions are not pooled. */
    @Override
    public Object createConnectionFactory() {
        return new AqConnectionFactoryImpl(this, new UnpooledConnectionManager());
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        String sessionUser = userOf(subject, info);
        try {
            return new AqManagedConnection(this, resourceAdapter().engine().openSession(sessionUser), sessionUser);
        } catch (RuntimeException e) {
            throw new jakarta.resource.spi.ResourceAllocationException("Aqueduct could not open a queue session: "
                    + e.getMessage(), e);
        }
    }

    String userOf(Subject subject, ConnectionRequestInfo info) {
        return userOf(this, subject, info, user, resourceAdapter);
    }

    /**
     * The AQ user of a session: the one the application asked for, else the container's sign-on
     * (a PasswordCredential for {@code mcf} in the Subject: res-auth Container), else the
     * authenticated caller the container runs the application as ({@link CallerIdentity}), else the
     * resource's configured user, else the adapter's (an anonymous caller gets these as before).
     */
    public static String userOf(ManagedConnectionFactory mcf, Subject subject, ConnectionRequestInfo info,
            String configured, AqResourceAdapter ra) {
        if (info instanceof AqConnectionRequestInfo aq && aq.user() != null) {
            return aq.user();
        }
        if (subject != null) {
            for (jakarta.resource.spi.security.PasswordCredential c
                    : subject.getPrivateCredentials(jakarta.resource.spi.security.PasswordCredential.class)) {
                if (mcf.equals(c.getManagedConnectionFactory()) && c.getUserName() != null && !c.getUserName().isBlank()) {
                    return c.getUserName();
                }
            }
        }
        String caller = CallerIdentity.caller();
        if (caller != null) {
            return caller;
        }
        return configured == null || configured.isBlank() ? ra.getUser() : configured;
    }

    /**
     * The pool's choice: a usable connection of this factory working as the wanted user (from
     * {@code mcf}'s {@link #userOf}); null to have a new one made.
     */
    @SuppressWarnings("rawtypes")
    public static ManagedConnection match(ManagedConnectionFactory mcf, Set candidates, String wanted) {
        for (Object o : candidates) {
            if (o instanceof AqManagedConnection mc && mcf.equals(mc.factory()) && mc.user().equals(wanted) && mc.usable()) {
                return mc;
            }
        }
        return null;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info) {
        return match(this, candidates, userOf(subject, info));
    }

    AqResourceAdapter resourceAdapter() throws ResourceException {
        if (resourceAdapter == null) {
            throw new ResourceException("This Aqueduct connection factory is not associated with the Aqueduct resource adapter.");
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

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AqManagedConnectionFactory other && Objects.equals(user, other.user)
                && resourceAdapter == other.resourceAdapter;
    }

    @Override
    public int hashCode() {
        return Objects.hash(user);
    }
}
