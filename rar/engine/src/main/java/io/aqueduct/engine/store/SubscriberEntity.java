package io.aqueduct.engine.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A subscriber of a multi-consumer queue: an agent, its rule and the rule's syntax, its transformation. */
@Entity
@Table(name = "AQ_SUBSCRIBER")
public class SubscriberEntity {
    @Id
    @Column(name = "SUB_ID")
    public long id;
    @Column(name = "QID")
    public long queueId;
    /** Name (upper-case), address and protocol as one key: what makes two subscribers different. */
    @Column(name = "CONSUMER")
    public String consumer;
    @Column(name = "NAME")
    public String name;
    @Column(name = "ADDRESS")
    public String address;
    @Column(name = "PROTOCOL")
    public int protocol;
    @Column(name = "RULE_TEXT")
    public String rule;
    /** The syntax RULE_TEXT is written in: a RuleSyntax name, CONDITION or SELECTOR (schema 3). */
    @Column(name = "RULE_SYNTAX")
    public String ruleSyntax;
    /** The qualified name of the subscriber's transformation, or null. */
    @Column(name = "TRANSFORMATION")
    public String transformation;
}
