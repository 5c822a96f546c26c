package io.aqueduct.samples.booksonline;

import jakarta.ejb.ApplicationException;

/**
 * An order booked then rolled back on purpose: an application exception, so the container rolls the
 * transaction back and hands it to the caller as it is, without logging it (a system exception would be
 * logged with its stack trace and wrapped in an EJBException). The caller writes the one line it deserves.
 */
@ApplicationException(rollback = true)
public class OrderRolledBack extends Exception {
    private static final long serialVersionUID = 1L;
    private final String orderId;

    public OrderRolledBack(String orderId) {
        super("order " + orderId + " was rolled back on purpose before its transaction committed");
        this.orderId = orderId;
    }

    public String orderId() {
        return orderId;
    }
}
