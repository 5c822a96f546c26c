package io.aqueduct.engine.expression;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpression;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The node types of expression trees. */
final class Nodes {
    private Nodes() {
    }

    private static final Long ONE = 1L;
    private static final Long ZERO = 0L;

    // ================================================================== leaves

    static final class Literal extends Node {
        final Object value; // null, String, Long, BigDecimal, Boolean

        Literal(int pos, Object value) {
            super(pos);
            this.value = value;
        }

        @Override
        Object eval(MessageView m) {
            return value;
        }

        @Override
        Kind kind() {
            if (value instanceof Boolean) {
                return Kind.BOOLEAN;
            }
            if (value instanceof String) {
                return Kind.STRING;
            }
            if (value instanceof Number) {
                return Kind.NUMBER;
            }
            return Kind.ANY;
        }

        @Override
        int precedence() {
            return value instanceof Number n && Values.big(n).signum() < 0 ? P_UNARY : P_PRIMARY;
        }

        @Override
        void print(StringBuilder sb) {
            if (value == null) {
                sb.append("NULL");
            } else if (value instanceof Boolean b) {
                sb.append(b ? "TRUE" : "FALSE");
            } else if (value instanceof String s) {
                quote(sb, s);
            } else if (value instanceof Float) {
                sb.append(value).append('F'); // selector float literals stay float when parsed again
            } else {
                sb.append(value);
            }
        }

