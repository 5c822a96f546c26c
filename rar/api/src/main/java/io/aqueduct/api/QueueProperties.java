package io.aqueduct.api;

/** What DBMS_AQADM.CREATE_QUEUE takes. */
public final class QueueProperties {
    /** Retention: keep processed messages forever. */
    public static final long INFINITE = -1;
    /** AQ's default max_retries. */
    public static final int DEFAULT_MAX_RETRIES = 5;

    private QueueType queueType = QueueType.NORMAL;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private long retryDelaySeconds;
    private long retentionSeconds;
    private String comment;

    public static QueueProperties create() {
        return new QueueProperties();
    }

    public QueueProperties queueType(QueueType queueType) {
        this.queueType = queueType == null ? QueueType.NORMAL : queueType;
        return this;
    }

    /** Failed dequeue attempts allowed before the message moves to the exception queue (default 5). */
    public QueueProperties maxRetries(int maxRetries) {
        this.maxRetries = maxRetries;
        return this;
    }

    /** Seconds a message stays WAITING after a failed attempt (default 0). */
    public QueueProperties retryDelay(long seconds) {
        this.retryDelaySeconds = seconds;
        return this;
    }

    /** Seconds a processed message is kept (default 0; {@link #INFINITE} keeps it forever). */
    public QueueProperties retention(long seconds) {
        this.retentionSeconds = seconds;
        return this;
    }

    /** A comment (at most 2000 bytes in UTF-8, checked at creation); NUL or half a surrogate pair: 24097. */
    public QueueProperties comment(String comment) {
        StorableText.check(comment, "A queue comment");
        this.comment = comment;
        return this;
    }

    public QueueType queueType() {
        return queueType;
    }

    public int maxRetries() {
        return maxRetries;
    }

    public long retryDelay() {
        return retryDelaySeconds;
    }

    public long retention() {
        return retentionSeconds;
    }

    public String comment() {
        return comment;
    }
}
