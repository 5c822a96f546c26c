package io.aqueduct.api;

/**
 * The message listener of AQ-native message-driven beans. Each message is dequeued (REMOVE) and
 * handed to {@link #onMessage} inside one transaction: returning commits the dequeue; throwing an
 * exception or marking the transaction rollback-only is a failed attempt (retry_count + 1, the
 * queue's retry delay, the exception queue after max_retries).
 *
 * <p>The message carries its id, its properties (priority, correlation, attempts, enqueue time,
 * sender, original message id, ...) and its payload.
 */
public interface AqMessageListener {
    void onMessage(Message message);
}
