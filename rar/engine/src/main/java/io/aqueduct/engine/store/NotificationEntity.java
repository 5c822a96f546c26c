package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A RELIABLE notification waiting for delivery, written in the transaction that makes its message
 * available (so it survives a killed JVM). Due at DUE_MS (the message's delay end, or the next try
 * after a failed delivery); a node delivering it holds it until LEASE_UNTIL, so that on a shared store
 * one node delivers it; delivered, it is deleted.
 */
@Entity
@Table(name = "AQ_NOTIFICATION")
@NamedQuery(name = NotificationEntity.DUE, query = "SELECT n FROM NotificationEntity n WHERE n.dueMs <= :now"
        + " AND (n.leaseUntil IS NULL OR n.leaseUntil < :now) AND n.registrationId IN :regs ORDER BY n.dueMs")
@NamedQuery(name = NotificationEntity.NEXT_DUE, query = "SELECT MIN(n.dueMs) FROM NotificationEntity n"
        + " WHERE n.registrationId IN :regs")
@NamedQuery(name = NotificationEntity.CLAIM, query = "UPDATE NotificationEntity n SET n.leaseUntil = :until"
        + " WHERE n.id = :id AND (n.leaseUntil IS NULL OR n.leaseUntil < :now)")
@NamedQuery(name = NotificationEntity.RETRY, query = "UPDATE NotificationEntity n SET n.leaseUntil = NULL,"
        + " n.attempts = n.attempts + 1, n.dueMs = :due WHERE n.id = :id")
@NamedQuery(name = NotificationEntity.DONE, query = "DELETE FROM NotificationEntity n WHERE n.id = :id")
@NamedQuery(name = NotificationEntity.COUNT, query = "SELECT COUNT(n) FROM NotificationEntity n WHERE n.registrationId = :reg")
@NamedQuery(name = NotificationEntity.OF_REGISTRATION, query = "DELETE FROM NotificationEntity n WHERE n.registrationId = :reg")
public class NotificationEntity {
    /** Notifications of registrations :regs due at :now that no node holds, earliest first. */
    public static final String DUE = "NotificationEntity.due";
    /** The earliest due instant of a notification of registrations :regs (null when none waits). */
    public static final String NEXT_DUE = "NotificationEntity.nextDue";
    /** Holds notification :id until :until if no node holds it at :now (one row: this node delivers it). */
    public static final String CLAIM = "NotificationEntity.claim";
    /** A failed delivery of :id: one more attempt, due again at :due, held by nobody. */
    public static final String RETRY = "NotificationEntity.retry";
    /** Notification :id was delivered (or has nothing left to deliver). */
    public static final String DONE = "NotificationEntity.done";
    /** How many notifications of registration :reg wait. */
    public static final String COUNT = "NotificationEntity.count";
    /** Removes the notifications of registration :reg (unregistered, timed out). */
    public static final String OF_REGISTRATION = "NotificationEntity.ofRegistration";

    @Id
    @Column(name = "ID")
    public String id;
    @Column(name = "REG_ID")
    public long registrationId;
    @Column(name = "MSGID")
    public String msgid;
    @Column(name = "CONSUMER")
    public String consumer;
    @Column(name = "DUE_MS")
    public long dueMs;
    @Column(name = "ATTEMPTS")
    public int attempts;
    @Column(name = "LEASE_UNTIL")
    public Long leaseUntil;
}
