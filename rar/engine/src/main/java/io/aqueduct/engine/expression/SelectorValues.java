package io.aqueduct.engine.expression;

import io.aqueduct.engine.expression.Nodes.Op;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The value model of JMS message selectors ({@link Expression#parseSelector}), which is stricter
 * than that of AQ conditions ({@link Values}): no conversions between types.
 *
 * <ul>
 *   <li>Values are null (NULL), String, Boolean and the numbers Byte, Short, Integer, Long (exact)
 *       and Float, Double (approximate). A property of another type is brought into this model by
 *       {@link #normalize}: Character → String; AtomicInteger/AtomicLong → Integer/Long; BigInteger,
 *       BigDecimal and other numbers → Double; Instant and java.util.Date → epoch milliseconds
 *       (Long, the JMS way to carry a time). Anything else stays opaque and equals nothing.</li>
 *   <li>Comparison (JMS: "only like type values can be compared"): numbers with numbers after Java
 *       binary numeric promotion; strings with strings and booleans with booleans, by {@code =} and
 *       {@code <>} only. Any other pairing, and {@code < <= > >=} on strings or booleans, is FALSE
 *       (for {@code <>} too). NULL on either side is unknown (null).</li>
 *   <li>Arithmetic: Java binary numeric promotion (int, long, float, double; int overflow wraps as in
 *       Java). A NULL or non-numeric operand gives NULL, and so does division by zero, integral or
 *       floating (the specification leaves it open; NULL makes the enclosing comparison unknown).</li>
 * </ul>
 */
final class SelectorValues {
    private SelectorValues() {
    }

    /** Brings a property value into the selector value model (see the class comment). */
    static Object normalize(Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Integer
                || v instanceof Double || v instanceof Float || v instanceof Short || v instanceof Byte) {
            return v;
        }
        if (v instanceof Character c) {
            return String.valueOf(c.charValue());
        }
        if (v instanceof AtomicInteger a) {
            return a.get();
        }
        if (v instanceof AtomicLong a) {
            return a.get();
        }
        if (v instanceof BigDecimal || v instanceof BigInteger || v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof Instant i) {
            return i.toEpochMilli();
        }
        if (v instanceof java.util.Date d) {
            return d.getTime();
        }
        return v;
    }

    static boolean isNumber(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Double || v instanceof Float
                || v instanceof Short || v instanceof Byte;
    }

    /** The promoted type of a binary numeric operation: 'D', 'F', 'J' (long) or 'I' (int). */
    private static char promote(Number a, Number b) {
        if (a instanceof Double || b instanceof Double) {
            return 'D';
        }
        if (a instanceof Float || b instanceof Float) {
            return 'F';
        }
        if (a instanceof Long || b instanceof Long) {
            return 'J';
        }
        return 'I';
    }

    /** TRUE, FALSE or null (unknown) for {@code a op b}. */
    static Boolean compare(Op op, Object a, Object b) {
        if (a == null || b == null) {
            return null;
        }
        if (isNumber(a) && isNumber(b)) {
            Number x = (Number) a;
            Number y = (Number) b;
            switch (promote(x, y)) {
                case 'D':
                    return of(op, x.doubleValue(), y.doubleValue());
                case 'F':
                    return of(op, x.floatValue(), y.floatValue());
                default:
                    return of(op, Long.compare(x.longValue(), y.longValue()));
            }
        }
        if ((a instanceof String && b instanceof String) || (a instanceof Boolean && b instanceof Boolean)) {
            if (op == Op.EQ) {
                return a.equals(b);
            }
            if (op == Op.NE) {
                return !a.equals(b);
            }
        }
        return Boolean.FALSE;
    }

    /** Java comparison of doubles: every comparison with NaN is false except {@code <>}. */
    private static Boolean of(Op op, double x, double y) {
        switch (op) {
            case EQ:
                return x == y;
            case NE:
                return x != y;
            case LT:
                return x < y;
            case LE:
                return x <= y;
            case GT:
                return x > y;
            default:
                return x >= y;
        }
    }

    private static Boolean of(Op op, int c) {
        switch (op) {
            case EQ:
                return c == 0;
            case NE:
                return c != 0;
            case LT:
                return c < 0;
            case LE:
                return c <= 0;
            case GT:
                return c > 0;
            default:
                return c >= 0;
        }
    }

    /** {@code a op b} for op one of {@link Values#ADD}, SUB, MUL, DIV; null for NULL, non-numbers and division by zero. */
    static Number arithmetic(char op, Object a, Object b) {
        if (!isNumber(a) || !isNumber(b)) {
            return null;
        }
        Number x = (Number) a;
        Number y = (Number) b;
        switch (promote(x, y)) {
            case 'D': {
                double l = x.doubleValue();
                double r = y.doubleValue();
                switch (op) {
                    case Values.ADD:
                        return l + r;
                    case Values.SUB:
                        return l - r;
                    case Values.MUL:
                        return l * r;
                    default:
                        return r == 0 ? null : l / r;
                }
            }
            case 'F': {
                float l = x.floatValue();
                float r = y.floatValue();
                switch (op) {
                    case Values.ADD:
                        return l + r;
                    case Values.SUB:
                        return l - r;
                    case Values.MUL:
                        return l * r;
                    default:
                        return r == 0 ? null : l / r;
                }
            }
            case 'J': {
                long l = x.longValue();
                long r = y.longValue();
                switch (op) {
                    case Values.ADD:
                        return l + r;
                    case Values.SUB:
                        return l - r;
                    case Values.MUL:
                        return l * r;
                    default:
                        return r == 0 ? null : l / r;
                }
            }
            default: {
                int l = x.intValue();
                int r = y.intValue();
                switch (op) {
                    case Values.ADD:
                        return l + r;
                    case Values.SUB:
                        return l - r;
                    case Values.MUL:
                        return l * r;
                    default:
                        return r == 0 ? null : l / r;
                }
            }
        }
    }

    /** Unary minus with Java promotion (byte and short become int); null for NULL and non-numbers. */
    static Number negate(Object v) {
        if (v instanceof Double d) {
            return -d;
        }
        if (v instanceof Float f) {
            return -f;
        }
        if (v instanceof Long l) {
            return -l;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return -((Number) v).intValue();
        }
        return null;
    }

    /** Unary plus: the number itself (byte and short promoted to int); null for NULL and non-numbers. */
    static Number plus(Object v) {
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        return isNumber(v) ? (Number) v : null;
    }
}
