package io.aqueduct.engine.expression;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;

/**
 * A malformed dequeue condition, subscriber rule or selector: AQ error 25448 with the 1-based
 * character position of the offending text and what was expected there, for example
 * {@code AQ-25448: Condition error at position 17: expected ')' but found 'AND'}.
 */
public final class ExpressionSyntaxException extends AqException {
    private static final long serialVersionUID = 1L;
    private final int position;
    private final String expected;
    private final String found;

    ExpressionSyntaxException(String label, int position, String expected, String found) {
        super(AqError.INVALID_EXPRESSION,
                label + " error at position " + position + ": expected " + expected + " but found " + found);
        this.position = position;
        this.expected = expected;
        this.found = found;
    }

    /** The 1-based character position of the error in the expression text. */
    public int position() {
        return position;
    }

    /** What the parser expected at {@link #position()}. */
    public String expected() {
        return expected;
    }

    /** What it found there (quoted text, or "end of condition"). */
    public String found() {
        return found;
    }
}
