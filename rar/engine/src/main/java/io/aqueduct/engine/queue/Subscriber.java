package io.aqueduct.engine.queue;

import io.aqueduct.api.Agent;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.engine.expression.Expression;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A consumer of a multi-consumer queue: a subscriber (with its rule, the syntax the rule was written
 * in, and its transformation) or a recipient named at enqueue. {@link #key} is what tells two
 * consumers apart: the upper-case name for a local consumer, with the address and protocol for a
 * remote one.
 */
public record Subscriber(String key, Agent agent, Expression rule, String transformation, RuleSyntax syntax) {

    /** A null syntax is CONDITION, as the api reads it. */
    public Subscriber {
        syntax = syntax == null ? RuleSyntax.CONDITION : syntax;
    }

    /** A consumer without a transformation whose rule (if any) is a condition. */
    public Subscriber(String key, Agent agent, Expression rule) {
        this(key, agent, rule, null, RuleSyntax.CONDITION);
    }

    public static Subscriber of(Agent agent, Expression rule) {
        return new Subscriber(keyOf(agent), agent, rule, null, RuleSyntax.CONDITION);
    }

    /**
     * {@code rule}: compiled by {@link #compileRule} in {@code syntax}; {@code transformation}: the
     * qualified name of the transformation applied to what it receives, or null.
     */
    public static Subscriber of(Agent agent, Expression rule, String transformation, RuleSyntax syntax) {
        return new Subscriber(keyOf(agent), agent, rule, transformation, syntax);
    }

    /**
     * A rule's text compiled in its syntax: an AQ condition, or a JMS message selector. Null for no
     * rule (every message), and for a blank selector, which JMS reads as no selector.
     *
     * @throws io.aqueduct.engine.expression.ExpressionSyntaxException 25448 when malformed in that syntax
     */
    public static Expression compileRule(String text, RuleSyntax syntax) {
        if (text == null) {
            return null;
        }
        if (syntax == RuleSyntax.SELECTOR) {
            return text.isBlank() ? null : Expression.parseSelector(text);
        }
        return Expression.parse(text);
    }

    /** Local consumers (no address) dequeue by name; remote ones are served by propagation. */
    public boolean local() {
        return agent.address() == null;
    }

    public SubscriberInfo info() {
        return new SubscriberInfo(agent, rule == null ? null : rule.text(), transformation, syntax);
    }

    public static String keyOf(Agent agent) {
        String name = agent.name() == null ? "" : agent.name().toUpperCase(Locale.ROOT);
        if (agent.address() == null) {
            return name;
        }
        // a fixed-size key for any address: the name, a digest of the address, the protocol
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(agent.address().getBytes(StandardCharsets.UTF_8));
            return name + "@" + HexFormat.of().formatHex(digest, 0, 20) + "#" + agent.protocol();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key of a local consumer named {@code consumerName} (a dequeue's consumer name). */
    public static String localKey(String consumerName) {
        return consumerName.toUpperCase(Locale.ROOT);
    }
}
