/**
 * The simplified API of Jakarta Messaging 3.1 (specification 2.8): {@code JMSContext},
 * {@code JMSProducer}, {@code JMSConsumer} and {@code XAJMSContext}, built on the classic API's
 * interfaces ({@code Connection}, {@code Session}, {@code MessageProducer},
 * {@code MessageConsumer}, {@code XAConnection}, {@code XASession}) and nothing of their
 * implementation, so that the classic API's package can create contexts without a package cycle.
 *
 * <p>Entry points: {@link io.aqueduct.jms.context.AqueductJMSContext#create(jakarta.jms.Connection, int)}
 * and {@link io.aqueduct.jms.context.AqueductXAJMSContext#create(jakarta.jms.XAConnection)}.
 * Every checked exception of the classic API reaches the application as its unchecked twin
 * ({@link io.aqueduct.jms.context.RuntimeExceptions}).
 */
package io.aqueduct.jms.context;
