package io.aqueduct.engine.expression;

/**
 * A compiled SQL LIKE pattern: {@code %} any sequence, {@code _} one character, an optional escape
 * character making the next {@code %}, {@code _} or escape character literal. Matching is
 * case-sensitive, without regular expressions, in O(text × pattern) at worst.
 */
final class LikePattern {
    private static final byte LITERAL = 0;
    private static final byte ONE = 1;
    private static final byte ANY = 2;

    private final char[] chars;
    private final byte[] kinds;
    private final String source;

    private LikePattern(char[] chars, byte[] kinds, String source) {
        this.chars = chars;
        this.kinds = kinds;
        this.source = source;
    }

    /**
     * Compiles a pattern. {@code escape} is null for none.
     *
     * @throws IllegalArgumentException (with an "expected" phrase) when the escape character is
     *     not a single character or is followed by anything but %, _ or itself
     */
    static LikePattern compile(String pattern, String escape) {
        char esc = 0;
        boolean hasEscape = escape != null;
        if (hasEscape) {
            if (escape.length() != 1) {
                throw new IllegalArgumentException("a single escape character");
            }
            esc = escape.charAt(0);
        }
        int n = pattern.length();
        char[] cs = new char[n];
        byte[] ks = new byte[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            char c = pattern.charAt(i);
            if (hasEscape && c == esc) {
                if (i + 1 >= n) {
                    throw new IllegalArgumentException("'%', '_' or the escape character after the escape character");
                }
                char d = pattern.charAt(++i);
                if (d != '%' && d != '_' && d != esc) {
                    throw new IllegalArgumentException("'%', '_' or the escape character after the escape character");
                }
                cs[m] = d;
                ks[m++] = LITERAL;
            } else if (c == '%') {
                if (m > 0 && ks[m - 1] == ANY) {
                    continue; // %% is %
                }
                ks[m++] = ANY;
            } else if (c == '_') {
                ks[m++] = ONE;
            } else {
                cs[m] = c;
                ks[m++] = LITERAL;
            }
        }
        return new LikePattern(java.util.Arrays.copyOf(cs, m), java.util.Arrays.copyOf(ks, m), pattern);
    }

    boolean matches(String s) {
        int n = s.length();
        int m = kinds.length;
        int p = 0;
        int i = 0;
        int starP = -1;
        int starI = -1;
        while (i < n) {
            if (p < m && (kinds[p] == ONE || (kinds[p] == LITERAL && chars[p] == s.charAt(i)))) {
                p++;
                i++;
            } else if (p < m && kinds[p] == ANY) {
                starP = p++;
                starI = i;
            } else if (starP >= 0) {
                p = starP + 1;
                i = ++starI;
            } else {
                return false;
            }
        }
        while (p < m && kinds[p] == ANY) {
            p++;
        }
        return p == m;
    }

    @Override
    public String toString() {
        return source;
    }
}
