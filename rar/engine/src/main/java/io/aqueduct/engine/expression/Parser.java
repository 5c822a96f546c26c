package io.aqueduct.engine.expression;

import io.aqueduct.engine.expression.Node.Kind;
import io.aqueduct.engine.expression.Nodes.Between;
import io.aqueduct.engine.expression.Nodes.Chain;
import io.aqueduct.engine.expression.Nodes.Comparison;
import io.aqueduct.engine.expression.Nodes.FunctionCall;
import io.aqueduct.engine.expression.Nodes.In;
import io.aqueduct.engine.expression.Nodes.IsNull;
import io.aqueduct.engine.expression.Nodes.Junction;
import io.aqueduct.engine.expression.Nodes.Like;
import io.aqueduct.engine.expression.Nodes.Literal;
import io.aqueduct.engine.expression.Nodes.MessageProperty;
import io.aqueduct.engine.expression.Nodes.MessagePropertyRef;
import io.aqueduct.engine.expression.Nodes.NameRef;
import io.aqueduct.engine.expression.Nodes.Negate;
import io.aqueduct.engine.expression.Nodes.Not;
import io.aqueduct.engine.expression.Nodes.Op;
import io.aqueduct.engine.expression.Nodes.PayloadPath;
import io.aqueduct.engine.expression.Nodes.PayloadRoot;
import io.aqueduct.engine.expression.Nodes.XPathCall;
import io.aqueduct.engine.expression.Nodes.XPathFunction;
import io.aqueduct.engine.expression.Nodes.XmlMethod;
import io.aqueduct.engine.expression.Nodes.XmlMethodCall;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.xml.xpath.XPathExpressionException;

/**
 * Recursive-descent parser for the SQL-WHERE-like expression language.
 *
 * <pre>
 * condition      := or EOF
 * or             := and (OR and)*
 * and            := not (AND not)*
 * not            := NOT not | predicate
 * predicate      := additive [ compOp additive
 *                            | IS [NOT] NULL
 *                            | [NOT] IN '(' additive (',' additive)* ')'
 *                            | [NOT] BETWEEN additive AND additive
 *                            | [NOT] LIKE additive [ESCAPE additive] ]
 * additive       := multiplicative (('+' | '-' | '||') multiplicative)*
 * multiplicative := unary (('*' | '/') unary)*
 * unary          := ('-' | '+') unary | postfix
 * postfix        := primary ('.' method '(' args ')')*
 * primary        := number | string | TRUE | FALSE | NULL | '(' or ')'
 *                 | function '(' args ')' | name ('.' name)* ['.' method '(' args ')']
 * </pre>
 *
 * Nesting is limited to {@link #MAX_DEPTH} levels and the text to {@link #MAX_LENGTH} characters,
 * so hostile input fails with 25448 rather than exhausting the stack.
 *
 * <p><b>Selector mode</b> ({@code selector = true}, JMS message selectors) uses the same grammar
 * with the Jakarta Messaging restrictions: an identifier is a {@link Nodes.SelectorName} (a JMS
 * header or a user property, case-sensitive), never a dotted name, function or method call;
 * {@code NULL} appears only in {@code IS [NOT] NULL}; comparisons are {@code = <> < <= > >=};
 * {@code < <= > >=}, arithmetic and {@code BETWEEN} refuse string and boolean literals and
 * conditions as operands; {@code IN}, {@code LIKE} and {@code IS NULL} apply to an identifier;
 * the {@code IN} list holds string literals, the {@code LIKE} pattern is a string literal and its
 * {@code ESCAPE} a one-character string literal.
 */
final class Parser {
    static final int MAX_DEPTH = 100;
    static final int MAX_LENGTH = 100_000;

    private static final Set<String> RESERVED = Set.of(
            "AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE", "FALSE");

    private final String label;
    private final List<Token> tokens;
    private final boolean selector;
    private int index;
    private int depth;

