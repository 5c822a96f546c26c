package io.aqueduct.connector.outbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import java.io.Serializable;
import javax.naming.Reference;

/** The connection factory bound in JNDI: its connections are queue sessions. */
public class AqConnectionFactoryImpl implements AqConnectionFactory, Serializable, Referenceable {
    private static final long serialVersionUID = 1L;
    private final jakarta.resource.spi.ManagedConnectionFactory mcf;
    private final transient ConnectionManager cm;
    private Reference reference;

    /** Queue sessions of {@code mcf}'s managed connections, allocated through the container's {@code cm}. */
    public AqConnectionFactoryImpl(jakarta.resource.spi.ManagedConnectionFactory mcf, ConnectionManager cm) {
        this.mcf = mcf;
        this.cm = cm;
    }

    @Override
    public QueueSession openSession() {
        return allocate(null);
    }

    @Override
    public QueueSession openSession(String user) {
        return allocate(new AqConnectionRequestInfo(user));
    }

    private QueueSession allocate(AqConnectionRequestInfo info) {
        try {
            return (QueueSession) cm.allocateConnection(mcf, info);
        } catch (ResourceException e) {
            throw new AqException(AqError.STORE_FAILURE, "No Aqueduct queue session is available: " + e.getMessage(), e);
        }
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }
}
