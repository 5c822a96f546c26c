package io.aqueduct.connector.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnectionFactory;

/** Used outside a container: every session gets a managed connection of its own. */
public final class UnpooledConnectionManager implements ConnectionManager {
    private static final long serialVersionUID = 1L;

    @Override
    public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info) throws ResourceException {
        AqManagedConnection mc = (AqManagedConnection) mcf.createManagedConnection(null, info);
        mc.destroyWhenClosed();
        return mc.getConnection(null, info);
    }
}
