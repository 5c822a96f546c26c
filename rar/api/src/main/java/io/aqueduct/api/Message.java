package io.aqueduct.api;

import java.nio.charset.StandardCharsets;

/**
 * A message: its id, its properties and its payload. For enqueue, build one with {@link #of}; a
 * dequeue returns one with the properties the queue recorded. REMOVE_NODATA returns no payload.
 */
public final class Message {
    private final MessageId id;
    private final MessageProperties properties;
    private final Object payload;

    private Message(MessageId id, MessageProperties properties, Object payload) {
        this.id = id;
        this.properties = properties == null ? MessageProperties.create() : properties;
        this.payload = payload;
    }

    /** A message to enqueue. */
    public static Message of(Object payload, MessageProperties properties) {
        return new Message(null, properties, payload);
    }

    public static Message of(Object payload) {
        return new Message(null, null, payload);
    }

    /** A message as the engine hands it out. */
    public static Message dequeued(MessageId id, MessageProperties properties, Object payload) {
        return new Message(id, properties, payload);
    }

    /** The message id; null for a message not yet enqueued. */
    public MessageId id() {
        return id;
    }

    public MessageProperties properties() {
        return properties;
    }

    /** The payload as the queue table's payload type gives it (byte[], String, or the object). */
    public Object payload() {
        return payload;
    }

    public <T> T payload(Class<T> type) {
        return type.cast(payload);
    }

    /** The payload of a TEXT, JSON or XML queue, or a RAW payload read as UTF-8. */
    public String text() {
        if (payload instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        return payload == null ? null : payload.toString();
    }

    @Override
    public String toString() {
        return "Message[" + id + ", " + properties + "]";
    }
}
