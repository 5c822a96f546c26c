package io.aqueduct.jms.message;

import jakarta.jms.MessageFormatException;

/**
 * The value conversion table shared by message properties (Jakarta Messaging 3.1, 3.5.4),
 * {@link jakarta.jms.MapMessage} and {@link jakarta.jms.StreamMessage} (3.11.3): a value written
 * as the row type can be read as
 * <pre>
 *            boolean byte short char int long float double String byte[]
 *  boolean      X                                            X
 *  byte              X    X          X    X                  X
 *  short                  X          X    X                  X
 *  char                         X                            X
 *  int                               X    X                  X
 *  long                                   X                  X
 *  float                                        X     X      X
 *  double                                             X      X
 *  String       X    X    X          X    X     X     X      X
 *  byte[]                                                           X
 * </pre>
 * Any other pair is a {@link MessageFormatException}. A String is parsed with the target's
 * {@code valueOf(String)}, so a {@link NumberFormatException} reaches the caller. A null (a
 * missing property or map entry, or a null written into a stream) is read "as if by
 * {@code valueOf(null)}": false for boolean, a {@link NumberFormatException} for byte, short,
 * int and long, and - because {@code Float.valueOf(null)} and {@code Double.valueOf(null)} do
 * so - a {@link NullPointerException} for float and double; a null char is a
 * {@link NullPointerException} (the spec: char has no String conversion).
 */
final class Conversions {

    private Conversions() {
    }

    static boolean toBoolean(Object v) throws MessageFormatException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Boolean.valueOf((String) v);
        }
        throw refused(v, "boolean");
    }

    static byte toByte(Object v) throws MessageFormatException {
        if (v instanceof Byte b) {
            return b;
        }
        if (v == null || v instanceof String) {
            return Byte.valueOf((String) v);
        }
        throw refused(v, "byte");
    }

    static short toShort(Object v) throws MessageFormatException {
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).shortValue();
        }
        if (v == null || v instanceof String) {
            return Short.valueOf((String) v);
        }
        throw refused(v, "short");
    }

    static char toChar(Object v) throws MessageFormatException {
        if (v instanceof Character c) {
            return c;
        }
        if (v == null) {
            throw new NullPointerException("the value is null, and a char has no null or String conversion");
        }
        throw refused(v, "char");
    }

    static int toInt(Object v) throws MessageFormatException {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        if (v == null || v instanceof String) {
            return Integer.valueOf((String) v);
        }
        throw refused(v, "int");
    }

    static long toLong(Object v) throws MessageFormatException {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v == null || v instanceof String) {
            return Long.valueOf((String) v);
        }
        throw refused(v, "long");
    }

    static float toFloat(Object v) throws MessageFormatException {
        if (v instanceof Float f) {
            return f;
        }
        if (v == null || v instanceof String) {
            return Float.valueOf((String) v);
        }
        throw refused(v, "float");
    }

    static double toDouble(Object v) throws MessageFormatException {
        if (v instanceof Double || v instanceof Float) {
            return ((Number) v).doubleValue();
        }
        if (v == null || v instanceof String) {
            return Double.valueOf((String) v);
        }
        throw refused(v, "double");
    }

    static String toStringValue(Object v) throws MessageFormatException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[]) {
            throw refused(v, "String");
        }
        return String.valueOf(v);
    }

    static byte[] toBytes(Object v) throws MessageFormatException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[] b) {
            return b.clone();
        }
        throw refused(v, "byte[]");
    }

    /** A value as getObject returns it: arrays are copied so the caller cannot change the message. */
    static Object toObject(Object v) {
        return v instanceof byte[] b ? b.clone() : v;
    }

    /** Whether {@code v} is one of the types a map or stream entry may hold. */
    static boolean isMapOrStreamValue(Object v) {
        return v == null || isPropertyValue(v) || v instanceof Character || v instanceof byte[];
    }

    /** Whether {@code v} is one of the types a property may hold (the boxed primitives but char, and String). */
    static boolean isPropertyValue(Object v) {
        return v instanceof Boolean || v instanceof Byte || v instanceof Short || v instanceof Integer
                || v instanceof Long || v instanceof Float || v instanceof Double || v instanceof String;
    }

    static String typeName(Object v) {
        if (v == null) {
            return "null";
        }
        return v instanceof byte[] ? "byte[]" : v.getClass().getSimpleName();
    }

    private static MessageFormatException refused(Object v, String target) {
        return new MessageFormatException("a " + typeName(v) + " value cannot be read as a " + target);
    }
}