    private Parser(String label, List<Token> tokens, boolean selector) {
        this.label = label;
        this.tokens = tokens;
        this.selector = selector;
    }

    /**
     * Parses text. {@code condition}: the whole must be a condition (not, say, a bare number).
     *
     * @throws ExpressionSyntaxException (25448) when the text is null, blank or malformed
     */
    static Node parse(String text, String label, boolean condition) {
        return parse(text, label, condition, false);
    }

    /**
     * Parses text; {@code selector}: as a JMS message selector (see the class comment).
     *
     * @throws ExpressionSyntaxException (25448) when the text is null, blank or malformed
     */
    static Node parse(String text, String label, boolean condition, boolean selector) {
        String what = condition ? "a condition" : "an expression";
        if (text == null) {
            throw new ExpressionSyntaxException(label, 1, what, "no text (null)");
        }
        if (text.isBlank()) {
            throw new ExpressionSyntaxException(label, 1, what, "end of " + lower(label));
        }
        if (text.length() > MAX_LENGTH) {
            throw new ExpressionSyntaxException(label, MAX_LENGTH + 1, "at most " + MAX_LENGTH + " characters",
                    text.length() + " characters");
        }
        Parser p = new Parser(label, new Lexer(text, label, selector).tokenize(), selector);
        Node n = p.parseOr();
        Token t = p.peek();
        if (!t.is(Token.Type.EOF)) {
            throw p.error(t, "an operator or the end of the " + lower(label));
        }
        if (condition) {
            p.requireCondition(n);
        }
        return n;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    // ------------------------------------------------------------------ token helpers

    private Token peek() {
        return tokens.get(index);
    }

    private Token peekAt(int ahead) {
        int k = Math.min(index + ahead, tokens.size() - 1);
        return tokens.get(k);
    }

    private Token next() {
        Token t = tokens.get(index);
        if (!t.is(Token.Type.EOF)) {
            index++;
        }
        return t;
    }

    private boolean accept(Token.Type type) {
        if (peek().is(type)) {
            next();
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            next();
            return true;
        }
        return false;
    }

    private Token expect(Token.Type type, String expected) {
        Token t = peek();
        if (!t.is(type)) {
            throw error(t, expected);
        }
        return next();
    }

    private void expectKeyword(String keyword) {
        Token t = peek();
        if (!t.isKeyword(keyword)) {
            throw error(t, "'" + keyword + "'");
        }
        next();
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error(peek(), "at most " + MAX_DEPTH + " levels of nesting");
        }
    }

    ExpressionSyntaxException error(Token t, String expected) {
        return new ExpressionSyntaxException(label, t.pos + 1, expected, describe(t));
    }

    private ExpressionSyntaxException error(Node n, String expected) {
        Token at = peek();
        for (Token t : tokens) {
            if (t.pos == n.pos) {
                at = t;
                break;
            }
        }
        return new ExpressionSyntaxException(label, n.pos + 1, expected, describe(at));
    }

    private String describe(Token t) {
        if (t.is(Token.Type.EOF)) {
            return "end of " + lower(label);
        }
        if (t.is(Token.Type.STRING)) {
            String s = t.text;
            return s.length() > 40 ? Lexer.quote(s.substring(1, 38)).replace("'", "") + "...'" : s.replace('\n', ' ');
        }
        return Lexer.quote(t.text);
    }

    // ------------------------------------------------------------------ static checks

    private void requireCondition(Node n) {
        Kind k = n.kind();
        if (k != Kind.BOOLEAN && k != Kind.ANY) {
            throw error(n, "a condition");
        }
    }

    private void requireValue(Node n) {
        if (n.kind() == Kind.BOOLEAN) {
            throw error(n, "a value, not a condition,");
        }
    }

