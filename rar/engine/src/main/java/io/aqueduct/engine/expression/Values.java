package io.aqueduct.engine.expression;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The value model of expressions. Values are null (SQL NULL / unknown), String, Number
 * (Long/Integer/... for integers, BigDecimal, Double/Float), Boolean, Instant and
 * {@link XmlFragment}; anything else compares as unknown. Logic is three-valued: Boolean.TRUE,
 * Boolean.FALSE and null.
 */
final class Values {
    private Values() {
    }

    /** {@link #compare} result when the operands cannot be compared (NULL, incompatible types). */
    static final int UNKNOWN = Integer.MIN_VALUE;
    /** {@link #compare} result for unequal values that have no order (booleans). */
    static final int UNORDERED = Integer.MAX_VALUE;

    static final MathContext MC = MathContext.DECIMAL128;

    /** Alternative readings of a string literal, computed once at parse time. */
    static final class Coercions {
        final Number number;
        final Instant instant;

        Coercions(Number number, Instant instant) {
            this.number = number;
            this.instant = instant;
        }

        static Coercions of(Object literal) {
            if (literal instanceof String s) {
                return new Coercions(parseNumber(s), parseInstant(s));
            }
            return null;
        }
    }

    // ------------------------------------------------------------------ normalization

    /** Brings a value from a property, a payload attribute or a function into the value model. */
    static Object normalize(Object v) {
        if (v == null || v instanceof String || v instanceof Long || v instanceof Boolean
                || v instanceof BigDecimal || v instanceof Integer || v instanceof Instant
                || v instanceof XmlFragment || v instanceof Double) {
            return v;
        }
        if (v instanceof JsonValue j) {
            return fromJson(j);
        }
        if (v instanceof BigInteger bi) {
            return new BigDecimal(bi);
        }
        if (v instanceof Number) {
            return v;
        }
        if (v instanceof Character c) {
            return String.valueOf(c.charValue());
        }
        if (v instanceof CharSequence cs) {
            return cs.toString();
        }
        if (v instanceof Enum<?> e) {
            return e.name();
        }
        if (v instanceof java.util.Date d) {
            return Instant.ofEpochMilli(d.getTime());
        }
        if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        if (v instanceof ZonedDateTime t) {
            return t.toInstant();
        }
        if (v instanceof LocalDateTime t) {
            return t.toInstant(ZoneOffset.UTC);
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay().toInstant(ZoneOffset.UTC);
        }
        if (v instanceof java.util.Calendar c) {
            return c.toInstant();
        }
        if (v instanceof Node n) {
            return fromXml(n);
        }
        return v;
    }

    static Object fromJson(JsonValue j) {
        switch (j.getValueType()) {
            case STRING:
                return ((JsonString) j).getString();
            case NUMBER: {
                JsonNumber n = (JsonNumber) j;
                BigDecimal bd = n.bigDecimalValue();
                if (n.isIntegral() && bd.precision() <= 18) {
                    return bd.longValue();
                }
                return bd;
            }
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            case NULL:
                return null;
            default:
                return j; // objects and arrays: not comparable
        }
    }

