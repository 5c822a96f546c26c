package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A queue of a queue table, with its retry, retention and start / stop settings. */
@Entity
@Table(name = "AQ_QUEUE")
public class QueueEntity {
    @Id
    @Column(name = "QID")
    public long id;
    @Column(name = "OWNER")
    public String owner;
    @Column(name = "NAME")
    public String name;
    @Column(name = "QT_ID")
    public long queueTableId;
    @Column(name = "QUEUE_TYPE")
    public String queueType;
    @Column(name = "MAX_RETRIES")
    public int maxRetries;
    @Column(name = "RETRY_DELAY")
    public long retryDelay;
    @Column(name = "RETENTION")
    public long retention;
    @Column(name = "ENQUEUE_ENABLED")
    public short enqueueEnabled;
    @Column(name = "DEQUEUE_ENABLED")
    public short dequeueEnabled;
    @Column(name = "USER_COMMENT")
    public String comment;
}
