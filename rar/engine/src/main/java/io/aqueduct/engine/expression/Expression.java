package io.aqueduct.engine.expression;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * A parsed dequeue condition, subscriber rule or message selector: Aqueduct's one expression
 * language, SQL-WHERE-like, evaluated in Java (never SQL) against a {@link MessageView}.
 *
 * <p>Parse once with {@link #parse(String)}, evaluate many times with {@link #test(MessageView)}.
 * An Expression is immutable and may be shared between threads.
 *
 * <h2>Language</h2>
 * <ul>
 *   <li>{@code OR}, {@code AND}, {@code NOT} (that precedence), parentheses; keywords are case-insensitive.</li>
 *   <li>Comparisons {@code = != <> ^= < <= > >=}; {@code [NOT] IN (...)}; {@code [NOT] BETWEEN a AND b};
 *       {@code [NOT] LIKE pattern [ESCAPE 'c']} ({@code %}, {@code _}); {@code IS [NOT] NULL}.</li>
 *   <li>Arithmetic {@code + - * /}, unary minus, string concatenation {@code ||}.</li>
 *   <li>Literals: {@code 'O''Brien'}, {@code 42}, {@code 1.5}, {@code 2E3}, {@code TRUE}, {@code FALSE}, {@code NULL}.</li>
 *   <li>Message properties {@code priority, corrid, enq_time, delay, expiration, retry_count,
 *       sender_name, msgid}, optionally qualified {@code tab.priority}.</li>
 *   <li>Payload: {@code tab.user_data} (the whole payload), {@code tab.user_data.customer.country}
 *       or {@code user_data.customer.country} (JSON members, Java getters/fields, XML child
 *       elements); {@code customer.country} (a path whose first name is not a property).</li>
 *   <li>An unqualified name ({@code region}) is a message property if it names one, else the
 *       user property of that name if the message has it, else a payload attribute.</li>
 *   <li>XMLType: {@code extract(xml, xpath)}, {@code existsNode(xml, xpath)},
 *       {@code extractValue(xml, xpath)}, the method forms {@code tab.user_data.extract(xpath)},
 *       and {@code .getStringVal()}, {@code .getClobVal()}, {@code .getNumberVal()}.</li>
 *   <li>Functions {@code UPPER, LOWER, LENGTH, SUBSTR, TRIM, NVL, ABS}; {@code TRUNC(number[, digits])},
 *       {@code ROUND(number[, digits])}.</li>
 *   <li>{@code SYSDATE} (or {@code SYSTIMESTAMP}): the current time the view gives
 *       ({@link MessageView#sysdate}), NULL when it gives none; an unquoted {@code SYSDATE} is never
 *       a user property. Oracle date arithmetic on dates (Instants: {@code enq_time}, SYSDATE, date
 *       user properties): {@code date + n}, {@code n + date}, {@code date - n} move by n days
 *       ({@code SYSDATE + 1/24} is an hour later; fractions to the millisecond, rounded half up),
 *       {@code date - date} is the difference in days (a BigDecimal); other operators on a date, and
 *       {@code date + date}, give NULL. {@code TRUNC(date[, format])}: the start (UTC) of the day,
 *       or of the unit a format names ({@code 'YYYY' 'Q' 'MM' 'IW' 'DD' 'HH' 'MI'} and their Oracle
 *       synonyms). Not in selectors.</li>
 * </ul>
 *
 * <h2>Semantics</h2>
 * Three-valued logic as in SQL: a comparison with NULL is unknown and {@link #test} is true only
 * for TRUE. A comparison that cannot apply to a message (a missing attribute, a value of another
 * type, a payload that is not JSON / XML / an object) is unknown for that message, never an
 * exception. Numbers compare numerically, strings as strings, timestamps with timestamps (or ISO
 * text); a number against a string compares numerically when the string is a number, else unknown.
 * Division by zero and overflow give NULL.
 *
 * <p>JMS message selectors ({@link #parseSelector}) are parsed by the same parser in selector
 * mode, with the stricter syntax and semantics of Jakarta Messaging.
 */
public final class Expression {
    private static final String CONDITION = "Condition";
    private static final String EXPRESSION = "Expression";
    private static final String SELECTOR = "Selector";

    private final String text;
    private final Node root;
    private final boolean condition;
    private final boolean selector;
    private final String normalized;
    private final Set<String> references;
    private final boolean readsPayload;

    private Expression(String text, Node root, boolean condition) {
        this(text, root, condition, false);
    }

    private Expression(String text, Node root, boolean condition, boolean selector) {
        this.text = text;
        this.root = root;
        this.condition = condition;
        this.selector = selector;
        this.normalized = root.toString();
        Set<String> refs = new TreeSet<>();
        root.references(refs);
        this.references = Collections.unmodifiableSet(refs);
        this.readsPayload = root.readsPayload();
    }

    /**
     * Parses a condition (dequeue condition, subscriber rule, selector).
     *
     * @throws ExpressionSyntaxException AQ error 25448 (an {@link io.aqueduct.api.AqException}) when
     *     the text is null, blank or malformed; the message gives the 1-based position and what
     *     was expected there
     */
    public static Expression parse(String text) {
        return new Expression(text, Parser.parse(text, CONDITION, true), true);
    }

    /**
     * Parses a JMS message selector (Jakarta Messaging 3.1, section 3.8.1.1 and the
     * {@code jakarta.jms.Message} javadoc) into a condition over the same {@link MessageView}.
     * Null, empty or blank text means no selector: the result is TRUE for every message.
     *
     * <p>Differences from {@link #parse} conditions:
     * <ul>
     *   <li>Identifiers are case-sensitive Java identifiers; {@code NULL TRUE FALSE NOT AND OR
     *       BETWEEN LIKE IN IS ESCAPE} are (case-insensitive) keywords. No dotted or quoted names,
     *       functions, methods, payload references, {@code != ^= ||} or comments.</li>
     *   <li>An identifier is a header field ({@code JMSDeliveryMode, JMSPriority, JMSMessageID,
     *       JMSTimestamp, JMSCorrelationID, JMSType}, mapped as {@link JmsHeaders} describes) or
     *       else the user property of exactly that name ({@link MessageView#userPropertyExact});
     *       absent is NULL.</li>
     *   <li>Literals: {@code 'it''s'}; Java integer literals (long: {@code 57}, {@code -957},
     *       {@code 0x1F}, {@code 017}, {@code 0b101}, {@code 1_000L}); Java floating literals
     *       ({@code 7E3}, {@code -57.9E2}, {@code 7.}, {@code .5}, {@code 1.5F}); {@code TRUE},
     *       {@code FALSE}. {@code NULL} only in {@code IS [NOT] NULL}.</li>
     *   <li>No conversions between types ({@link SelectorValues}): comparing values of different
     *       types is FALSE; strings and booleans compare by {@code =} and {@code <>} only; an
     *       arithmetic operand that is not a number gives NULL; Java numeric promotion.</li>
     *   <li>{@code x [NOT] BETWEEN a AND b} is {@code x >= a AND x <= b} (NOT: {@code x < a OR x > b});
     *       {@code id [NOT] IN ('a', ...)} is {@code [NOT] (id = 'a' OR ...)}; {@code id [NOT] LIKE
     *       'pattern' [ESCAPE 'c']} is FALSE (NOT LIKE: TRUE) for a non-string value; any of them
     *       is unknown when the identifier is NULL.</li>
     * </ul>
     *
     * @throws ExpressionSyntaxException AQ error 25448 when malformed (the JMS layer reports it as
     *     {@code InvalidSelectorException}); the message gives the 1-based position
     */
    public static Expression parseSelector(String text) {
        if (text == null || text.isBlank()) {
            return new Expression(text, new Nodes.Literal(0, Boolean.TRUE), true, true);
        }
        return new Expression(text, Parser.parse(text, SELECTOR, true, true), true, true);
    }

    /**
     * Parses a value expression (a transformation attribute such as
     * {@code source.user_data.orderno}); evaluate it with {@link #value(MessageView)}.
     *
     * @throws ExpressionSyntaxException AQ error 25448 when malformed
     */
    public static Expression parseValue(String text) {
        return new Expression(text, Parser.parse(text, EXPRESSION, false), false);
    }

    /** True only when the expression is TRUE for the message (FALSE and unknown are false). */
    public boolean test(MessageView message) {
        return Boolean.TRUE.equals(root.eval(message));
    }

    /** TRUE, FALSE, or null for unknown (SQL three-valued logic); null too for a non-boolean value. */
    public Boolean evaluate(MessageView message) {
        return root.eval(message) instanceof Boolean b ? b : null;
    }

    /**
     * The value for a message: String, Number (Long, Integer, BigDecimal, Double), Boolean,
     * Instant, another payload value (a JSON object, a Java object) or null; XMLType values are
     * given as their XML text.
     */
    public Object value(MessageView message) {
        Object v = root.eval(message);
        return v instanceof XmlFragment x ? x.stringValue() : v;
    }

    /** The text as given. */
    public String text() {
        return text;
    }

    /** Whether this was parsed as a condition ({@link #parse}) rather than a value ({@link #parseValue}). */
    public boolean isCondition() {
        return condition;
    }

    /** Whether this is a JMS message selector ({@link #parseSelector}). */
    public boolean isSelector() {
        return selector;
    }

    /**
     * What the expression reads, sorted: message property names ({@code priority}), unqualified
     * names (user properties or payload attributes, {@code region}), payload paths
     * ({@code user_data.customer.country}) and {@code user_data} for the whole payload.
     */
    public Set<String> referencedProperties() {
        return references;
    }

    /** Whether evaluating may read the payload (if not, the engine need not decode it). */
    public boolean readsPayload() {
        return readsPayload;
    }

    /** The normalized form: keywords upper case, one space around operators, minimal parentheses. */
    @Override
    public String toString() {
        return normalized;
    }

    /** Equal when the normalized forms (and kinds) are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Expression e && e.condition == condition && e.selector == selector
                && e.normalized.equals(normalized);
    }

    @Override
    public int hashCode() {
        return normalized.hashCode() * 31 + (condition ? 1 : 0) + (selector ? 2 : 0);
    }
}
