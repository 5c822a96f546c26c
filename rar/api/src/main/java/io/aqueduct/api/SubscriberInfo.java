package io.aqueduct.api;

/**
 * A subscriber of a multi-consumer queue, its rule (null: every message), its transformation
 * (the qualified name of the transformation applied to what it receives; null: none) and the
 * syntax its rule is written in.
 */
public record SubscriberInfo(Agent agent, String rule, String transformation, RuleSyntax syntax) {

    /** A null syntax is {@link RuleSyntax#CONDITION}, as for {@link QueueAdmin#addSubscriber}. */
    public SubscriberInfo {
        syntax = syntax == null ? RuleSyntax.CONDITION : syntax;
    }

    /** A subscriber whose rule is an AQ condition. */
    public SubscriberInfo(Agent agent, String rule, String transformation) {
        this(agent, rule, transformation, RuleSyntax.CONDITION);
    }

    /** A subscriber without a transformation whose rule is an AQ condition. */
    public SubscriberInfo(Agent agent, String rule) {
        this(agent, rule, null, RuleSyntax.CONDITION);
    }
}
