package io.aqueduct.engine.expression;

import java.util.Set;

/** A node of a parsed expression tree. Immutable; evaluation is thread-safe. */
abstract class Node {
    /**
     * The static type of a node, as far as it is known when parsing; any node may also be NULL.
     * ANY: not known (a condition too, such as a boolean user property); VALUE: a value of a type
     * not known when parsing (a number or a date, say) but never a condition.
     */
    enum Kind {
        BOOLEAN, NUMBER, STRING, TIMESTAMP, XML, VALUE, ANY
    }

    static final int P_OR = 1;
    static final int P_AND = 2;
    static final int P_NOT = 3;
    static final int P_PREDICATE = 4;
    static final int P_ADD = 5;
    static final int P_MUL = 6;
    static final int P_UNARY = 7;
    static final int P_PRIMARY = 8;

    /** 0-based position of the node's first character in the source. */
    final int pos;

    Node(int pos) {
        this.pos = pos;
    }

    /** The value for this message: see {@link Values} for the value model; null is NULL/unknown. */
    abstract Object eval(MessageView m);

    abstract Kind kind();

    /** Appends the normalized text. */
    abstract void print(StringBuilder sb);

    /** Binding strength for printing (a child weaker than its context is parenthesized). */
    int precedence() {
        return P_PRIMARY;
    }

    /** Adds the names of the properties and payload attributes this node reads. */
    void references(Set<String> out) {
    }

    /** True when evaluating may read the payload. */
    boolean readsPayload() {
        return false;
    }

    static void print(StringBuilder sb, Node child, int minPrecedence) {
        if (child.precedence() < minPrecedence) {
            sb.append('(');
            child.print(sb);
            sb.append(')');
        } else {
            child.print(sb);
        }
    }

    @Override
    public final String toString() {
        StringBuilder sb = new StringBuilder();
        print(sb);
        return sb.toString();
    }
}
