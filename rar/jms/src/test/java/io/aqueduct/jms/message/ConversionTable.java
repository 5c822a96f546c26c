package io.aqueduct.jms.message;

import org.junit.jupiter.params.provider.Arguments;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static java.util.Map.entry;

/**
 * The value conversion table of Jakarta Messaging 3.1 (3.5.4 for properties, the MapMessage and
 * StreamMessage javadoc for bodies), written out independently of {@link Conversions} so the
 * tests check the implementation against the spec, not against itself.
 */
final class ConversionTable {

    enum Kind { BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, STRING, BYTES }

    /** Row: the written type; value: the types it can be read as. */
    static final Map<Kind, Set<Kind>> READABLE_AS = Map.ofEntries(
            entry(Kind.BOOLEAN, EnumSet.of(Kind.BOOLEAN, Kind.STRING)),
            entry(Kind.BYTE, EnumSet.of(Kind.BYTE, Kind.SHORT, Kind.INT, Kind.LONG, Kind.STRING)),
            entry(Kind.SHORT, EnumSet.of(Kind.SHORT, Kind.INT, Kind.LONG, Kind.STRING)),
            entry(Kind.CHAR, EnumSet.of(Kind.CHAR, Kind.STRING)),
            entry(Kind.INT, EnumSet.of(Kind.INT, Kind.LONG, Kind.STRING)),
            entry(Kind.LONG, EnumSet.of(Kind.LONG, Kind.STRING)),
            entry(Kind.FLOAT, EnumSet.of(Kind.FLOAT, Kind.DOUBLE, Kind.STRING)),
            entry(Kind.DOUBLE, EnumSet.of(Kind.DOUBLE, Kind.STRING)),
            entry(Kind.STRING, EnumSet.of(Kind.BOOLEAN, Kind.BYTE, Kind.SHORT, Kind.INT, Kind.LONG, Kind.FLOAT, Kind.DOUBLE, Kind.STRING)),
            entry(Kind.BYTES, EnumSet.of(Kind.BYTES)));

    /** A sample written value per type; the String parses as every numeric type. */
    static Object sample(Kind k) {
        return switch (k) {
            case BOOLEAN -> true;
            case BYTE -> (byte) -7;
            case SHORT -> (short) 300;
            case CHAR -> 'x';
            case INT -> 70_000;
            case LONG -> 5_000_000_000L;
            case FLOAT -> 1.5f;
            case DOUBLE -> 2.25d;
            case STRING -> "42";
            case BYTES -> new byte[] {1, 2, 3};
        };
    }

    /** What reading {@code written} as {@code as} must give, when the table allows it. */
    static Object expected(Object written, Kind as) {
        if (as == Kind.STRING) {
            return String.valueOf(written);
        }
        if (written instanceof String s) {
            return switch (as) {
                case BOOLEAN -> Boolean.valueOf(s);
                case BYTE -> Byte.valueOf(s);
                case SHORT -> Short.valueOf(s);
                case INT -> Integer.valueOf(s);
                case LONG -> Long.valueOf(s);
                case FLOAT -> Float.valueOf(s);
                case DOUBLE -> Double.valueOf(s);
                default -> throw new AssertionError(as);
            };
        }
        if (written instanceof Number n) {
            return switch (as) {
                case BYTE -> n.byteValue();
                case SHORT -> n.shortValue();
                case INT -> n.intValue();
                case LONG -> n.longValue();
                case FLOAT -> n.floatValue();
                case DOUBLE -> n.doubleValue();
                default -> throw new AssertionError(as);
            };
        }
        return written; // boolean as boolean, char as char, byte[] as byte[]
    }

    /** Every (written, read-as, allowed) triple over {@code kinds}. */
    static Stream<Arguments> pairs(Set<Kind> kinds) {
        List<Arguments> out = new ArrayList<>();
        for (Kind w : kinds) {
            for (Kind r : kinds) {
                out.add(Arguments.of(w, r, READABLE_AS.get(w).contains(r)));
            }
        }
        return out.stream();
    }

    static final Set<Kind> PROPERTY_KINDS = EnumSet.complementOf(EnumSet.of(Kind.CHAR, Kind.BYTES));
    static final Set<Kind> BODY_KINDS = EnumSet.allOf(Kind.class);

    private ConversionTable() {
    }
}
