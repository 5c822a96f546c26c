package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.PayloadType;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionOperatorsTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    private static MessageSnapshot.Builder base() {
        return MessageSnapshot.builder()
                .priority(3)
                .correlation("RUSH")
                .enqueueTime(T0)
                .delay(10)
                .expiration(60)
                .retryCount(2)
                .senderName("OE")
                .messageId("4A3B")
                .userProperty("region", "WEST")
                .userProperty("amount", 250)
                .userProperty("rate", new BigDecimal("0.5"))
                .userProperty("express", Boolean.TRUE)
                .userProperty("code", "042")
                .userProperty("name", "O'Brien")
                .userProperty("path", "100%_done");
    }

    private static final MessageView M = base().build();

    private static boolean t(String condition) {
        return Expression.parse(condition).test(M);
    }

    private static Boolean eval(String condition) {
        return Expression.parse(condition).evaluate(M);
    }

    @Nested
    class Comparisons {
        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "priority = 3 | true",
            "priority != 3 | false",
            "priority <> 4 | true",
            "priority ^= 3 | false",
            "priority < 4 | true",
            "priority <= 3 | true",
            "priority > 3 | false",
            "priority >= 3 | true",
            "corrid = 'RUSH' | true",
            "corrid = 'rush' | false",
            "corrid < 'S' | true",
            "corrid >= 'RUSH' | true",
            "tab.priority = 3 | true",
            "TAB.PRIORITY = 3 | true",
            "delay = 10 | true",
            "expiration = 60 | true",
            "retry_count = 2 | true",
            "sender_name = 'OE' | true",
            "msgid = '4A3B' | true",
            "region = 'WEST' | true",
            "amount > 200 | true",
            "rate = 0.5 | true",
            "rate = 0.50 | true",
            "express = TRUE | true",
            "express <> FALSE | true",
            "TRUE | true",
            "FALSE | false",
        })
        void compare(String condition, boolean expected) {
            assertThat(t(condition)).as(condition).isEqualTo(expected);
        }

        @Test
        void numbersCompareNumericallyAcrossRepresentations() {
            assertThat(t("amount = 250.0")).isTrue();
            assertThat(t("amount = 2.5E2")).isTrue();
            assertThat(t("rate * 4 = 2")).isTrue();
            assertThat(t("1.10 = 1.1")).isTrue();
        }

        @Test
        void numericStringComparesWithNumberNumerically() {
            assertThat(t("code = 42")).isTrue();
            assertThat(t("priority = '3'")).isTrue();
            assertThat(t("priority < '10'")).isTrue(); // numerically, not as text
        }

        @Test
        void nonNumericStringAgainstNumberIsUnknown() {
            assertThat(eval("region = 1")).isNull();
            assertThat(eval("region <> 1")).isNull();
            assertThat(t("NOT (region = 1)")).isFalse();
        }

        @Test
        void stringsCompareAsStrings() {
            assertThat(t("'10' < '9'")).isTrue();
            assertThat(t("code = '042'")).isTrue();
        }

        @Test
        void timestampsCompareWithTimestampsAndIsoText() {
            assertThat(t("enq_time = '2024-05-01T10:00:00Z'")).isTrue();
            assertThat(t("enq_time > '2024-05-01'")).isTrue();
            assertThat(t("enq_time < '2024-05-01 10:00:01'")).isTrue();
            assertThat(t("enq_time BETWEEN '2024-01-01' AND '2025-01-01'")).isTrue();
            assertThat(eval("enq_time = 5")).isNull();
            assertThat(eval("enq_time = 'yesterday'")).isNull();
        }

        @Test
        void timestampUserPropertiesCompareWithEachOther() {
            MessageView m = base().userProperty("due", java.util.Date.from(T0.plusSeconds(60))).build();
            assertThat(Expression.parse("due > enq_time").test(m)).isTrue();
        }
    }

    @Nested
    class LogicAndPrecedence {
        @Test
        void andBindsTighterThanOr() {
            // TRUE OR (FALSE AND FALSE) = TRUE; (TRUE OR FALSE) AND FALSE would be FALSE
            assertThat(t("priority = 3 OR priority = 4 AND corrid = 'X'")).isTrue();
            assertThat(t("(priority = 3 OR priority = 4) AND corrid = 'X'")).isFalse();
        }

        @Test
        void notBindsTighterThanAnd() {
            assertThat(t("NOT priority = 4 AND corrid = 'RUSH'")).isTrue();
            assertThat(t("NOT (priority = 3 AND corrid = 'RUSH')")).isFalse();
            assertThat(t("NOT NOT priority = 3")).isTrue();
        }

        @Test
        void keywordsAreCaseInsensitive() {
            assertThat(t("priority = 3 and not corrid = 'X' Or FALSE")).isTrue();
            assertThat(t("corrid iS nOt NuLl")).isTrue();
        }

        @Test
        void arithmeticBindsTighterThanComparison() {
            assertThat(t("priority + 1 * 2 = 5")).isTrue();
            assertThat(t("(priority + 1) * 2 = 8")).isTrue();
            assertThat(t("10 - 4 - 3 = 3")).isTrue(); // left-associative
            assertThat(t("24 / 4 / 2 = 3")).isTrue();
            assertThat(t("-priority = -3")).isTrue();
            assertThat(t("- -priority = 3")).isTrue();
            assertThat(t("2 * -priority = -6")).isTrue();
        }
    }

    @Nested
    class ThreeValuedLogic {
        @Test
        void comparisonWithNullIsUnknown() {
            assertThat(eval("priority = NULL")).isNull();
            assertThat(eval("NULL = NULL")).isNull();
            assertThat(eval("nosuch = 'x'")).isNull();
            assertThat(eval("nosuch <> 'x'")).isNull();
            assertThat(t("nosuch <> 'x'")).isFalse();
        }

        @Test
        void notUnknownIsUnknown() {
            assertThat(eval("NOT nosuch = 1")).isNull();
            assertThat(t("NOT nosuch = 1")).isFalse();
        }

        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', nullValues = "UNKNOWN", value = {
            "TRUE AND nosuch = 1 | UNKNOWN",
            "FALSE AND nosuch = 1 | false",
            "nosuch = 1 AND FALSE | false",
            "TRUE OR nosuch = 1 | true",
            "nosuch = 1 OR TRUE | true",
            "FALSE OR nosuch = 1 | UNKNOWN",
            "nosuch = 1 OR nosuch = 2 | UNKNOWN",
            "NOT (FALSE AND nosuch = 1) | true",
        })
        void truthTables(String condition, Boolean expected) {
            assertThat(eval(condition)).as(condition).isEqualTo(expected);
        }

        @Test
        void isNullIsNeverUnknown() {
            assertThat(eval("nosuch IS NULL")).isTrue();
            assertThat(eval("nosuch IS NOT NULL")).isFalse();
            assertThat(eval("corrid IS NULL")).isFalse();
            assertThat(eval("NULL IS NULL")).isTrue();
            assertThat(Expression.parse("corrid IS NULL").test(MessageSnapshot.builder().build())).isTrue();
        }

        @Test
        void inWithNullInTheListIsUnknownUnlessFound() {
            assertThat(eval("priority IN (1, NULL)")).isNull();
            assertThat(eval("priority IN (3, NULL)")).isTrue();
            assertThat(eval("priority NOT IN (1, NULL)")).isNull();
            assertThat(eval("nosuch IN (1, 2)")).isNull();
        }

        @Test
        void betweenWithNullBoundIsUnknownOrFalse() {
            assertThat(eval("priority BETWEEN NULL AND 5")).isNull();
            assertThat(eval("priority BETWEEN NULL AND 1")).isFalse();
            assertThat(eval("nosuch BETWEEN 1 AND 5")).isNull();
        }

        @Test
        void arithmeticWithNullIsNull() {
            assertThat(eval("nosuch + 1 = 1")).isNull();
            assertThat(eval("nosuch + 1 IS NULL")).isTrue();
        }
    }

    @Nested
    class InAndBetween {
        @Test
        void inMatchesStringsAndNumbers() {
            assertThat(t("corrid IN ('NORMAL', 'RUSH')")).isTrue();
            assertThat(t("corrid IN ('NORMAL')")).isFalse();
            assertThat(t("corrid NOT IN ('NORMAL', 'SLOW')")).isTrue();
            assertThat(t("priority IN (1, 2, 3)")).isTrue();
            assertThat(t("priority IN ('1', '3')")).isTrue();
            assertThat(t("priority NOT IN (1, 2)")).isTrue();
            assertThat(t("priority IN (retry_count + 1, 9)")).isTrue();
        }

        @Test
        void betweenIsInclusive() {
            assertThat(t("priority BETWEEN 3 AND 5")).isTrue();
            assertThat(t("priority BETWEEN 1 AND 3")).isTrue();
            assertThat(t("priority BETWEEN 4 AND 5")).isFalse();
            assertThat(t("priority NOT BETWEEN 4 AND 5")).isTrue();
            assertThat(t("corrid BETWEEN 'A' AND 'Z'")).isTrue();
            assertThat(t("priority BETWEEN 1 AND 5 AND corrid = 'RUSH'")).isTrue();
        }
    }

    @Nested
    class Like {
        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "corrid LIKE 'RUSH' | true",
            "corrid LIKE 'RU%' | true",
            "corrid LIKE '%SH' | true",
            "corrid LIKE '%US%' | true",
            "corrid LIKE 'R_SH' | true",
            "corrid LIKE 'R__H' | true",
            "corrid LIKE 'R_H' | false",
            "corrid LIKE '%' | true",
            "corrid LIKE 'ru%' | false",
            "corrid NOT LIKE 'N%' | true",
            "corrid LIKE '%%R%%' | true",
            "corrid LIKE 'R%S%H' | true",
            "corrid LIKE 'R%X%H' | false",
        })
        void wildcards(String condition, boolean expected) {
            assertThat(t(condition)).as(condition).isEqualTo(expected);
        }

        @Test
        void escapeMakesWildcardsLiteral() {
            assertThat(t("path LIKE '100\\%%' ESCAPE '\\'")).isTrue();
            assertThat(t("path LIKE '100!%!_done' ESCAPE '!'")).isTrue();
            assertThat(t("path LIKE '100!%!_don' ESCAPE '!'")).isFalse();
            assertThat(t("corrid LIKE 'RU!%' ESCAPE '!'")).isFalse();
            assertThat(t("'a!b' LIKE 'a!!b' ESCAPE '!'")).isTrue();
        }

        @Test
        void likeOnNullIsUnknown() {
            assertThat(eval("nosuch LIKE '%'")).isNull();
            assertThat(eval("corrid LIKE NULL")).isNull();
        }

        @Test
        void patternFromAPropertyIsCompiledPerMessage() {
            MessageView m = base().userProperty("pattern", "R%").build();
            assertThat(Expression.parse("corrid LIKE pattern").test(m)).isTrue();
            MessageView bad = base().userProperty("pattern", "R!x").userProperty("esc", "!").build();
            assertThat(Expression.parse("corrid LIKE pattern ESCAPE esc").evaluate(bad)).isNull();
        }

        @Test
        void concatenatedOperand() {
            assertThat(t("region || '-' || corrid LIKE 'WEST-R%'")).isTrue();
            assertThat(t("nosuch || corrid = 'RUSH'")).isTrue(); // NULL concatenates as ''
        }

        @Test
        void likeOnNumbersUsesTheirText() {
            assertThat(t("amount LIKE '25%'")).isTrue();
        }
    }

    @Nested
    class Arithmetic {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "1 + 2 = 3",
            "5 - 7 = -2",
            "6 * 7 = 42",
            "7 / 2 = 3.5",
            "8 / 2 = 4",
            "1 / 3 * 3 < 1.0000001",
            "0.1 + 0.2 = 0.3",
            "1.5E1 = 15",
            "1e-2 = 0.01",
            "amount * rate = 125",
            "-(2 + 3) = -5",
            "9223372036854775807 + 1 = 9223372036854775808",
            "'5' + 1 = 6",
            "ABS(-4) = 4",
            "priority * 1.0 / 2 = 1.5",
        })
        void arithmetic(String condition) {
            assertThat(t(condition)).as(condition).isTrue();
        }

        @Test
        void divisionByZeroIsNull() {
            assertThat(eval("1 / 0 = 1")).isNull();
            assertThat(eval("1 / 0 IS NULL")).isTrue();
        }

        @Test
        void arithmeticOnNonNumbersIsNull() {
            assertThat(eval("region + 1 = 1")).isNull();
            assertThat(eval("-region = 1")).isNull();
        }

        @Test
        void valueExpressionsGiveNumbers() {
            assertThat(Expression.parseValue("priority * 2 + 1").value(M)).isEqualTo(7L);
            assertThat(Expression.parseValue("7 / 2").value(M)).isEqualTo(new BigDecimal("3.5"));
        }
    }

    @Nested
    class Literals {
        @Test
        void doubledQuotesInStrings() {
            assertThat(t("name = 'O''Brien'")).isTrue();
            assertThat(t("'''' = ''''")).isTrue();
            assertThat(Expression.parseValue("'It''s'").value(M)).isEqualTo("It's");
            assertThat(Expression.parseValue("''").value(M)).isEqualTo("");
        }

        @Test
        void stringsMayHoldAnything() {
            assertThat(Expression.parseValue("'a; DROP TABLE x -- /* */ \"q\"'").value(M))
                    .isEqualTo("a; DROP TABLE x -- /* */ \"q\"");
        }

        @Test
        void quotedNamesAreUserProperties() {
            MessageView m = base().userProperty("Order Type", "RUSH").build();
            assertThat(Expression.parse("\"Order Type\" = 'RUSH'").test(m)).isTrue();
        }

        @Test
        void booleanLiteralsAndUserProperties() {
            assertThat(t("express")).isTrue();
            assertThat(t("NOT express")).isFalse();
            assertThat(t("express AND priority = 3")).isTrue();
        }
    }

    @Nested
    class Functions {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "UPPER(region) = 'WEST'",
            "lower(region) = 'west'",
            "LENGTH(corrid) = 4",
            "SUBSTR(corrid, 2) = 'USH'",
            "SUBSTR(corrid, 2, 2) = 'US'",
            "SUBSTR(corrid, -2) = 'SH'",
            "SUBSTR(corrid, 0, 1) = 'R'",
            "SUBSTR(corrid, 9) IS NULL",
            "TRIM('  x ') = 'x'",
            "NVL(nosuch, 'dflt') = 'dflt'",
            "NVL(corrid, 'dflt') = 'RUSH'",
            "UPPER(NULL) IS NULL",
            "ABS(priority - 10) = 7",
        })
        void functions(String condition) {
            assertThat(t(condition)).as(condition).isTrue();
        }
    }

    @Nested
    class Introspection {
        @Test
        void normalizedText() {
            assertThat(Expression.parse("priority=3 and(corrid!='X'or not delay>1)").toString())
                    .isEqualTo("priority = 3 AND (corrid <> 'X' OR NOT delay > 1)");
            assertThat(Expression.parse("a in('x','y''z') or b not between 1 and -2 or c like 'a%' escape '!'").toString())
                    .isEqualTo("a IN ('x', 'y''z') OR b NOT BETWEEN 1 AND -2 OR c LIKE 'a%' ESCAPE '!'");
            assertThat(Expression.parse("10 - (4 - 3) = - -x").toString()).isEqualTo("10 - (4 - 3) = - -x");
            assertThat(Expression.parse("tab.user_data.extract('/A/text()').getStringVal() = 'x'").toString())
                    .isEqualTo("tab.user_data.extract('/A/text()').getStringVal() = 'x'");
        }

        @Test
        void normalizedTextParsesToItself() {
            for (String s : new String[] {
                "((a = 1) OR (b = 2)) AND NOT (c = 3 OR d IS NULL)",
                "x * (y + z) / -w >= 2.50 || 'k'",
                "(a = 1) = (b = 2)",
                "existsNode(tab.user_data, '/ORDER_TYP[@id=\"1\"]') = 1",
            }) {
                Expression e = Expression.parse(s);
                Expression again = Expression.parse(e.toString());
                assertThat(again.toString()).as(s).isEqualTo(e.toString());
                assertThat(again).isEqualTo(e);
            }
        }

        @Test
        void referencedProperties() {
            Expression e = Expression.parse("tab.priority > 1 AND region = 'W' AND tab.user_data.customer.country = 'USA'"
                    + " AND existsNode(tab.user_data, '/X') = 1");
            assertThat(e.referencedProperties())
                    .containsExactly("priority", "region", "user_data", "user_data.customer.country");
            assertThat(e.readsPayload()).isTrue();
            assertThat(Expression.parse("priority > 1 AND corrid LIKE 'A%'").readsPayload()).isFalse();
        }

        @Test
        void keepsTheText() {
            assertThat(Expression.parse("priority=1").text()).isEqualTo("priority=1");
            assertThat(Expression.parse("priority=1").isCondition()).isTrue();
        }
    }

    @Test
    void unqualifiedNameFallsBackFromUserPropertyToPayloadAttribute() {
        String json = "{\"region\":\"EAST\",\"orderregion\":\"WESTERN\"}";
        MessageView withProperty = base().payload(PayloadType.JSON, json).build();
        MessageView withoutProperty = MessageSnapshot.builder().payload(PayloadType.JSON, json).build();
        assertThat(Expression.parse("region = 'WEST'").test(withProperty)).isTrue();
        assertThat(Expression.parse("region = 'EAST'").test(withoutProperty)).isTrue();
        assertThat(Expression.parse("orderregion = 'WESTERN'").test(withProperty)).isTrue();
    }

    @Test
    void messagePropertyWinsOverUserPropertyOfTheSameName() {
        MessageView m = base().userProperty("priority", 99).build();
        assertThat(Expression.parse("priority = 3").test(m)).isTrue();
    }
}