    /** Selector: an operand of = or <>: a value (a boolean literal too), not a condition. */
    private void requireSelectorValue(Node n) {
        if (n.kind() == Kind.BOOLEAN && !(n instanceof Literal)) {
            throw error(n, "a value, not a condition,");
        }
    }

    /** Selector: an arithmetic operand (of + - * /, unary minus, BETWEEN, < <= > >=): a number or an identifier. */
    private void requireArithmetic(Node n) {
        Kind k = n.kind();
        if (k == Kind.BOOLEAN && !(n instanceof Literal)) {
            throw error(n, "a value, not a condition,");
        }
        if (k != Kind.NUMBER && k != Kind.ANY) {
            throw error(n, "an arithmetic value (a number or an identifier)");
        }
    }

    /** Selector: IN, LIKE and IS NULL apply to an identifier. */
    private void requireIdentifier(Node n, String before) {
        if (!(n instanceof Nodes.SelectorName)) {
            throw error(n, "an identifier before " + before);
        }
    }

    /** Selector: a string literal token. */
    private Token expectString(String expected) {
        Token t = peek();
        if (!t.is(Token.Type.STRING)) {
            throw error(t, expected);
        }
        return next();
    }

    // ------------------------------------------------------------------ grammar

    private Node parseOr() {
        Node first = parseAnd();
        if (!peek().isKeyword("OR")) {
            return first;
        }
        requireCondition(first);
        List<Node> operands = new ArrayList<>();
        flatten(operands, first, false);
        while (acceptKeyword("OR")) {
            Node n = parseAnd();
            requireCondition(n);
            flatten(operands, n, false);
        }
        return new Junction(first.pos, false, operands.toArray(new Node[0]));
    }

    private Node parseAnd() {
        Node first = parseNot();
        if (!peek().isKeyword("AND")) {
            return first;
        }
        requireCondition(first);
        List<Node> operands = new ArrayList<>();
        flatten(operands, first, true);
        while (acceptKeyword("AND")) {
            Node n = parseNot();
            requireCondition(n);
            flatten(operands, n, true);
        }
        return new Junction(first.pos, true, operands.toArray(new Node[0]));
    }

    private static void flatten(List<Node> out, Node n, boolean and) {
        if (n instanceof Junction j && j.and == and) {
            out.addAll(List.of(j.operands));
        } else {
            out.add(n);
        }
    }

    private Node parseNot() {
        Token t = peek();
        if (t.isKeyword("NOT")) {
            next();
            enter();
            Node operand = parseNot();
            depth--;
            requireCondition(operand);
            return new Not(t.pos, operand);
        }
        return parsePredicate();
    }

    private Node parsePredicate() {
        Node left = parseAdditive();
        Token t = peek();
        if (selector) {
            return selectorPredicate(left, t);
        }
        if (t.isComparison()) {
            next();
            Node right = parseAdditive();
            Op op = Op.of(t.type);
            if (op != Op.EQ && op != Op.NE) {
                requireValue(left);
                requireValue(right);
            } else if ((left.kind() == Kind.BOOLEAN) != (right.kind() == Kind.BOOLEAN)
                    && left.kind() != Kind.ANY && right.kind() != Kind.ANY) {
                requireValue(left.kind() == Kind.BOOLEAN ? left : right);
            }
            return new Comparison(left.pos, op, left, right);
        }
        if (t.isKeyword("IS")) {
            next();
            boolean negated = acceptKeyword("NOT");
            expectKeyword("NULL");
            return new IsNull(left.pos, left, negated);
        }
        boolean negated = false;
        if (t.isKeyword("NOT")) {
            Token after = peekAt(1);
            if (!after.isKeyword("IN") && !after.isKeyword("BETWEEN") && !after.isKeyword("LIKE")) {
                throw error(after, "IN, BETWEEN or LIKE after NOT");
            }
            next();
            negated = true;
            t = peek();
        }
        if (t.isKeyword("IN")) {
            next();
            requireValue(left);
            expect(Token.Type.LPAREN, "'(' after IN");
            List<Node> items = new ArrayList<>();
            do {
                Node item = parseAdditive();
                requireValue(item);
                items.add(item);
            } while (accept(Token.Type.COMMA));
            expect(Token.Type.RPAREN, "',' or ')'");
            return new In(left.pos, left, items.toArray(new Node[0]), negated);
        }
        if (t.isKeyword("BETWEEN")) {
            next();
            requireValue(left);
            Node low = parseAdditive();
            requireValue(low);
            expectKeyword("AND");
            Node high = parseAdditive();
            requireValue(high);
            return new Between(left.pos, left, low, high, negated);
        }
        if (t.isKeyword("LIKE")) {
            next();
            requireValue(left);
            Node pattern = parseAdditive();
            requireValue(pattern);
            Node escape = null;
            if (acceptKeyword("ESCAPE")) {
                escape = parseAdditive();
                requireValue(escape);
            }
            return new Like(left.pos, left, pattern, escape, negated, compileLike(pattern, escape));
        }
        if (negated) {
            throw error(t, "IN, BETWEEN or LIKE after NOT");
        }
        return left;
    }

