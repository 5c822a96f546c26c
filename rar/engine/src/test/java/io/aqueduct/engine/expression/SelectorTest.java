package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** JMS message selectors (Jakarta Messaging 3.1, 3.8.1) parsed and evaluated by the one expression language. */
class SelectorTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00.123Z");

    /** AQ priority 5 is JMS priority 4. */
    private static final MessageView M = MessageSnapshot.builder()
            .priority(5)
            .correlation("RUSH")
            .enqueueTime(T0)
            .messageId("4A3B")
            .senderName("OE")
            .userProperty("JMSDeliveryMode", "PERSISTENT")
            .userProperty("JMSType", "car")
            .userProperty("color", "blue")
            .userProperty("weight", 3000)
            .userProperty("region", "WEST")
            .userProperty("byteP", (byte) 1)
            .userProperty("shortP", (short) 2)
            .userProperty("intP", 3)
            .userProperty("longP", 4L)
            .userProperty("floatP", 1.5f)
            .userProperty("doubleP", 2.5d)
            .userProperty("flag", Boolean.TRUE)
            .userProperty("off", Boolean.FALSE)
            .userProperty("NumberOfOrders", "2")
            .userProperty("name", "O'Brien")
            .userProperty("path", "100%_done")
            .userProperty("under", "_foo")
            .userProperty("phone", "12993")
            .userProperty("big", new BigDecimal("12.5"))
            .userProperty("ch", 'x')
            .userProperty("maxInt", Integer.MAX_VALUE)
            .userProperty("$dollar", "yes")
            .userProperty("Ünïcode_1", "u")
            .build();

    private static Boolean eval(String selector) {
        return Expression.parseSelector(selector).evaluate(M);
    }

    private static boolean selects(String selector) {
        return Expression.parseSelector(selector).test(M);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // the specification's example
        "JMSType = 'car' AND color = 'blue' AND weight > 2500 | true",
        // comparisons on numbers of every property type, exact against approximate
        "weight = 3000 | true",
        "weight <> 3000 | false",
        "weight < 3001 | true",
        "weight <= 3000 | true",
        "weight > 3000 | false",
        "weight >= 3000 | true",
        "byteP = 1 | true",
        "shortP = 2 | true",
        "intP = 3 | true",
        "longP = 4 | true",
        "floatP = 1.5 | true",
        "doubleP = 2.5 | true",
        "intP = 3.0 | true",
        "longP < 4.5 | true",
        "floatP > byteP | true",
        "shortP * 2 = longP | true",
        "big = 12.5 | true",
        "3000 = weight | true",
        // strings: = and <> only, exact
        "color = 'blue' | true",
        "color = 'BLUE' | false",
        "color <> 'red' | true",
        "name = 'O''Brien' | true",
        "ch = 'x' | true",
        "$dollar = 'yes' | true",
        "Ünïcode_1 = 'u' | true",
        // booleans
        "flag = TRUE | true",
        "flag = true | true",
        "flag <> FALSE | true",
        "off = FALSE | true",
        "flag | true",
        "off | false",
        "NOT off | true",
        "flag AND NOT off | true",
        "TRUE | true",
        "FALSE | false",
        // types do not convert: a string is not a number, a boolean not a string (false, not unknown)
        "NumberOfOrders > 1 | false",
        "NumberOfOrders = 2 | false",
        "NumberOfOrders <> 2 | false",
        "NOT NumberOfOrders = 2 | true",
        "NumberOfOrders = '2' | true",
        "flag = 'TRUE' | false",
        "flag = 1 | false",
        "weight = '3000' | false",
        "color > 1 | false",
        // arithmetic with Java promotion; non-numbers and division by zero are NULL
        "weight + 500 = 3500 | true",
        "weight - 500 * 2 = 2000 | true",
        "(weight - 500) * 2 = 5000 | true",
        "weight / 7 = 428 | true",
        "weight / 7.0 > 428.5 | true",
        "-weight = -3000 | true",
        "+weight = 3000 | true",
        "- -weight = 3000 | true",
        "-(-3000) = weight | true",
        "maxInt + intP < 0 | true",
        "maxInt + 1 > 0 | true",
        "NumberOfOrders + 1 = 3 | false",
        "NOT (NumberOfOrders + 1 = 3) | false",
        "weight / 0 = 0 | false",
        "NOT weight / 0 = 0 | false",
        "weight / 0.0 > 0 | false",
        "NOT weight / 0.0 > 0 | false",
        "-color = 1 | false",
        // BETWEEN
        "weight BETWEEN 2500 AND 3500 | true",
        "weight BETWEEN 3000 AND 3000 | true",
        "weight BETWEEN 3001 AND 3500 | false",
        "weight NOT BETWEEN 2500 AND 3500 | false",
        "weight NOT BETWEEN 3001 AND 3500 | true",
        "doubleP BETWEEN 2 AND 3 | true",
        "weight BETWEEN intP * 1000 AND longP * 1000 | true",
        "NumberOfOrders BETWEEN 1 AND 3 | false",
        "NumberOfOrders NOT BETWEEN 1 AND 3 | false",
        "missing BETWEEN 1 AND 3 | false",
        "missing NOT BETWEEN 1 AND 3 | false",
        // IN
        "color IN ('red', 'blue') | true",
        "color IN ('red', 'green') | false",
        "color NOT IN ('red', 'green') | true",
        "color NOT IN ('red', 'blue') | false",
        "name IN ('O''Brien') | true",
        "weight IN ('3000') | false",
        "weight NOT IN ('3000') | true",
        "missing IN ('a') | false",
        "missing NOT IN ('a') | false",
        // LIKE
        "phone LIKE '12%3' | true",
        "phone LIKE '12%4' | false",
        "phone NOT LIKE '12%3' | false",
        "color LIKE 'bl_e' | true",
        "color LIKE 'b_e' | false",
        "color LIKE '%' | true",
        "under LIKE '\\_%' ESCAPE '\\' | true",
        "color LIKE '\\_%' ESCAPE '\\' | false",
        "path LIKE '100!%!_done' ESCAPE '!' | true",
        "path LIKE '100%' | true",
        "path LIKE '100!%' ESCAPE '!' | false",
        "name LIKE 'O''%' | true",
        "color LIKE 'BLUE' | false",
        "weight LIKE '3000' | false",
        "weight NOT LIKE '3000' | true",
        "missing LIKE '%' | false",
        "missing NOT LIKE '%' | false",
        // IS NULL
        "missing IS NULL | true",
        "missing IS NOT NULL | false",
        "color IS NULL | false",
        "color IS NOT NULL | true",
        // keywords are case-insensitive, identifiers are not
        "color in ('blue') and weight between 1 and 5000 or false | true",
        "Color = 'blue' | false",
        "Color IS NULL | true",
        "COLOR IS NULL | true",
        "not (color Like 'b%') | false",
        "weight Is Not Null | true",
        // precedence: NOT > AND > OR, arithmetic * before +
        "FALSE AND FALSE OR TRUE | true",
        "TRUE OR FALSE AND FALSE | true",
        "NOT FALSE AND FALSE | false",
        "NOT (FALSE AND FALSE) | true",
        "1 + 2 * 3 = 7 | true",
        "(1 + 2) * 3 = 9 | true",
        "10 - 4 - 3 = 3 | true",
        "24 / 4 / 2 = 3 | true",
        // literals: Java integer and floating-point literal syntax
        "57 = 57 | true",
        "-957 < 0 | true",
        "+62 = 62 | true",
        "7E3 = 7000 | true",
        "-57.9E2 = -5790 | true",
        "7. = 7 | true",
        "-95.7 < 0 | true",
        "+6.2 > 6 | true",
        ".5 = 0.5 | true",
        "0x1F = 31 | true",
        "0X1f = 31 | true",
        "017 = 15 | true",
        "0 = 00 | true",
        "0b101 = 5 | true",
        "1_000_000 = 1000000 | true",
        "42L = 42 | true",
        "1.5F = 1.5 | true",
        "1.5f = floatP | true",
        "2.5D = doubleP | true",
        "7d = 7 | true",
        "1e-3 = 0.001 | true",
        "0x1p3 = 8 | true",
        "0xFFFFFFFFFFFFFFFF = -1 | true",
        "9223372036854775807 > 0 | true",
        "-9223372036854775808 < 0 | true",
        "-9223372036854775808 - 1 > 0 | true",
    })
    void selects(String selector, boolean expected) {
        assertThat(selects(selector)).as(selector).isEqualTo(expected);
    }

    @Test
    void javaWhiteSpaceSeparatesTokens() {
        assertThat(selects("weight\t=\f3000\r\nAND\ncolor = 'blue'")).isTrue();
    }

    @Nested
    class HeaderFields {
        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "JMSPriority = 4 | true",
            "JMSPriority > 3 | true",
            "JMSPriority BETWEEN 0 AND 9 | true",
            "JMSMessageID = 'ID:4A3B' | true",
            "JMSMessageID LIKE 'ID:%' | true",
            "JMSCorrelationID = 'RUSH' | true",
            "JMSTimestamp = 1714557600123 | true",
            "JMSTimestamp > 1714557600122 AND JMSTimestamp < 1714557600124 | true",
            "JMSDeliveryMode = 'PERSISTENT' | true",
            "JMSDeliveryMode = 'NON_PERSISTENT' | false",
            "JMSType = 'car' | true",
            "JMSType IN ('car', 'truck') | true",
            // not header fields in selectors: properties of that exact name, absent here
            "JMSExpiration IS NULL | true",
            "JMSDestination IS NULL | true",
            "JMSReplyTo IS NULL | true",
            "JMSRedelivered IS NULL | true",
            "JMSDeliveryTime IS NULL | true",
            "JMSXGroupID IS NULL | true",
            // case-sensitive like every identifier
            "jmspriority IS NULL | true",
            "JMSPRIORITY = 4 | false",
            "jmsType IS NULL | true",
            // AQ names mean nothing in a selector
            "priority IS NULL | true",
            "corrid IS NULL | true",
            "msgid IS NULL | true",
        })
        void mapToTheMessage(String selector, boolean expected) {
            assertThat(selects(selector)).as(selector).isEqualTo(expected);
        }

        @Test
        void nullHeadersAreNull() {
            MessageView bare = MessageSnapshot.builder().priority(5).build();
            for (String h : new String[] {"JMSMessageID", "JMSCorrelationID", "JMSType", "JMSTimestamp", "JMSDeliveryMode"}) {
                Expression e = Expression.parseSelector(h + " IS NULL");
                assertThat(e.test(bare)).as(h).isTrue();
                assertThat(Expression.parseSelector(h + " = 'x'").evaluate(bare)).as(h).isNull();
            }
            assertThat(Expression.parseSelector("JMSPriority = 4").test(bare)).isTrue();
        }

        @ParameterizedTest(name = "AQ priority {0} is JMSPriority {1}")
        @CsvSource({"0, 9", "5, 4", "9, 0", "-3, 9", "12, 0", "1, 8", "-2147483648, 9", "2147483647, 0"})
        void priorityMapping(int aq, int jms) {
            MessageView m = MessageSnapshot.builder().priority(aq).build();
            assertThat(Expression.parseSelector("JMSPriority = " + jms).test(m)).isTrue();
            assertThat(JmsHeaders.toJmsPriority(aq)).isEqualTo(jms);
        }

        @Test
        void jmsHeadersConvertBothWays() {
            for (int p = 0; p <= 9; p++) {
                assertThat(JmsHeaders.toJmsPriority(JmsHeaders.toAqPriority(p))).isEqualTo(p);
            }
            assertThat(JmsHeaders.toAqPriority(4)).isEqualTo(5);
            // the api's JmsPriority decides: out of range is 24097, as every bad input to the api
            assertThatThrownBy(() -> JmsHeaders.toAqPriority(10)).isInstanceOfSatisfying(io.aqueduct.api.AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(io.aqueduct.api.AqError.INVALID_VALUE));
            assertThatThrownBy(() -> JmsHeaders.toAqPriority(-1)).isInstanceOfSatisfying(io.aqueduct.api.AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(io.aqueduct.api.AqError.INVALID_VALUE));
            assertThat(JmsHeaders.toJmsMessageId("4A3B")).isEqualTo("ID:4A3B");
            assertThat(JmsHeaders.toAqMessageId("ID:4A3B")).isEqualTo("4A3B");
            assertThat(JmsHeaders.toAqMessageId("4A3B")).isNull();
            assertThat(JmsHeaders.toJmsMessageId(null)).isNull();
            assertThat(JmsHeaders.toJmsTimestamp(T0)).isEqualTo(T0.toEpochMilli());
            assertThat(JmsHeaders.deliveryModeName(2)).isEqualTo(JmsHeaders.PERSISTENT);
            assertThat(JmsHeaders.deliveryModeName(1)).isEqualTo(JmsHeaders.NON_PERSISTENT);
        }

        @Test
        void deliveryModeStoredAsTheJmsIntegerReadsAsItsName() {
            MessageView m = MessageSnapshot.builder().userProperty("JMSDeliveryMode", 1).build();
            assertThat(Expression.parseSelector("JMSDeliveryMode = 'NON_PERSISTENT'").test(m)).isTrue();
        }
    }

    @Nested
    class ThreeValuedLogic {
        /** T, F and U (unknown: a comparison with a missing property). */
        private String operand(char v) {
            return v == 'T' ? "TRUE" : v == 'F' ? "FALSE" : "missing = 1";
        }

        private Boolean truth(char v) {
            return v == 'T' ? Boolean.TRUE : v == 'F' ? Boolean.FALSE : null;
        }

        @ParameterizedTest(name = "{0} AND {1} = {2}")
        @CsvSource({"T,T,T", "T,F,F", "T,U,U", "F,T,F", "F,F,F", "F,U,F", "U,T,U", "U,F,F", "U,U,U"})
        void and(char a, char b, char r) {
            assertThat(eval(operand(a) + " AND " + operand(b))).isEqualTo(truth(r));
        }

        @ParameterizedTest(name = "{0} OR {1} = {2}")
        @CsvSource({"T,T,T", "T,F,T", "T,U,T", "F,T,T", "F,F,F", "F,U,U", "U,T,T", "U,F,U", "U,U,U"})
        void or(char a, char b, char r) {
            assertThat(eval(operand(a) + " OR " + operand(b))).isEqualTo(truth(r));
        }

        @ParameterizedTest(name = "NOT {0} = {1}")
        @CsvSource({"T,F", "F,T", "U,U"})
        void not(char a, char r) {
            assertThat(eval("NOT (" + operand(a) + ")")).isEqualTo(truth(r));
        }

        @ParameterizedTest(name = "{0} is unknown")
        @ValueSource(strings = {
            "missing = 1", "missing <> 1", "missing < 1", "1 = missing", "missing = 'a'", "missing = TRUE",
            "missing + 1 = 1", "-missing = 1", "weight + missing > 0", "missing * 0 = 0",
            "missing BETWEEN 1 AND 2", "missing NOT BETWEEN 1 AND 2", "weight BETWEEN missing AND 5000",
            "missing IN ('a')", "missing NOT IN ('a')", "missing LIKE 'a%'", "missing NOT LIKE 'a%'",
            "NOT missing = 1", "weight / 0 = 1", "missing", "NumberOfOrders * 2 = 4",
        })
        void unknown(String selector) {
            assertThat(eval(selector)).as(selector).isNull();
            assertThat(selects(selector)).isFalse();
        }

        @Test
        void isNullTurnsNullIntoTrueOrFalse() {
            assertThat(eval("missing IS NULL")).isTrue();
            assertThat(eval("missing IS NOT NULL")).isFalse();
            assertThat(eval("NOT missing IS NULL")).isFalse();
            assertThat(eval("missing = 1 OR missing IS NULL")).isTrue();
        }
    }

    @Nested
    class NoSelector {
        @ParameterizedTest(name = "<{0}>")
        @ValueSource(strings = {"", " ", "\t\n"})
        void blankSelectsEverything(String text) {
            Expression e = Expression.parseSelector(text);
            assertThat(e.test(M)).isTrue();
            assertThat(e.test(MessageSnapshot.builder().build())).isTrue();
            assertThat(e.isSelector()).isTrue();
        }

        @Test
        void nullSelectsEverything() {
            assertThat(Expression.parseSelector(null).test(M)).isTrue();
            assertThat(Expression.parseSelector(null).referencedProperties()).isEmpty();
        }
    }

    @Nested
    class Refused {
        private ExpressionSyntaxException failure(String text) {
            ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class,
                    () -> Expression.parseSelector(text));
            assertThat(e).as("selector <%s> is refused", text).isNotNull();
            assertThat(e.errorCode()).isEqualTo(AqError.INVALID_EXPRESSION);
            assertThat(e.getMessage()).startsWith("AQ-25448: Selector error at position " + e.position() + ": expected ");
            return e;
        }

        @ParameterizedTest(name = "<{0}> fails at {1}, expected {2}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            // selector | position | expected phrase (contained)
            // AQ-condition features
            "tab.priority = 1 | 4 | no dotted names",
            "user_data.x = 1 | 10 | no dotted names",
            "a.b = 1 | 2 | no dotted names",
            "\"color\" = 'blue' | 1 | no quoted names",
            "UPPER(color) = 'BLUE' | 6 | no function calls",
            "color = 'a' -- comment | 13 | comments are not allowed",
            "color = 'a' /* c */ | 13 | comments are not allowed",
            "weight != 1 | 8 | '<>' for not equal",
            "weight ^= 1 | 8 | '<>' for not equal",
            "`color || 'x' = 'a'` | 7 | `no '||'`",
            "x = NULL | 5 | NULL is allowed only in IS [NOT] NULL",
            "NULL IS NULL | 1 | NULL is allowed only",
            // keywords are not identifiers
            "NOT = 1 | 5 | a value",
            "and = 1 | 1 | a value",
            "Escape = 1 | 1 | a value",
            "is IS NULL | 1 | a value",
            "between = 1 | 1 | a value",
            "like = 1 | 1 | a value",
            "in = 1 | 1 | a value",
            "or = 1 | 1 | a value",
            "null = 1 | 1 | NULL is allowed only",
            "x = true.x | 9 | no dotted names",
            // identifiers and literals
            "#x = 1 | 1 | an expression",
            "x@y = 1 | 2 | an expression",
            "1x = 1 | 1 | a number",
            "1.5L = 1 | 1 | a number",
            "1.2.3 = 1 | 1 | a number",
            "08 = 8 | 1 | an octal digit",
            "0x = 1 | 1 | a number",
            "0b2 = 1 | 1 | a number",
            "1_ = 1 | 1 | '_' only between digits",
            "0x_1 = 1 | 1 | '_' only between digits",
            "1e = 1 | 1 | a number",
            "0x1.8 = 1 | 1 | a number",
            "9223372036854775808 > 0 | 1 | in the range of long",
            "0x1FFFFFFFFFFFFFFFF > 0 | 1 | in the range of long",
            "1e400 > 0 | 1 | in the range of double",
            "3.5e39f > 0 | 1 | in the range of float",
            "color = 'blue | 9 | a closing quote",
            "`color\u00a0= 'x'` | 6 | an expression",
            "`color\u000b= 'x'` | 6 | an expression",
            // operators and operands
            "weight = | 9 | a value",
            "weight == 1 | 9 | a value",
            "weight = 1 AND | 15 | a value",
            "(weight = 1 | 12 | ')'",
            "weight = 1) | 11 | an operator or the end of the selector",
            "weight + 1 | 1 | a condition",
            "'abc' | 1 | a condition",
            "5 | 1 | a condition",
            "JMSType | 1 | a condition",
            "NOT 7 | 5 | a condition",
            "weight > 1 = TRUE | 12 | an operator or the end",
            "(weight > 1) = TRUE | 2 | a value, not a condition",
            "color < 'b' | 9 | an arithmetic value",
            "'a' <= color | 1 | an arithmetic value",
            "flag > FALSE | 8 | an arithmetic value",
            "JMSType > 1 | 1 | an arithmetic value",
            "weight + 'a' = 1 | 10 | an arithmetic value",
            "-'a' = 1 | 2 | an arithmetic value",
            "weight * TRUE = 1 | 10 | an arithmetic value",
            "weight BETWEEN 'a' AND 'b' | 16 | an arithmetic value",
            "weight BETWEEN 1 OR 5 | 18 | 'AND'",
            "weight NOT 5 | 12 | IN, BETWEEN or LIKE after NOT",
            "weight IS 5 | 11 | 'NULL'",
            "color IN 'a' | 10 | '(' after IN",
            "color IN () | 11 | a string literal",
            "color IN ('a', 1) | 16 | a string literal",
            "color IN ('a', weight) | 16 | a string literal",
            "color IN ('a' | 14 | ',' or ')'",
            "'a' IN ('a') | 1 | an identifier before IN",
            "weight + 1 IN ('a') | 1 | an identifier before IN",
            "color LIKE weight | 12 | a string literal pattern",
            "`color LIKE 'a' || 'b'` | 16 | `no '||'`",
            "'abc' LIKE 'a%' | 1 | an identifier before LIKE",
            "color LIKE 'a' ESCAPE 'ab' | 23 | a single escape character",
            "color LIKE 'a' ESCAPE '' | 23 | a single escape character",
            "color LIKE 'a' ESCAPE x | 23 | a string literal escape character",
            "color LIKE 'a!' ESCAPE '!' | 12 | a LIKE pattern with",
            "color LIKE 'a!b' ESCAPE '!' | 12 | a LIKE pattern with",
            "5 IS NULL | 1 | an identifier before IS",
            "weight / 0 IS NULL | 1 | an identifier before IS",
            "color = 'a' ; DROP TABLE x | 13 | an expression",
        })
        void refused(String selector, int position, String expected) {
            ExpressionSyntaxException e = failure(selector);
            assertThat(e.position()).as(e.getMessage()).isEqualTo(position);
            assertThat(e.expected()).as(e.getMessage()).contains(expected);
        }

        @Test
        void messageNamesPositionExpectationAndFinding() {
            assertThat(failure("color = 'blue' AND weight >").getMessage())
                    .isEqualTo("AQ-25448: Selector error at position 28: expected a value but found end of selector");
        }

        @Test
        void deepNestingFailsCleanly() {
            String parens = "(".repeat(100_000) + "weight = 1" + ")".repeat(100_000);
            assertThat(failure(parens).expected()).contains("at most " + Parser.MAX_LENGTH + " characters");
            String nested = "(".repeat(49_000) + "weight = 1" + ")".repeat(49_000);
            assertThat(failure(nested).expected()).contains("levels of nesting");
            String open = "(".repeat(99_000);
            assertThat(failure(open).expected()).contains("levels of nesting");
            String nots = "NOT ".repeat(20_000) + "flag";
            assertThat(failure(nots).expected()).contains("levels of nesting");
            String minus = "-".repeat(1) + " -".repeat(20_000) + "weight = 1";
            assertThat(failure(minus).expected()).contains("levels of nesting");
            String ok = "(".repeat(50) + "weight = 3000" + ")".repeat(50);
            assertThat(Expression.parseSelector(ok).test(M)).isTrue();
        }

        @Test
        void veryLongSelectorsFailCleanlyOrParse() {
            String tooLong = "color = '" + "x".repeat(Parser.MAX_LENGTH) + "'";
            assertThat(failure(tooLong).expected()).contains("at most");
            StringBuilder wide = new StringBuilder("weight = 0");
            for (int i = 1; i < 5_000; i++) {
                wide.append(" OR weight = ").append(i);
            }
            assertThat(Expression.parseSelector(wide.toString()).test(M)).isTrue();
        }

        @Test
        void nonAsciiWhiteSpaceIsNotWhiteSpaceInSelectors() {
            assertThat(failure("color\u2003= 'x'").position()).isEqualTo(6);
            assertThat(Expression.parse("color\u2003= 'blue'").test(M)).isTrue(); // conditions keep accepting it
        }
    }

    @Nested
    class ConditionsAreUnaffected {
        private final MessageView m = MessageSnapshot.builder()
                .priority(3)
                .userProperty("Region", "WEST")
                .userProperty("NumberOfOrders", "2")
                .build();

        @Test
        void userPropertyNamesMatchCaseInsensitivelyInConditionsOnly() {
            assertThat(Expression.parse("region = 'WEST'").test(m)).isTrue();
            assertThat(Expression.parse("REGION = 'WEST'").test(m)).isTrue();
            assertThat(Expression.parseSelector("Region = 'WEST'").test(m)).isTrue();
            assertThat(Expression.parseSelector("region = 'WEST'").test(m)).isFalse();
            assertThat(Expression.parseSelector("region IS NULL").test(m)).isTrue();
        }

        @Test
        void conditionsStillConvertNumericStringsAndSelectorsDoNot() {
            assertThat(Expression.parse("NumberOfOrders > 1").test(m)).isTrue();
            assertThat(Expression.parseSelector("NumberOfOrders > 1").test(m)).isFalse();
        }

        @Test
        void conditionFeaturesStillParse() {
            assertThat(Expression.parse("tab.priority != 4 AND UPPER('a') || 'b' = 'Ab'").test(m)).isTrue();
            assertThat(Expression.parse("priority = NULL").evaluate(m)).isNull();
            assertThat(Expression.parse("priority = 3").test(m)).isTrue();
            assertThat(Expression.parseSelector("priority = 3").test(m)).isFalse();
        }

        @Test
        void selectorAndConditionOfTheSameTextAreDifferentExpressions() {
            Expression c = Expression.parse("Region = 'WEST'");
            Expression s = Expression.parseSelector("Region = 'WEST'");
            assertThat(c).isNotEqualTo(s);
            assertThat(c.isSelector()).isFalse();
            assertThat(s.isSelector()).isTrue();
            assertThat(s.isCondition()).isTrue();
            assertThat(s).isEqualTo(Expression.parseSelector("Region='WEST'"));
        }
    }

    @Test
    void referencesAndNormalizedForm() {
        Expression e = Expression.parseSelector("JMSType = 'car' and color in ('blue') OR not weight between 1 and 2");
        assertThat(e.referencedProperties()).containsExactly("JMSType", "color", "weight");
        assertThat(e.readsPayload()).isFalse();
        assertThat(e.toString()).isEqualTo("JMSType = 'car' AND color IN ('blue') OR NOT weight BETWEEN 1 AND 2");
        assertThat(e.text()).isEqualTo("JMSType = 'car' and color in ('blue') OR not weight between 1 and 2");
    }

    @Test
    void aMessageViewWithoutAnExactLookupIsReadThroughUserProperty() {
        MessageView view = new MessageView() {
            @Override public int priority() { return 9; }
            @Override public String correlation() { return null; }
            @Override public Instant enqueueTime() { return null; }
            @Override public long delay() { return 0; }
            @Override public long expiration() { return -1; }
            @Override public int retryCount() { return 0; }
            @Override public String senderName() { return null; }
            @Override public String messageId() { return null; }
            @Override public Object userProperty(String name) { return "color".equals(name) ? "blue" : null; }
            @Override public PayloadView payload() { return PayloadView.none(); }
        };
        assertThat(Expression.parseSelector("color = 'blue' AND JMSPriority = 0 AND JMSMessageID IS NULL").test(view)).isTrue();
    }

    @Test
    void timestampsAndOtherPropertyTypes() {
        MessageView m = MessageSnapshot.builder()
                .userProperty("when", T0)
                .userProperty("date", java.util.Date.from(T0))
                .userProperty("other", Map.of("a", 1))
                .build();
        assertThat(Expression.parseSelector("when = " + T0.toEpochMilli()).test(m)).isTrue();
        assertThat(Expression.parseSelector("date = " + T0.toEpochMilli()).test(m)).isTrue();
        assertThat(Expression.parseSelector("other = 'x'").evaluate(m)).isFalse();
        assertThat(Expression.parseSelector("other IS NOT NULL").test(m)).isTrue();
    }

    @Test
    void evaluationNeverThrows() {
        MessageView odd = MessageSnapshot.builder()
                .userProperty("weight", Double.NaN)
                .userProperty("color", 7)
                .userProperty("flag", "yes")
                .build();
        String[] selectors = {
            "weight = weight", "weight <> 1", "weight / 0 > 1", "color LIKE 'a'", "color IN ('a')",
            "flag", "NOT flag", "flag = TRUE", "weight BETWEEN color AND 9", "-flag = 1", "color * weight > 0",
        };
        for (String s : selectors) {
            Expression.parseSelector(s).evaluate(odd);
        }
        assertThat(Expression.parseSelector("weight = weight").evaluate(odd)).isFalse(); // NaN, as in Java
        assertThat(Expression.parseSelector("weight <> weight").evaluate(odd)).isTrue();
        assertThat(Expression.parseSelector("flag").evaluate(odd)).isNull();
    }
}
