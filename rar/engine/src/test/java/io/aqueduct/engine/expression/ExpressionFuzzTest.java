package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.PayloadType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random and hostile texts: each either parses (and then evaluates without an
 * exception against every kind of payload, and its normalized form parses to itself) or fails with
 * AQ error 25448 naming a position inside the text; never any other exception.
 */
class ExpressionFuzzTest {
    private static final long SEED = 0x5EED_A0L;
    private static final Pattern MESSAGE = Pattern.compile(
            "AQ-25448: Condition error at position (\\d+): expected .+ but found .+", Pattern.DOTALL);

    private static final String[] VOCABULARY = {
        "priority", "corrid", "enq_time", "delay", "expiration", "retry_count", "sender_name", "msgid",
        "tab", "tab.", "user_data", "tab.user_data", "tab.user_data.orderregion", "user_data.customer.country",
        "orderregion", "region", "amount", "express", "\"Quoted Name\"", "source.user_data.orderno",
        "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE", "FALSE",
        "and", "or", "not", "is not null", "not in", "not like", "not between",
        "=", "!=", "<>", "^=", "<", "<=", ">", ">=", "+", "-", "*", "/", "||", "(", ")", ",", ".",
        "'RUSH'", "'O''Brien'", "''", "'%'", "'_'", "'a!%' ESCAPE '!'", "'", "''''", "\"", "\"\"",
        "0", "1", "42", "-7", "3.14", "1e3", "1E-3", "2.5E+10", "9223372036854775807", "99999999999999999999999",
        "1e999", ".5", "5.", "0x1F",
        "UPPER(", "LOWER(", "LENGTH(", "SUBSTR(", "TRIM(", "NVL(", "ABS(", "TRUNC(", "ROUND(", "frob(",
        "SYSDATE", "systimestamp", "'HH'", "'MM'", "1/24",
        "extract(", "existsNode(", "extractValue(", ".extract(", ".existsNode(", ".getStringVal()",
        ".getNumberVal()", ".getClobVal()", "'/ORDER_TYP/ORDERTYPE/text()'", "'/ORDER_TYP/CUSTOMER/COUNTRY[text()=\"USA\"]'",
        "'/a['", "'count(/x)'", "'//*'",
        ";", "--", "/*", "*/", "DROP TABLE aq$_queue_tables", "DELETE FROM x", "UNION SELECT * FROM dual",
        "'; DROP TABLE x; --", "1=1", "OR 1=1", "EXEC xp_cmdshell", "${jndi:ldap://x}", "<script>", "\\",
        "\u00e9t\u00e9", "\u65e5\u672c", "\ud83d\ude00", "\u202e", "\u0301", "\u0000", "\t", "\n", "\r\n",
        "\u00a0", "\u2028", "\ud800", "#", "$", "@", "?", ":", "!", "^", "|", "&", "%", "_", "~", "`", "{", "}", "[", "]",
    };

    private static final List<MessageView> VIEWS = views();

    private static List<MessageView> views() {
        String json = "{\"orderno\": 1001, \"ordertype\": \"RUSH\", \"orderregion\": \"WESTERN\","
                + " \"customer\": {\"country\": \"USA\"}, \"items\": [1, 2], \"n\": null}";
        String xml = "<ORDER_TYP><ORDERNO>1001</ORDERNO><ORDERTYPE>RUSH</ORDERTYPE><ORDERREGION>WESTERN</ORDERREGION>"
                + "<CUSTOMER><COUNTRY>USA</COUNTRY></CUSTOMER></ORDER_TYP>";
        record Customer(String country) {
        }
        record Order(long orderno, String ordertype, String orderregion, Customer customer) {
        }
        List<MessageView> out = new ArrayList<>();
        PayloadView[] payloads = {
            PayloadView.of(PayloadType.JSON, json),
            PayloadView.of(PayloadType.XML, xml),
            PayloadView.of(PayloadType.OBJECT, new Order(1001, "RUSH", "WESTERN", new Customer("USA"))),
            PayloadView.of(PayloadType.OBJECT, Map.of("orderregion", "WESTERN")),
            PayloadView.of(PayloadType.TEXT, "text"),
            PayloadView.of(PayloadType.RAW, new byte[] {1}),
            PayloadView.of(PayloadType.JSON, "{broken"),
            PayloadView.of(PayloadType.XML, "<broken"),
            PayloadView.none(),
        };
        for (PayloadView p : payloads) {
            out.add(MessageSnapshot.builder().priority(2).correlation("RUSH").enqueueTime(Instant.EPOCH)
                    .senderName("OE").messageId("AB").userProperty("region", "WEST").userProperty("amount", 10)
                    .userProperty("express", true).payload(p).build());
        }
        out.add(MessageSnapshot.builder().build());
        out.add(MessageSnapshot.builder().enqueueTime(Instant.EPOCH).sysdate(Instant.parse("2024-05-01T10:17:42.345Z"))
                .userProperty("region", Instant.MAX).userProperty("amount", 2.5d).build());
        return out;
    }

