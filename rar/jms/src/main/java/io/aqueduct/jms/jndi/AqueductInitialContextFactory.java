package io.aqueduct.jms.jndi;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;

import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.ServiceUnavailableException;
import javax.naming.spi.InitialContextFactory;

/**
 * The JNDI context of Java SE clients ({@code java.naming.factory.initial =
 * io.aqueduct.jms.jndi.AqueductInitialContextFactory} in {@code jndi.properties}). Each context opens
 * (or shares) the store its {@code aqueduct.store.*} properties name and binds, read-only:
 *
 * <ul>
 * <li>{@code connectionFactory.<name> = [clientId=...;] [user=...]}, {@code xaConnectionFactory.<name> = ...}
 *     (none declared: {@code ConnectionFactory} and {@code XAConnectionFactory});</li>
 * <li>{@code queue.<name> = <AQ queue>}, {@code topic.<name> = <AQ queue>}, with
 *     {@code .create = true} and {@code .queueTable .sortOrder .maxRetries .retryDelay .retention} to
 *     create a missing queue at the first lookup; {@code dynamicQueues/<AQ queue>} and
 *     {@code dynamicTopics/<AQ queue>} for any other;</li>
 * <li>{@code user.<name>.password = ...} (any: only these users may connect) and
 *     {@code aqueduct.jms.defaultUser}.</li>
 * </ul>
 *
 * Contexts with the same store properties share one store; the last one closed closes it, so close
 * a context after the connections made through its factories. Details: {@code docs/jms.md}.
 */
public final class AqueductInitialContextFactory implements InitialContextFactory {

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        JndiEnvironment env = JndiEnvironment.parse(environment); // all checks first: nothing opened on bad input
        SharedStores.Lease lease;
        try {
            lease = SharedStores.acquire(env.storeProperties);
        } catch (AqException e) {
            if (e.errorCode() == AqError.INVALID_VALUE || e.errorCode() == AqError.INVALID_NAME) {
                throw JndiEnvironment.configuration(e.getMessage(), e);
            }
            ServiceUnavailableException u = new ServiceUnavailableException("Aqueduct could not open its store: " + e.getMessage());
            u.setRootCause(e);
            throw u;
        }
        try {
            return new AqueductContext(environment, env, lease);
        } catch (RuntimeException | NamingException e) {
            lease.release();
            throw e;
        }
    }
}
