package io.aqueduct.engine.expression;

import io.aqueduct.api.JmsPriority;
import java.time.Instant;
import java.util.Set;

/**
 * How the JMS header fields that a message selector may name are read from an AQ message
 * ({@link MessageView}), and the conversions the JMS facade uses in the other direction. This is
 * the one place that defines the mapping:
 *
 * <table>
 *   <caption>Selector header fields</caption>
 *   <tr><th>Header</th><th>Value in a selector</th></tr>
 *   <tr><td>{@code JMSMessageID}</td><td>{@code "ID:" + messageId()}; NULL before an id is assigned</td></tr>
 *   <tr><td>{@code JMSCorrelationID}</td><td>{@code correlation()}; may be NULL</td></tr>
 *   <tr><td>{@code JMSTimestamp}</td><td>{@code enqueueTime()} as epoch milliseconds (Long); NULL when not enqueued</td></tr>
 *   <tr><td>{@code JMSPriority}</td><td>{@link #toJmsPriority(int) 9 - priority()}, clamped to 0..9 (Integer)</td></tr>
 *   <tr><td>{@code JMSDeliveryMode}</td><td>the user property {@value #JMS_DELIVERY_MODE}: {@code 'PERSISTENT'} or
 *       {@code 'NON_PERSISTENT'} (an Integer 1 / 2, as in {@code jakarta.jms.DeliveryMode}, is shown as these)</td></tr>
 *   <tr><td>{@code JMSType}</td><td>the user property {@value #JMS_TYPE}; may be NULL</td></tr>
 * </table>
 *
 * <p>The specification restricts selector header references to these six. Any other identifier,
 * including {@code JMSDestination}, {@code JMSReplyTo}, {@code JMSExpiration},
 * {@code JMSRedelivered} and {@code JMSDeliveryTime}, is read as a user property of exactly that
 * name, so it is NULL unless a property of that name was set.
 *
 * <p>Priorities: JMS priority {@code p} (0..9, 9 highest) is stored as AQ priority {@code 9 - p}
 * (AQ dequeues lower numbers first), so JMS 4 (the default) is AQ 5; the rule itself is the api's
 * {@link JmsPriority}, which the JMS provider uses too.
 */
public final class JmsHeaders {
    /** The header fields a selector may name (case-sensitive). */
    public static final Set<String> SELECTOR_HEADERS = Set.of("JMSDeliveryMode", "JMSPriority", "JMSMessageID",
            "JMSTimestamp", "JMSCorrelationID", "JMSType");

    /** The reserved user property that holds JMSDeliveryMode. */
    public static final String JMS_DELIVERY_MODE = "JMSDeliveryMode";
    /** The reserved user property that holds JMSType. */
    public static final String JMS_TYPE = "JMSType";
    /** JMSDeliveryMode value of a persistent message, as selectors see it. */
    public static final String PERSISTENT = "PERSISTENT";
    /** JMSDeliveryMode value of a non-persistent message, as selectors see it. */
    public static final String NON_PERSISTENT = "NON_PERSISTENT";
    /** The prefix every JMSMessageID carries. */
    public static final String ID_PREFIX = "ID:";

    private JmsHeaders() {
    }

    /** The JMS priority (0..9, 9 highest) of an AQ priority: {@link JmsPriority#toJms}, clamped to 0..9. */
    public static int toJmsPriority(int aqPriority) {
        return JmsPriority.toJms(aqPriority);
    }

    /**
     * The AQ priority for a JMS priority: {@link JmsPriority#toAq}, {@code 9 - jmsPriority}.
     *
     * @throws io.aqueduct.api.AqException 24097 when jmsPriority is not in 0..9
     */
    public static int toAqPriority(int jmsPriority) {
        return JmsPriority.toAq(jmsPriority);
    }

    /** The JMSMessageID of an AQ message id: {@code "ID:" + msgid}; null for null. */
    public static String toJmsMessageId(String aqMessageId) {
        return aqMessageId == null ? null : ID_PREFIX + aqMessageId;
    }

    /** The AQ message id in a JMSMessageID (the text after {@code "ID:"}); null when it has no such prefix. */
    public static String toAqMessageId(String jmsMessageId) {
        return jmsMessageId != null && jmsMessageId.startsWith(ID_PREFIX) ? jmsMessageId.substring(ID_PREFIX.length()) : null;
    }

    /** JMSTimestamp (epoch milliseconds) of an enqueue time; null for null. */
    public static Long toJmsTimestamp(Instant enqueueTime) {
        return enqueueTime == null ? null : enqueueTime.toEpochMilli();
    }

    /** {@code 'PERSISTENT'} / {@code 'NON_PERSISTENT'} for {@code jakarta.jms.DeliveryMode} 2 / 1. */
    public static String deliveryModeName(int deliveryMode) {
        switch (deliveryMode) {
            case 2:
                return PERSISTENT;
            case 1:
                return NON_PERSISTENT;
            default:
                throw new IllegalArgumentException("JMS delivery mode must be 1 or 2, not " + deliveryMode);
        }
    }

    /** The header fields as selector identifiers: how each is read and its static type. */
    enum Header {
        JMS_DELIVERY_MODE("JMSDeliveryMode", Node.Kind.STRING),
        JMS_PRIORITY("JMSPriority", Node.Kind.NUMBER),
        JMS_MESSAGE_ID("JMSMessageID", Node.Kind.STRING),
        JMS_TIMESTAMP("JMSTimestamp", Node.Kind.NUMBER),
        JMS_CORRELATION_ID("JMSCorrelationID", Node.Kind.STRING),
        JMS_TYPE("JMSType", Node.Kind.STRING);

        final String spelling;
        final Node.Kind kind;

        Header(String spelling, Node.Kind kind) {
            this.spelling = spelling;
            this.kind = kind;
        }

        /** The header of exactly this spelling (identifiers are case-sensitive), or null. */
        static Header lookup(String identifier) {
            for (Header h : values()) {
                if (h.spelling.equals(identifier)) {
                    return h;
                }
            }
            return null;
        }

        /** The selector value of this header for a message (null is NULL). */
        Object read(MessageView m) {
            switch (this) {
                case JMS_PRIORITY:
                    return toJmsPriority(m.priority());
                case JMS_MESSAGE_ID:
                    return toJmsMessageId(m.messageId());
                case JMS_TIMESTAMP:
                    return toJmsTimestamp(m.enqueueTime());
                case JMS_CORRELATION_ID:
                    return m.correlation();
                case JMS_DELIVERY_MODE: {
                    Object v = m.userPropertyExact(JmsHeaders.JMS_DELIVERY_MODE);
                    if (v instanceof Number n && (n.intValue() == 1 || n.intValue() == 2)
                            && Values.isIntegral(n)) {
                        return deliveryModeName(n.intValue());
                    }
                    return SelectorValues.normalize(v);
                }
                default:
                    return SelectorValues.normalize(m.userPropertyExact(JmsHeaders.JMS_TYPE));
            }
        }
    }
}
