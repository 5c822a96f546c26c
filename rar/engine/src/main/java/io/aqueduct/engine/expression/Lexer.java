package io.aqueduct.engine.expression;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits expression text into tokens; errors carry the 1-based position.
 *
 * <p>In selector mode (JMS message selectors) the lexical rules are those of the Jakarta Messaging
 * specification: white space is space, tab, form feed and line terminators only; identifiers are
 * Java identifiers; numbers are Java integer literals (decimal, hex {@code 0x}, octal {@code 0},
 * binary {@code 0b}, {@code _} between digits, {@code L} suffix; all read as long) and Java
 * floating-point literals ({@code 7.}, {@code .5}, {@code 7E3}, {@code F}/{@code D} suffixes, hex
 * {@code 0x1p3}); there are no quoted identifiers, dotted names, {@code !=}, {@code ^=} or
 * {@code ||}. Comments ({@code --}, {@code /*}) are refused in both modes.
 */
final class Lexer {
    private static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);

    private final String src;
    private final String label;
    private final boolean selector;
    private int i;

    Lexer(String src, String label) {
        this(src, label, false);
    }

    Lexer(String src, String label, boolean selector) {
        this.src = src;
        this.label = label;
        this.selector = selector;
    }

    List<Token> tokenize() {
        List<Token> out = new ArrayList<>();
        int n = src.length();
        while (true) {
            while (i < n && (selector ? isSelectorSpace(src.charAt(i)) : isSpace(src.charAt(i)))) {
                i++;
            }
            if (i >= n) {
                out.add(new Token(Token.Type.EOF, "", "", n));
                return out;
            }
            out.add(next());
        }
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B'
                || Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** Java white space: space, horizontal tab, form feed, line terminators. */
    private static boolean isSelectorSpace(char c) {
        return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r';
    }

    private Token next() {
        int start = i;
        char c = src.charAt(i);
        if (selector) {
            Token t = selectorToken(start, c);
            if (t != null) {
                return t;
            }
        }
        switch (c) {
            case '(':
                i++;
                return simple(Token.Type.LPAREN, start);
            case ')':
                i++;
                return simple(Token.Type.RPAREN, start);
            case ',':
                i++;
                return simple(Token.Type.COMMA, start);
            case '+':
                i++;
                return simple(Token.Type.PLUS, start);
            case '*':
                i++;
                return simple(Token.Type.STAR, start);
            case '=':
                i++;
                return simple(Token.Type.EQ, start);
            case '-':
                if (peek(1) == '-') {
                    throw error(start, "an expression (comments are not allowed)", "'--'");
                }
                i++;
                return simple(Token.Type.MINUS, start);
            case '/':
                if (peek(1) == '*') {
                    throw error(start, "an expression (comments are not allowed)", "'/*'");
                }
                i++;
                return simple(Token.Type.SLASH, start);
            case '<':
                i++;
                if (peek(0) == '=') {
                    i++;
                    return simple(Token.Type.LE, start);
                }
                if (peek(0) == '>') {
                    i++;
                    return simple(Token.Type.NE, start);
                }
                return simple(Token.Type.LT, start);
            case '>':
                i++;
                if (peek(0) == '=') {
                    i++;
                    return simple(Token.Type.GE, start);
                }
                return simple(Token.Type.GT, start);
            case '!':
            case '^':
                if (peek(1) == '=') {
                    i += 2;
                    return simple(Token.Type.NE, start);
                }
                throw error(start, "an operator", quote(String.valueOf(c)));
            case '|':
                if (peek(1) == '|') {
                    i += 2;
                    return simple(Token.Type.CONCAT, start);
                }
                throw error(start, "an operator", "'|'");
            case '\'':
                return string(start);
            case '"':
                return quotedIdentifier(start);
            case '.':
                if (isDigit(peek(1))) {
                    return number(start);
                }
                i++;
                return simple(Token.Type.DOT, start);
            default:
                break;
        }
        if (isDigit(c)) {
            return number(start);
        }
        if (Character.isLetter(c) || c == '_') {
            while (i < src.length() && isIdentPart(src.charAt(i))) {
                i++;
            }
            String text = src.substring(start, i);
            return new Token(Token.Type.IDENT, text, text, start);
        }
        int cp = src.codePointAt(i);
        throw error(start, "an expression", quote(new String(Character.toChars(cp))));
    }

    /** The selector-specific tokens, or null for those lexed as in conditions. */
    private Token selectorToken(int start, char c) {
        switch (c) {
            case '!':
            case '^':
                throw error(start, "'<>' for not equal (selectors have no '" + c + "=')", quote(String.valueOf(c)));
            case '|':
                throw error(start, "an operator (selectors have no '||')", "'|'");
            case '"':
                throw error(start, "an identifier (selectors have no quoted names)", "'\"'");
            case '.':
                if (isDigit(peek(1))) {
                    return javaNumber(start);
                }
                throw error(start, "an operator (selectors have no dotted names)", "'.'");
            default:
                break;
        }
        if (isDigit(c)) {
            return javaNumber(start);
        }
        int cp = src.codePointAt(i);
        if (Character.isJavaIdentifierStart(cp)) {
            i += Character.charCount(cp);
            while (i < src.length()) {
                int p = src.codePointAt(i);
                if (!Character.isJavaIdentifierPart(p)) {
                    break;
                }
                i += Character.charCount(p);
            }
            String text = src.substring(start, i);
            return new Token(Token.Type.IDENT, text, text, start);
        }
        return null; // punctuation and operators as in conditions; anything else is refused there
    }

    /** A Java integer or floating-point literal (selector mode). */
    private Token javaNumber(int start) {
        Object value;
        char c = src.charAt(i);
        if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            i += 2;
            String digits = digitRun(16, start);
            boolean floating = false;
            String fraction = "";
            if (peek(0) == '.') {
                floating = true;
                i++;
                fraction = digitRun(16, start);
            }
            if (peek(0) == 'p' || peek(0) == 'P') {
                i++;
                String sign = sign();
                String exponent = digitRun(10, start);
                if (exponent.isEmpty() || digits.isEmpty() && fraction.isEmpty()) {
                    throw badNumber(start);
                }
                char suffix = floatSuffix();
                value = floating(start, "0x" + digits + "." + fraction + "p" + sign + exponent, suffix);
            } else {
                if (floating || digits.isEmpty()) {
                    throw badNumber(start); // a hexadecimal floating literal needs its p exponent
                }
                longSuffix();
                value = unsigned(start, digits, 16);
            }
        } else if (c == '0' && (peek(1) == 'b' || peek(1) == 'B')) {
            i += 2;
            String digits = digitRun(2, start);
            if (digits.isEmpty()) {
                throw badNumber(start);
            }
            longSuffix();
            value = unsigned(start, digits, 2);
        } else {
            String whole = digitRun(10, start);
            boolean floating = false;
            String fraction = "";
            String exponent = "0";
            String sign = "";
            if (peek(0) == '.') {
                floating = true;
                i++;
                fraction = digitRun(10, start);
            }
            if (peek(0) == 'e' || peek(0) == 'E') {
                floating = true;
                i++;
                sign = sign();
                exponent = digitRun(10, start);
                if (exponent.isEmpty()) {
                    throw badNumber(start);
                }
            }
            char suffix = floatSuffix();
            if (floating || suffix != 0) {
                value = floating(start, (whole.isEmpty() ? "0" : whole) + "." + fraction + "0e" + sign + exponent, suffix);
            } else {
                longSuffix();
                if (whole.length() > 1 && whole.charAt(0) == '0') {
                    for (int k = 1; k < whole.length(); k++) {
                        if (whole.charAt(k) > '7') {
                            throw error(start, "an octal digit (0 to 7) in a number starting with 0", quote(src.substring(start, i)));
                        }
                    }
                    value = unsigned(start, whole.substring(1), 8);
                } else {
                    BigInteger b = new BigInteger(whole);
                    if (b.compareTo(TWO_63) > 0) {
                        throw error(start, "a number in the range of long", quote(src.substring(start, i)));
                    }
                    value = b.equals(TWO_63) ? TWO_63 : (Object) b.longValueExact();
                }
            }
        }
        if (i < src.length() && (src.charAt(i) == '.' || Character.isJavaIdentifierPart(src.codePointAt(i)))) {
            i++;
            throw badNumber(start);
        }
        String text = src.substring(start, i);
        return new Token(Token.Type.NUMBER, text, text, start, value);
    }

    /** Digits of the radix with Java's underscores between them; the digits without underscores (maybe ""). */
    private String digitRun(int radix, int start) {
        int from = i;
        int n = src.length();
        while (i < n && (src.charAt(i) == '_' || (src.charAt(i) < 128 && Character.digit(src.charAt(i), radix) >= 0))) {
            i++;
        }
        String run = src.substring(from, i);
        if (run.startsWith("_") || run.endsWith("_")) {
            throw error(start, "a number ('_' only between digits)", quote(src.substring(start, i)));
        }
        return run.replace("_", "");
    }

    private String sign() {
        char s = peek(0);
        if (s == '+' || s == '-') {
            i++;
            return String.valueOf(s);
        }
        return "";
    }

    private char floatSuffix() {
        char s = peek(0);
        if (s == 'f' || s == 'F' || s == 'd' || s == 'D') {
            i++;
            return s;
        }
        return 0;
    }

    private void longSuffix() {
        if (peek(0) == 'l' || peek(0) == 'L') {
            i++;
        }
    }

    private Object floating(int start, String text, char suffix) {
        try {
            if (suffix == 'f' || suffix == 'F') {
                float f = Float.parseFloat(text);
                if (Float.isFinite(f)) {
                    return f;
                }
            } else {
                double d = Double.parseDouble(text);
                if (Double.isFinite(d)) {
                    return d;
                }
            }
        } catch (NumberFormatException e) {
            throw badNumber(start);
        }
        throw error(start, "a number in the range of " + (suffix == 'f' || suffix == 'F' ? "float" : "double"),
                quote(src.substring(start, i)));
    }

    private Object unsigned(int start, String digits, int radix) {
        try {
            return Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException e) {
            throw error(start, "a number in the range of long", quote(src.substring(start, i)));
        }
    }

    private ExpressionSyntaxException badNumber(int start) {
        return error(start, "a number", quote(src.substring(start, Math.min(i, src.length()))));
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '#';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private char peek(int ahead) {
        int k = i + ahead;
        return k < src.length() ? src.charAt(k) : '\0';
    }

    private Token simple(Token.Type type, int start) {
        return new Token(type, src.substring(start, i), null, start);
    }

    private Token number(int start) {
        int n = src.length();
        while (i < n && isDigit(src.charAt(i))) {
            i++;
        }
        if (i < n && src.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(src.charAt(i))) {
                i++;
            }
        }
        if (i < n && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
            int k = i + 1;
            if (k < n && (src.charAt(k) == '+' || src.charAt(k) == '-')) {
                k++;
            }
            if (k < n && isDigit(src.charAt(k))) {
                i = k;
                while (i < n && isDigit(src.charAt(i))) {
                    i++;
                }
            }
        }
        String text = src.substring(start, i);
        return new Token(Token.Type.NUMBER, text, text, start);
    }

    private Token string(int start) {
        StringBuilder sb = new StringBuilder();
        int n = src.length();
        i++;
        while (true) {
            if (i >= n) {
                throw error(start, "a closing quote for the string starting at position " + (start + 1),
                        "end of " + label.toLowerCase(java.util.Locale.ROOT));
            }
            char c = src.charAt(i++);
            if (c == '\'') {
                if (i < n && src.charAt(i) == '\'') {
                    sb.append('\'');
                    i++;
                    continue;
                }
                break;
            }
            sb.append(c);
        }
        return new Token(Token.Type.STRING, src.substring(start, i), sb.toString(), start);
    }

    private Token quotedIdentifier(int start) {
        StringBuilder sb = new StringBuilder();
        int n = src.length();
        i++;
        while (true) {
            if (i >= n) {
                throw error(start, "a closing double quote for the name starting at position " + (start + 1),
                        "end of " + label.toLowerCase(java.util.Locale.ROOT));
            }
            char c = src.charAt(i++);
            if (c == '"') {
                if (i < n && src.charAt(i) == '"') {
                    sb.append('"');
                    i++;
                    continue;
                }
                break;
            }
            sb.append(c);
        }
        if (sb.length() == 0) {
            throw error(start, "a name between the double quotes", "'\"\"'");
        }
        return new Token(Token.Type.QUOTED_IDENT, src.substring(start, i), sb.toString(), start);
    }

    private ExpressionSyntaxException error(int pos, String expected, String found) {
        return new ExpressionSyntaxException(label, pos + 1, expected, found);
    }

    /** Quotes text for an error message: control characters shown as spaces, long text shortened. */
    static String quote(String text) {
        String t = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        StringBuilder sb = new StringBuilder(t.length() + 2).append('\'');
        for (int k = 0; k < t.length(); k++) {
            char c = t.charAt(k);
            sb.append(Character.isISOControl(c) ? ' ' : c);
        }
        return sb.append('\'').toString();
    }
}
