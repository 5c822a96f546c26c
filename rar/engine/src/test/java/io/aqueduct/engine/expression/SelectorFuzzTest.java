package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Random and hostile selectors: each either parses (and then evaluates without an exception, and
 * its normalized form parses to itself with the same results) or fails with AQ error 25448 naming
 * a position inside the text; never any other exception, never a StackOverflowError.
 */
class SelectorFuzzTest {
    private static final long SEED = 0x5E1EC7L;
    private static final Pattern MESSAGE = Pattern.compile(
            "AQ-25448: Selector error at position (\\d+): expected .+ but found .+", Pattern.DOTALL);

    private static final String[] VOCABULARY = {
        "JMSDeliveryMode", "JMSPriority", "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSType",
        "JMSExpiration", "JMSXGroupID", "color", "Color", "weight", "flag", "s", "missing", "$x", "_y", "priority",
        "tab.priority", "user_data", "\"q\"",
        "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE", "FALSE",
        "and", "or", "not", "is not null", "not in", "not like", "not between",
        "=", "!=", "<>", "^=", "<", "<=", ">", ">=", "+", "-", "*", "/", "||", "(", ")", ",", ".",
        "'blue'", "'O''Brien'", "''", "'%'", "'_'", "'a!%' ESCAPE '!'", "'", "''''",
        "0", "1", "42", "-7", "3.14", "1e3", "1E-3", "2.5E+10", "9223372036854775807", "9223372036854775808",
        "99999999999999999999999", "1e999", ".5", "5.", "0x1F", "017", "08", "0b11", "1_000", "1L", "1.5F", "2d",
        "0x1p3", "0x", "1_", "UPPER(", "f(", ";", "--", "/*", "'; DROP TABLE x; --", "1=1", "\\",
        "\u00e9t\u00e9", "\ud83d\ude00", "\u0000", "\t", "\n", "\u00a0", "\u2028", "\ud800", "#", "@", "?", "!", "|",
    };

    private static final List<MessageView> VIEWS = List.of(
            MessageSnapshot.builder().priority(5).correlation("RUSH").enqueueTime(Instant.EPOCH).messageId("AB")
                    .userProperty("JMSType", "car").userProperty("JMSDeliveryMode", "PERSISTENT")
                    .userProperty("color", "blue").userProperty("weight", 3000).userProperty("flag", true)
                    .userProperty("s", "2").build(),
            MessageSnapshot.builder().userProperty("weight", Double.NaN).userProperty("color", 7)
                    .userProperty("flag", "yes").userProperty("s", Float.MAX_VALUE).build(),
            MessageSnapshot.builder().userProperty("weight", Long.MIN_VALUE).userProperty("s", (byte) -1).build(),
            MessageSnapshot.builder().build());

    private final FuzzContract fuzz = new FuzzContract(Expression::parseSelector, MESSAGE, VIEWS, false);

    private void check(String text) {
        fuzz.check(text);
    }

    @Test
    void randomTokenSoupParsesOrFailsWith25448() {
        Random r = new Random(SEED);
        for (int i = 0; i < 6000; i++) {
            int n = 1 + r.nextInt(14);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                sb.append(VOCABULARY[r.nextInt(VOCABULARY.length)]);
                if (r.nextInt(3) > 0) {
                    sb.append(' ');
                }
            }
            check(sb.toString());
        }
        assertThat(fuzz.parsed).as("some soups parse").isGreaterThan(30);
        assertThat(fuzz.refused).as("most soups are refused").isGreaterThan(3000);
    }

    @Test
    void randomCharactersParseOrFailWith25448() {
        Random r = new Random(SEED + 1);
        String alphabet = "abcdeINORTLKSxXpPfFdDlL0123456789 ()'\"=<>!^+-*/|.,;%_\\\n\t#$@?";
        for (int i = 0; i < 4000; i++) {
            int n = 1 + r.nextInt(40);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                if (r.nextInt(10) == 0) {
                    sb.append((char) r.nextInt(0x10000));
                } else {
                    sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
            }
            check(sb.toString());
        }
    }

    @Test
    void mutatedValidSelectorsParseOrFailWith25448() {
        String[] seeds = {
            "JMSType = 'car' AND color = 'blue' AND weight > 2500",
            "JMSPriority BETWEEN 3 AND 9 OR color LIKE 'b!_%' ESCAPE '!' AND NOT s IN ('1', 'O''Brien')",
            "weight * -2 / (1 + 0x10) <= -10.5E0 AND flag AND missing IS NULL OR JMSTimestamp > 1_000L",
        };
        Random r = new Random(SEED + 2);
        String inserts = "()'\",.;=<>!-+*/| %_xLFe\u00e9\ud83d";
        for (int i = 0; i < 6000; i++) {
            StringBuilder sb = new StringBuilder(seeds[r.nextInt(seeds.length)]);
            int edits = 1 + r.nextInt(4);
            for (int k = 0; k < edits && sb.length() > 0; k++) {
                int at = r.nextInt(sb.length());
                switch (r.nextInt(4)) {
                    case 0 -> sb.deleteCharAt(at);
                    case 1 -> sb.insert(at, inserts.charAt(r.nextInt(inserts.length())));
                    case 2 -> sb.setCharAt(at, inserts.charAt(r.nextInt(inserts.length())));
                    default -> sb.insert(at, VOCABULARY[r.nextInt(VOCABULARY.length)]);
                }
            }
            check(sb.toString());
        }
    }

    @Test
    void hostileSelectorsParseOrFailWith25448() {
        List<String> hostile = new ArrayList<>(List.of(
                "'", "''", "\"", "(", ")", "()", "--", "/*", ";", "color = 'a'; DROP TABLE aq$_queues",
                "color = '\u0000'", "color = '\ud800'", "\ud83d\ude00 = 1", "x\u0301 = 1",
                "weight = " + "9".repeat(2000), "weight = 0x" + "F".repeat(2000), "weight = 1e" + "9".repeat(2000),
                "weight = 0." + "0".repeat(5000) + "1", "weight = " + "1_".repeat(3000) + "1",
                "color = '" + "x".repeat(50_000) + "'", "color LIKE '" + "%_".repeat(2000) + "'",
                "color IN (" + "'a', ".repeat(20_000) + "'b')", "weight = 1" + " AND weight = 1".repeat(5000),
                "(".repeat(100_000), ")".repeat(100_000), "'".repeat(100_001), "NOT ".repeat(20_000) + "TRUE",
                "(".repeat(1000) + "TRUE" + ")".repeat(1000), "(".repeat(40_000) + "TRUE" + ")".repeat(40_000),
                "-".repeat(10_000) + "1 = 1", "- ".repeat(10_000) + "1 = 1", "+".repeat(10_000) + "1 = 1",
                "x" + ".y".repeat(10_000) + " = 1", "f(".repeat(3000), "a".repeat(100_001),
                "-9223372036854775808 / -1 < 0", "weight / 0 IS NULL", "1 / 0 = 1"));
        for (String s : hostile) {
            check(s);
        }
        assertThat(fuzz.parsed).isGreaterThan(3);
    }
}
