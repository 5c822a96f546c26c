package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/**
 * A propagation schedule (AQ$_SCHEDULES): its definition, who runs it (a node holds it while its
 * lease lasts), its current window, its failures and its statistics. Times are epoch ms.
 */
@Entity
@Table(name = "AQ_SCHEDULE")
@IdClass(ScheduleEntity.Key.class)
public class ScheduleEntity {
    @Id
    @Column(name = "QID")
    public long queueId;
    /** A database link's name, or AQ$_LOCAL. */
    @Id
    @Column(name = "DESTINATION")
    public String destination;
    @Column(name = "START_MS")
    public long startMs;
    /** Window seconds; null: one window without end. */
    @Column(name = "DURATION")
    public Long duration;
    @Column(name = "NEXT_TIME")
    public String nextTime;
    @Column(name = "LATENCY")
    public long latency;
    @Column(name = "DISABLED")
    public short disabled;
    @Column(name = "FAILURES")
    public int failures;
    @Column(name = "LAST_ERROR_MS")
    public Long lastErrorMs;
    @Column(name = "LAST_ERROR_MSG")
    public String lastErrorMessage;
    @Column(name = "LAST_RUN_MS")
    public Long lastRunMs;
    @Column(name = "CURRENT_START_MS")
    public Long currentStartMs;
    @Column(name = "NEXT_RUN_MS")
    public Long nextRunMs;
    @Column(name = "TOTAL_TIME_MS")
    public long totalTimeMs;
    @Column(name = "TOTAL_NUMBER")
    public long totalNumber;
    @Column(name = "TOTAL_BYTES")
    public long totalBytes;
    @Column(name = "MAX_NUMBER")
    public long maxNumber;
    @Column(name = "MAX_BYTES")
    public long maxBytes;
    /** Windows that propagated something (AVG_NUMBER = TOTAL_NUMBER / WINDOWS). */
    @Column(name = "WINDOWS")
    public long windows;
    @Column(name = "WINDOW_NUMBER")
    public long windowNumber;
    @Column(name = "WINDOW_BYTES")
    public long windowBytes;
    @Column(name = "NODE_NAME")
    public String nodeName;
    @Column(name = "NODE_INSTANCE")
    public String nodeInstance;
    @Column(name = "SESSION_ID")
    public String sessionId;
    @Column(name = "LEASE_UNTIL")
    public Long leaseUntil;

    public boolean isDisabled() {
        return disabled != 0;
    }

    /** The primary key: source queue and destination. */
    public static final class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        public long queueId;
        public String destination;

        public Key() {
        }

        public Key(long queueId, String destination) {
            this.queueId = queueId;
            this.destination = destination;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.queueId == queueId && Objects.equals(k.destination, destination);
        }

        @Override
        public int hashCode() {
            return Objects.hash(queueId, destination);
        }
    }
}