        static void quote(StringBuilder sb, String s) {
            sb.append('\'');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\'') {
                    sb.append('\'');
                }
                sb.append(c);
            }
            sb.append('\'');
        }
    }

    /** The AQ message properties an expression can name. */
    enum MessageProperty {
        PRIORITY("priority", Node.Kind.NUMBER),
        CORRID("corrid", Node.Kind.STRING),
        ENQ_TIME("enq_time", Node.Kind.TIMESTAMP),
        DELAY("delay", Node.Kind.NUMBER),
        EXPIRATION("expiration", Node.Kind.NUMBER),
        RETRY_COUNT("retry_count", Node.Kind.NUMBER),
        SENDER_NAME("sender_name", Node.Kind.STRING),
        MSGID("msgid", Node.Kind.STRING);

        final String column;
        final Node.Kind kind;

        MessageProperty(String column, Node.Kind kind) {
            this.column = column;
            this.kind = kind;
        }

        static MessageProperty lookup(String name) {
            for (MessageProperty p : values()) {
                if (p.column.equalsIgnoreCase(name)) {
                    return p;
                }
            }
            return null;
        }
    }

    static final class MessagePropertyRef extends Node {
        final MessageProperty property;
        final String display;

        MessagePropertyRef(int pos, MessageProperty property, String display) {
            super(pos);
            this.property = property;
            this.display = display;
        }

        @Override
        Object eval(MessageView m) {
            switch (property) {
                case PRIORITY:
                    return m.priority();
                case CORRID:
                    return m.correlation();
                case ENQ_TIME:
                    return m.enqueueTime();
                case DELAY:
                    return m.delay();
                case EXPIRATION:
                    return m.expiration();
                case RETRY_COUNT:
                    return m.retryCount();
                case SENDER_NAME:
                    return m.senderName();
                default:
                    return m.messageId();
            }
        }

        @Override
        Kind kind() {
            return property.kind;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(display);
        }

        @Override
        void references(Set<String> out) {
            out.add(property.column);
        }
    }

    /**
     * {@code SYSDATE} / {@code SYSTIMESTAMP} (conditions and value expressions, not selectors): the
     * current time the view gives ({@link MessageView#sysdate}), NULL when it gives none. Reads no
     * message property and not the payload.
     */
    static final class Sysdate extends Node {
        static final String SYSDATE = "SYSDATE";
        static final String SYSTIMESTAMP = "SYSTIMESTAMP";
        /** SYSDATE or SYSTIMESTAMP, as written (upper case). */
        final String spelling;

        Sysdate(int pos, String spelling) {
            super(pos);
            this.spelling = spelling;
        }

        /** The spelling when name is SYSDATE or SYSTIMESTAMP (any case), else null. */
        static String lookup(String name) {
            if (SYSDATE.equalsIgnoreCase(name)) {
                return SYSDATE;
            }
            return SYSTIMESTAMP.equalsIgnoreCase(name) ? SYSTIMESTAMP : null;
        }

        @Override
        Object eval(MessageView m) {
            return m.sysdate();
        }

        @Override
        Kind kind() {
            return Kind.TIMESTAMP;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(spelling);
        }
    }

    /** An unqualified name: a user property if the message has one, else a payload attribute. */
    static final class NameRef extends Node {
        final String name;
        final String[] path;
        final String display;

        NameRef(int pos, String name, String display) {
            super(pos);
            this.name = name;
            this.path = new String[] {name};
            this.display = display;
        }

        @Override
        Object eval(MessageView m) {
            Object v = m.userProperty(name);
            if (v != null) {
                return Values.normalize(v);
            }
            Object root = Attributes.root(m.payload());
            return root == null ? null : Attributes.resolve(root, path);
        }

        @Override
        Kind kind() {
            return Kind.ANY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(display);
        }

        @Override
        void references(Set<String> out) {
            out.add(name);
        }

        @Override
        boolean readsPayload() {
            return true;
        }
    }

    /** {@code tab.user_data}: the whole payload. */
    static final class PayloadRoot extends Node {
        final String display;

        PayloadRoot(int pos, String display) {
            super(pos);
            this.display = display;
        }

        @Override
        Object eval(MessageView m) {
            return Attributes.payloadValue(m.payload());
        }

        @Override
        Kind kind() {
            return Kind.ANY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(display);
        }

        @Override
        void references(Set<String> out) {
            out.add("user_data");
        }

        @Override
        boolean readsPayload() {
            return true;
        }
    }

    /** {@code tab.user_data.customer.country}: a payload attribute path. */
    static final class PayloadPath extends Node {
        final String[] path;
        final String display;

        PayloadPath(int pos, String[] path, String display) {
            super(pos);
            this.path = path;
            this.display = display;
        }

        @Override
        Object eval(MessageView m) {
            Object root = Attributes.root(m.payload());
            return root == null ? null : Attributes.resolve(root, path);
        }

        @Override
        Kind kind() {
            return Kind.ANY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(display);
        }

        @Override
        void references(Set<String> out) {
            out.add("user_data." + String.join(".", path));
        }

        @Override
        boolean readsPayload() {
            return true;
        }
    }

    /**
     * A JMS selector identifier: one of the header fields of {@link JmsHeaders} (exact spelling), or
     * else the user property of exactly this name (NULL when absent). Never reads the payload.
     */
    static final class SelectorName extends Node {
        final String name;
        final JmsHeaders.Header header;

        SelectorName(int pos, String name) {
            super(pos);
            this.name = name;
            this.header = JmsHeaders.Header.lookup(name);
        }

        @Override
        Object eval(MessageView m) {
            return header != null ? header.read(m) : SelectorValues.normalize(m.userPropertyExact(name));
        }

        @Override
        Kind kind() {
            return header != null ? header.kind : Kind.ANY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(name);
        }

        @Override
        void references(Set<String> out) {
            out.add(name);
        }
    }

    // ================================================================== logic

    static final class Not extends Node {
        final Node operand;

        Not(int pos, Node operand) {
            super(pos);
            this.operand = operand;
        }

        @Override
        Object eval(MessageView m) {
            return Values.not(Values.asBoolean(operand.eval(m)));
        }

        @Override
        Kind kind() {
            return Kind.BOOLEAN;
        }

        @Override
        int precedence() {
            return P_NOT;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append("NOT ");
            print(sb, operand, P_NOT);
        }

        @Override
        void references(Set<String> out) {
            operand.references(out);
        }

        @Override
        boolean readsPayload() {
            return operand.readsPayload();
        }
    }

    /** AND / OR over two or more operands, short-circuiting, three-valued. */
    static final class Junction extends Node {
        final boolean and;
        final Node[] operands;

        Junction(int pos, boolean and, Node[] operands) {
            super(pos);
            this.and = and;
            this.operands = operands;
        }

        @Override
        Object eval(MessageView m) {
            boolean unknown = false;
            for (Node n : operands) {
                Boolean b = Values.asBoolean(n.eval(m));
                if (b == null) {
                    unknown = true;
                } else if (b.booleanValue() != and) {
                    return b; // FALSE decides an AND, TRUE decides an OR
                }
            }
            return unknown ? null : Boolean.valueOf(and);
        }

        @Override
        Kind kind() {
            return Kind.BOOLEAN;
        }

        @Override
        int precedence() {
            return and ? P_AND : P_OR;
        }

        @Override
        void print(StringBuilder sb) {
            for (int i = 0; i < operands.length; i++) {
                if (i > 0) {
                    sb.append(and ? " AND " : " OR ");
                }
                print(sb, operands[i], and ? P_NOT : P_AND);
            }
        }

        @Override
        void references(Set<String> out) {
            for (Node n : operands) {
                n.references(out);
            }
        }

        @Override
        boolean readsPayload() {
            for (Node n : operands) {
                if (n.readsPayload()) {
                    return true;
                }
            }
            return false;
        }
    }

    // ================================================================== predicates

    enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        static Op of(Token.Type t) {
            switch (t) {
                case EQ:
                    return EQ;
                case NE:
                    return NE;
                case LT:
                    return LT;
                case LE:
                    return LE;
                case GT:
                    return GT;
                default:
                    return GE;
            }
        }

        Boolean apply(int c) {
            if (c == Values.UNKNOWN) {
                return null;
            }
            if (c == Values.UNORDERED) {
                return this == EQ ? Boolean.FALSE : this == NE ? Boolean.TRUE : null;
            }
            boolean r;
            switch (this) {
                case EQ:
                    r = c == 0;
                    break;
                case NE:
                    r = c != 0;
                    break;
                case LT:
                    r = c < 0;
                    break;
                case LE:
                    r = c <= 0;
                    break;
                case GT:
                    r = c > 0;
                    break;
                default:
                    r = c >= 0;
                    break;
            }
            return r ? Boolean.TRUE : Boolean.FALSE;
        }
    }

    /** Operands of predicates print at additive strength: a nested condition is parenthesized. */
    abstract static class Predicate extends Node {
        Predicate(int pos) {
            super(pos);
        }

        @Override
        Kind kind() {
            return Kind.BOOLEAN;
        }

        @Override
        int precedence() {
            return P_PREDICATE;
        }

        abstract Node[] children();

        @Override
        void references(Set<String> out) {
            for (Node n : children()) {
                if (n != null) {
                    n.references(out);
                }
            }
        }

        @Override
        boolean readsPayload() {
            for (Node n : children()) {
                if (n != null && n.readsPayload()) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class Comparison extends Predicate {
        final Op op;
        final Node left;
        final Node right;
        private final Values.Coercions leftAlt;
        private final Values.Coercions rightAlt;
        /** JMS selector semantics ({@link SelectorValues}) rather than AQ condition semantics. */
        final boolean selector;

        Comparison(int pos, Op op, Node left, Node right) {
            this(pos, op, left, right, false);
        }

        Comparison(int pos, Op op, Node left, Node right, boolean selector) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
            this.selector = selector;
            this.leftAlt = left instanceof Literal l ? Values.Coercions.of(l.value) : null;
            this.rightAlt = right instanceof Literal l ? Values.Coercions.of(l.value) : null;
        }

        @Override
        Object eval(MessageView m) {
            Object a = left.eval(m);
            if (a == null) {
                return null;
            }
            if (selector) {
                return SelectorValues.compare(op, a, right.eval(m));
            }
            return op.apply(Values.compare(a, right.eval(m), leftAlt, rightAlt));
        }

        @Override
        Node[] children() {
            return new Node[] {left, right};
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, left, P_ADD);
            sb.append(' ').append(op.symbol).append(' ');
            print(sb, right, P_ADD);
        }
    }

    static final class IsNull extends Predicate {
        final Node operand;
        final boolean negated;

        IsNull(int pos, Node operand, boolean negated) {
            super(pos);
            this.operand = operand;
            this.negated = negated;
        }

        @Override
        Object eval(MessageView m) {
            return (operand.eval(m) == null) != negated ? Boolean.TRUE : Boolean.FALSE;
        }

        @Override
        Node[] children() {
            return new Node[] {operand};
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, operand, P_ADD);
            sb.append(negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    static final class In extends Predicate {
        final Node operand;
        final Node[] items;
        final boolean negated;
        private final Values.Coercions[] alts;
        /** When every item is a string literal: the strings, for a hash lookup. */
        private final Set<String> strings;
        /** JMS selector: items are string literals and only a String operand can be found among them. */
        final boolean selector;

        In(int pos, Node operand, Node[] items, boolean negated) {
            this(pos, operand, items, negated, false);
        }

        In(int pos, Node operand, Node[] items, boolean negated, boolean selector) {
            super(pos);
            this.operand = operand;
            this.items = items;
            this.negated = negated;
            this.selector = selector;
            this.alts = new Values.Coercions[items.length];
            java.util.HashSet<String> set = new java.util.HashSet<>();
            for (int i = 0; i < items.length; i++) {
                if (items[i] instanceof Literal l) {
                    alts[i] = Values.Coercions.of(l.value);
                    if (l.value instanceof String s) {
                        set.add(s);
                        continue;
                    }
                }
                set = null;
                for (int k = i + 1; k < items.length; k++) {
                    if (items[k] instanceof Literal l2) {
                        alts[k] = Values.Coercions.of(l2.value);
                    }
                }
                break;
            }
            this.strings = set == null ? null : Set.copyOf(set);
        }

        @Override
        Object eval(MessageView m) {
            Object v = operand.eval(m);
            if (v == null) {
                return null;
            }
            if (selector) {
                // the specification: IN is (v = 'a') OR (v = 'b') ...; a non-string v equals none of them
                boolean found = v instanceof String s && strings.contains(s);
                return found != negated ? Boolean.TRUE : Boolean.FALSE;
            }
            Boolean found;
            if (strings != null && v instanceof String s) {
                found = strings.contains(s) ? Boolean.TRUE : Boolean.FALSE;
            } else {
                found = Boolean.FALSE;
                for (int i = 0; i < items.length; i++) {
                    int c = Values.compare(v, items[i].eval(m), null, alts[i]);
                    if (c == 0) {
                        found = Boolean.TRUE;
                        break;
                    }
                    if (c == Values.UNKNOWN) {
                        found = null;
                    }
                }
            }
            return negated ? Values.not(found) : found;
        }

        @Override
        Node[] children() {
            Node[] all = new Node[items.length + 1];
            all[0] = operand;
            System.arraycopy(items, 0, all, 1, items.length);
            return all;
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, operand, P_ADD);
            sb.append(negated ? " NOT IN (" : " IN (");
            for (int i = 0; i < items.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                print(sb, items[i], P_ADD);
            }
            sb.append(')');
        }
    }

    static final class Between extends Predicate {
        final Node operand;
        final Node low;
        final Node high;
        final boolean negated;
        private final Values.Coercions lowAlt;
        private final Values.Coercions highAlt;
        /** JMS selector semantics: exactly {@code v >= low AND v <= high}, NOT: {@code v < low OR v > high}. */
        final boolean selector;

        Between(int pos, Node operand, Node low, Node high, boolean negated) {
            this(pos, operand, low, high, negated, false);
        }

        Between(int pos, Node operand, Node low, Node high, boolean negated, boolean selector) {
            super(pos);
            this.operand = operand;
            this.low = low;
            this.high = high;
            this.negated = negated;
            this.selector = selector;
            this.lowAlt = low instanceof Literal l ? Values.Coercions.of(l.value) : null;
            this.highAlt = high instanceof Literal l ? Values.Coercions.of(l.value) : null;
        }

        @Override
        Object eval(MessageView m) {
            Object v = operand.eval(m);
            if (v == null) {
                return null;
            }
            if (selector) {
                Object lo = low.eval(m);
                Object hi = high.eval(m);
                if (negated) {
                    return Values.not(Values.and(Values.not(SelectorValues.compare(Op.LT, v, lo)),
                            Values.not(SelectorValues.compare(Op.GT, v, hi))));
                }
                return Values.and(SelectorValues.compare(Op.GE, v, lo), SelectorValues.compare(Op.LE, v, hi));
            }
            Boolean ge = Op.GE.apply(Values.compare(v, low.eval(m), null, lowAlt));
            Boolean le = Op.LE.apply(Values.compare(v, high.eval(m), null, highAlt));
            Boolean r = Values.and(ge, le);
            return negated ? Values.not(r) : r;
        }

        @Override
        Node[] children() {
            return new Node[] {operand, low, high};
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, operand, P_ADD);
            sb.append(negated ? " NOT BETWEEN " : " BETWEEN ");
            print(sb, low, P_ADD);
            sb.append(" AND ");
            print(sb, high, P_ADD);
        }
    }

    static final class Like extends Predicate {
        final Node operand;
        final Node pattern;
        final Node escape;
        final boolean negated;
        /** Compiled at parse time when pattern and escape are literals. */
        private final LikePattern compiled;
        /** JMS selector: a non-string operand is not LIKE anything (FALSE; NOT LIKE: TRUE). */
        final boolean selector;

        Like(int pos, Node operand, Node pattern, Node escape, boolean negated, LikePattern compiled) {
            this(pos, operand, pattern, escape, negated, compiled, false);
        }

        Like(int pos, Node operand, Node pattern, Node escape, boolean negated, LikePattern compiled,
                boolean selector) {
            super(pos);
            this.selector = selector;
            this.operand = operand;
            this.pattern = pattern;
            this.escape = escape;
            this.negated = negated;
            this.compiled = compiled;
        }

        @Override
        Object eval(MessageView m) {
            String s;
            if (selector) {
                Object v = operand.eval(m);
                if (v == null) {
                    return null;
                }
                if (!(v instanceof String)) {
                    return negated ? Boolean.TRUE : Boolean.FALSE;
                }
                s = (String) v;
            } else {
                s = Values.asString(operand.eval(m));
            }
            if (s == null) {
                return null;
            }
            LikePattern p = compiled;
            if (p == null) {
                String pat = Values.asString(pattern.eval(m));
                if (pat == null) {
                    return null;
                }
                String esc = null;
                if (escape != null) {
                    esc = Values.asString(escape.eval(m));
                    if (esc == null) {
                        return null;
                    }
                }
                try {
                    p = LikePattern.compile(pat, esc);
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
            return p.matches(s) != negated ? Boolean.TRUE : Boolean.FALSE;
        }

        @Override
        Node[] children() {
            return new Node[] {operand, pattern, escape};
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, operand, P_ADD);
            sb.append(negated ? " NOT LIKE " : " LIKE ");
            print(sb, pattern, P_ADD);
            if (escape != null) {
                sb.append(" ESCAPE ");
                print(sb, escape, P_ADD);
            }
        }
    }

    // ================================================================== arithmetic

    /** A left-associative chain of + - || (additive level) or * / (multiplicative level). */
    static final class Chain extends Node {
        static final char CONCAT = '|';
        final Node[] operands;
        final char[] ops;
        final int level;
        /** JMS selector arithmetic ({@link SelectorValues#arithmetic}); no ||. */
        final boolean selector;

        Chain(int pos, Node[] operands, char[] ops, int level) {
            this(pos, operands, ops, level, false);
        }

        Chain(int pos, Node[] operands, char[] ops, int level, boolean selector) {
            super(pos);
            this.operands = operands;
            this.ops = ops;
            this.level = level;
            this.selector = selector;
        }

        @Override
        Object eval(MessageView m) {
            Object acc = operands[0].eval(m);
            for (int i = 0; i < ops.length; i++) {
                Object v = operands[i + 1].eval(m);
                if (selector) {
                    acc = SelectorValues.arithmetic(ops[i], acc, v);
                    continue;
                }
                acc = ops[i] == CONCAT ? concat(acc, v) : Values.arithmetic(ops[i], acc, v);
            }
            return acc;
        }

        /** SQL ||: NULL counts as the empty string; NULL only when both are NULL. */
        private static Object concat(Object a, Object b) {
            if (a == null && b == null) {
                return null;
            }
            String x = a == null ? "" : Values.asString(a);
            String y = b == null ? "" : Values.asString(b);
            return x == null || y == null ? null : x.concat(y);
        }

        @Override
        Kind kind() {
            if (selector || level != P_ADD) {
                return ops[ops.length - 1] == CONCAT ? Kind.STRING : Kind.NUMBER;
            }
            Kind k = operands[0].kind();
            for (int i = 0; i < ops.length; i++) {
                k = additiveKind(k, ops[i], operands[i + 1].kind());
            }
            return k;
        }

        /**
         * The kind of {@code left op right} at the additive level of a condition or value
         * expression, with Oracle date arithmetic ({@link Values#dateArithmetic}). A date operand
         * whose other operand may be a date too (ANY) gives a date or NULL, or a number or a date
         * (VALUE); {@code date + date} and {@code number - date} are always NULL (VALUE).
         */
        static Kind additiveKind(Kind left, char op, Kind right) {
            if (op == CONCAT) {
                return Kind.STRING;
            }
            boolean leftDate = left == Kind.TIMESTAMP;
            boolean rightDate = right == Kind.TIMESTAMP;
            boolean leftOpen = left == Kind.ANY || left == Kind.VALUE;
            boolean rightOpen = right == Kind.ANY || right == Kind.VALUE;
            if (op == Values.ADD) {
                if (leftDate && rightDate) {
                    return Kind.VALUE; // NULL
                }
                if (leftDate || rightDate) {
                    return Kind.TIMESTAMP; // a date, or NULL
                }
                return leftOpen || rightOpen ? Kind.VALUE : Kind.NUMBER;
            }
            if (leftDate) {
                return rightDate ? Kind.NUMBER : rightOpen ? Kind.VALUE : Kind.TIMESTAMP;
            }
            if (rightDate) {
                return Kind.NUMBER; // date - date, or NULL (number - date)
            }
            return leftOpen ? Kind.VALUE : Kind.NUMBER;
        }

        @Override
        int precedence() {
            return level;
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, operands[0], level);
            for (int i = 0; i < ops.length; i++) {
                sb.append(' ').append(ops[i] == CONCAT ? "||" : String.valueOf(ops[i])).append(' ');
                print(sb, operands[i + 1], level + 1);
            }
        }

        @Override
        void references(Set<String> out) {
            for (Node n : operands) {
                n.references(out);
            }
        }

        @Override
        boolean readsPayload() {
            for (Node n : operands) {
                if (n.readsPayload()) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class Negate extends Node {
        final Node operand;
        /** JMS selector unary minus ({@link SelectorValues#negate}). */
        final boolean selector;

        Negate(int pos, Node operand) {
            this(pos, operand, false);
        }

        Negate(int pos, Node operand, boolean selector) {
            super(pos);
            this.operand = operand;
            this.selector = selector;
        }

        @Override
        Object eval(MessageView m) {
            return selector ? SelectorValues.negate(operand.eval(m)) : Values.negate(operand.eval(m));
        }

        @Override
        Kind kind() {
            return Kind.NUMBER;
        }

        @Override
        int precedence() {
            return P_UNARY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append('-');
            int at = sb.length();
            print(sb, operand, P_UNARY);
            if (at < sb.length() && sb.charAt(at) == '-') {
                sb.insert(at, ' '); // "- -x", never the comment "--"
            }
        }

        @Override
        void references(Set<String> out) {
            operand.references(out);
        }

        @Override
        boolean readsPayload() {
            return operand.readsPayload();
        }
    }

    /** JMS selector unary plus: the operand when it is a number (byte and short promoted to int), else NULL. */
    static final class UnaryPlus extends Node {
        final Node operand;

        UnaryPlus(int pos, Node operand) {
            super(pos);
            this.operand = operand;
        }

        @Override
        Object eval(MessageView m) {
            return SelectorValues.plus(operand.eval(m));
        }

        @Override
        Kind kind() {
            return Kind.NUMBER;
        }

        @Override
        int precedence() {
            return P_UNARY;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append('+');
            print(sb, operand, P_UNARY);
        }

        @Override
        void references(Set<String> out) {
            operand.references(out);
        }
    }

    // ================================================================== functions

    enum Function {
        UPPER(1, 1, Node.Kind.STRING),
        LOWER(1, 1, Node.Kind.STRING),
        LENGTH(1, 1, Node.Kind.NUMBER),
        SUBSTR(2, 3, Node.Kind.STRING),
        TRIM(1, 1, Node.Kind.STRING),
        NVL(2, 2, Node.Kind.ANY),
        ABS(1, 1, Node.Kind.NUMBER),
        TRUNC(1, 2, Node.Kind.VALUE),
        ROUND(1, 2, Node.Kind.NUMBER);

        final int minArgs;
        final int maxArgs;
        final Node.Kind kind;

        Function(int minArgs, int maxArgs, Node.Kind kind) {
            this.minArgs = minArgs;
            this.maxArgs = maxArgs;
            this.kind = kind;
        }

        static Function lookup(String name) {
            for (Function f : values()) {
                if (f.name().equalsIgnoreCase(name)) {
                    return f;
                }
            }
            return null;
        }
    }

    abstract static class Call extends Node {
        final Node[] args;

        Call(int pos, Node[] args) {
            super(pos);
            this.args = args;
        }

        @Override
        void references(Set<String> out) {
            for (Node n : args) {
                n.references(out);
            }
        }

        @Override
        boolean readsPayload() {
            for (Node n : args) {
                if (n.readsPayload()) {
                    return true;
                }
            }
            return false;
        }
    }

    static final class FunctionCall extends Call {
        final Function function;

        FunctionCall(int pos, Function function, Node[] args) {
            super(pos, args);
            this.function = function;
        }

        @Override
        Object eval(MessageView m) {
            Object a = args[0].eval(m);
            switch (function) {
                case UPPER: {
                    String s = Values.asString(a);
                    return s == null ? null : s.toUpperCase(Locale.ROOT);
                }
                case LOWER: {
                    String s = Values.asString(a);
                    return s == null ? null : s.toLowerCase(Locale.ROOT);
                }
                case LENGTH: {
                    String s = Values.asString(a);
                    return s == null ? null : Long.valueOf(s.length());
                }
                case TRIM: {
                    String s = Values.asString(a);
                    return s == null ? null : s.strip();
                }
                case NVL:
                    return a != null ? a : args[1].eval(m);
                case ABS:
                    return abs(Values.asNumber(a));
                case TRUNC:
                    if (a instanceof Instant i) {
                        if (args.length == 1) {
                            return DateUnit.DAY.truncate(i);
                        }
                        DateUnit unit = DateUnit.lookup(Values.asString(args[1].eval(m)));
                        return unit == null ? null : unit.truncate(i);
                    }
                    return roundNumber(m, Values.asNumber(a), RoundingMode.DOWN);
                case ROUND:
                    return roundNumber(m, Values.asNumber(a), RoundingMode.HALF_UP);
                default:
                    return substr(m, Values.asString(a));
            }
        }

        private static Number abs(Number n) {
            if (n == null) {
                return null;
            }
            if (Values.isIntegral(n)) {
                long l = n.longValue();
                return l == Long.MIN_VALUE ? BigDecimal.valueOf(l).negate() : Long.valueOf(Math.abs(l));
            }
            if (n instanceof Double || n instanceof Float) {
                return Math.abs(n.doubleValue());
            }
            BigDecimal bd = Values.big(n);
            return bd == null ? null : bd.abs();
        }

        /**
         * Oracle TRUNC / ROUND of a number to {@code args[1]} digits after the point (0 when not
         * given; negative: before the point; a fraction counts as its integer part). Integers stay
         * Long (BigDecimal when out of range), doubles stay Double, the rest is BigDecimal.
         */
        private Number roundNumber(MessageView m, Number n, RoundingMode mode) {
            if (n == null) {
                return null;
            }
            long digits = 0;
            if (args.length > 1) {
                Number d = Values.asNumber(args[1].eval(m));
                BigDecimal bd = d == null ? null : Values.big(d);
                if (bd == null) {
                    return null;
                }
                bd = bd.setScale(0, RoundingMode.DOWN);
                digits = bd.compareTo(BigDecimal.valueOf(1000)) > 0 ? 1000
                        : bd.compareTo(BigDecimal.valueOf(-1000)) < 0 ? -1000 : bd.longValue();
            }
            if (Values.isIntegral(n) && digits >= 0) {
                return n instanceof Long ? n : Long.valueOf(n.longValue());
            }
            BigDecimal bd = Values.big(n);
            if (bd == null) {
                return n instanceof Double || n instanceof Float ? n : null; // NaN, infinities
            }
            BigDecimal r;
            if (digits >= bd.scale()) {
                r = bd; // nothing after that digit
            } else if (digits < -(bd.precision() - bd.scale()) - 1) {
                r = BigDecimal.ZERO; // every digit is below the one kept
            } else {
                r = bd.setScale((int) digits, mode);
                if (r.scale() < 0) {
                    r = r.setScale(0);
                }
            }
            if (n instanceof Double || n instanceof Float) {
                return r.doubleValue();
            }
            if (Values.isIntegral(n)) {
                return r.toBigInteger().bitLength() < 64 ? (Number) r.longValueExact() : r;
            }
            return r;
        }

        /** Oracle SUBSTR: 1-based, 0 counts as 1, negative counts from the end; NULL when out of range. */
        private Object substr(MessageView m, String s) {
            if (s == null) {
                return null;
            }
            Number p = Values.asNumber(args[1].eval(m));
            if (p == null) {
                return null;
            }
            long pos = p.longValue();
            int n = s.length();
            long start = pos > 0 ? pos - 1 : pos == 0 ? 0 : n + pos;
            if (start < 0 || start >= n) {
                return null;
            }
            long end = n;
            if (args.length > 2) {
                Number l = Values.asNumber(args[2].eval(m));
                if (l == null || l.longValue() < 1) {
                    return null;
                }
                end = Math.min(n, start + l.longValue());
            }
            return s.substring((int) start, (int) end);
        }

        @Override
        Kind kind() {
            if (function == Function.TRUNC) {
                Kind k = args[0].kind();
                return k == Kind.TIMESTAMP ? Kind.TIMESTAMP : k == Kind.ANY || k == Kind.VALUE ? Kind.VALUE : Kind.NUMBER;
            }
            return function.kind;
        }

        @Override
        void print(StringBuilder sb) {
            sb.append(function.name()).append('(');
            for (int i = 0; i < args.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                args[i].print(sb);
            }
            sb.append(')');
        }
    }

    /** The units of {@code TRUNC(date, format)}, by their Oracle format models; UTC. */
    enum DateUnit {
        YEAR("YYYY", "SYYYY", "YYY", "YY", "Y", "YEAR", "SYEAR"),
        QUARTER("Q"),
        MONTH("MM", "MON", "MONTH", "RM"),
        ISO_WEEK("IW"),
        DAY("DD", "DDD", "J"),
        HOUR("HH", "HH12", "HH24"),
        MINUTE("MI");

        final String[] formats;

        DateUnit(String... formats) {
            this.formats = formats;
        }

        /** The unit a format names (case-insensitive, blanks ignored), or null. */
        static DateUnit lookup(String format) {
            if (format == null) {
                return null;
            }
            String f = format.strip();
            for (DateUnit u : values()) {
                for (String s : u.formats) {
                    if (s.equalsIgnoreCase(f)) {
                        return u;
                    }
                }
            }
            return null;
        }

        /** The start (UTC) of the unit holding the instant; null beyond the range of dates. */
        Instant truncate(Instant i) {
            try {
                LocalDateTime t = LocalDateTime.ofInstant(i, ZoneOffset.UTC);
                LocalDate d = t.toLocalDate();
                switch (this) {
                    case YEAR:
                        t = d.withDayOfYear(1).atStartOfDay();
                        break;
                    case QUARTER:
                        t = d.withDayOfMonth(1).withMonth((d.getMonthValue() - 1) / 3 * 3 + 1).atStartOfDay();
                        break;
                    case MONTH:
                        t = d.withDayOfMonth(1).atStartOfDay();
                        break;
                    case ISO_WEEK:
                        t = d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).atStartOfDay();
                        break;
                    case DAY:
                        t = d.atStartOfDay();
                        break;
                    case HOUR:
                        t = t.truncatedTo(ChronoUnit.HOURS);
                        break;
                    default:
                        t = t.truncatedTo(ChronoUnit.MINUTES);
                        break;
                }
                return t.toInstant(ZoneOffset.UTC);
            } catch (DateTimeException e) {
                return null;
            }
        }
    }

    enum XPathFunction {
        EXTRACT("extract", Node.Kind.XML),
        EXISTS_NODE("existsNode", Node.Kind.NUMBER),
        EXTRACT_VALUE("extractValue", Node.Kind.STRING);

        final String spelling;
        final Node.Kind kind;

        XPathFunction(String spelling, Node.Kind kind) {
            this.spelling = spelling;
            this.kind = kind;
        }

        static XPathFunction lookup(String name) {
            for (XPathFunction f : values()) {
                if (f.spelling.equalsIgnoreCase(name)) {
                    return f;
                }
            }
            return null;
        }
    }

    /**
     * {@code extract(xml, xpath)}, {@code existsNode(xml, xpath)}, {@code extractValue(xml, xpath)}
     * and their method forms {@code xml.extract(xpath)}. Not XML (or not well-formed): NULL.
     */
    static final class XPathCall extends Call {
        final XPathFunction function;
        final boolean methodForm;
        private final CompiledXPath compiled;

        XPathCall(int pos, XPathFunction function, Node target, Node xpath, CompiledXPath compiled, boolean methodForm) {
            super(pos, new Node[] {target, xpath});
            this.function = function;
            this.compiled = compiled;
            this.methodForm = methodForm;
        }

        @Override
        Object eval(MessageView m) {
            Object context = context(m);
            if (context == null) {
                return null;
            }
            try {
                XPathExpression expr;
                if (compiled != null) {
                    expr = compiled.get();
                } else {
                    String text = Values.asString(args[1].eval(m));
                    if (text == null) {
                        return null;
                    }
                    expr = XmlSupport.compile(text);
                }
                List<org.w3c.dom.Node> found = new ArrayList<>(2);
                if (context instanceof XmlFragment x) {
                    for (org.w3c.dom.Node n : x.nodes) {
                        collect(expr, n, found);
                    }
                } else {
                    collect(expr, (org.w3c.dom.Node) context, found);
                }
                switch (function) {
                    case EXISTS_NODE:
                        return found.isEmpty() ? ZERO : ONE;
                    case EXTRACT:
                        return found.isEmpty() ? null : new XmlFragment(found);
                    default:
                        return found.isEmpty() ? null : found.get(0).getTextContent();
                }
            } catch (javax.xml.xpath.XPathExpressionException | RuntimeException e) {
                return null; // an XPath that does not give nodes for this document
            }
        }

        private static void collect(XPathExpression expr, org.w3c.dom.Node context, List<org.w3c.dom.Node> out)
                throws javax.xml.xpath.XPathExpressionException {
            NodeList nl = (NodeList) expr.evaluate(context, XPathConstants.NODESET);
            for (int i = 0, n = nl.getLength(); i < n; i++) {
                out.add(nl.item(i));
            }
        }

        /** The XML to search: the payload document, a fragment, a DOM node or XML text. */
        private Object context(MessageView m) {
            Node target = args[0];
            if (target instanceof PayloadRoot) {
                PayloadView p = m.payload();
                if (p.type() == io.aqueduct.api.PayloadType.XML) {
                    return p.xml();
                }
            }
            Object v = target.eval(m);
            if (v instanceof XmlFragment || v instanceof org.w3c.dom.Node) {
                return v;
            }
            if (v instanceof String s) {
                Document d = XmlSupport.parse(s);
                return d;
            }
            return null;
        }

        @Override
        Kind kind() {
            return function.kind;
        }

        @Override
        void print(StringBuilder sb) {
            if (methodForm) {
                print(sb, args[0], P_PRIMARY);
                sb.append('.').append(function.spelling).append('(');
                args[1].print(sb);
                sb.append(')');
            } else {
                sb.append(function.spelling).append('(');
                args[0].print(sb);
                sb.append(", ");
                args[1].print(sb);
                sb.append(')');
            }
        }
    }

    enum XmlMethod {
        GET_STRING_VAL("getStringVal", Node.Kind.STRING),
        GET_CLOB_VAL("getClobVal", Node.Kind.STRING),
        GET_NUMBER_VAL("getNumberVal", Node.Kind.NUMBER);

        final String spelling;
        final Node.Kind kind;

        XmlMethod(String spelling, Node.Kind kind) {
            this.spelling = spelling;
            this.kind = kind;
        }

        static XmlMethod lookup(String name) {
            for (XmlMethod x : values()) {
                if (x.spelling.equalsIgnoreCase(name)) {
                    return x;
                }
            }
            return null;
        }
    }

    /** {@code .getStringVal()}, {@code .getClobVal()}, {@code .getNumberVal()} on an XMLType value. */
    static final class XmlMethodCall extends Call {
        final XmlMethod method;

        XmlMethodCall(int pos, XmlMethod method, Node target) {
            super(pos, new Node[] {target});
            this.method = method;
        }

        @Override
        Object eval(MessageView m) {
            String s = Values.asString(args[0].eval(m));
            if (s == null) {
                return null;
            }
            return method == XmlMethod.GET_NUMBER_VAL ? Values.parseNumber(s) : s;
        }

        @Override
        Kind kind() {
            return method.kind;
        }

        @Override
        void print(StringBuilder sb) {
            print(sb, args[0], P_PRIMARY);
            sb.append('.').append(method.spelling).append("()");
        }
    }
}