    /** The selector forms of {@link #parsePredicate} after its left operand. */
    private Node selectorPredicate(Node left, Token t) {
        if (t.isComparison()) {
            next();
            Node right = parseAdditive();
            Op op = Op.of(t.type);
            if (op == Op.EQ || op == Op.NE) {
                requireSelectorValue(left);
                requireSelectorValue(right);
            } else {
                requireArithmetic(left);
                requireArithmetic(right);
            }
            return new Comparison(left.pos, op, left, right, true);
        }
        if (t.isKeyword("IS")) {
            requireIdentifier(left, "IS");
            next();
            boolean negated = acceptKeyword("NOT");
            expectKeyword("NULL");
            return new IsNull(left.pos, left, negated);
        }
        boolean negated = false;
        if (t.isKeyword("NOT")) {
            Token after = peekAt(1);
            if (!after.isKeyword("IN") && !after.isKeyword("BETWEEN") && !after.isKeyword("LIKE")) {
                throw error(after, "IN, BETWEEN or LIKE after NOT");
            }
            next();
            negated = true;
            t = peek();
        }
        if (t.isKeyword("IN")) {
            requireIdentifier(left, "IN");
            next();
            expect(Token.Type.LPAREN, "'(' after IN");
            List<Node> items = new ArrayList<>();
            do {
                Token item = expectString("a string literal (IN lists hold string literals)");
                items.add(new Literal(item.pos, item.value));
            } while (accept(Token.Type.COMMA));
            expect(Token.Type.RPAREN, "',' or ')'");
            return new In(left.pos, left, items.toArray(new Node[0]), negated, true);
        }
        if (t.isKeyword("BETWEEN")) {
            next();
            requireArithmetic(left);
            Node low = parseAdditive();
            requireArithmetic(low);
            expectKeyword("AND");
            Node high = parseAdditive();
            requireArithmetic(high);
            return new Between(left.pos, left, low, high, negated, true);
        }
        if (t.isKeyword("LIKE")) {
            requireIdentifier(left, "LIKE");
            next();
            Token pt = expectString("a string literal pattern after LIKE");
            Node pattern = new Literal(pt.pos, pt.value);
            Node escape = null;
            if (acceptKeyword("ESCAPE")) {
                Token et = expectString("a string literal escape character after ESCAPE");
                escape = new Literal(et.pos, et.value);
            }
            return new Like(left.pos, left, pattern, escape, negated, compileLike(pattern, escape), true);
        }
        if (negated) {
            throw error(t, "IN, BETWEEN or LIKE after NOT");
        }
        return left;
    }

