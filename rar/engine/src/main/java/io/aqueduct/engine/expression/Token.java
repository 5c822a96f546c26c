package io.aqueduct.engine.expression;

/** One lexical token of an expression. */
final class Token {
    enum Type {
        IDENT, QUOTED_IDENT, STRING, NUMBER,
        LPAREN, RPAREN, COMMA, DOT,
        EQ, NE, LT, LE, GT, GE,
        PLUS, MINUS, STAR, SLASH, CONCAT,
        EOF
    }

    final Type type;
    /** The source text of the token. */
    final String text;
    /** Identifier name (unquoted), string value (quotes removed, doubled quotes folded) or number text. */
    final String value;
    /** 0-based start offset in the source. */
    final int pos;
    /**
     * Selector numbers only: the value (Long, Double or Float), or {@link java.math.BigInteger} 2^63,
     * which is valid only after a unary minus.
     */
    final Object number;

    Token(Type type, String text, String value, int pos) {
        this(type, text, value, pos, null);
    }

    Token(Type type, String text, String value, int pos, Object number) {
        this.type = type;
        this.text = text;
        this.value = value;
        this.pos = pos;
        this.number = number;
    }

    boolean is(Type t) {
        return type == t;
    }

    /** An unquoted identifier spelled like the keyword (keywords are case-insensitive). */
    boolean isKeyword(String keyword) {
        return type == Type.IDENT && text.equalsIgnoreCase(keyword);
    }

    boolean isComparison() {
        return switch (type) {
            case EQ, NE, LT, LE, GT, GE -> true;
            default -> false;
        };
    }

    @Override
    public String toString() {
        return type + "(" + text + ")@" + pos;
    }
}
