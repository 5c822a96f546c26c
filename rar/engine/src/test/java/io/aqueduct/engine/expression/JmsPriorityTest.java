package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.JmsPriority;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The api's JMS priority mapping, the one the JMS provider and the engine's selectors share: JMS
 * 0..9 (9 first) is AQ 9 - p (lower first); an AQ priority outside 0..9 reads as the nearest JMS end.
 */
class JmsPriorityTest {

    @ParameterizedTest(name = "JMS {0} is AQ {1} and back")
    @CsvSource({"0, 9", "1, 8", "4, 5", "5, 4", "9, 0"})
    void every_jms_priority_maps_to_9_minus_it_and_back(int jms, int aq) {
        assertThat(JmsPriority.toAq(jms)).isEqualTo(aq);
        assertThat(JmsPriority.toJms(aq)).isEqualTo(jms);
        assertThat(JmsHeaders.toAqPriority(jms)).isEqualTo(aq); // the engine delegates to the api
    }

    @ParameterizedTest(name = "JMS priority {0} is refused with 24097")
    @ValueSource(ints = {-1, 10, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void a_jms_priority_outside_0_to_9_is_refused_with_24097_naming_the_range(int jms) {
        assertThatThrownBy(() -> JmsPriority.toAq(jms)).isInstanceOfSatisfying(AqException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE);
            assertThat(e.getMessage()).contains("JMS priority " + jms, "from 0 (lowest) to 9 (highest)");
        });
    }

    @ParameterizedTest(name = "AQ priority {0} reads as JMS {1}")
    @CsvSource({"-1, 9", "-2147483648, 9", "10, 0", "2147483647, 0"})
    void an_aq_priority_outside_0_to_9_is_clamped_to_the_nearest_jms_end(int aq, int jms) {
        assertThat(JmsPriority.toJms(aq)).isEqualTo(jms);
        assertThat(JmsHeaders.toJmsPriority(aq)).isEqualTo(jms);
    }
}
