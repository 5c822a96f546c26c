package io.aqueduct.engine.expression;

import io.aqueduct.api.PayloadType;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable-by-construction {@link MessageView} built from values, for callers that have the
 * message's fields at hand (enqueue-time rule evaluation, tests).
 */
public final class MessageSnapshot implements MessageView {
    private final int priority;
    private final String correlation;
    private final Instant enqueueTime;
    private final long delay;
    private final long expiration;
    private final int retryCount;
    private final String senderName;
    private final String messageId;
    private final Map<String, Object> userProperties;
    private final PayloadView payload;
    private final Instant sysdate;

    private MessageSnapshot(Builder b) {
        this.priority = b.priority;
        this.correlation = b.correlation;
        this.enqueueTime = b.enqueueTime;
        this.delay = b.delay;
        this.expiration = b.expiration;
        this.retryCount = b.retryCount;
        this.senderName = b.senderName;
        this.messageId = b.messageId;
        this.userProperties = Map.copyOf(b.userProperties);
        this.payload = b.payload;
        this.sysdate = b.sysdate;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public String correlation() {
        return correlation;
    }

    @Override
    public Instant enqueueTime() {
        return enqueueTime;
    }

    @Override
    public long delay() {
        return delay;
    }

    @Override
    public long expiration() {
        return expiration;
    }

    @Override
    public int retryCount() {
        return retryCount;
    }

    @Override
    public String senderName() {
        return senderName;
    }

    @Override
    public String messageId() {
        return messageId;
    }

    /** Exact name first, then a case-insensitive match. */
    @Override
    public Object userProperty(String name) {
        Object v = userProperties.get(name);
        if (v != null || userProperties.isEmpty()) {
            return v;
        }
        for (Map.Entry<String, Object> e : userProperties.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Exact name only (JMS selectors: identifiers are case-sensitive). */
    @Override
    public Object userPropertyExact(String name) {
        return userProperties.get(name);
    }

    @Override
    public PayloadView payload() {
        return payload;
    }

    /** What {@code SYSDATE} reads: the instant given to {@link Builder#sysdate}, or null. */
    @Override
    public Instant sysdate() {
        return sysdate;
    }

    /** Builds a {@link MessageSnapshot}; defaults: priority 1, no delay, expiration never (-1). */
    public static final class Builder {
        private int priority = 1;
        private String correlation;
        private Instant enqueueTime;
        private long delay;
        private long expiration = -1;
        private int retryCount;
        private String senderName;
        private String messageId;
        private final Map<String, Object> userProperties = new HashMap<>();
        private PayloadView payload = PayloadView.none();
        private Instant sysdate;

        private Builder() {
        }

        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        public Builder correlation(String correlation) {
            this.correlation = correlation;
            return this;
        }

        public Builder enqueueTime(Instant enqueueTime) {
            this.enqueueTime = enqueueTime;
            return this;
        }

        public Builder delay(long delay) {
            this.delay = delay;
            return this;
        }

        public Builder expiration(long expiration) {
            this.expiration = expiration;
            return this;
        }

        public Builder retryCount(int retryCount) {
            this.retryCount = retryCount;
            return this;
        }

        public Builder senderName(String senderName) {
            this.senderName = senderName;
            return this;
        }

        public Builder messageId(String messageId) {
            this.messageId = messageId;
            return this;
        }

        /** A user property; a null value removes it. */
        public Builder userProperty(String name, Object value) {
            Objects.requireNonNull(name, "name");
            if (value == null) {
                userProperties.remove(name);
            } else {
                userProperties.put(name, value);
            }
            return this;
        }

        /** All these user properties (added to any set before). */
        public Builder userProperties(java.util.Map<String, Object> properties) {
            properties.forEach(this::userProperty);
            return this;
        }

        public Builder payload(PayloadType type, Object value) {
            this.payload = PayloadView.of(type, value);
            return this;
        }

        public Builder payload(PayloadView payload) {
            this.payload = Objects.requireNonNull(payload, "payload");
            return this;
        }

        /** The current time that {@code SYSDATE} reads ({@link MessageView#sysdate}); null (the default): NULL. */
        public Builder sysdate(Instant sysdate) {
            this.sysdate = sysdate;
            return this;
        }

        public MessageSnapshot build() {
            return new MessageSnapshot(this);
        }
    }
}
