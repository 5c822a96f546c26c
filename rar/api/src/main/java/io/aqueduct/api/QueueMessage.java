package io.aqueduct.api;

import java.time.Instant;
import java.util.List;

/**
 * A message of a queue as an administrator reads it, in any state (AQ's AQ$&lt;queue_table&gt; view):
 * its properties and what the queue recorded, without the payload. {@code state} is the message's
 * (WAITING, READY, PROCESSED while retained, EXPIRED); on a multi-consumer queue {@code consumers}
 * holds each consumer's part with its own state (also UNDELIVERABLE) and dequeue history.
 * {@code delay} is the instant the message becomes (or became) READY, null without a delay;
 * {@code exceptionQueue} and {@code originalQueue} are OWNER.NAME or null.
 */
public record QueueMessage(MessageId messageId, MessageState state, int priority, String correlation,
        Instant enqueueTime, String enqueueUser, Instant delay, long expiration, int attempts, String exceptionQueue,
        String originalQueue, Instant dequeueTime, String dequeueUser, String dequeueTransaction,
        List<ConsumerPart> consumers) {

    /** The most messages one {@link QueueAdmin#queueMessages} call returns. */
    public static final int MAX_PAGE = 1000;

    /** One consumer's part of a message: its state (READY, WAITING, PROCESSED, EXPIRED, UNDELIVERABLE) and history. */
    public record ConsumerPart(Agent consumer, String state, int attempts, Instant dequeueTime, String dequeueUser,
            String dequeueTransaction) {
    }
}
