package io.aqueduct.api;

/**
 * The quality of service of a registration (AQ$_REG_INFO.qosflags, and one of Aqueduct's own).
 */
public enum NotificationQos {
    /**
     * NTFN_QOS_RELIABLE: a pending notification is a row of the store, written in the transaction that
     * makes the message available; it survives a killed JVM and is delivered after a restart. Without it
     * notifications are kept in memory after the commit and a JVM that ends loses the pending ones.
     */
    RELIABLE,
    /** NTFN_QOS_PAYLOAD: the notification carries the message's payload. */
    PAYLOAD,
    /**
     * Aqueduct's: an http:// or https:// notification is POSTed as JSON ({@code application/json})
     * instead of the AQXmlNotification envelope ({@code text/xml}). Ignored for other addresses.
     */
    JSON
}
