package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * One message of a queue (all queues of all queue tables share this table; the AQ$ view of a queue
 * table shows its part). Times are UTC. TIME_MANAGER_INFO is the next instant (epoch ms) the time
 * manager must look at the message: delay end when WAITING, expiry when READY, retention end when
 * PROCESSED, null when nothing is due.
 */
@Entity
@Table(name = "AQ_MESSAGE")
@NamedQuery(name = MessageEntity.CONSUME, query = "DELETE FROM MessageEntity m WHERE m.msgid = :id AND m.state = :state")
@NamedQuery(name = MessageEntity.RETAIN, query = "UPDATE MessageEntity m SET m.state = :processed, m.dequeueTime = :t,"
        + " m.dequeueUser = :u, m.dequeueTransaction = :tid, m.timeManagerInfo = :purge WHERE m.msgid = :id AND m.state = :state")
public class MessageEntity {
    /** Removes a message that is still available (zero rows: another node consumed it). */
    public static final String CONSUME = "MessageEntity.consume";
    /** Marks a message that is still available PROCESSED, kept for its retention. */
    public static final String RETAIN = "MessageEntity.retain";

    @Id
    @Column(name = "MSGID")
    public String msgid;
    @Column(name = "QID")
    public long queueId;
    @Column(name = "QT_ID")
    public long queueTableId;
    @Column(name = "CORRID")
    public String correlation;
    @Column(name = "PRIORITY")
    public int priority;
    @Column(name = "STATE")
    public int state;
    @Column(name = "DELAY")
    public LocalDateTime delay;
    @Column(name = "EXPIRATION")
    public long expiration;
    @Column(name = "TIME_MANAGER_INFO")
    public Long timeManagerInfo;
    @Column(name = "ENQ_TIME")
    public LocalDateTime enqueueTime;
    @Column(name = "ENQ_UID")
    public String enqueueUser;
    @Column(name = "ENQ_TID")
    public String enqueueTransaction;
    @Column(name = "DEQ_TIME")
    public LocalDateTime dequeueTime;
    @Column(name = "DEQ_UID")
    public String dequeueUser;
    @Column(name = "DEQ_TID")
    public String dequeueTransaction;
    @Column(name = "RETRY_COUNT")
    public int retryCount;
    @Column(name = "EXCEPTION_QSCHEMA")
    public String exceptionQueueSchema;
    @Column(name = "EXCEPTION_QUEUE")
    public String exceptionQueue;
    @Column(name = "SENDER_NAME")
    public String senderName;
    @Column(name = "SENDER_ADDRESS")
    public String senderAddress;
    @Column(name = "SENDER_PROTOCOL")
    public Integer senderProtocol;
    @Column(name = "ORIGINAL_MSGID")
    public String originalMsgid;
    /** The queue a message in an exception queue was moved from (null elsewhere, and in rows moved before schema 7). */
    @Column(name = "ORIGINAL_QSCHEMA")
    public String originalQueueSchema;
    @Column(name = "ORIGINAL_QUEUE")
    public String originalQueue;
    /** Enqueue order, unique: breaks ties of equal priority and enqueue time. */
    @Column(name = "SEQ")
    public long seq;
    /** SEQ of the transaction group's head (the message's own SEQ without grouping). */
    @Column(name = "GROUP_SEQ")
    public long groupSeq;
    /** Enqueue time (epoch ms) that orders the message: its group head's. */
    @Column(name = "ORDER_MS")
    public long orderMs;
    /** Payloads up to {@link #INLINE_LIMIT} bytes live in the row; larger ones in the LOB. */
    @Column(name = "USER_DATA")
    public byte[] userData;
    @Lob
    @Column(name = "USER_DATA_LOB")
    public byte[] userDataLob;

    /** The user properties, encoded (payload.UserPropertiesCodec); null when the message has none. */
    @Column(name = "USER_PROPS")
    public byte[] userProperties;

    public static final int INLINE_LIMIT = 32672;

    public void payloadBytes(byte[] bytes) {
        if (bytes != null && bytes.length > INLINE_LIMIT) {
            userDataLob = bytes;
            userData = null;
        } else {
            userData = bytes;
            userDataLob = null;
        }
    }

    public byte[] payloadBytes() {
        return userDataLob != null ? userDataLob : userData;
    }
}
