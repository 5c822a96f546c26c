package io.aqueduct.engine.notification;

import io.aqueduct.api.NotificationQos;
import java.util.Set;

/**
 * A registration as the engine holds it in memory: its id, queue (id and qualified name), consumer key
 * (null on a single-consumer queue), address, context, QoS, and when it ends (null: never).
 */
public record Registered(long id, long queueId, String queueName, String consumer, String url, byte[] context,
        Set<NotificationQos> qos, long timeoutSeconds, long createdMs, Long expiresMs) {

    boolean reliable() {
        return qos.contains(NotificationQos.RELIABLE);
    }

    /** The in-JVM listener's name of a {@code java:} address; null for another address. */
    String javaName() {
        return url.regionMatches(true, 0, "java:", 0, 5) ? url.substring(5) : null;
    }

    String name() {
        return queueName + (consumer == null ? "" : ":" + consumer);
    }
}
