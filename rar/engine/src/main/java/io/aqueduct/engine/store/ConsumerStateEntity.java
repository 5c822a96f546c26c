package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * One consumer's part of a message of a multi-consumer queue: its state, its failed attempts and
 * its dequeue history (AQ's AQ$_DEQUEUE_HISTORY). The message is PROCESSED when no consumer has
 * it pending any more.
 */
@Entity
@Table(name = "AQ_MESSAGE_CONSUMER")
@NamedQuery(name = ConsumerStateEntity.CONSUME, query = "UPDATE ConsumerStateEntity c SET c.state = :processed,"
        + " c.dequeueTime = :t, c.dequeueUser = :u, c.dequeueTransaction = :tid WHERE c.id = :id AND c.state = :ready")
public class ConsumerStateEntity {
    /** Marks a consumer's part PROCESSED if it is still READY (zero rows: someone else took it). */
    public static final String CONSUME = "ConsumerStateEntity.consume";

    /** MSGID + '/' + consumer key. */
    @Id
    @Column(name = "ID")
    public String id;
    @Column(name = "MSGID")
    public String msgid;
    @Column(name = "QID")
    public long queueId;
    @Column(name = "CONSUMER")
    public String consumer;
    @Column(name = "NAME")
    public String name;
    @Column(name = "ADDRESS")
    public String address;
    @Column(name = "PROTOCOL")
    public int protocol;
    /** A remote consumer's propagation destination (a link name or AQ$_LOCAL); null for a local consumer. */
    @Column(name = "DEST")
    public String destination;
    @Column(name = "STATE")
    public int state;
    @Column(name = "RETRY_COUNT")
    public int retryCount;
    /** Retry-delay end (epoch ms) while WAITING after a failed attempt. */
    @Column(name = "TIME_MANAGER_INFO")
    public Long timeManagerInfo;
    @Column(name = "DEQ_TIME")
    public LocalDateTime dequeueTime;
    @Column(name = "DEQ_UID")
    public String dequeueUser;
    @Column(name = "DEQ_TID")
    public String dequeueTransaction;

    public static String id(String msgid, String consumer) {
        return msgid + "/" + consumer;
    }
}
