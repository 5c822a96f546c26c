package io.aqueduct.http;

/**
 * A request refused by the HTTP access layer itself (before or around the queue operation): the HTTP status the
 * REST API answers with and the AQ error number the XML servlet puts in its SOAP fault.
 */
public final class HttpAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The request's body is larger than the configured limit. */
    public static final int TOO_LARGE = 413;
    private final int status;
    private final int errorCode;

    public HttpAccessException(int status, int errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    /** The AQ error number (io.aqueduct.api.AqError) for the same condition. */
    public int errorCode() {
        return errorCode;
    }
}
