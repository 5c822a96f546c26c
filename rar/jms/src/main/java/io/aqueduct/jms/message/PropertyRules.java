package io.aqueduct.jms.message;

import jakarta.jms.MessageFormatException;

/**
 * The message model's property rules for a holder of properties that is not a message: the
 * simplified API's {@code JMSProducer} keeps properties before there is a message to put them
 * on, and must accept, refuse and convert them exactly as a message does.
 */
public final class PropertyRules {

    private PropertyRules() {
    }

    /**
     * Checks a property an application sets, as {@link JmsMessage#setObjectProperty(String, Object)}
     * does.
     *
     * @throws IllegalArgumentException for a null, empty, reserved or header name, or a JMSX name
     *         other than JMSXGroupID and JMSXGroupSeq
     * @throws MessageFormatException for a value a property cannot hold
     */
    public static void checkSettable(String name, Object value) throws MessageFormatException {
        PropertyNames.checkSettable(name, value);
    }

    public static boolean toBoolean(Object value) throws MessageFormatException {
        return Conversions.toBoolean(value);
    }

    public static byte toByte(Object value) throws MessageFormatException {
        return Conversions.toByte(value);
    }

    public static short toShort(Object value) throws MessageFormatException {
        return Conversions.toShort(value);
    }

    public static int toInt(Object value) throws MessageFormatException {
        return Conversions.toInt(value);
    }

    public static long toLong(Object value) throws MessageFormatException {
        return Conversions.toLong(value);
    }

    public static float toFloat(Object value) throws MessageFormatException {
        return Conversions.toFloat(value);
    }

    public static double toDouble(Object value) throws MessageFormatException {
        return Conversions.toDouble(value);
    }

    public static String toStringValue(Object value) throws MessageFormatException {
        return Conversions.toStringValue(value);
    }
}
