package io.aqueduct.jms.client;

import jakarta.jms.JMSException;

/**
 * A JMSException for an AQ error that has no JMS counterpart, carrying AQ's number as Oracle's
 * AQjmsException does: e.g. 25235, the end of a transaction group while navigating NEXT_MESSAGE.
 */
public class AqueductJMSException extends JMSException {
    private static final long serialVersionUID = 1L;
    private final int errorNumber;

    public AqueductJMSException(String reason, int errorNumber) {
        super(reason, "AQ-" + errorNumber);
        this.errorNumber = errorNumber;
    }

    /** AQ's error number (the JMS error code is {@code AQ-} and this number). */
    public int getErrorNumber() {
        return errorNumber;
    }
}
