package io.aqueduct.engine.payload;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.queue.QueueTableMeta;
import java.io.ObjectInputFilter;

/**
 * What an OBJECT payload may contain when it is read back. A stored payload is bytes anyone with
 * access to the store could have written, so Java deserialization of it is limited to: the queue
 * table's object type and the classes of its package (the application's domain), the JDK's value
 * classes (java.lang, java.util, java.time, java.math) and primitive arrays; plus what the
 * configured filter allows, and minus what it rejects (JDK filter syntax, e.g.
 * {@code com.example.orders.**;!com.example.orders.internal.*}). Graph depth, references and array
 * sizes are bounded.
 */
public final class DeserializationFilter {
    private static final long MAX_DEPTH = 100;
    private static final long MAX_REFERENCES = 1_000_000;
    private static final long MAX_ARRAY = 64L * 1024 * 1024;
    private static final String[] JDK_VALUE_PACKAGES = {"java.lang.", "java.util.", "java.time.", "java.math."};
    /** No configured patterns: the default rule alone. */
    public static final DeserializationFilter DEFAULT = new DeserializationFilter(null, null);

    private final ObjectInputFilter configured;
    private final String patterns;

    private DeserializationFilter(ObjectInputFilter configured, String patterns) {
        this.configured = configured;
        this.patterns = patterns;
    }

    /** The filter with {@code patterns} (JDK ObjectInputFilter syntax) decided first; null or blank: the default rule. */
    public static DeserializationFilter of(String patterns) {
        if (patterns == null || patterns.isBlank()) {
            return DEFAULT;
        }
        try {
            return new DeserializationFilter(ObjectInputFilter.Config.createFilter(patterns.trim()), patterns.trim());
        } catch (IllegalArgumentException e) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid deserialization filter '" + patterns + "': "
                    + e.getMessage() + ". Use the JDK's pattern syntax, e.g. com.example.orders.**;!com.example.orders.internal.*");
        }
    }

    /** The filter for reading payloads of {@code table}. */
    ObjectInputFilter forTable(QueueTableMeta table) {
        String objectType = table.objectType();
        String domain = objectType == null || objectType.lastIndexOf('.') < 0 ? null
                : objectType.substring(0, objectType.lastIndexOf('.') + 1);
        return info -> {
            if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES || info.arrayLength() > MAX_ARRAY) {
                return ObjectInputFilter.Status.REJECTED;
            }
            Class<?> c = info.serialClass();
            if (c == null) {
                return ObjectInputFilter.Status.UNDECIDED; // a limits check only
            }
            if (configured != null) {
                ObjectInputFilter.Status s = configured.checkInput(info);
                if (s != ObjectInputFilter.Status.UNDECIDED) {
                    return s;
                }
            }
            while (c.isArray()) {
                c = c.getComponentType();
            }
            String name = c.getName();
            if (c.isPrimitive() || name.equals(objectType) || (domain != null && name.startsWith(domain)
                    && name.indexOf('.', domain.length()) < 0)) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            for (String p : JDK_VALUE_PACKAGES) {
                if (name.startsWith(p) && name.indexOf('.', p.length()) < 0) {
                    return ObjectInputFilter.Status.ALLOWED;
                }
            }
            return ObjectInputFilter.Status.REJECTED;
        };
    }

    @Override
    public String toString() {
        return patterns == null ? "default" : patterns;
    }
}
