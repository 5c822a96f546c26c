package io.aqueduct.api;

/** A subscriber of a multi-consumer queue and its rule (null: every message). */
public record SubscriberInfo(Agent agent, String rule) {
}
