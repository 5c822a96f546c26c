package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionSyntaxErrorTest {

    private static ExpressionSyntaxException failure(String text) {
        ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class, () -> Expression.parse(text));
        assertThat(e).as("parse of <%s> fails", text).isNotNull();
        assertThat(e.errorCode()).isEqualTo(AqError.INVALID_EXPRESSION);
        return e;
    }

    @Test
    void messageNamesPositionExpectationAndFinding() {
        AqException e = failure("x= ABS(priority AND corrid = 'A')");
        assertThat(e).hasMessage("AQ-25448: Condition error at position 17: expected ')' but found 'AND'");
        assertThat(failure("SUBSTR(corrid, 1 AND x").getMessage()).contains("position 18: expected ',' or ')' but found 'AND'");
        assertThat(failure("(priority = 1 OR corrid = 'A'").getMessage())
                .isEqualTo("AQ-25448: Condition error at position 30: expected ')' but found end of condition");
    }

    @ParameterizedTest(name = "<{0}> fails at {1}, expected {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // text | position | expected phrase (contained) | found
        "priority = | 11 | a value | end of condition",
        "priority == 1 | 11 | a value | '='",
        "priority = 1 AND | 17 | a value | end of condition",
        "(priority = 1 | 14 | ')' | end of condition",
        "priority = 1) | 13 | an operator or the end of the condition | ')'",
        "corrid = 'RUSH | 10 | a closing quote | end of condition",
        "priority IN 1, 2 | 13 | '(' after IN | '1'",
        "priority IN (1, 2 | 18 | ',' or ')' | end of condition",
        "priority BETWEEN 1 OR 5 | 20 | 'AND' | 'OR'",
        "priority NOT 5 | 14 | IN, BETWEEN or LIKE after NOT | '5'",
        "corrid IS 5 | 11 | 'NULL' | '5'",
        "corrid = 'A' ; DROP TABLE aq | 14 | an expression | ';'",
        "corrid = 'A' -- comment | 14 | comments are not allowed | '--'",
        "corrid = 'A' /* x */ | 14 | comments are not allowed | '/*'",
        "5 | 1 | a condition | '5'",
        "priority + 1 | 1 | a condition | 'priority'",
        "'abc' OR TRUE | 1 | a condition | 'abc'",
        "NOT 7 | 5 | a condition | '7'",
        "frobnicate(corrid) = 1 | 1 | a function | 'frobnicate'",
        "UPPER(corrid, 1) = 'A' | 13 | ')' | ','",
        "UPPER() = 'A' | 1 | 1 argument for UPPER | 0 arguments",
        "SUBSTR(corrid) = 'A' | 1 | 2 to 3 arguments for SUBSTR | 1 argument",
        "tab.user_data.getStringVal(1) = 'A' | 28 | ')' | '1'",
        "tab.user_data.explode('/a') = 1 | 15 | an XMLType method | 'explode'",
        "extract(tab.user_data, '/a[') IS NULL | 24 | a valid XPath expression | '/a['",
        "corrid LIKE 'a!' ESCAPE '!' | 13 | a LIKE pattern | 'a!'",
        "corrid LIKE 'a' ESCAPE '!!' | 24 | a single escape character | '!!'",
        "priority = 1e999 | 12 | a number between | '1e999'",
        "tab. = 1 | 6 | a name after '.' | '='",
        "priority < (corrid = 'A') | 13 | a value, not a condition, | 'corrid'",
        "AND priority = 1 | 1 | a value | 'AND'",
        "priority = 1 priority = 2 | 14 | an operator or the end of the condition | 'priority'",
        "\"\" = 1 | 1 | a name between the double quotes | '\"\"'",
        "corrid = \u00a7 | 10 | an expression | '\u00a7'",
    })
    void malformedInputNamesThePosition(String text, int position, String expected, String found) {
        ExpressionSyntaxException e = failure(text);
        assertThat(e.position()).as(e.getMessage()).isEqualTo(position);
        assertThat(e.expected()).as(e.getMessage()).contains(expected);
        assertThat(e.found()).as(e.getMessage()).isEqualTo(found);
        assertThat(e.getMessage()).startsWith("AQ-25448: Condition error at position " + position + ": expected ");
    }

    @Test
    void nullAndBlankAreRefused() {
        assertThat(failure(null).getMessage()).isEqualTo("AQ-25448: Condition error at position 1: expected a condition but found no text (null)");
        assertThat(failure("").position()).isEqualTo(1);
        assertThat(failure("   \n\t ").getMessage()).contains("expected a condition but found end of condition");
    }

    @Test
    void positionsCountFromOneAcrossLines() {
        ExpressionSyntaxException e = failure("priority = 1 AND\n  corrid = = 'x'");
        assertThat(e.position()).isEqualTo(29);
    }

    @Test
    void deepNestingFailsCleanly() {
        String deep = "(".repeat(5000) + "priority = 1" + ")".repeat(5000);
        ExpressionSyntaxException e = failure(deep);
        assertThat(e.expected()).contains("levels of nesting");
        assertThat(failure("NOT ".repeat(5000) + "TRUE").expected()).contains("levels of nesting");
        assertThat(failure("priority = " + "-".repeat(5000) + "1").getMessage()).contains("comments are not allowed");
        assertThat(failure("priority = " + "- ".repeat(5000) + "1").expected()).contains("levels of nesting");
        assertThat(failure("upper(".repeat(5000) + "corrid" + ")".repeat(5000) + " = 'A'").expected())
                .contains("levels of nesting");
    }

    @Test
    void nestingWithinTheLimitParses() {
        String ok = "(".repeat(90) + "priority = 1" + ")".repeat(90);
        assertThat(Expression.parse(ok).test(MessageSnapshot.builder().build())).isTrue();
    }

    @Test
    void longFlatChainsDoNotRecurse() {
        String or = "priority = 0" + " OR priority = 0".repeat(5000) + " OR priority = 1";
        assertThat(Expression.parse(or).test(MessageSnapshot.builder().build())).isTrue();
        String sum = "1" + " + 1".repeat(10000) + " = 10001";
        assertThat(Expression.parse(sum).test(MessageSnapshot.builder().build())).isTrue();
    }

    @Test
    void overlongTextIsRefused() {
        assertThatThrownBy(() -> Expression.parse("priority = 1 OR ".repeat(10_000) + "TRUE"))
                .isInstanceOf(AqException.class)
                .hasMessageContaining("at most 100000 characters");
    }

    @Test
    void reservedWordsAreNotNames() {
        assertThat(failure("in = 1").found()).isEqualTo("'in'");
        assertThat(failure("priority = null = 1").position()).isEqualTo(17);
    }

    @Test
    void valueExpressionsReportAsExpressions() {
        ExpressionSyntaxException e = catchThrowableOfType(ExpressionSyntaxException.class, () -> Expression.parseValue("source.user_data."));
        assertThat(e.getMessage()).isEqualTo(
                "AQ-25448: Expression error at position 18: expected a name after '.' but found end of expression");
    }
}