    /** The pattern compiled now when it (and the escape) are literals; null when known only per message. */
    private LikePattern compileLike(Node pattern, Node escape) {
        if (!(pattern instanceof Literal p) || (escape != null && !(escape instanceof Literal))) {
            return null;
        }
        if (p.value == null || (escape != null && ((Literal) escape).value == null)) {
            return null; // LIKE NULL: always unknown, evaluated as such
        }
        String pat = Values.asString(p.value);
        String esc = escape == null ? null : Values.asString(((Literal) escape).value);
        if (pat == null || (escape != null && esc == null)) {
            throw error(pat == null ? pattern : escape, "a string");
        }
        try {
            return LikePattern.compile(pat, esc);
        } catch (IllegalArgumentException e) {
            if (esc != null && esc.length() != 1) {
                throw error(escape, e.getMessage());
            }
            throw error(pattern, "a LIKE pattern with " + e.getMessage());
        }
    }

    private Node parseAdditive() {
        Node first = parseMultiplicative();
        if (!isAdditiveOp(peek())) {
            return first;
        }
        requireOperand(first);
        List<Node> operands = new ArrayList<>();
        StringBuilder ops = new StringBuilder();
        operands.add(first);
        while (isAdditiveOp(peek())) {
            Token op = next();
            Node n = parseMultiplicative();
            requireOperand(n);
            operands.add(n);
            char c = op.is(Token.Type.PLUS) ? Values.ADD : op.is(Token.Type.MINUS) ? Values.SUB : Chain.CONCAT;
            ops.append(c);
        }
        return new Chain(first.pos, operands.toArray(new Node[0]), ops.toString().toCharArray(), Node.P_ADD, selector);
    }

    /** An operand of an arithmetic operator: any value for conditions, an arithmetic one for selectors. */
    private void requireOperand(Node n) {
        if (selector) {
            requireArithmetic(n);
        } else {
            requireValue(n);
        }
    }

    private static boolean isAdditiveOp(Token t) {
        return t.is(Token.Type.PLUS) || t.is(Token.Type.MINUS) || t.is(Token.Type.CONCAT);
    }

    private Node parseMultiplicative() {
        Node first = parseUnary();
        if (!peek().is(Token.Type.STAR) && !peek().is(Token.Type.SLASH)) {
            return first;
        }
        requireOperand(first);
        List<Node> operands = new ArrayList<>();
        StringBuilder ops = new StringBuilder();
        operands.add(first);
        while (peek().is(Token.Type.STAR) || peek().is(Token.Type.SLASH)) {
            Token op = next();
            Node n = parseUnary();
            requireOperand(n);
            operands.add(n);
            ops.append(op.is(Token.Type.STAR) ? Values.MUL : Values.DIV);
        }
        return new Chain(first.pos, operands.toArray(new Node[0]), ops.toString().toCharArray(), Node.P_MUL, selector);
    }

    private Node parseUnary() {
        Token t = peek();
        if (selector && (t.is(Token.Type.MINUS) || t.is(Token.Type.PLUS))) {
            return selectorUnary(t);
        }
        if (t.is(Token.Type.MINUS) || t.is(Token.Type.PLUS)) {
            next();
            enter();
            Node operand = parseUnary();
            depth--;
            requireValue(operand);
            if (t.is(Token.Type.PLUS)) {
                return operand;
            }
            if (operand instanceof Literal l && l.value instanceof Number n) {
                return new Literal(t.pos, Values.negate(n));
            }
            return new Negate(t.pos, operand);
        }
        return parsePostfix();
    }

    /** Selector unary + and -: numeric literals folded (-9223372036854775808 included), else a node. */
    private Node selectorUnary(Token t) {
        next();
        boolean minus = t.is(Token.Type.MINUS);
        Token n = peek();
        if (minus && n.is(Token.Type.NUMBER) && n.number instanceof java.math.BigInteger) {
            next(); // 9223372036854775808 is a long literal only as the operand of unary minus
            return new Literal(t.pos, Long.MIN_VALUE);
        }
        enter();
        Node operand = parseUnary();
        depth--;
        requireArithmetic(operand);
        if (operand instanceof Literal l && l.value instanceof Number v) {
            return new Literal(t.pos, minus ? SelectorValues.negate(v) : SelectorValues.plus(v));
        }
        return minus ? new Negate(t.pos, operand, true) : new Nodes.UnaryPlus(t.pos, operand);
    }

