package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A queue table: the payload type, sort order and consumer model shared by its queues. */
@Entity
@Table(name = "AQ_QUEUE_TABLE")
public class QueueTableEntity {
    @Id
    @Column(name = "QT_ID")
    public long id;
    @Column(name = "OWNER")
    public String owner;
    @Column(name = "NAME")
    public String name;
    @Column(name = "PAYLOAD_TYPE")
    public String payloadType;
    @Column(name = "OBJECT_TYPE")
    public String objectType;
    @Column(name = "SORT_ORDER")
    public String sortOrder;
    @Column(name = "MULTIPLE_CONSUMERS")
    public short multipleConsumers;
    @Column(name = "MESSAGE_GROUPING")
    public String messageGrouping;
    @Column(name = "USER_COMMENT")
    public String comment;
}
