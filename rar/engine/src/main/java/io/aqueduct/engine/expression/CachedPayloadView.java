package io.aqueduct.engine.expression;

import io.aqueduct.api.PayloadType;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.w3c.dom.Document;

/** {@link PayloadView#of}: parses JSON / XML text lazily, once. Not for concurrent use. */
final class CachedPayloadView implements PayloadView {
    static final CachedPayloadView NONE = new CachedPayloadView(null, (Object) null);
    private static final JsonReaderFactory JSON = Json.createReaderFactory(Map.of());

    private final PayloadType type;
    private Object value;
    private Supplier<?> supplier;
    private JsonValue json;
    private Document xml;
    private boolean parsed;
    /** How many times text was parsed (for tests: at most once). */
    int parses;

    CachedPayloadView(PayloadType type, Object value) {
        this.type = type;
        this.value = value;
    }

    CachedPayloadView(PayloadType type, Supplier<?> supplier) {
        this.type = type;
        this.supplier = supplier;
    }

    @Override
    public PayloadType type() {
        return type;
    }

    @Override
    public Object value() {
        Supplier<?> s = supplier;
        if (s != null) {
            supplier = null;
            try {
                value = s.get();
            } catch (RuntimeException e) {
                value = null; // a payload that cannot be decoded: its attributes are unknown
            }
        }
        return value;
    }

    @Override
    public JsonValue json() {
        Object value = value();
        if (type != PayloadType.JSON || value == null) {
            return null;
        }
        if (value instanceof JsonValue v) {
            return v;
        }
        if (!parsed) {
            parsed = true;
            String text = text(value);
            if (text != null) {
                parses++;
                try (JsonReader r = JSON.createReader(new StringReader(text))) {
                    json = r.readValue();
                } catch (JsonException | IllegalStateException e) {
                    json = null;
                }
            }
        }
        return json;
    }

    @Override
    public Document xml() {
        Object value = value();
        if (type != PayloadType.XML || value == null) {
            return null;
        }
        if (value instanceof Document d) {
            return d;
        }
        if (!parsed) {
            parsed = true;
            String text = text(value);
            if (text != null) {
                parses++;
                xml = XmlSupport.parse(text);
            }
        }
        return xml;
    }

    private static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (value instanceof CharSequence cs) {
            return cs.toString();
        }
        return null;
    }

    @Override
    public String toString() {
        return "PayloadView[" + type + "]";
    }
}
