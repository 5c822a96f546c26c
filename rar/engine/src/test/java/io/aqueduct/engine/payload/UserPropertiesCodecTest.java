package io.aqueduct.engine.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The stored form of user properties: exact round trips, and unreadable bytes reported as such, never a crash. */
class UserPropertiesCodecTest {
    private static Map<String, Object> sample() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("s", "text ✓");
        p.put("z", false);
        p.put("b", (byte) -1);
        p.put("h", (short) 300);
        p.put("i", 7);
        p.put("j", -7L);
        p.put("f", Float.MIN_VALUE);
        p.put("d", Double.NEGATIVE_INFINITY);
        return p;
    }

    @Test
    void no_properties_store_nothing_and_read_back_empty() {
        assertThat(UserPropertiesCodec.encode(Map.of())).isNull();
        assertThat(UserPropertiesCodec.decode(null, "M")).isEmpty();
    }

    @Test
    void every_type_round_trips_exactly_in_order() {
        Map<String, Object> back = UserPropertiesCodec.decode(UserPropertiesCodec.encode(sample()), "M");
        assertThat(back).containsExactlyEntriesOf(sample());
    }

    @Test
    void truncated_or_garbled_bytes_are_a_store_failure_naming_the_message() {
        byte[] good = UserPropertiesCodec.encode(sample());
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> UserPropertiesCodec.decode(truncated, "MSG1"))
                    .isInstanceOfSatisfying(AqException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                        assertThat(e.getMessage()).contains("MSG1", "unreadable");
                    });
        }
        Random random = new Random(42);
        for (int k = 0; k < 2000; k++) {
            byte[] noise = good.clone();
            noise[random.nextInt(noise.length)] = (byte) random.nextInt();
            try {
                UserPropertiesCodec.decode(noise, "MSG2"); // may still be readable: a changed value
            } catch (AqException e) {
                assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
            }
        }
        byte[] newer = good.clone();
        newer[0] = 9;
        assertThatThrownBy(() -> UserPropertiesCodec.decode(newer, "MSG3")).hasMessageContaining("format version 9");
    }

    @Test
    void a_value_of_another_type_is_refused() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("when", java.time.Instant.EPOCH);
        assertThatThrownBy(() -> UserPropertiesCodec.encode(p)).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE));
    }
}
