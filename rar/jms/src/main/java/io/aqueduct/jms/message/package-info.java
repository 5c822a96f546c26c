/**
 * The Jakarta Messaging 3.1 message model of Aqueduct's JMS provider (specification chapter 3,
 * "Messages"), and its store encoding.
 *
 * <ul>
 *   <li>{@link io.aqueduct.jms.message.JmsMessage} and its body types
 *       {@link io.aqueduct.jms.message.JmsTextMessage}, {@link io.aqueduct.jms.message.JmsBytesMessage},
 *       {@link io.aqueduct.jms.message.JmsMapMessage}, {@link io.aqueduct.jms.message.JmsObjectMessage},
 *       {@link io.aqueduct.jms.message.JmsStreamMessage}: headers, properties with the spec's
 *       conversion table, bodies, read-only state.</li>
 *   <li>Provider hooks, called by the session: {@code markReceived()}, {@code copy()} /
 *       {@link io.aqueduct.jms.message.JmsMessages#providerCopy(jakarta.jms.Message)} on send,
 *       {@code setProviderProperty}, {@code setDeliveryCount}, {@code setAcknowledger}.</li>
 *   <li>{@link io.aqueduct.jms.message.JmsMessageCodec}: a versioned, checksummed byte[] for an AQ RAW
 *       payload, and back; {@link io.aqueduct.jms.message.MessageCodecException} for input it did not write.</li>
 * </ul>
 * Nothing here talks to a queue: this package depends on the Jakarta Messaging API alone.
 */
package io.aqueduct.jms.message;
