package io.aqueduct.engine.session;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/** A dequeue correlation: an exact identifier, or a LIKE pattern with {@code %} and {@code _}. */
final class CorrelationPattern {
    private CorrelationPattern() {
    }

    static Predicate<String> compile(String correlation) {
        if (correlation.indexOf('%') < 0 && correlation.indexOf('_') < 0) {
            return correlation::equals;
        }
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char ch : correlation.toCharArray()) {
            if (ch == '%' || ch == '_') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(ch == '%' ? ".*" : ".");
            } else {
                literal.append(ch);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
        return s -> p.matcher(s).matches();
    }
}
