/**
 * The JNDI context of Java SE clients: {@link io.aqueduct.jms.jndi.AqueductInitialContextFactory}
 * reads {@code jndi.properties} (or the environment given to {@code new InitialContext(env)}),
 * opens the store through {@link io.aqueduct.api.AqStores} and binds connection factories and
 * destinations under the names it declares. The properties are described in {@code docs/jms.md}.
 */
package io.aqueduct.jms.jndi;
