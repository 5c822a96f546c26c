package io.aqueduct.jms.message;

import jakarta.jms.MessageFormatException;

import java.util.Locale;
import java.util.Set;

/**
 * The rules for message property names (Jakarta Messaging 3.1, 3.5.1 and 3.8.1.1): a name is a
 * Java identifier that is not one of the selector words NULL, TRUE, FALSE, NOT, AND, OR, BETWEEN,
 * LIKE, IN, IS, ESCAPE (compared ignoring case, as selectors compare them) and not a JMS header
 * field name (a selector names the header there, so such a property could never be selected).
 * Names beginning {@code JMSX} are reserved for the spec's own properties: an application may set
 * only {@code JMSXGroupID} (a String) and {@code JMSXGroupSeq} (an int); the others are set by the
 * provider ({@link JmsMessage#setProviderProperty(String, Object)}).
 */
final class PropertyNames {

    static final String JMSX_GROUP_ID = "JMSXGroupID";
    static final String JMSX_GROUP_SEQ = "JMSXGroupSeq";
    static final String JMSX_DELIVERY_COUNT = "JMSXDeliveryCount";

    static final Set<String> RESERVED_WORDS = Set.of(
            "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    static final Set<String> HEADER_NAMES = Set.of(
            "JMSDestination", "JMSDeliveryMode", "JMSExpiration", "JMSDeliveryTime", "JMSPriority",
            "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSReplyTo", "JMSType", "JMSRedelivered");

    /** The JMSX properties the provider sets, with the Java type of their values. */
    static final java.util.Map<String, Class<?>> PROVIDER_SET = java.util.Map.of(
            "JMSXUserID", String.class,
            "JMSXAppID", String.class,
            JMSX_DELIVERY_COUNT, Integer.class,
            "JMSXProducerTXID", String.class,
            "JMSXConsumerTXID", String.class,
            "JMSXRcvTimestamp", Long.class,
            "JMSXState", Integer.class);

    private PropertyNames() {
    }

    /**
     * Checks a name an application sets a property with.
     *
     * @throws IllegalArgumentException when the name is null, empty, not an identifier, a
     *         reserved word, a header name, or a JMSX name the application may not set
     */
    static void checkSettable(String name) {
        checkIdentifier(name);
        if (name.startsWith("JMSX") && !name.equals(JMSX_GROUP_ID) && !name.equals(JMSX_GROUP_SEQ)) {
            throw new IllegalArgumentException("property " + name + " is set by the JMS provider, not by the application"
                    + " (an application may set JMSXGroupID and JMSXGroupSeq only)");
        }
    }

    /**
     * Checks a property an application sets: the name as {@link #checkSettable(String)}, then the
     * value - a boxed primitive (not Character) or a String or null; JMSXGroupID a String,
     * JMSXGroupSeq an Integer.
     *
     * @throws IllegalArgumentException for the name, as {@link #checkSettable(String)}
     * @throws MessageFormatException for a value the property cannot hold
     */
    static void checkSettable(String name, Object value) throws MessageFormatException {
        checkSettable(name);
        if (value != null && !Conversions.isPropertyValue(value)) {
            throw new MessageFormatException("a property value must be a boxed primitive (not char) or a String, not a "
                    + value.getClass().getName());
        }
        if (name.equals(JMSX_GROUP_ID) && value != null && !(value instanceof String)) {
            throw new MessageFormatException("JMSXGroupID is a String property, not a " + Conversions.typeName(value));
        }
        if (name.equals(JMSX_GROUP_SEQ) && !(value instanceof Integer)) {
            throw new MessageFormatException("JMSXGroupSeq is an int property, not a " + Conversions.typeName(value));
        }
    }

    /** The identifier rules alone, for names the provider sets and for decoded names. */
    static void checkIdentifier(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a property name must not be null or empty");
        }
        if (!Character.isJavaIdentifierStart(name.codePointAt(0))) {
            throw new IllegalArgumentException("property name '" + printable(name) + "' does not start a Java identifier");
        }
        for (int i = Character.charCount(name.codePointAt(0)); i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (!Character.isJavaIdentifierPart(cp) || Character.isIdentifierIgnorable(cp)) {
                throw new IllegalArgumentException("property name '" + printable(name)
                        + "' is not a Java identifier (character " + String.format("U+%04X", cp) + " at " + i + ")");
            }
            i += Character.charCount(cp);
        }
        if (RESERVED_WORDS.contains(name.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException("property name '" + name + "' is a reserved word of the message selector syntax");
        }
        if (HEADER_NAMES.contains(name)) {
            throw new IllegalArgumentException("'" + name + "' is a JMS header field, not a property: use its setter");
        }
    }

    /** A bounded, control-character-free rendering of a hostile name for exception messages. */
    static String printable(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length() && b.length() < 64; i++) {
            char c = name.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        if (b.length() >= 64 && name.length() > 64) {
            b.append("...");
        }
        return b.toString();
    }
}