    private final FuzzContract fuzz = new FuzzContract(Expression::parse, MESSAGE, VIEWS, true);

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
        assertThat(fuzz.parsed).as("some soups parse").isGreaterThan(50);
        assertThat(fuzz.refused).as("most soups are refused").isGreaterThan(3000);
    }

    @Test
    void randomCharactersParseOrFailWith25448() {
        Random r = new Random(SEED + 1);
        String alphabet = "abcdeINORTLKS0123456789 ()'\"=<>!^+-*/|.,;%_\\\n\t#$@?";
        for (int i = 0; i < 4000; i++) {
            int n = r.nextInt(40);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                if (r.nextInt(10) == 0) {
                    sb.append((char) r.nextInt(0x10000)); // any UTF-16 unit, lone surrogates included
                } else {
                    sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
            }
            check(sb.toString());
        }
    }

    @Test
    void mutatedValidConditionsParseOrFailWith25448() {
        String[] seeds = {
            BooksOnLineRulesTest.WEST, BooksOnLineRulesTest.EAST, BooksOnLineRulesTest.OVERSEAS,
            BooksOnLineRulesTest.OVERSEAS_DHL, BooksOnLineRulesTest.CANADA,
            "existsNode(tab.user_data, '/ORDER_TYP/CUSTOMER/COUNTRY[text()=\"USA\"]') = 1",
            "priority BETWEEN 1 AND 5 AND corrid LIKE 'R!%%' ESCAPE '!' OR NOT region IN ('A', 'B''C', NULL)",
            "UPPER(SUBSTR(corrid, 1, 2)) || 'x' = 'RUx' AND amount * -2 / (1 + 1) <= -10.5E0 AND express IS NOT NULL",
        };
        Random r = new Random(SEED + 2);
        String inserts = "()'\",.;=<>!-+*/| %_\u00e9\ud83d";
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
    void hostileInputsParseOrFailWith25448() {
        List<String> hostile = new ArrayList<>(List.of(
                "", " ", "\n", "'", "''", "'''", "\"", "(", ")", "((", "))", ")(", "()", "--", "/*", "*/", ";",
                "priority = 1; DROP TABLE aq$_queues", "priority = 1 -- AND 1=0", "priority = 1 /* x */",
                "corrid = ''; DELETE FROM messages; --'", "corrid = '\\'' OR 1=1 --'", "1=1", "' OR '1'='1",
                "corrid = 'x' UNION SELECT password FROM users", "tab.user_data.extract('//*')",
                "extract(tab.user_data, 'document(\"http://evil/\")').getStringVal() = 'x'",
                "existsNode(tab.user_data, 'java:java.lang.Runtime.exec(\"rm\")') = 1",
                "tab.user_data.getClass() = 1", "tab.user_data.class.classLoader IS NULL",
                "corrid = '\u0000'", "corrid = '\ud800'", "\ud83d\ude00 = 1", "\u202e = 1", "x\u0301 = 1",
                "priority = 1e126", "priority = 1e125", "priority = 1e-131", "priority = 00000000000000000000001",
                "priority = 99999999999999999999999999999999999999999999999999 * 99999999999999999999999999999999",
                "1e125 * 1e125 * 1e125 * 1e125 > 1", "9223372036854775807 * 9223372036854775807 > 0",
                "-9223372036854775808 / -1 > 0", "ABS(-9223372036854775808) > 0", "1 / 0 = 1", "0 / 0 IS NULL",
                "SUBSTR(corrid, 9223372036854775807, 9223372036854775807) IS NULL", "SUBSTR(corrid, -9223372036854775807) IS NULL",
                "priority = " + "9".repeat(2000), "corrid = '" + "x".repeat(50_000) + "'",
                "corrid LIKE '" + "%_".repeat(2000) + "'", "'" + "a".repeat(3000) + "' LIKE '" + "%a".repeat(1000) + "%b'",
                "priority IN (" + "1, ".repeat(20_000) + "2)",
                "priority = 1" + " AND priority = 1".repeat(5000),
                "(".repeat(100_000), ")".repeat(100_000), "'".repeat(100_001), "NOT ".repeat(20_000) + "TRUE",
                "(".repeat(1000) + "TRUE" + ")".repeat(1000), "-".repeat(10_000) + "1 = 1", "- ".repeat(10_000) + "1 = 1",
                "x" + ".y".repeat(10_000) + " = 1", "upper(".repeat(3000), "tab.user_data" + ".getStringVal()".repeat(3000) + " = 'x'",
                "a".repeat(100_001)));
        for (String s : hostile) {
            check(s);
        }
        check(null);
        assertThat(fuzz.parsed).isGreaterThan(10);
    }

    @Test
    void generatedValidConditionsAlwaysParse() {
        Random r = new Random(SEED + 3);
        for (int i = 0; i < 3000; i++) {
            String text = condition(r, 0);
            int before = fuzz.parsed;
            check(text);
            assertThat(fuzz.parsed).as("generated <%s> parses", text).isEqualTo(before + 1);
        }
    }

    private static String condition(Random r, int depth) {
        int choice = depth > 4 ? r.nextInt(5) : r.nextInt(9);
        switch (choice) {
            case 0:
                return value(r, depth) + " " + pick(r, "=", "!=", "<>", "<", "<=", ">", ">=") + " " + value(r, depth);
            case 1:
                return value(r, depth) + pick(r, " IS NULL", " IS NOT NULL");
            case 2:
                return value(r, depth) + pick(r, " IN (", " NOT IN (") + value(r, depth) + ", " + value(r, depth) + ")";
            case 3:
                return value(r, depth) + pick(r, " BETWEEN ", " NOT BETWEEN ") + value(r, depth) + " AND " + value(r, depth);
            case 4:
                return value(r, depth) + pick(r, " LIKE ", " NOT LIKE ") + pick(r, "'R%'", "'_U%'", "'%!%%' ESCAPE '!'", "region");
            case 5:
                return condition(r, depth + 1) + pick(r, " AND ", " OR ", " and ", " or ") + condition(r, depth + 1);
            case 6:
                return "NOT " + condition(r, depth + 1);
            case 7:
                return "(" + condition(r, depth + 1) + ")";
            default:
                return pick(r, "TRUE", "FALSE", "express");
        }
    }

    private static String value(Random r, int depth) {
        int choice = depth > 4 ? r.nextInt(4) : r.nextInt(8);
        switch (choice) {
            case 0:
                return pick(r, "priority", "tab.corrid", "enq_time", "delay", "retry_count", "msgid", "region", "amount",
                        "SYSDATE", "systimestamp");
            case 1:
                return pick(r, "tab.user_data.orderregion", "user_data.customer.country", "orderno", "tab.user_data.n",
                        "tab.user_data.items", "tab.user_data");
            case 2:
                return pick(r, "1", "-2", "3.5", "1E2", "'RUSH'", "'O''Brien'", "NULL", "'2024-01-01'", "'10'");
            case 3:
                return pick(r, "extract(tab.user_data, '/ORDER_TYP/ORDERTYPE/text()').getStringVal()",
                        "tab.user_data.extract('/ORDER_TYP/ORDERNO/text()').getNumberVal()",
                        "existsNode(tab.user_data, '//COUNTRY')");
            case 4:
                return value(r, depth + 1) + " " + pick(r, "+", "-", "*", "/", "||") + " " + value(r, depth + 1);
            case 5:
                return "-" + value(r, depth + 1).replaceFirst("^-", "");
            case 6:
                if (r.nextInt(4) == 0) {
                    // a literal second argument of TRUNC must suit the first (a date format or digits)
                    return r.nextBoolean()
                            ? "ROUND(" + value(r, depth + 1) + ", " + pick(r, "2", "-1", "'1'", "NULL", "amount") + ")"
                            : "TRUNC(" + value(r, depth + 1) + ", " + pick(r, "NULL", "amount", "region") + ")";
                }
                return pick(r, "UPPER(", "LOWER(", "LENGTH(", "TRIM(", "ABS(", "TRUNC(", "ROUND(") + value(r, depth + 1) + ")";
            default:
                return "(" + value(r, depth + 1) + ")";
        }
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }
}
