package io.aqueduct.engine.expression;

import java.util.ArrayList;
import java.util.List;

/** Splits expression text into tokens; errors carry the 1-based position. */
final class Lexer {
    private final String src;
    private final String label;
    private int i;

    Lexer(String src, String label) {
        this.src = src;
        this.label = label;
    }

    List<Token> tokenize() {
        List<Token> out = new ArrayList<>();
        int n = src.length();
        while (true) {
            while (i < n && isSpace(src.charAt(i))) {
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

    private Token next() {
        int start = i;
        char c = src.charAt(i);
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
