package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What every text given to the expression language must do, in either mode (AQ condition or JMS
 * selector): parse cleanly — then evaluate without an exception on every view and reprint to a
 * form that parses to itself with the same results — or fail with AQ error 25448 naming a position
 * inside the text; never any other exception. Counts what parsed and what was refused.
 */
final class FuzzContract {
    private final Function<String, Expression> parse;
    private final Pattern message;
    private final List<MessageView> views;
    private final boolean readsValues;
    int parsed;
    int refused;

    /** {@code readsValues}: also ask each parsed expression for its value ({@link Expression#value}). */
    FuzzContract(Function<String, Expression> parse, Pattern message, List<MessageView> views, boolean readsValues) {
        this.parse = parse;
        this.message = message;
        this.views = views;
        this.readsValues = readsValues;
    }

    void check(String text) {
        Expression e;
        try {
            e = parse.apply(text);
        } catch (AqException ex) {
            if (ex.errorCode() != AqError.INVALID_EXPRESSION || !message.matcher(ex.getMessage()).matches()) {
                fail("unexpected AqException for <" + printable(text) + ">: " + ex.getMessage(), ex);
            }
            int position = ((ExpressionSyntaxException) ex).position();
            int limit = text == null ? 1 : Math.max(1, Math.min(text.length(), Parser.MAX_LENGTH) + 1);
            if (position < 1 || position > limit) {
                fail("position " + position + " outside the text <" + printable(text) + ">: " + ex.getMessage());
            }
            refused++;
            return;
        } catch (Throwable t) {
            fail("parse of <" + printable(text) + "> threw " + t, t);
            return;
        }
        parsed++;
        try {
            for (MessageView m : views) {
                e.test(m);
                e.evaluate(m);
                if (readsValues) {
                    e.value(m);
                }
            }
        } catch (Throwable t) {
            fail("evaluation of <" + printable(text) + "> threw " + t, t);
        }
        try {
            Expression again = parse.apply(e.toString());
            assertThat(again.toString()).as("normalized form of <%s>", printable(text)).isEqualTo(e.toString());
            for (MessageView m : views) {
                assertThat(again.evaluate(m)).as("<%s> vs <%s>", printable(text), e).isEqualTo(e.evaluate(m));
            }
        } catch (AqException ex) {
            fail("normalized form <" + e + "> of <" + printable(text) + "> does not parse: " + ex.getMessage(), ex);
        }
    }

    static String printable(String s) {
        if (s == null) {
            return "null";
        }
        String t = s.length() > 300 ? s.substring(0, 300) + "...(" + s.length() + " chars)" : s;
        StringBuilder sb = new StringBuilder();
        t.codePoints().forEach(cp -> {
            if (cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)) {
                sb.append(String.format("\\u%04x", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.toString();
    }
}
