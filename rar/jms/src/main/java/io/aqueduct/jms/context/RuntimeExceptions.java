package io.aqueduct.jms.context;

import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;

/**
 * The simplified API throws the unchecked twin of each checked exception of the classic API
 * (Jakarta Messaging 3.1, 2.8 and the {@code JMSRuntimeException} subclasses). The twin keeps
 * the message and the error code, and has the checked exception as its cause, so that nothing
 * the classic layer said (its own cause, its linked exception) is lost.
 */
public final class RuntimeExceptions {

    private RuntimeExceptions() {
    }

    /** The unchecked twin of {@code e}; a plain {@link JMSRuntimeException} for types without one. */
    public static JMSRuntimeException of(JMSException e) {
        String message = e.getMessage();
        String code = e.getErrorCode();
        // most specific first: none of these types extends another, but a provider's subclass
        // of one of them must still map to that one's twin
        if (e instanceof IllegalStateException) {
            return new IllegalStateRuntimeException(message, code, e);
        }
        if (e instanceof InvalidClientIDException) {
            return new InvalidClientIDRuntimeException(message, code, e);
        }
        if (e instanceof InvalidDestinationException) {
            return new InvalidDestinationRuntimeException(message, code, e);
        }
        if (e instanceof InvalidSelectorException) {
            return new InvalidSelectorRuntimeException(message, code, e);
        }
        if (e instanceof JMSSecurityException) {
            return new JMSSecurityRuntimeException(message, code, e);
        }
        if (e instanceof MessageFormatException) {
            return new MessageFormatRuntimeException(message, code, e);
        }
        if (e instanceof MessageNotWriteableException) {
            return new MessageNotWriteableRuntimeException(message, code, e);
        }
        if (e instanceof TransactionInProgressException) {
            return new TransactionInProgressRuntimeException(message, code, e);
        }
        if (e instanceof TransactionRolledBackException) {
            return new TransactionRolledBackRuntimeException(message, code, e);
        }
        if (e instanceof ResourceAllocationException) {
            return new ResourceAllocationRuntimeException(message, code, e);
        }
        return new JMSRuntimeException(message, code, e);
    }
}
