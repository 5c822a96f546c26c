package io.aqueduct.engine.transform;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.queue.QueueTableMeta;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A transformation's source or target type: {@code RAW}, {@code TEXT}, {@code JSON}, {@code XML}
 * (case-insensitive) or a Java class name (an OBJECT type, kept as written).
 */
public record PayloadTypeName(PayloadType type, String objectType) {
    private static final Pattern JAVA_CLASS_NAME =
            Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

    public static PayloadTypeName parse(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new AqException(AqError.INVALID_VALUE, "A transformation needs a " + what
                    + " type: RAW, TEXT, JSON, XML or a Java class name.");
        }
        String t = text.strip(); // whitespace only: a NUL stays and is refused
        switch (t.toUpperCase(Locale.ROOT)) {
            case "RAW": return new PayloadTypeName(PayloadType.RAW, null);
            case "TEXT": return new PayloadTypeName(PayloadType.TEXT, null);
            case "JSON": return new PayloadTypeName(PayloadType.JSON, null);
            case "XML", "XMLTYPE", "SYS.XMLTYPE": return new PayloadTypeName(PayloadType.XML, null);
            default:
                if (!JAVA_CLASS_NAME.matcher(t).matches()) {
                    throw new AqException(AqError.INVALID_VALUE, "'" + text + "' is not a " + what
                            + " type: use RAW, TEXT, JSON, XML or the fully qualified name of a Java class.");
                }
                return new PayloadTypeName(PayloadType.OBJECT, t);
        }
    }

    /** The type of a queue table's payloads. */
    public static PayloadTypeName of(QueueTableMeta table) {
        return new PayloadTypeName(table.payloadType(), table.payloadType() == PayloadType.OBJECT ? table.objectType() : null);
    }

    /** Same payload type, and for OBJECT the same class name. */
    public boolean sameAs(PayloadTypeName other) {
        return type == other.type && (type != PayloadType.OBJECT || objectType.equals(other.objectType));
    }

    /**
     * Checks that {@code payload} is of this type (as a queue table of this type would), throwing
     * 25215 when not; returns the stored form (unused by callers that only check).
     */
    byte[] check(Object payload, String context) {
        return PayloadCodec.encode(new QueueTableMeta(0, "TRANSFORMATION", context, type, objectType, SortOrder.ENQ_TIME,
                false, MessageGrouping.NONE, null), payload);
    }

    @Override
    public String toString() {
        return type == PayloadType.OBJECT ? objectType : type.name();
    }
}
