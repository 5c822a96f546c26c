package io.aqueduct.api;

import java.io.Serializable;
import java.time.Instant;

/**
 * AQ's message properties. The enqueuer sets priority, delay, expiration, correlation, exception
 * queue and sender; a dequeued message also carries what the queue recorded (attempts, enqueue
 * time, state, original message id).
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

    private int attempts;
    private Instant enqueueTime;
    private MessageState state;
    private MessageId originalMessageId;

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

    /** Filled in by the engine for a dequeued message. */
    public MessageProperties recorded(int attempts, Instant enqueueTime, MessageState state, MessageId originalMessageId) {
        this.attempts = attempts;
        this.enqueueTime = enqueueTime;
        this.state = state;
        this.originalMessageId = originalMessageId;
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
        c.attempts = attempts;
        c.enqueueTime = enqueueTime;
        c.state = state;
        c.originalMessageId = originalMessageId;
        return c;
    }

    @Override
    public String toString() {
        return "MessageProperties[priority=" + priority + ", delay=" + delaySeconds + ", expiration=" + expirationSeconds
                + ", correlation=" + correlation + ", attempts=" + attempts + ", state=" + state + "]";
    }
}
