package io.aqueduct.connector.jms;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import io.aqueduct.jms.client.Users;
import jakarta.resource.Referenceable;
import java.io.Serializable;
import javax.naming.Reference;

/**
 * The JMS connection factory an application looks up or has injected: the provider's
 * {@link AqueductConnectionFactory} under the container's rules
 * ({@link AqueductConnectionFactory#containerManaged}), its sessions from the container's pool.
 */
public class JmsConnectionFactoryImpl extends AqueductConnectionFactory implements Serializable, Referenceable {
    private static final long serialVersionUID = 1L;
    private final transient JmsManagedConnectionFactory mcf;
    private Reference reference;

    JmsConnectionFactoryImpl(JmsManagedConnectionFactory mcf, AqConnectionFactory pooled, AqConnectionFactory control,
            Users users, String clientId) {
        super(pooled, users, clientId);
        this.mcf = mcf;
        containerManaged(control);
    }

    /** The managed connection factory (its configuration) behind this factory. */
    JmsManagedConnectionFactory managedConnectionFactory() {
        return mcf;
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
