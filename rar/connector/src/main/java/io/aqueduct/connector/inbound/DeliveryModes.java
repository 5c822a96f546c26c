package io.aqueduct.connector.inbound;

import io.aqueduct.api.DeliveryMode;
import java.util.Locale;

/** The {@code deliveryMode} activation property of both activation specs: AQ's dequeue delivery mode by name. */
public final class DeliveryModes {

    private DeliveryModes() {
    }

    /** The mode {@code value} names (case and blanks ignored); {@code fallback} when empty; null when it names none. */
    public static DeliveryMode parse(String value, DeliveryMode fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return DeliveryMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The validation problem for a value that names no mode. */
    public static String problem(String value) {
        return "deliveryMode '" + value + "' is not PERSISTENT, BUFFERED or PERSISTENT_OR_BUFFERED";
    }
}
