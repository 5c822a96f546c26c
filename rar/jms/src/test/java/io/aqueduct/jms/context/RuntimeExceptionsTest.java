package io.aqueduct.jms.context;

import static org.assertj.core.api.Assertions.assertThat;

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
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;

import java.util.function.BiFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuntimeExceptionsTest {

    static Stream<Arguments> twins() {
        return Stream.of(
                twin(IllegalStateException::new, IllegalStateRuntimeException.class),
                twin(InvalidClientIDException::new, InvalidClientIDRuntimeException.class),
                twin(InvalidDestinationException::new, InvalidDestinationRuntimeException.class),
                twin(InvalidSelectorException::new, InvalidSelectorRuntimeException.class),
                twin(JMSSecurityException::new, JMSSecurityRuntimeException.class),
                twin(MessageFormatException::new, MessageFormatRuntimeException.class),
                twin(MessageNotWriteableException::new, MessageNotWriteableRuntimeException.class),
                twin(TransactionInProgressException::new, TransactionInProgressRuntimeException.class),
                twin(TransactionRolledBackException::new, TransactionRolledBackRuntimeException.class),
                twin(ResourceAllocationException::new, ResourceAllocationRuntimeException.class),
                // no twins of their own: the plain runtime exception
                twin(JMSException::new, JMSRuntimeException.class),
                twin(MessageEOFException::new, JMSRuntimeException.class),
                twin(MessageNotReadableException::new, JMSRuntimeException.class));
    }

    private static Arguments twin(BiFunction<String, String, JMSException> checked, Class<? extends JMSRuntimeException> unchecked) {
        return Arguments.of(checked.apply("the queue said no", "AQ-24010"), unchecked);
    }

    @ParameterizedTest
    @MethodSource("twins")
    void eachCheckedExceptionBecomesItsTwinKeepingMessageCodeAndCause(JMSException checked, Class<?> twin) {
        checked.initCause(new RuntimeException("underneath"));

        JMSRuntimeException converted = RuntimeExceptions.of(checked);

        assertThat(converted).isExactlyInstanceOf(twin)
                .hasMessage("the queue said no")
                .hasCause(checked)
                .hasRootCauseMessage("underneath");
        assertThat(converted.getErrorCode()).isEqualTo("AQ-24010");
    }

    @Test
    void aProvidersSubclassOfACheckedExceptionBecomesThatExceptionsTwin() {
        class QueueMissing extends InvalidDestinationException {
            QueueMissing() {
                super("no queue Q", "24010");
            }
        }

        assertThat(RuntimeExceptions.of(new QueueMissing())).isExactlyInstanceOf(InvalidDestinationRuntimeException.class);
    }
}
