package io.aqueduct.api;

import java.util.Arrays;

/**
 * AQ$_DESCRIPTOR: what a notification tells its target. The queue and consumer, the message id and
 * the message's properties (priority, delay, expiration, correlation, attempts, recipients, exception
 * queue, enqueue time, state, sender, original message id) as they are when the notification is
 * delivered, the registration's context, the payload when the registration asked for it
 * ({@link NotificationQos#PAYLOAD}), and NTFN_FLAGS: 1 on the one notification that says the
 * registration ended by its timeout (it then carries no message), 0 otherwise.
 */
public final class AqNotification {
    /** NTFN_FLAGS of the notification that says a registration was removed at its timeout. */
    public static final int TIMED_OUT = 1;

    private final String queue;
    private final String consumer;
    private final MessageId messageId;
    private final MessageProperties properties;
    private final byte[] context;
    private final Object payload;
    private final int flags;

    public AqNotification(String queue, String consumer, MessageId messageId, MessageProperties properties, byte[] context,
            Object payload, int flags) {
        this.queue = queue;
        this.consumer = consumer;
        this.messageId = messageId;
        this.properties = properties;
        this.context = context == null ? null : context.clone();
        this.payload = payload;
        this.flags = flags;
    }

    /** The queue, schema.name. */
    public String queue() {
        return queue;
    }

    /** The consumer the message is available to (null on a single-consumer queue). */
    public String consumer() {
        return consumer;
    }

    /** The message (null on the timeout notification). */
    public MessageId messageId() {
        return messageId;
    }

    /** The message's properties (null on the timeout notification). */
    public MessageProperties properties() {
        return properties;
    }

    /** The registration's context bytes (null when it has none). */
    public byte[] context() {
        return context == null ? null : context.clone();
    }

    /** The payload when the registration has {@link NotificationQos#PAYLOAD}, else null. */
    public Object payload() {
        return payload;
    }

    /** NTFN_FLAGS: {@link #TIMED_OUT} when the registration ended by its timeout, else 0. */
    public int flags() {
        return flags;
    }

    public boolean timedOut() {
        return (flags & TIMED_OUT) != 0;
    }

    @Override
    public String toString() {
        return "AqNotification[" + queue + (consumer == null ? "" : ":" + consumer) + ", " + messageId + ", flags " + flags
                + (context == null ? "" : ", context " + Arrays.toString(context)) + "]";
    }
}
