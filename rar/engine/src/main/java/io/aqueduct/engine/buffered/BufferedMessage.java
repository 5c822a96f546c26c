package io.aqueduct.engine.buffered;

import io.aqueduct.api.MessageProperties;
import io.aqueduct.engine.queue.ReadyEntry;
import java.time.Instant;

/**
 * One buffered message as the engine keeps it: its payload in stored form (decoded afresh for each
 * dequeue, so that no two consumers share a mutable object), its properties, and how many consumers
 * still have it to dequeue.
 */
final class BufferedMessage {
    final ReadyEntry order;
    final byte[] payload;
    final MessageProperties properties;
    final Instant enqueueTime;
    /** Epoch ms at which its delay ends (its enqueue time without one). */
    final long readyAt;
    /** The memory it is counted for against the engine's limit. */
    final long bytes;
    /** Consumers (lanes) that still have it; it leaves memory at 0. */
    int parts;

    BufferedMessage(ReadyEntry order, byte[] payload, MessageProperties properties, Instant enqueueTime, long readyAt,
            long bytes, int parts) {
        this.order = order;
        this.payload = payload;
        this.properties = properties;
        this.enqueueTime = enqueueTime;
        this.readyAt = readyAt;
        this.bytes = bytes;
        this.parts = parts;
    }

    String msgid() {
        return order.msgid;
    }
}