    private Node parsePostfix() {
        Node n = parsePrimary();
        while (peek().is(Token.Type.DOT)) {
            next();
            Token name = peek();
            if (!name.is(Token.Type.IDENT)) {
                throw error(name, "a method name after '.'");
            }
            next();
            n = method(n, name);
        }
        return n;
    }

    private Node parsePrimary() {
        enter();
        Node n = primary();
        depth--;
        return n;
    }

    private Node primary() {
        Token t = peek();
        if (selector) {
            return selectorPrimary(t);
        }
        switch (t.type) {
            case NUMBER:
                next();
                return new Literal(t.pos, number(t));
            case STRING:
                next();
                return new Literal(t.pos, t.value);
            case LPAREN: {
                next();
                Node inner = parseOr();
                expect(Token.Type.RPAREN, "')'");
                return inner;
            }
            case QUOTED_IDENT:
                return name();
            case IDENT: {
                if (t.isKeyword("TRUE")) {
                    next();
                    return new Literal(t.pos, Boolean.TRUE);
                }
                if (t.isKeyword("FALSE")) {
                    next();
                    return new Literal(t.pos, Boolean.FALSE);
                }
                if (t.isKeyword("NULL")) {
                    next();
                    return new Literal(t.pos, null);
                }
                if (RESERVED.contains(t.text.toUpperCase(Locale.ROOT))) {
                    throw error(t, "a value");
                }
                return name();
            }
            default:
                throw error(t, "a value");
        }
    }

    /** A selector primary: a literal, a parenthesized condition or expression, or an identifier. */
    private Node selectorPrimary(Token t) {
        switch (t.type) {
            case NUMBER:
                next();
                if (t.number instanceof java.math.BigInteger) {
                    throw error(t, "a number in the range of long");
                }
                return new Literal(t.pos, t.number);
            case STRING:
                next();
                return new Literal(t.pos, t.value);
            case LPAREN: {
                next();
                Node inner = parseOr();
                expect(Token.Type.RPAREN, "')'");
                return inner;
            }
            case IDENT: {
                if (t.isKeyword("TRUE")) {
                    next();
                    return new Literal(t.pos, Boolean.TRUE);
                }
                if (t.isKeyword("FALSE")) {
                    next();
                    return new Literal(t.pos, Boolean.FALSE);
                }
                if (t.isKeyword("NULL")) {
                    throw error(t, "a value (in selectors NULL is allowed only in IS [NOT] NULL)");
                }
                if (RESERVED.contains(t.text.toUpperCase(Locale.ROOT))) {
                    throw error(t, "a value");
                }
                next();
                if (peek().is(Token.Type.LPAREN)) {
                    throw error(peek(), "an operator (selectors have no function calls)");
                }
                return new Nodes.SelectorName(t.pos, t.text);
            }
            default:
                throw error(t, "a value");
        }
    }

    private Object number(Token t) {
        BigDecimal bd;
        try {
            bd = new BigDecimal(t.text);
        } catch (NumberFormatException | ArithmeticException e) {
            throw error(t, "a number");
        }
        if (bd.signum() != 0) {
            long magnitude = (long) bd.precision() - bd.scale() - 1;
            if (magnitude > 125 || magnitude < -130) {
                throw error(t, "a number between 1E-130 and 1E126 in magnitude");
            }
        }
        boolean integral = t.text.indexOf('.') < 0 && t.text.indexOf('e') < 0 && t.text.indexOf('E') < 0;
        if (integral && bd.precision() <= 18) {
            return bd.longValueExact();
        }
        return bd;
    }

