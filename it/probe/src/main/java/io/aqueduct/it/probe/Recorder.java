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

    /**
     * JMS deliveries per JMSMessageID: one entry per call to onMessage, {@code <millis>:<JMSXDeliveryCount>:<JMSRedelivered>}.
     */
    static final Map<String, List<String>> JMS_ATTEMPTS = new ConcurrentHashMap<>();
    /** What a JMS MDB received, per JMSMessageID: {@code key=value} lines (text, JMSXUserID, properties). */
    static final Map<String, String> JMS_SEEN = new ConcurrentHashMap<>();

    private Recorder() {
    }

    static int attempt(String msgid) {
        List<Long> a = ATTEMPTS.computeIfAbsent(msgid, k -> new CopyOnWriteArrayList<>());
        a.add(System.currentTimeMillis());
        return a.size();
    }

    /** A JMS delivery attempt: its time, JMSXDeliveryCount and JMSRedelivered; returns the attempt's number (1, 2, ...). */
    static int jmsAttempt(String msgid, int deliveryCount, boolean redelivered) {
        List<String> a = JMS_ATTEMPTS.computeIfAbsent(msgid, k -> new CopyOnWriteArrayList<>());
        a.add(System.currentTimeMillis() + ":" + deliveryCount + ":" + redelivered);
        return a.size();
    }

    /**
     * Records a JMS delivery under {@code key} (as {@link #delivered}) and what the message carried; returns its JMSMessageID.
     */
    static String jmsDelivered(String key, jakarta.jms.Message m) {
        try {
            String id = m.getJMSMessageID();
            StringBuilder seen = new StringBuilder("id=").append(id)
                    .append("\ntext=").append(m instanceof jakarta.jms.TextMessage t ? t.getText() : "")
                    .append("\nuser=").append(m.getStringProperty("JMSXUserID"))
                    .append("\ndeliveryCount=").append(m.getIntProperty("JMSXDeliveryCount"))
                    .append("\nredelivered=").append(m.getJMSRedelivered())
                    .append("\ndeliveryMode=").append(m.getJMSDeliveryMode() == jakarta.jms.DeliveryMode.NON_PERSISTENT
                            ? "NON_PERSISTENT" : "PERSISTENT")
                    .append("\ncolor=").append(m.getStringProperty("color"))
                    .append("\nrowId=").append(m.getStringProperty("rowId"))
                    .append("\ndestination=").append(m.getJMSDestination());
            JMS_SEEN.put(id, seen.toString());
            delivered(key, id);
            return id;
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException("reading a delivered message: " + e, e);
        }
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
