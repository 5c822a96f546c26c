package io.aqueduct.api;

import java.io.Serializable;
import java.time.Instant;

/**
 * AQ's message properties. The enqueuer sets priority, delay, expiration, correlation, exception
 * queue and sender; a dequeued message also carries what the queue recorded (attempts, enqueue
 * time, state, original message id, and in an exception queue the queue it was moved from).
 */
public final class MessageProperties implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Delay: available at once. */
    public static final long NO_DELAY = 0;
    /** Expiration: never expires. */
    public static final long NEVER = -1;
    /** The default priority, as in AQ. */
    public static final int DEFAULT_PRIORITY = 1;

    private int priority = DEFAULT_PRIORITY;
    private long delaySeconds = NO_DELAY;
    private long expirationSeconds = NEVER;
    private String correlation;
    private String exceptionQueue;
    private Agent sender;
    private java.util.List<Agent> recipients;
    private java.util.LinkedHashMap<String, Object> userProperties;

    private int attempts;
    private Instant enqueueTime;
    private String originalQueue;
    private MessageState state;
    private MessageId originalMessageId;
    private DeliveryMode deliveryMode = DeliveryMode.PERSISTENT;

    public static MessageProperties create() {
        return new MessageProperties();
    }

    /** Lower numbers are dequeued first on priority-ordered queue tables; any int, may be negative. */
    public MessageProperties priority(int priority) {
        this.priority = priority;
        return this;
    }

    /** Seconds before the message becomes READY ({@link #NO_DELAY} by default). */
    public MessageProperties delay(long seconds) {
        this.delaySeconds = seconds;
        return this;
    }

    /** Seconds the message may stay READY before it expires ({@link #NEVER} by default). */
    public MessageProperties expiration(long seconds) {
        this.expirationSeconds = seconds;
        return this;
    }

    /** A correlation identifier of your choice, at most 128 bytes. */
    public MessageProperties correlation(String correlation) {
        this.correlation = correlation;
        return this;
    }

    /** The exception queue ([schema.]name) for this message instead of the queue table's default. */
    public MessageProperties exceptionQueue(String exceptionQueue) {
        this.exceptionQueue = exceptionQueue;
        return this;
    }

    /** Who sends the message. */
    public MessageProperties sender(Agent sender) {
        this.sender = sender;
        return this;
    }

    /**
     * The consumers of this message on a multi-consumer queue, instead of the queue's subscribers.
     * Recipients need not be subscribers. A null agent in the list: 24097.
     */
    public MessageProperties recipients(java.util.List<Agent> recipients) {
        if (recipients != null && recipients.stream().anyMatch(java.util.Objects::isNull)) {
            throw new AqException(AqError.INVALID_VALUE, "The recipient list holds a null agent.");
        }
        this.recipients = recipients == null ? null : java.util.List.copyOf(recipients);
        return this;
    }

    /** The longest user property name, in characters. */
    public static final int MAX_USER_PROPERTY_NAME = 128;

    /**
     * Sets a user (application) property, or removes it when {@code value} is null. Values are
     * Boolean, Byte, Short, Integer, Long, Float, Double or String (the types of Jakarta Messaging
     * properties), kept with their type. Names are case-sensitive, 1 to {@value #MAX_USER_PROPERTY_NAME}
     * characters without control characters. Dequeue conditions and subscriber rules read a property
     * by its name ({@code region = 'WEST'}; a name that is also a message property or a keyword, in
     * double quotes: {@code "priority" > 2}). A bad name or value: 24097, nothing set. All of a
     * message's properties together may take at most 32,000 bytes in the store (checked at enqueue).
     */
    public MessageProperties userProperty(String name, Object value) {
        checkUserPropertyName(name);
        if (value == null) {
            if (userProperties != null) {
                userProperties.remove(name);
            }
            return this;
        }
        if (!(value instanceof String || value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof Double || value instanceof Float || value instanceof Short || value instanceof Byte)) {
            throw new AqException(AqError.INVALID_VALUE, "User property '" + name + "' cannot hold a "
                    + value.getClass().getName() + ": the types are Boolean, Byte, Short, Integer, Long, Float, Double and String.");
        }
        if (value instanceof String text) {
            int broken = brokenSurrogate(text);
            if (broken >= 0) {
                throw new AqException(AqError.INVALID_VALUE, "User property '" + name + "' holds half of a surrogate pair at"
                        + " position " + (broken + 1) + ": it is not valid Unicode text.");
            }
        }
        if (userProperties == null) {
            userProperties = new java.util.LinkedHashMap<>();
        }
        userProperties.put(name, value);
        return this;
    }

    /** A user property's value, or null when the message has no such property. */
    public Object userProperty(String name) {
        return userProperties == null || name == null ? null : userProperties.get(name);
    }

    /** All user properties in the order they were first set; unmodifiable, empty when there are none. */
    public java.util.Map<String, Object> userProperties() {
        return userProperties == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(userProperties);
    }

    private static void checkUserPropertyName(String name) {
        if (name == null || name.isEmpty()) {
            throw new AqException(AqError.INVALID_VALUE, "A user property needs a name (null or empty given).");
        }
        if (name.length() > MAX_USER_PROPERTY_NAME) {
            throw new AqException(AqError.NAME_TOO_LONG, "The user property name '" + name.substring(0, 32) + "...' has "
                    + name.length() + " characters; at most " + MAX_USER_PROPERTY_NAME + " are allowed.");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                throw new AqException(AqError.INVALID_VALUE, "A user property name cannot hold a control character (U+"
                        + String.format("%04X", (int) name.charAt(i)) + " at position " + (i + 1) + ").");
            }
        }
        int broken = brokenSurrogate(name);
        if (broken >= 0) {
            throw new AqException(AqError.INVALID_VALUE, "A user property name holds half of a surrogate pair at position "
                    + (broken + 1) + ": it is not valid Unicode text.");
        }
    }

    /** The index of the first half of a surrogate pair without its other half, or -1. */
    private static int brokenSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** The recipient list given at enqueue; null when the subscribers decide. */
    public java.util.List<Agent> recipients() {
        return recipients;
    }

    public int priority() {
        return priority;
    }

    public long delay() {
        return delaySeconds;
    }

    public long expiration() {
        return expirationSeconds;
    }

    public String correlation() {
        return correlation;
    }

    public String exceptionQueue() {
        return exceptionQueue;
    }

    public Agent sender() {
        return sender;
    }

    /** Failed dequeue attempts so far (a dequeued message's retry count). */
    public int attempts() {
        return attempts;
    }

    public Instant enqueueTime() {
        return enqueueTime;
    }

    public MessageState state() {
        return state;
    }

    /** The id the message had before it was propagated; null for a message enqueued here. */
    public MessageId originalMessageId() {
        return originalMessageId;
    }

    /**
     * The queue (OWNER.NAME) a message in an exception queue was moved from when it expired or ran
     * out of retries; null for any other message, and for one moved before Aqueduct recorded it.
     */
    public String originalQueue() {
        return originalQueue;
    }

    /** Filled in by the engine for a dequeued message of an exception queue. */
    public MessageProperties recordedOriginalQueue(String originalQueue) {
        this.originalQueue = originalQueue;
        return this;
    }

    /** Filled in by the engine for a dequeued message. */
    public MessageProperties recorded(int attempts, Instant enqueueTime, MessageState state, MessageId originalMessageId) {
        this.attempts = attempts;
        this.enqueueTime = enqueueTime;
        this.state = state;
        this.originalMessageId = originalMessageId;
        return this;
    }

    /**
     * How a dequeued message was kept: PERSISTENT or BUFFERED (filled in by the engine, as AQ's
     * message_properties_t.delivery_mode; at enqueue the enqueue option decides).
     */
    public DeliveryMode deliveryMode() {
        return deliveryMode == null ? DeliveryMode.PERSISTENT : deliveryMode; // null: serialized before the field existed
    }

    /** Filled in by the engine for a dequeued message. */
    public MessageProperties recorded(DeliveryMode deliveryMode) {
        this.deliveryMode = deliveryMode == null ? DeliveryMode.PERSISTENT : deliveryMode;
        return this;
    }

    public MessageProperties copy() {
        MessageProperties c = new MessageProperties();
        c.priority = priority;
        c.delaySeconds = delaySeconds;
        c.expirationSeconds = expirationSeconds;
        c.correlation = correlation;
        c.exceptionQueue = exceptionQueue;
        c.sender = sender;
        c.recipients = recipients;
        c.userProperties = userProperties == null ? null : new java.util.LinkedHashMap<>(userProperties);
        c.attempts = attempts;
        c.enqueueTime = enqueueTime;
        c.state = state;
        c.originalMessageId = originalMessageId;
        c.originalQueue = originalQueue;
        c.deliveryMode = deliveryMode;
        return c;
    }

    @Override
    public String toString() {
        return "MessageProperties[priority=" + priority + ", delay=" + delaySeconds + ", expiration=" + expirationSeconds
                + ", correlation=" + correlation + ", attempts=" + attempts + ", state=" + state
                + (userProperties == null || userProperties.isEmpty() ? "" : ", userProperties=" + userProperties) + "]";
    }
}
