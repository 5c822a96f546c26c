package io.aqueduct.jms.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageFormatRuntimeException;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A JMSProducer keeps properties by the message model's rules, before there is a message. */
class ProducerPropertiesTest {
    private final JMSProducer producer =
            AqueductJMSContext.create(new FakeClassic().connection, JMSContext.AUTO_ACKNOWLEDGE).createProducer();

    @Test
    void aPropertyReadsBackThroughTheConversionTable() {
        producer.setProperty("count", 5).setProperty("ratio", 1.5f).setProperty("flag", "true");

        assertThat(producer.getLongProperty("count")).isEqualTo(5L);
        assertThat(producer.getStringProperty("count")).isEqualTo("5");
        assertThat(producer.getDoubleProperty("ratio")).isEqualTo(1.5d);
        assertThat(producer.getBooleanProperty("flag")).isTrue();
        assertThat(producer.getObjectProperty("count")).isEqualTo(5);
    }

    @Test
    void aConversionTheTableRefusesIsAMessageFormatRuntimeException() {
        producer.setProperty("count", 5L).setProperty("on", true);

        assertThatThrownBy(() -> producer.getIntProperty("count")).isExactlyInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.getBooleanProperty("count")).isExactlyInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.getLongProperty("on")).isExactlyInstanceOf(MessageFormatRuntimeException.class);
    }

    @Test
    void aMissingPropertyReadsAsValueOfNull() {
        assertThat(producer.getObjectProperty("absent")).isNull();
        assertThat(producer.getStringProperty("absent")).isNull();
        assertThat(producer.getBooleanProperty("absent")).isFalse();
        assertThatThrownBy(() -> producer.getIntProperty("absent")).isInstanceOf(NumberFormatException.class);
        assertThat(producer.propertyExists("absent")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "NULL", "between", "JMSType", "JMSCorrelationID", "JMSXDeliveryCount", "1st", "a-b"})
    void aNameAPropertyCannotHaveIsRefusedWhenSet(String name) {
        assertThatThrownBy(() -> producer.setProperty(name, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(producer.getPropertyNames()).isEmpty();
    }

    @Test
    void aNullNameIsRefused() {
        assertThatThrownBy(() -> producer.setProperty(null, "x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aValueAPropertyCannotHoldIsAMessageFormatRuntimeException() {
        assertThatThrownBy(() -> producer.setProperty("c", (Object) 'c')).isExactlyInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.setProperty("b", (Object) new byte[1])).isExactlyInstanceOf(MessageFormatRuntimeException.class);
        assertThatThrownBy(() -> producer.setProperty("JMSXGroupSeq", "one")).isExactlyInstanceOf(MessageFormatRuntimeException.class);
        assertThat(producer.getPropertyNames()).isEmpty();
    }

    @Test
    void theApplicationsJmsxPropertiesAreAccepted() {
        producer.setProperty("JMSXGroupID", "orders").setProperty("JMSXGroupSeq", 3);

        assertThat(producer.getPropertyNames()).containsExactly("JMSXGroupID", "JMSXGroupSeq");
    }

    @Test
    void propertyNamesAreALiveUnmodifiableViewThatClearPropertiesEmpties() {
        Set<String> names = producer.getPropertyNames();
        producer.setProperty("a", 1).setProperty("b", "two");

        assertThat(names).containsExactly("a", "b");
        assertThatThrownBy(() -> names.remove("a")).isInstanceOf(UnsupportedOperationException.class);

        producer.clearProperties();
        assertThat(names).isEmpty();
        assertThat(producer.propertyExists("a")).isFalse();
    }

    @Test
    void sendOptionsHaveTheSpecifiedDefaults() {
        assertThat(producer.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        assertThat(producer.getPriority()).isEqualTo(4);
        assertThat(producer.getTimeToLive()).isZero();
        assertThat(producer.getDeliveryDelay()).isZero();
        assertThat(producer.getDisableMessageID()).isFalse();
        assertThat(producer.getDisableMessageTimestamp()).isFalse();
        assertThat(producer.getAsync()).isNull();
    }

    @Test
    void anImpossiblePriorityOrDeliveryModeIsRefusedWhenSet() {
        assertThatThrownBy(() -> producer.setPriority(10)).isInstanceOf(JMSRuntimeException.class).hasMessageContaining("0-9");
        assertThatThrownBy(() -> producer.setPriority(-1)).isInstanceOf(JMSRuntimeException.class);
        assertThatThrownBy(() -> producer.setDeliveryMode(0)).isInstanceOf(JMSRuntimeException.class);
        assertThat(producer.getPriority()).isEqualTo(4);
        assertThat(producer.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
    }

    @Test
    void aCorrelationIdAsBytesIsCopiedInAndOut() {
        byte[] id = "order-7".getBytes(StandardCharsets.UTF_8);
        producer.setJMSCorrelationIDAsBytes(id);
        id[0] = 'X';

        byte[] read = producer.getJMSCorrelationIDAsBytes();
        assertThat(new String(read, StandardCharsets.UTF_8)).isEqualTo("order-7");
        read[0] = 'Y';
        assertThat(producer.getJMSCorrelationID()).isEqualTo("order-7");
    }
}
