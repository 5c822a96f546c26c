package io.aqueduct.engine.payload;

import io.aqueduct.api.Agent;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.engine.store.MessageEntity;
import java.time.ZoneOffset;

/**
 * The message properties a stored message row holds, as a dequeue and a notification give them:
 * priority, correlation, expiration, delay (seconds from its enqueue to its delay's end), exception
 * queue, sender, user properties and what the store recorded (attempts, enqueue time, state, original id).
 */
public final class StoredProperties {
    private StoredProperties() {
    }

    /** The properties of {@code m}, with {@code attempts} failed attempts (the message's or one consumer's). */
    public static MessageProperties of(MessageEntity m, int attempts) {
        MessageProperties p = MessageProperties.create().priority(m.priority).correlation(m.correlation)
                .expiration(m.expiration);
        p.delay(delaySeconds(m));
        if (m.exceptionQueue != null) {
            p.exceptionQueue(m.exceptionQueueSchema + "." + m.exceptionQueue);
        }
        if (m.senderName != null || m.senderAddress != null) {
            p.sender(new Agent(m.senderName, m.senderAddress, m.senderProtocol == null ? 0 : m.senderProtocol));
        }
        UserPropertiesCodec.decode(m.userProperties, m.msgid.trim()).forEach(p::userProperty);
        p.recorded(attempts, m.enqueueTime.toInstant(ZoneOffset.UTC), MessageState.ofCode(m.state),
                m.originalMsgid == null ? null : MessageId.parse(m.originalMsgid.trim()));
        if (m.originalQueue != null) {
            p.recordedOriginalQueue(m.originalQueueSchema + "." + m.originalQueue);
        }
        return p;
    }

    /** Seconds from the enqueue to the end of the delay (0 without one). */
    public static long delaySeconds(MessageEntity m) {
        if (m.delay == null) {
            return 0;
        }
        long delayMs = m.delay.toInstant(ZoneOffset.UTC).toEpochMilli() - m.enqueueTime.toInstant(ZoneOffset.UTC).toEpochMilli();
        return Math.max(0, delayMs / 1000);
    }
}