    /** A name path, a function call or a method call on a path. */
    private Node name() {
        Token first = next();
        if (first.is(Token.Type.IDENT) && peek().is(Token.Type.LPAREN)) {
            return function(first);
        }
        List<Token> segments = new ArrayList<>();
        segments.add(first);
        while (peek().is(Token.Type.DOT)) {
            Token name = peekAt(1);
            if (!name.is(Token.Type.IDENT) && !name.is(Token.Type.QUOTED_IDENT)) {
                throw error(name, "a name after '.'");
            }
            next();
            next();
            if (name.is(Token.Type.IDENT) && peek().is(Token.Type.LPAREN)) {
                return method(path(segments), name);
            }
            segments.add(name);
        }
        return path(segments);
    }

    /** Resolves a dotted name: tab./source. qualifier, message property, user_data, attribute path. */
    private Node path(List<Token> segments) {
        int pos = segments.get(0).pos;
        StringBuilder display = new StringBuilder();
        for (Token s : segments) {
            if (display.length() > 0) {
                display.append('.');
            }
            display.append(s.is(Token.Type.QUOTED_IDENT) ? quoteName(s.value) : s.text);
        }
        int k = 0;
        if (segments.size() > 1 && isWord(segments.get(0), "tab", "source")) {
            k = 1;
        }
        int last = segments.size() - 1;
        Token head = segments.get(k);
        if (isWord(head, "user_data")) {
            if (k == last) {
                return new PayloadRoot(pos, display.toString());
            }
            return new PayloadPath(pos, names(segments, k + 1), display.toString());
        }
        if (k == last) {
            String now = k == 0 && head.is(Token.Type.IDENT) ? Nodes.Sysdate.lookup(head.text) : null;
            if (now != null) {
                return new Nodes.Sysdate(pos, now);
            }
            MessageProperty p = head.is(Token.Type.IDENT) ? MessageProperty.lookup(head.text) : null;
            if (p != null) {
                return new MessagePropertyRef(pos, p, display.toString());
            }
            return new NameRef(pos, head.value, display.toString());
        }
        return new PayloadPath(pos, names(segments, k), display.toString());
    }

