package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A destination store's record that a message propagated from another store was enqueued here,
 * written in the same transaction as the message: a propagator that repeats a batch after a crash
 * (its source did not record the batch as done) finds it and does not enqueue the message again.
 * Removed once the source has recorded the batch.
 */
@Entity
@Table(name = "AQ_PROPAGATION_RECEIPT")
public class PropagationReceiptEntity {
    /** Destination queue id, source message id and what was delivered to (subscribers or named consumers). */
    @Id
    @Column(name = "ID")
    public String id;
    @Column(name = "QID")
    public long queueId;
    /** The source store and schedule that delivered it. */
    @Column(name = "SOURCE")
    public String source;
    @Column(name = "CREATED_MS")
    public long createdMs;
}
