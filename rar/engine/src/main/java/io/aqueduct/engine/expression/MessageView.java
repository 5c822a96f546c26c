package io.aqueduct.engine.expression;

import java.time.Instant;

/**
 * What an {@link Expression} sees of one message: its AQ message properties, its user properties
 * and its payload. The engine implements it over a stored or in-flight message;
 * {@link MessageSnapshot} is a ready-made implementation.
 *
 * <p>One view serves one message, evaluated by one thread at a time; a rule set evaluated against
 * the same view shares its parsed payload (see {@link PayloadView#of}).
 */
public interface MessageView {
    /** {@code priority}. */
    int priority();

    /** {@code corrid}: the correlation identifier, or null. */
    String correlation();

    /** {@code enq_time}, or null when not yet enqueued. */
    Instant enqueueTime();

    /** {@code delay} in seconds. */
    long delay();

    /** {@code expiration} in seconds ({@code -1} = never). */
    long expiration();

    /** {@code retry_count}: the number of failed dequeue attempts so far. */
    int retryCount();

    /** {@code sender_name}: the sender agent's name, or null. */
    String senderName();

    /** {@code msgid}: the message id as text, or null before it is assigned. */
    String messageId();

    /**
     * A user (application) property by the name written in the expression, or null when the
     * message has no such property. Values may be String, Number, Boolean, Character, Instant,
     * java.util.Date and the java.time date types.
     */
    Object userProperty(String name);

    /**
     * A user property by exactly this name (case-sensitive), or null: what JMS message selectors
     * read ({@link Expression#parseSelector}), whose identifiers are case-sensitive. The default
     * delegates to {@link #userProperty}; an implementation whose {@code userProperty} also
     * matches other spellings (as {@link MessageSnapshot}'s does, for AQ conditions) must
     * override it.
     */
    default Object userPropertyExact(String name) {
        return userProperty(name);
    }

    /** The payload; never null (use {@link PayloadView#none()} for a message without one). */
    PayloadView payload();

    /**
     * {@code SYSDATE} (also spelled {@code SYSTIMESTAMP}) in conditions and value expressions: the
     * current time as the caller defines it (the engine's clock, or the end of a propagation window
     * for a schedule's {@code next_time}). The default, null, means no current time is known, and
     * {@code SYSDATE} is NULL. JMS message selectors never read it.
     */
    default Instant sysdate() {
        return null;
    }
}
