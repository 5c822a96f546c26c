package io.aqueduct.api;

/**
 * A subscriber of a multi-consumer queue, its rule (null: every message) and its transformation
 * (the qualified name of the transformation applied to what it receives; null: none).
 */
public record SubscriberInfo(Agent agent, String rule, String transformation) {

    /** A subscriber without a transformation. */
    public SubscriberInfo(Agent agent, String rule) {
        this(agent, rule, null);
    }
}
