package io.aqueduct.api;

import java.util.EnumSet;
import java.util.Set;

/**
 * AQ$_REG_INFO: a registration for notifications of the messages that become available on a queue
 * (for a consumer, on a multi-consumer queue). Registered with {@link QueueSession#register}, listed
 * by {@link QueueAdmin#registrations()}. It is identified by its queue, consumer and address: registering
 * the same three again replaces the context, QoS and timeout.
 *
 * <pre>
 * session.register(Registration.forQueue("OE.OE_BOOKEDORDERS_QUE").consumer("SHIPPING")
 *         .notifyUrl("java:shipping").qos(NotificationQos.RELIABLE).context(bytes).timeoutSeconds(3600));
 * </pre>
 *
 * The address ({@code notifyUrl}) is {@code http://} or {@code https://} (the notification is POSTed),
 * {@code mailto:} (it is mailed) or {@code java:<name>}: an {@link AqNotificationListener} this JVM binds
 * by that name on the store ({@link AqStore#bindNotificationListener}); the name is stored, so after a
 * restart the application binds it again and the registration carries on. Everything is checked when
 * it is registered.
 */
public final class Registration {
    private final String queue;
    private String consumer;
    private String notifyUrl;
    private byte[] context;
    private final Set<NotificationQos> qos = EnumSet.noneOf(NotificationQos.class);
    private long timeoutSeconds;

    private Registration(String queue) {
        this.queue = queue;
    }

    /** A registration on {@code queue} ([schema.]name). */
    public static Registration forQueue(String queue) {
        return new Registration(queue);
    }

    /**
     * AQ's registration name: {@code [schema.]queue} or {@code [schema.]queue:consumer}.
     */
    public static Registration named(String name) {
        if (name == null) {
            return new Registration(null);
        }
        int colon = name.indexOf(':');
        return colon < 0 ? new Registration(name) : new Registration(name.substring(0, colon)).consumer(name.substring(colon + 1));
    }

    /** The consumer on a multi-consumer queue (required there, as for dequeue). */
    public Registration consumer(String consumer) {
        this.consumer = consumer;
        return this;
    }

    /** Where notifications go: {@code http://...}, {@code https://...}, {@code mailto:...} or {@code java:<name>}. */
    public Registration notifyUrl(String url) {
        this.notifyUrl = url;
        return this;
    }

    /** Bytes handed back in every notification (AQ's context, 2000 bytes at most). */
    public Registration context(byte[] context) {
        this.context = context == null ? null : context.clone();
        return this;
    }

    public Registration qos(NotificationQos... flags) {
        for (NotificationQos f : flags) {
            if (f != null) {
                qos.add(f);
            }
        }
        return this;
    }

    /** Seconds after which the registration ends by itself (0: never). */
    public Registration timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    public String queue() {
        return queue;
    }

    public String consumer() {
        return consumer;
    }

    public String notifyUrl() {
        return notifyUrl;
    }

    public byte[] context() {
        return context == null ? null : context.clone();
    }

    public Set<NotificationQos> qos() {
        return EnumSet.copyOf(qos);
    }

    public long timeoutSeconds() {
        return timeoutSeconds;
    }

    @Override
    public String toString() {
        return "Registration[" + queue + (consumer == null ? "" : ":" + consumer) + " -> " + notifyUrl + ", " + qos
                + (timeoutSeconds == 0 ? "" : ", timeout " + timeoutSeconds + " s") + "]";
    }
}
