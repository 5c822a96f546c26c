package io.aqueduct.jms.client;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ResourceAllocationException;

/** AQ errors as the JMS exceptions the specification documents; the AQ number is the error code. */
final class JmsErrors {

    private JmsErrors() {
    }

    /** The error code a JMSException carries for an AQ error: {@code AQ-25228}. */
    static String code(AqException e) {
        return "AQ-" + e.errorCode();
    }

    static JMSException of(AqException e) {
        JMSException j = switch (e.errorCode()) {
            case AqError.QUEUE_NOT_FOUND, AqError.QUEUE_DOES_NOT_EXIST, AqError.NOT_MULTI_CONSUMER ->
                    new InvalidDestinationException(e.getMessage(), code(e));
            case AqError.PAYLOAD_TYPE_MISMATCH -> new MessageFormatException(e.getMessage(), code(e));
            // the user lacks the AQ privilege: JMS's "a security violation" (the simplified API's JMSSecurityRuntimeException)
            case AqError.INSUFFICIENT_PRIVILEGES -> new JMSSecurityException(e.getMessage(), code(e));
            // a NON_PERSISTENT send flow-controlled past its wait: the provider is out of the memory for it
            case AqError.FLOW_CONTROL -> new ResourceAllocationException(e.getMessage(), code(e));
            default -> new AqueductJMSException(e.getMessage(), e.errorCode());
        };
        return link(j, e);
    }

    /** For a selector given by the application: a malformed one is InvalidSelectorException. */
    static JMSException ofSelector(AqException e, String selector) {
        if (e.errorCode() == AqError.INVALID_EXPRESSION) {
            return link(new InvalidSelectorException("Invalid message selector \"" + selector + "\": " + e.getMessage(),
                    code(e)), e);
        }
        return of(e);
    }

    static <T extends JMSException> T link(T j, Exception cause) {
        j.setLinkedException(cause);
        j.initCause(cause);
        return j;
    }

    /** A JMSException for any failure underneath (a runtime exception from the store). */
    static JMSException of(RuntimeException e) {
        if (e instanceof AqException aq) {
            return of(aq);
        }
        return link(new JMSException(String.valueOf(e.getMessage())), e);
    }

    static jakarta.jms.IllegalStateException closed(String what) {
        return new jakarta.jms.IllegalStateException("The " + what + " is closed.", "closed");
    }
}