    private static String quoteName(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static boolean isWord(Token t, String... words) {
        if (!t.is(Token.Type.IDENT)) {
            return false;
        }
        for (String w : words) {
            if (t.text.equalsIgnoreCase(w)) {
                return true;
            }
        }
        return false;
    }

    private static String[] names(List<Token> segments, int from) {
        String[] out = new String[segments.size() - from];
        for (int i = from; i < segments.size(); i++) {
            out[i - from] = segments.get(i).value;
        }
        return out;
    }

    /** '(' args ')': at most maxArgs, so that a surplus argument is reported where it starts. */
    private List<Node> arguments(int maxArgs) {
        expect(Token.Type.LPAREN, "'('");
        List<Node> args = new ArrayList<>();
        if (accept(Token.Type.RPAREN)) {
            return args;
        }
        if (maxArgs == 0) {
            throw error(peek(), "')'");
        }
        while (true) {
            Node a = parseAdditive();
            requireValue(a);
            args.add(a);
            if (args.size() >= maxArgs) {
                expect(Token.Type.RPAREN, "')'");
                return args;
            }
            if (!accept(Token.Type.COMMA)) {
                expect(Token.Type.RPAREN, "',' or ')'");
                return args;
            }
        }
    }

    private Node function(Token name) {
        Nodes.Function f = Nodes.Function.lookup(name.text);
        XPathFunction x = XPathFunction.lookup(name.text);
        if (f == null && x == null) {
            throw error(name, "a function (UPPER, LOWER, LENGTH, SUBSTR, TRIM, NVL, ABS, TRUNC, ROUND, EXTRACT, EXISTSNODE, EXTRACTVALUE)");
        }
        enter();
        List<Node> args = arguments(x != null ? 2 : f.maxArgs);
        depth--;
        if (x != null) {
            checkArity(name, args, 2, 2, x.spelling);
            return xpathCall(name.pos, x, args.get(0), args.get(1), false);
        }
        checkArity(name, args, f.minArgs, f.maxArgs, f.name());
        if (f == Nodes.Function.TRUNC || f == Nodes.Function.ROUND) {
            checkRounding(f, args);
        }
        return new FunctionCall(name.pos, f, args.toArray(new Node[0]));
    }

    /**
     * TRUNC(date[, format]), TRUNC(number[, digits]), ROUND(number[, digits]): a literal second
     * argument that cannot apply (a format that is not one, digits that are not a number) is refused
     * when parsing, as LIKE patterns and XPaths are; other mismatches are NULL when evaluated.
     */
    private void checkRounding(Nodes.Function f, List<Node> args) {
        Kind k = args.get(0).kind();
        if (args.size() < 2 || !(args.get(1) instanceof Literal l) || l.value == null) {
            return;
        }
        boolean date = f == Nodes.Function.TRUNC && k == Kind.TIMESTAMP;
        boolean number = f == Nodes.Function.ROUND || (k != Kind.TIMESTAMP && k != Kind.ANY && k != Kind.VALUE);
        boolean isFormat = l.value instanceof String s && Nodes.DateUnit.lookup(s) != null;
        boolean isDigits = l.value instanceof Number || (l.value instanceof String s && Values.parseNumber(s) != null);
        if (date && !isFormat) {
            throw error(args.get(1), "a TRUNC date format ('YYYY', 'Q', 'MM', 'IW', 'DD', 'HH', 'MI')");
        }
        if (number && !isDigits) {
            throw error(args.get(1), "a number of digits");
        }
        if (!isFormat && !isDigits) {
            throw error(args.get(1), "a number of digits or a TRUNC date format ('YYYY', 'Q', 'MM', 'IW', 'DD', 'HH', 'MI')");
        }
    }

    private Node method(Node target, Token name) {
        XPathFunction x = XPathFunction.lookup(name.text);
        XmlMethod xm = XmlMethod.lookup(name.text);
        if (x == null && xm == null) {
            throw error(name, "an XMLType method (extract, existsNode, extractValue, getStringVal, getClobVal, getNumberVal)");
        }
        Kind k = target.kind();
        if (k != Kind.XML && k != Kind.ANY && k != Kind.STRING) {
            throw error(target, "an XMLType value before ." + name.text);
        }
        enter();
        List<Node> args = arguments(x != null ? 1 : 0);
        depth--;
        if (x != null) {
            checkArity(name, args, 1, 1, x.spelling);
            return xpathCall(target.pos, x, target, args.get(0), true);
        }
        checkArity(name, args, 0, 0, xm.spelling);
        return new XmlMethodCall(target.pos, xm, target);
    }

    private void checkArity(Token name, List<Node> args, int min, int max, String spelling) {
        int n = args.size();
        if (n < min || n > max) {
            String expected = min == max ? plural(min) : min + " to " + max + " arguments";
            throw new ExpressionSyntaxException(label, name.pos + 1, expected + " for " + spelling, plural(n));
        }
    }

    private static String plural(int n) {
        return n == 1 ? "1 argument" : n + " arguments";
    }

    private Node xpathCall(int pos, XPathFunction f, Node target, Node xpath, boolean methodForm) {
        CompiledXPath compiled = null;
        if (xpath instanceof Literal l) {
            if (!(l.value instanceof String s)) {
                throw error(xpath, "an XPath string");
            }
            try {
                compiled = CompiledXPath.of(s);
            } catch (XPathExpressionException | RuntimeException e) {
                throw error(xpath, "a valid XPath expression");
            }
        }
        return new XPathCall(pos, f, target, xpath, compiled, methodForm);
    }
}
