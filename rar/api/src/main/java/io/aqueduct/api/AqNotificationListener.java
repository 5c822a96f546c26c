package io.aqueduct.api;

/**
 * An in-JVM notification callback: the target of a registration whose address is {@code java:<name>},
 * bound by that name with {@link AqStore#bindNotificationListener}. Called on the engine's notification
 * loop, never on the enqueuing thread, one notification at a time. A call that throws is a failed
 * delivery: retried with back-off (RELIABLE) and counted in the registration's failures.
 */
@FunctionalInterface
public interface AqNotificationListener {
    void onNotification(AqNotification notification) throws Exception;
}
