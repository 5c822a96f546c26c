package io.aqueduct.engine.expression;

import io.aqueduct.api.PayloadType;
import jakarta.json.JsonValue;
import java.util.function.Supplier;
import org.w3c.dom.Document;

/**
 * A message payload as expressions see it. {@link #of(PayloadType, Object)} gives an
 * implementation that parses JSON and XML text at most once and caches the result, so a set of
 * rules evaluated against one message parses its payload once.
 */
public interface PayloadView {
    /** The queue table's payload type; null when the message has no payload. */
    PayloadType type();

    /**
     * The payload as given: {@code byte[]} (RAW), String (TEXT, JSON or XML text),
     * {@code jakarta.json.JsonValue} (JSON), {@code org.w3c.dom.Document} (XML) or the Java object
     * (OBJECT); null when there is none.
     */
    Object value();

    /** For JSON payloads the parsed value (parsed once, then cached); null otherwise or when not well-formed. */
    JsonValue json();

    /** For XML payloads the parsed document (parsed once, then cached); null otherwise or when not well-formed. */
    Document xml();

    /** A caching view of a payload (see the class comment). */
    static PayloadView of(PayloadType type, Object value) {
        return new CachedPayloadView(type, value);
    }

    /**
     * A caching view whose payload is produced on first use: the engine can pass the decoding of
     * the stored bytes, so expressions that read only message properties never decode the payload
     * (see {@link Expression#readsPayload()}). The supplier is called at most once.
     */
    static PayloadView lazy(PayloadType type, Supplier<?> value) {
        return new CachedPayloadView(type, value);
    }

    /** A message without a payload. */
    static PayloadView none() {
        return CachedPayloadView.NONE;
    }
}