    /** An element without child elements is its trimmed text; attributes and text nodes their value. */
    static Object fromXml(Node n) {
        if (n instanceof Attr a) {
            return a.getValue();
        }
        if (n instanceof Element e) {
            for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
                if (c.getNodeType() == Node.ELEMENT_NODE) {
                    return new XmlFragment(List.of(e));
                }
            }
            return e.getTextContent().trim();
        }
        if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
            return n.getNodeValue();
        }
        return new XmlFragment(List.of(n));
    }

    // ------------------------------------------------------------------ logic

    static Boolean asBoolean(Object v) {
        return v instanceof Boolean b ? b : null;
    }

    static Boolean not(Boolean b) {
        return b == null ? null : b ? Boolean.FALSE : Boolean.TRUE;
    }

    static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return Boolean.FALSE;
        }
        return a == null || b == null ? null : Boolean.TRUE;
    }

    // ------------------------------------------------------------------ comparison

    /**
     * Compares two values: negative, zero or positive; {@link #UNKNOWN} when either is NULL or the
     * types do not compare; {@link #UNORDERED} for unequal values that have no order.
     */
    static int compare(Object a, Object b, Coercions ca, Coercions cb) {
        if (a == null || b == null) {
            return UNKNOWN;
        }
        if (a instanceof XmlFragment x) {
            a = x.stringValue();
        }
        if (b instanceof XmlFragment x) {
            b = x.stringValue();
        }
        if (a instanceof String sa) {
            if (b instanceof String sb) {
                return Integer.signum(sa.compareTo(sb));
            }
            if (b instanceof Number nb) {
                Number na = ca != null ? ca.number : parseNumber(sa);
                return na == null ? UNKNOWN : compareNumbers(na, nb);
            }
            if (b instanceof Instant ib) {
                Instant ia = ca != null ? ca.instant : parseInstant(sa);
                return ia == null ? UNKNOWN : Integer.signum(ia.compareTo(ib));
            }
            return UNKNOWN;
        }
        if (a instanceof Number na) {
            if (b instanceof Number nb) {
                return compareNumbers(na, nb);
            }
            if (b instanceof String sb) {
                Number nb = cb != null ? cb.number : parseNumber(sb);
                return nb == null ? UNKNOWN : compareNumbers(na, nb);
            }
            return UNKNOWN;
        }
        if (a instanceof Instant ia) {
            if (b instanceof Instant ib) {
                return Integer.signum(ia.compareTo(ib));
            }
            if (b instanceof String sb) {
                Instant ib = cb != null ? cb.instant : parseInstant(sb);
                return ib == null ? UNKNOWN : Integer.signum(ia.compareTo(ib));
            }
            return UNKNOWN;
        }
        if (a instanceof Boolean ba) {
            if (b instanceof Boolean bb) {
                return ba.booleanValue() == bb.booleanValue() ? 0 : UNORDERED;
            }
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    static boolean isIntegral(Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof AtomicInteger || n instanceof AtomicLong;
    }

    private static boolean isFloating(Number n) {
        return n instanceof Double || n instanceof Float;
    }

    static int compareNumbers(Number a, Number b) {
        if (isIntegral(a) && isIntegral(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (isFloating(a) || isFloating(b)) {
            double x = a.doubleValue();
            double y = b.doubleValue();
            if (Double.isNaN(x) || Double.isNaN(y)) {
                return UNKNOWN;
            }
            if (Double.isInfinite(x) || Double.isInfinite(y)) {
                return Double.compare(x, y);
            }
        }
        BigDecimal x = big(a);
        BigDecimal y = big(b);
        return x == null || y == null ? UNKNOWN : x.compareTo(y);
    }

    static BigDecimal big(Number n) {
        if (n instanceof BigDecimal bd) {
            return bd;
        }
        if (isIntegral(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        if (n instanceof Double d) {
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        if (n instanceof Float f) {
            return Float.isFinite(f) ? new BigDecimal(Float.toString(f)) : null;
        }
        if (n instanceof BigInteger bi) {
            return new BigDecimal(bi);
        }
        try {
            return new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
    }

    // ------------------------------------------------------------------ coercion

    /**
     * A number when the whole (trimmed) string is a decimal number, else null. Cheap rejection of
     * non-numbers; exponents are limited to four digits.
     */
    static Number parseNumber(String s) {
        int n = s.length();
        int start = 0;
        int end = n;
        while (start < end && Character.isWhitespace(s.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(s.charAt(end - 1))) {
            end--;
        }
        if (start == end || end - start > 200) {
            return null;
        }
        int k = start;
        if (s.charAt(k) == '+' || s.charAt(k) == '-') {
            k++;
        }
        int digits = 0;
        boolean simple = true;
        while (k < end && isDigit(s.charAt(k))) {
            k++;
            digits++;
        }
        if (k < end && s.charAt(k) == '.') {
            simple = false;
            k++;
            while (k < end && isDigit(s.charAt(k))) {
                k++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if (k < end && (s.charAt(k) == 'e' || s.charAt(k) == 'E')) {
            simple = false;
            k++;
            if (k < end && (s.charAt(k) == '+' || s.charAt(k) == '-')) {
                k++;
            }
            int exp = 0;
            while (k < end && isDigit(s.charAt(k))) {
                k++;
                exp++;
            }
            if (exp == 0 || exp > 4) {
                return null;
            }
        }
        if (k != end) {
            return null;
        }
        String t = s.substring(start, end);
        if (simple && digits <= 18) {
            return Long.parseLong(t);
        }
        try {
            return new BigDecimal(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** An instant from ISO-8601 text: {@code 2024-05-01T10:00:00Z}, a local date-time (UTC) or a date. */
    static Instant parseInstant(String s) {
        String t = s.trim();
        if (t.length() < 10 || t.length() > 64 || !isDigit(t.charAt(0)) || t.charAt(4) != '-') {
            return null;
        }
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            char last = t.charAt(t.length() - 1);
            if (last == 'Z' || last == 'z') {
                return Instant.parse(t.toUpperCase(java.util.Locale.ROOT));
            }
            if (t.indexOf('+', 10) > 0 || t.lastIndexOf('-') > 10) {
                return OffsetDateTime.parse(t).toInstant();
            }
            return LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** A number operand for arithmetic: numbers as they are, numeric strings parsed, else null. */
    static Number asNumber(Object v) {
        if (v instanceof Number n) {
            return n;
        }
        if (v instanceof String s) {
            return parseNumber(s);
        }
        if (v instanceof XmlFragment x) {
            return parseNumber(x.stringValue());
        }
        return null;
    }

    /** A string operand for LIKE, || and string functions. */
    static String asString(Object v) {
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Number n) {
            return numberText(n);
        }
        if (v instanceof XmlFragment x) {
            return x.stringValue();
        }
        if (v instanceof Instant i) {
            return i.toString();
        }
        return null;
    }

    static String numberText(Number n) {
        if (n instanceof BigDecimal bd) {
            int scale = bd.scale();
            return scale > 100 || scale < -100 ? bd.toString() : bd.toPlainString();
        }
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return n.toString();
        }
        return n.toString();
    }

    // ------------------------------------------------------------------ arithmetic

    static final char ADD = '+';
    static final char SUB = '-';
    static final char MUL = '*';
    static final char DIV = '/';

    /** Milliseconds in a day: Oracle date arithmetic counts in days. */
    private static final BigDecimal DAY_MILLIS = BigDecimal.valueOf(86_400_000L);
    private static final BigDecimal DAY_SECONDS = BigDecimal.valueOf(86_400L);

    /**
     * Arithmetic: on numbers (numeric strings included) a Number; with a date (an Instant) operand
     * Oracle date arithmetic ({@link #dateArithmetic}). NULL for NULL operands, non-numbers,
     * division by zero or overflow.
     */
    static Object arithmetic(char op, Object a, Object b) {
        if (a instanceof Instant || b instanceof Instant) {
            return dateArithmetic(op, a, b);
        }
        return numeric(op, a, b);
    }

    /**
     * Oracle date arithmetic: {@code date + n} and {@code n + date} are the date n days later
     * (fractions of a day to the millisecond, rounded half up: {@code 1/24} is an hour),
     * {@code date - n} n days earlier, {@code date - date} the difference in days (a BigDecimal);
     * anything else with a date ({@code date + date}, {@code n - date}, {@code * /}) and NULL
     * operands give NULL, as do results outside the range of Instant.
     */
    static Object dateArithmetic(char op, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        try {
            if (a instanceof Instant x) {
                if (b instanceof Instant y) {
                    return op == SUB ? daysBetween(y, x) : null;
                }
                if (op != ADD && op != SUB) {
                    return null;
                }
                Long ms = dayMillis(asNumber(b));
                if (ms == null) {
                    return null;
                }
                return op == ADD ? x.plusMillis(ms) : x.minusMillis(ms);
            }
            if (op != ADD) {
                return null;
            }
            Long ms = dayMillis(asNumber(a));
            return ms == null ? null : ((Instant) b).plusMillis(ms);
        } catch (ArithmeticException | java.time.DateTimeException e) {
            return null;
        }
    }

    /** A number of days as milliseconds, rounded half up; null for null or out of range. */
    private static Long dayMillis(Number days) {
        BigDecimal d = days == null ? null : big(days);
        if (d == null || d.abs().compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0) {
            return null; // far beyond the range of Instant (about 3.65E8 days either way)
        }
        return d.multiply(DAY_MILLIS).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /** {@code to - from} in days, exact to the nanosecond as far as 34 digits go. */
    static BigDecimal daysBetween(Instant from, Instant to) {
        java.time.Duration d = java.time.Duration.between(from, to);
        BigDecimal seconds = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
        BigDecimal days = seconds.divide(DAY_SECONDS, MC);
        if (days.signum() == 0) {
            return BigDecimal.ZERO;
        }
        days = days.stripTrailingZeros();
        return days.scale() < 0 ? days.setScale(0) : days;
    }

    /** Arithmetic on numbers (numeric strings included); NULL for NULL operands, non-numbers, division by zero or overflow. */
    static Number numeric(char op, Object a, Object b) {
        Number x = asNumber(a);
        Number y = asNumber(b);
        if (x == null || y == null) {
            return null;
        }
        try {
            if (isIntegral(x) && isIntegral(y)) {
                long l = x.longValue();
                long r = y.longValue();
                try {
                    switch (op) {
                        case ADD:
                            return Math.addExact(l, r);
                        case SUB:
                            return Math.subtractExact(l, r);
                        case MUL:
                            return Math.multiplyExact(l, r);
                        default:
                            if (r == 0) {
                                return null;
                            }
                            if (l % r == 0 && !(l == Long.MIN_VALUE && r == -1)) {
                                return l / r;
                            }
                            break;
                    }
                } catch (ArithmeticException overflow) {
                    // fall through to BigDecimal
                }
            } else if (isFloating(x) || isFloating(y)) {
                double l = x.doubleValue();
                double r = y.doubleValue();
                double d;
                switch (op) {
                    case ADD:
                        d = l + r;
                        break;
                    case SUB:
                        d = l - r;
                        break;
                    case MUL:
                        d = l * r;
                        break;
                    default:
                        if (r == 0) {
                            return null;
                        }
                        d = l / r;
                        break;
                }
                return Double.isFinite(d) ? d : null;
            }
            BigDecimal l = big(x);
            BigDecimal r = big(y);
            if (l == null || r == null) {
                return null;
            }
            switch (op) {
                case ADD:
                    return l.add(r, MC);
                case SUB:
                    return l.subtract(r, MC);
                case MUL:
                    return l.multiply(r, MC);
                default:
                    if (r.signum() == 0) {
                        return null;
                    }
                    return l.divide(r, MC);
            }
        } catch (ArithmeticException e) {
            return null;
        }
    }

    static Number negate(Object v) {
        Number n = asNumber(v);
        if (n == null) {
            return null;
        }
        if (isIntegral(n)) {
            long l = n.longValue();
            return l == Long.MIN_VALUE ? BigDecimal.valueOf(l).negate() : Long.valueOf(-l);
        }
        if (n instanceof Double d) {
            return -d;
        }
        if (n instanceof Float f) {
            return -f;
        }
        BigDecimal bd = big(n);
        return bd == null ? null : bd.negate();
    }
}
