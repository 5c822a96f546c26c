package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SYSDATE, Oracle date arithmetic and TRUNC / ROUND in conditions and value expressions. */
class SysdateTest {

    /** The end of a propagation window: what a schedule's next_time is computed from. */
    private static final Instant NOW = Instant.parse("2024-05-01T10:17:42.345Z");
    private static final Instant ENQ = Instant.parse("2024-04-29T08:00:00Z");

    private static final MessageView M = MessageSnapshot.builder()
            .sysdate(NOW)
            .enqueueTime(ENQ)
            .userProperty("due", Instant.parse("2024-05-03T00:00:00Z"))
            .userProperty("hours", 6)
            .userProperty("sysdate", "a user property")
            .build();

    private static final MessageView NO_CLOCK = MessageSnapshot.builder().enqueueTime(ENQ).build();

    private static Object value(String text) {
        return Expression.parseValue(text).value(M);
    }

    private static ExpressionSyntaxException failure(String text) {
        ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class, () -> Expression.parseValue(text));
        assertThat(e).as("parse of <%s> fails", text).isNotNull();
        assertThat(e.errorCode()).isEqualTo(AqError.INVALID_EXPRESSION);
        return e;
    }

    @Nested
    class Sysdate {
        @Test
        void isTheViewsCurrentTimeInEitherSpellingAndAnyCase() {
            assertThat(value("SYSDATE")).isEqualTo(NOW);
            assertThat(value("sysdate")).isEqualTo(NOW);
            assertThat(value("SysTimestamp")).isEqualTo(NOW);
            assertThat(Expression.parseValue("sysdate").toString()).isEqualTo("SYSDATE");
            assertThat(Expression.parseValue("systimestamp + 1").toString()).isEqualTo("SYSTIMESTAMP + 1");
        }

        @Test
        void isNullWhenTheViewKnowsNoTime() {
            assertThat(Expression.parseValue("SYSDATE").value(NO_CLOCK)).isNull();
            assertThat(Expression.parseValue("SYSDATE + 1/24").value(NO_CLOCK)).isNull();
            assertThat(Expression.parseValue("TRUNC(SYSDATE) + 1").value(NO_CLOCK)).isNull();
            assertThat(Expression.parse("SYSDATE IS NULL").test(NO_CLOCK)).isTrue();
            assertThat(Expression.parse("enq_time < SYSDATE").evaluate(NO_CLOCK)).isNull();
            MessageView plain = new MessageView() {
                public int priority() {
                    return 1;
                }

                public String correlation() {
                    return null;
                }

                public Instant enqueueTime() {
                    return ENQ;
                }

                public long delay() {
                    return 0;
                }

                public long expiration() {
                    return -1;
                }

                public int retryCount() {
                    return 0;
                }

                public String senderName() {
                    return null;
                }

                public String messageId() {
                    return null;
                }

                public Object userProperty(String name) {
                    return null;
                }

                public PayloadView payload() {
                    return PayloadView.none();
                }
            };
            assertThat(plain.sysdate()).isNull();
            assertThat(Expression.parseValue("SYSDATE - 1").value(plain)).isNull();
        }

        @Test
        void shadowsAUserPropertyOfThatNameButNotAQuotedOrDottedName() {
            assertThat(value("SYSDATE")).isEqualTo(NOW);
            assertThat(value("\"sysdate\"")).isEqualTo("a user property");
        }

        @Test
        void readsNoMessagePropertyAndNotThePayload() {
            Expression e = Expression.parse("SYSDATE > enq_time + 1");
            assertThat(e.referencedProperties()).containsExactly("enq_time");
            assertThat(e.readsPayload()).isFalse();
            assertThat(Expression.parseValue("TRUNC(SYSTIMESTAMP, 'HH') + 1/24").referencedProperties()).isEmpty();
        }

        @Test
        void inASelectorIsAUserPropertyAsJmsRequires() {
            MessageView view = MessageSnapshot.builder().sysdate(NOW).userProperty("SYSDATE", 5L).build();
            Expression s = Expression.parseSelector("SYSDATE = 5");
            assertThat(s.test(view)).isTrue();
            assertThat(s.referencedProperties()).containsExactly("SYSDATE");
            assertThat(Expression.parseSelector("SYSDATE IS NULL").test(MessageSnapshot.builder().sysdate(NOW).build())).isTrue();
            assertThat(Expression.parseSelector("sysdate > 4").test(view)).as("case-sensitive: no such property").isFalse();
        }

        @Test
        void comparesWithMessageDates() {
            assertThat(Expression.parse("SYSDATE > enq_time").test(M)).isTrue();
            assertThat(Expression.parse("enq_time < SYSDATE - 1").test(M)).isTrue();
            assertThat(Expression.parse("enq_time < SYSDATE - 3").test(M)).isFalse();
            assertThat(Expression.parse("enq_time + 2 BETWEEN TRUNC(SYSDATE) AND SYSDATE").test(M)).isTrue();
            assertThat(Expression.parse("due > SYSDATE + 1").test(M)).isTrue();
            assertThat(Expression.parse("SYSDATE >= '2024-05-01T10:00:00Z'").test(M)).isTrue();
            assertThat(Expression.parse("TRUNC(SYSDATE) = '2024-05-01'").test(M)).isTrue();
            assertThat(Expression.parse("SYSDATE - enq_time > 2").test(M)).isTrue();
        }
    }

    @Nested
    class DateArithmetic {
        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource(delimiter = '|', value = {
            "SYSDATE + 1/24 | 2024-05-01T11:17:42.345Z",
            "SYSDATE + 900/86400 | 2024-05-01T10:32:42.345Z",
            "SYSDATE + 1 - 300/86400 | 2024-05-02T10:12:42.345Z",
            "SYSDATE + 1 | 2024-05-02T10:17:42.345Z",
            "1 + SYSDATE | 2024-05-02T10:17:42.345Z",
            "1/24 + SYSDATE | 2024-05-01T11:17:42.345Z",
            "SYSDATE - 1 | 2024-04-30T10:17:42.345Z",
            "SYSDATE - 1/24/60 | 2024-05-01T10:16:42.345Z",
            "SYSDATE + 0.5 | 2024-05-01T22:17:42.345Z",
            "SYSDATE + 1.5E0 | 2024-05-02T22:17:42.345Z",
            "SYSDATE + '2' | 2024-05-03T10:17:42.345Z",
            "SYSDATE + -1 | 2024-04-30T10:17:42.345Z",
            "SYSDATE + hours/24 | 2024-05-01T16:17:42.345Z",
            "enq_time + 7 | 2024-05-06T08:00:00Z",
            "due - 1/24 | 2024-05-02T23:00:00Z",
            "TRUNC(SYSDATE) + 1 | 2024-05-02T00:00:00Z",
            "TRUNC(SYSDATE, 'HH') + 1/24 | 2024-05-01T11:00:00Z",
            "TRUNC(SYSDATE + 1/24, 'HH') | 2024-05-01T11:00:00Z",
            "TRUNC(SYSDATE, 'MI') + 15/1440 | 2024-05-01T10:32:00Z",
            "TRUNC(SYSDATE, 'MM') | 2024-05-01T00:00:00Z",
            "TRUNC(SYSDATE) + 1 + 2/24 | 2024-05-02T02:00:00Z",
            "NVL(SYSDATE, enq_time) + 1 | 2024-05-02T10:17:42.345Z",
            "SYSDATE + (enq_time - enq_time) | 2024-05-01T10:17:42.345Z",
        })
        void movesADateByDays(String text, String expected) {
            assertThat(value(text)).as(text).isEqualTo(Instant.parse(expected));
        }

        @Test
        void fractionsOfADayRoundHalfUpToTheMillisecond() {
            // 1/3 day = 28800000 ms exactly after rounding; 1E-9 day = 0.0864 ms -> 0; 6E-9 day = 0.5184 ms -> 1
            assertThat(value("SYSDATE + 1/3")).isEqualTo(NOW.plusMillis(28_800_000));
            assertThat(value("SYSDATE + 0.000000001")).isEqualTo(NOW);
            assertThat(value("SYSDATE + 0.000000006")).isEqualTo(NOW.plusMillis(1));
            assertThat(value("SYSDATE - 0.000000006")).isEqualTo(NOW.minusMillis(1));
            // 5.8E-9 day = 0.50112 ms -> 1; 5.7E-9 day = 0.49248 ms -> 0
            assertThat(value("SYSDATE + 0.0000000058")).isEqualTo(NOW.plusMillis(1));
            assertThat(value("SYSDATE + 0.0000000057")).isEqualTo(NOW);
        }

        @Test
        void dateMinusDateIsTheDifferenceInDays() {
            assertThat(value("SYSDATE - enq_time")).isInstanceOf(BigDecimal.class);
            assertThat((BigDecimal) value("due - enq_time")).isEqualByComparingTo("3.666666666666666666666666666666667");
            assertThat(value("TRUNC(SYSDATE) - TRUNC(enq_time)")).isEqualTo(new BigDecimal("2"));
            assertThat(value("TRUNC(SYSDATE) + 0.5 - TRUNC(SYSDATE)")).isEqualTo(new BigDecimal("0.5"));
            assertThat(value("enq_time - due")).isEqualTo(new BigDecimal("-3.666666666666666666666666666666667"));
            assertThat(value("SYSDATE - SYSDATE")).isEqualTo(BigDecimal.ZERO);
            assertThat((BigDecimal) value("(SYSDATE + 1/24 - SYSDATE) * 24")).isEqualByComparingTo("1");
            assertThat((BigDecimal) value("(SYSDATE - TRUNC(SYSDATE)) * 86400000")).isEqualByComparingTo("37062345");
            assertThat(value("enq_time + (SYSDATE - enq_time)")).isEqualTo(NOW);
        }

        @Test
        void meaninglessOrNullOperandsGiveNull() {
            for (String text : new String[] {"SYSDATE + SYSDATE", "1 - SYSDATE", "SYSDATE * 2", "SYSDATE / 2",
                "-SYSDATE", "SYSDATE + NULL", "NULL + SYSDATE", "SYSDATE - NULL", "SYSDATE + 'x'",
                "SYSDATE + 1E100", "enq_time + enq_time", "'2024-05-01' + 1", "SYSDATE + (1 > 0)"}) {
                Expression e;
                try {
                    e = Expression.parseValue(text);
                } catch (ExpressionSyntaxException refused) {
                    assertThat(text).as("only a condition operand is refused").isEqualTo("SYSDATE + (1 > 0)");
                    continue;
                }
                assertThat(e.value(M)).as(text).isNull();
            }
        }

        @Test
        void concatenationGivesTheIsoText() {
            assertThat(value("'at ' || SYSDATE")).isEqualTo("at 2024-05-01T10:17:42.345Z");
        }

        @Test
        void aDateChainIsNotACondition() {
            ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class,
                    () -> Expression.parse("SYSDATE + 1"));
            assertThat(e.position()).isEqualTo(1);
            assertThat(e.getMessage()).contains("expected a condition but found 'SYSDATE'");
            assertThat(catchThrowableOfType(ExpressionSyntaxException.class, () -> Expression.parse("due + 1")))
                    .as("a user property plus a number is a value, not a condition").isNotNull();
        }

        @Test
        void normalizedFormParsesToItself() {
            for (String text : new String[] {"sysdate+1/24", "TRUNC( sysdate,'hh')+1/24", "SYSDATE + 1 - 300/86400",
                "trunc(systimestamp) + 1", "SYSDATE - (enq_time - 1)", "ROUND(SYSDATE - enq_time, 2)"}) {
                Expression e = Expression.parseValue(text);
                Expression again = Expression.parseValue(e.toString());
                assertThat(again).isEqualTo(e);
                assertThat(again.value(M)).isEqualTo(e.value(M));
            }
            assertThat(Expression.parseValue("TRUNC( sysdate,'hh')+1/24").toString()).isEqualTo("TRUNC(SYSDATE, 'hh') + 1 / 24");
        }
    }

    @Nested
    class Trunc {
        @ParameterizedTest(name = "TRUNC(date, {0}) = {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "'YYYY' | 2024-01-01T00:00:00Z",
            "'year' | 2024-01-01T00:00:00Z",
            "'Q' | 2024-04-01T00:00:00Z",
            "'MM' | 2024-05-01T00:00:00Z",
            "'MON' | 2024-05-01T00:00:00Z",
            "'MONTH' | 2024-05-01T00:00:00Z",
            "'IW' | 2024-04-29T00:00:00Z",
            "'DD' | 2024-05-01T00:00:00Z",
            "'DDD' | 2024-05-01T00:00:00Z",
            "'J' | 2024-05-01T00:00:00Z",
            "'HH' | 2024-05-01T10:00:00Z",
            "'HH24' | 2024-05-01T10:00:00Z",
            "' hh12 ' | 2024-05-01T10:00:00Z",
            "'MI' | 2024-05-01T10:17:00Z",
        })
        void truncatesADateInUtc(String format, String expected) {
            assertThat(value("TRUNC(SYSDATE, " + format + ")")).isEqualTo(Instant.parse(expected));
        }

        @Test
        void withoutAFormatTruncatesToTheDay() {
            assertThat(value("TRUNC(SYSDATE)")).isEqualTo(Instant.parse("2024-05-01T00:00:00Z"));
            assertThat(value("TRUNC(due)")).isEqualTo(Instant.parse("2024-05-03T00:00:00Z"));
            assertThat(value("TRUNC(enq_time, 'Q')")).isEqualTo(Instant.parse("2024-04-01T00:00:00Z"));
        }

        @Test
        void aFormatKnownOnlyWhenEvaluatedThatIsNoneGivesNull() {
            MessageView v = MessageSnapshot.builder().sysdate(NOW).userProperty("fmt", "WEEKS").userProperty("unit", "hh").build();
            assertThat(Expression.parseValue("TRUNC(SYSDATE, fmt)").value(v)).isNull();
            assertThat(Expression.parseValue("TRUNC(SYSDATE, unit)").value(v)).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
            assertThat(Expression.parseValue("TRUNC(SYSDATE, NULL)").value(v)).isNull();
        }

        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource(delimiter = '|', value = {
            "TRUNC(15.79) | 15",
            "TRUNC(15.79, 1) | 15.7",
            "TRUNC(-15.79, 1) | -15.7",
            "TRUNC(15.79, -1) | 10",
            "TRUNC(15.79, -2) | 0",
            "TRUNC(15.79, 1.9) | 15.7",
            "TRUNC(1234, -2) | 1200",
            "TRUNC(1234) | 1234",
            "TRUNC(1234, 2) | 1234",
            "TRUNC(1/3, 4) | 0.3333",
            "TRUNC('2.75', '1') | 2.7",
            "ROUND(15.79) | 16",
            "ROUND(15.5) | 16",
            "ROUND(-15.5) | -16",
            "ROUND(15.79, 1) | 15.8",
            "ROUND(15.79, -1) | 20",
            "ROUND(1250, -2) | 1300",
            "ROUND(9999, -5) | 0",
            "ROUND(2/3, 2) | 0.67",
        })
        void truncatesAndRoundsNumbersAsOracleDoes(String text, String expected) {
            Object v = value(text);
            assertThat(v).as(text).isInstanceOf(Number.class);
            assertThat(new BigDecimal(Values.numberText((Number) v))).as(text).isEqualByComparingTo(expected);
            assertThat(Values.numberText((Number) v)).as(text).isEqualTo(expected);
        }

        @Test
        void keepsTheNumberType() {
            assertThat(value("TRUNC(1234, -2)")).isEqualTo(1200L);
            assertThat(value("ROUND(9223372036854775807, -1)")).isEqualTo(new BigDecimal("9223372036854775810"));
            MessageView v = MessageSnapshot.builder().userProperty("d", 2.75d).build();
            assertThat(Expression.parseValue("TRUNC(d, 1)").value(v)).isEqualTo(2.7d);
            assertThat(Expression.parseValue("TRUNC(d, 1E9)").value(v)).isEqualTo(2.75d);
            assertThat(Expression.parseValue("TRUNC(1.5, -1E9)").value(v)).isEqualTo(BigDecimal.ZERO);
            assertThat(Expression.parseValue("TRUNC(NULL)").value(v)).isNull();
            assertThat(Expression.parseValue("TRUNC(1.5, NULL)").value(v)).isNull();
            assertThat(Expression.parseValue("TRUNC('x')").value(v)).isNull();
            assertThat(Expression.parseValue("ROUND(SYSDATE)").value(M)).as("ROUND of a date: not supported").isNull();
        }

        @Test
        void inConditions() {
            assertThat(Expression.parse("TRUNC(enq_time) = TRUNC(SYSDATE) - 2").test(M)).isTrue();
            assertThat(Expression.parse("TRUNC(hours / 4) = 1").test(M)).isTrue();
            assertThat(Expression.parse("ROUND(hours / 4) = 2").test(M)).isTrue();
        }
    }

    @Nested
    class Errors {
        @ParameterizedTest(name = "<{0}> fails at {1}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "SYSDATE + | 10 | a value | end of expression",
            "SYSDATE +  | 10 | a value | end of expression",
            "SYSDATE 1 | 9 | an operator or the end of the expression | '1'",
            "SYSDATE() | 1 | a function | 'SYSDATE'",
            "TRUNC() | 1 | 1 to 2 arguments for TRUNC | 0 arguments",
            "TRUNC(SYSDATE, 'HH', 1) | 20 | ')' | ','",
            "TRUNC(SYSDATE, 'WEEKS') | 16 | a TRUNC date format | `'WEEKS'`",
            "TRUNC(SYSDATE, 2) | 16 | a TRUNC date format | '2'",
            "TRUNC(1.5, 'HH') | 12 | a number of digits | `'HH'`",
            "TRUNC(amount, 'x') | 15 | a number of digits or a TRUNC date format | `'x'`",
            "ROUND(SYSDATE, 'HH') | 16 | a number of digits | `'HH'`",
            "ROUND(1, 2, 3) | 11 | ')' | ','",
            "frob(SYSDATE) | 1 | TRUNC, ROUND | 'frob'",
        })
        void areReportedWithTheirPosition(String text, int position, String expected, String found) {
            ExpressionSyntaxException e = failure(text);
            assertThat(e.position()).as(e.getMessage()).isEqualTo(position);
            assertThat(e.expected()).as(e.getMessage()).contains(expected);
            assertThat(e.found()).as(e.getMessage()).isEqualTo(found);
            assertThat(e.getMessage()).startsWith("AQ-25448: Expression error at position " + position + ": expected ");
        }

        @Test
        void inAConditionToo() {
            ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class,
                    () -> Expression.parse("enq_time < SYSDATE +"));
            assertThat(e.errorCode()).isEqualTo(AqError.INVALID_EXPRESSION);
            assertThat(e.getMessage()).isEqualTo(
                    "AQ-25448: Condition error at position 21: expected a value but found end of condition");
        }
    }
}
