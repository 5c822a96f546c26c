package io.aqueduct.api;

/** The language a subscriber's rule is written in ({@link QueueAdmin#addSubscriber(String, Agent, String, String, RuleSyntax)}). */
public enum RuleSyntax {
    /**
     * An AQ rule condition, as {@link QueueAdmin#addSubscriber(String, Agent, String)} takes it: message
     * properties ({@code priority}, {@code corrid}, ...), user properties and payload attributes (docs/semantics.md).
     */
    CONDITION,
    /**
     * A Jakarta Messaging message selector, the syntax of {@link DequeueOptions#selector(String)}: user
     * properties by their exact name and the header fields JMSMessageID, JMSCorrelationID, JMSPriority,
     * JMSTimestamp, JMSDeliveryMode and JMSType (docs/jms.md). What a JMS durable subscription becomes.
     */
    SELECTOR
}
