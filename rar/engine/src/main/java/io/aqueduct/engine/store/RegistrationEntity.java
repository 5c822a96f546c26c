package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

/**
 * A notification registration (DBMS_AQ.REGISTER's AQ$_REG_INFO) and its delivery statistics. Instants
 * are epoch ms; QOS holds the quality-of-service flags by name, comma-separated.
 */
@Entity
@Table(name = "AQ_REGISTRATION")
@NamedQuery(name = RegistrationEntity.ALL, query = "SELECT r FROM RegistrationEntity r ORDER BY r.id")
@NamedQuery(name = RegistrationEntity.DELIVERED, query = "UPDATE RegistrationEntity r SET r.delivered = r.delivered + :n"
        + " WHERE r.id = :id")
@NamedQuery(name = RegistrationEntity.FAILED, query = "UPDATE RegistrationEntity r SET r.failed = r.failed + 1,"
        + " r.lastErrorMs = :t, r.lastErrorMessage = :msg WHERE r.id = :id")
public class RegistrationEntity {
    public static final String ALL = "RegistrationEntity.all";
    /** Adds :n delivered notifications to registration :id. */
    public static final String DELIVERED = "RegistrationEntity.delivered";
    /** Counts a failed delivery of registration :id, with its time :t and text :msg. */
    public static final String FAILED = "RegistrationEntity.failed";

    @Id
    @Column(name = "REG_ID")
    public long id;
    @Column(name = "QID")
    public long queueId;
    /** The consumer on a multi-consumer queue; null on a single-consumer one. */
    @Column(name = "CONSUMER")
    public String consumer;
    @Column(name = "URL")
    public String url;
    @Column(name = "CONTEXT")
    public byte[] context;
    @Column(name = "QOS")
    public String qos;
    @Column(name = "TIMEOUT_S")
    public long timeoutSeconds;
    @Column(name = "REG_USER")
    public String user;
    @Column(name = "CREATED_MS")
    public long createdMs;
    /** When the registration ends by its timeout; null: never. */
    @Column(name = "EXPIRES_MS")
    public Long expiresMs;
    @Column(name = "DELIVERED")
    public long delivered;
    @Column(name = "FAILED")
    public long failed;
    @Column(name = "LAST_ERROR_MS")
    public Long lastErrorMs;
    @Column(name = "LAST_ERROR_MSG")
    public String lastErrorMessage;
}
