package io.aqueduct.it.probe;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** What the probe MDBs saw, kept in memory for the tests to read over HTTP. */
public final class Recorder {
    /** Delivery attempts, per message id: the wall-clock millis of each call to onMessage. */
    static final Map<String, List<Long>> ATTEMPTS = new ConcurrentHashMap<>();
    /** Deliveries per queue and message id (a drain counts each message exactly once when all is well). */
    static final Map<String, Map<String, AtomicInteger>> DELIVERIES = new ConcurrentHashMap<>();
    /** Committed deliveries' receive times per message id. */
    static final Map<String, Long> RECEIVED_AT = new ConcurrentHashMap<>();
    /** Propagated messages delivered: the source message's id (ORIGINAL_MSGID) to the delivered message's id. */
    static final Map<String, String> ORIGINALS = new ConcurrentHashMap<>();
    /** The most deliveries in progress at once, per queue. */
    static final Map<String, AtomicInteger> IN_FLIGHT = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> MAX_IN_FLIGHT = new ConcurrentHashMap<>();

    private Recorder() {
    }

    static int attempt(String msgid) {
        List<Long> a = ATTEMPTS.computeIfAbsent(msgid, k -> new CopyOnWriteArrayList<>());
        a.add(System.currentTimeMillis());
        return a.size();
    }

    static void delivered(String queue, String msgid) {
        DELIVERIES.computeIfAbsent(queue, k -> new ConcurrentHashMap<>()).computeIfAbsent(msgid, k -> new AtomicInteger())
                .incrementAndGet();
        RECEIVED_AT.put(msgid, System.currentTimeMillis());
    }

    static void enter(String queue) {
        int now = IN_FLIGHT.computeIfAbsent(queue, k -> new AtomicInteger()).incrementAndGet();
        MAX_IN_FLIGHT.computeIfAbsent(queue, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
    }

    static void leave(String queue) {
        IN_FLIGHT.get(queue).decrementAndGet();
    }

    static void reset(String queue) {
        DELIVERIES.remove(queue);
        MAX_IN_FLIGHT.remove(queue);
    }
}
