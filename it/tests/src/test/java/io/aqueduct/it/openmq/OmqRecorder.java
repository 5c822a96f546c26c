package io.aqueduct.it.openmq;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** What the OpenMQ benchmark MDBs received, per queue: message ids, first / last time, most in flight at once. */
final class OmqRecorder {
    static final Map<String, Map<String, AtomicInteger>> DELIVERIES = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> FIRST = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> LAST = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> IN_FLIGHT = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> MAX_IN_FLIGHT = new ConcurrentHashMap<>();

    private OmqRecorder() {
    }

    /** Called on entry of onMessage; {@link #left} on its exit. */
    static void entered(String queue) {
        int now = IN_FLIGHT.computeIfAbsent(queue, q -> new AtomicInteger()).incrementAndGet();
        MAX_IN_FLIGHT.computeIfAbsent(queue, q -> new AtomicInteger()).accumulateAndGet(now, Math::max);
    }

    static void left(String queue, String id) {
        long t = System.currentTimeMillis();
        DELIVERIES.computeIfAbsent(queue, q -> new ConcurrentHashMap<>()).computeIfAbsent(id, i -> new AtomicInteger())
                .incrementAndGet();
        FIRST.computeIfAbsent(queue, q -> new AtomicLong(Long.MAX_VALUE)).accumulateAndGet(t, Math::min);
        LAST.computeIfAbsent(queue, q -> new AtomicLong()).accumulateAndGet(t, Math::max);
        IN_FLIGHT.get(queue).decrementAndGet();
    }

    static void reset(String queue) {
        DELIVERIES.remove(queue);
        FIRST.remove(queue);
        LAST.remove(queue);
        MAX_IN_FLIGHT.remove(queue);
    }
}
