package io.aqueduct.api;

/**
 * The one exception Aqueduct reports. {@link #errorCode()} is the Oracle AQ error number for the
 * same condition (25228 no message, 25235 end of transaction group, 25207 enqueue disabled, ...),
 * so code written against AQ's numbers keeps working; the message says what to do about it.
 */
public class AqException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errorCode;

    public AqException(int errorCode, String message) {
        super(format(errorCode, message));
        this.errorCode = errorCode;
    }

    public AqException(int errorCode, String message, Throwable cause) {
        super(format(errorCode, message), cause);
        this.errorCode = errorCode;
    }

    private static String format(int code, String message) {
        return code == 0 ? message : String.format("AQ-%05d: %s", code, message);
    }

    /** The AQ error number, or 0 when the failure has no AQ number (a store or I/O failure). */
    public int errorCode() {
        return errorCode;
    }
}
