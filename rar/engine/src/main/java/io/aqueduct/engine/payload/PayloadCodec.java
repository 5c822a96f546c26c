package io.aqueduct.engine.payload;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.queue.QueueTableMeta;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Turns payloads into the bytes stored in the message row and back, checking that a payload fits
 * its queue table's payload type before anything is written (25215 otherwise).
 */
public final class PayloadCodec {
    private PayloadCodec() {
    }

    public static byte[] encode(QueueTableMeta table, Object payload) {
        if (payload == null) {
            return null;
        }
        return switch (table.payloadType()) {
            case RAW -> {
                if (payload instanceof byte[] b) {
                    yield b.clone();
                }
                throw mismatch(table, payload, "byte[]");
            }
            case TEXT -> {
                if (payload instanceof String s) {
                    yield s.getBytes(StandardCharsets.UTF_8);
                }
                throw mismatch(table, payload, "String");
            }
            case JSON -> encodeJson(table, payload);
            case XML -> encodeXml(table, payload);
            case OBJECT -> encodeObject(table, payload);
        };
    }

    /** The payload of a stored message; an OBJECT payload is read through {@code filter}. */
    public static Object decode(QueueTableMeta table, byte[] bytes, DeserializationFilter filter) {
        if (bytes == null) {
            return null;
        }
        return switch (table.payloadType()) {
            case RAW -> bytes;
            case TEXT, JSON, XML -> new String(bytes, StandardCharsets.UTF_8);
            case OBJECT -> decodeObject(table, bytes, filter);
        };
    }

    private static byte[] encodeJson(QueueTableMeta table, Object payload) {
        String text;
        if (payload instanceof JsonValue v) {
            text = v.toString();
        } else if (payload instanceof String s) {
            // exactly one JSON value, nothing but white space around it
            try (var parser = Json.createParser(new StringReader(s))) {
                if (!parser.hasNext()) {
                    throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                            + " holds JSON, and this payload is empty: give one JSON value (an object, array, string,"
                            + " number, true, false or null).");
                }
                parser.next();
                parser.getValue();
                if (parser.hasNext()) {
                    throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                            + " holds JSON, and this payload has more after its first JSON value (at offset "
                            + parser.getLocation().getStreamOffset() + "): give exactly one value.");
                }
            } catch (JsonParsingException e) {
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                        + " holds JSON, and this payload is not well-formed JSON: " + e.getMessage());
            } catch (JsonException e) {
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                        + " holds JSON, and this payload cannot be read as JSON: " + e.getMessage());
            } catch (AqException e) {
                throw e;
            } catch (RuntimeException e) {
                // the parser's own limits (nesting depth) come as plain runtime exceptions
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                        + " holds JSON, and this payload cannot be read as JSON: " + e.getMessage());
            }
            text = s;
        } else {
            throw mismatch(table, payload, "a JSON String or jakarta.json.JsonValue");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] encodeXml(QueueTableMeta table, Object payload) {
        if (payload instanceof Document d) {
            try {
                var t = io.aqueduct.engine.xml.SecureXml.transformerFactory().newTransformer();
                t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
                StringWriter w = new StringWriter();
                t.transform(new DOMSource(d), new StreamResult(w));
                return w.toString().getBytes(StandardCharsets.UTF_8);
            } catch (TransformerException e) {
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "The XML document cannot be serialized: " + e.getMessage());
            }
        }
        if (!(payload instanceof String s)) {
            throw mismatch(table, payload, "an XML String or org.w3c.dom.Document");
        }
        try {
            var builder = io.aqueduct.engine.xml.SecureXml.documentBuilderFactory().newDocumentBuilder();
            builder.setErrorHandler(null);
            builder.parse(new InputSource(new StringReader(s)));
        } catch (SAXException | IOException e) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName()
                    + " holds XML, and this payload is not well-formed XML: " + e.getMessage());
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] encodeObject(QueueTableMeta table, Object payload) {
        if (!isOfType(payload.getClass(), table.objectType())) {
            throw mismatch(table, payload, table.objectType());
        }
        if (!(payload instanceof Serializable)) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "The payload class " + payload.getClass().getName()
                    + " must implement java.io.Serializable to be stored in queue table " + table.qualifiedName() + ".");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (ObjectOutputStream o = new ObjectOutputStream(out)) {
            o.writeObject(payload);
        } catch (IOException e) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "The payload of type " + payload.getClass().getName()
                    + " cannot be serialized: " + e);
        }
        return out.toByteArray();
    }

    /** Is {@code type}, one of its superclasses or one of its interfaces named {@code typeName}? */
    private static boolean isOfType(Class<?> type, String typeName) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(typeName)) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (isOfType(i, typeName)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Object decodeObject(QueueTableMeta table, byte[] bytes, DeserializationFilter filter) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (ObjectInputStream in = new ContextObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            in.setObjectInputFilter(filter.forTable(table));
            return in.readObject();
        } catch (java.io.InvalidClassException e) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "A payload of queue table " + table.qualifiedName()
                    + " holds a class the deserialization filter does not allow (" + e.getMessage() + "). Only "
                    + table.objectType() + ", its package, the JDK's value classes and what the engine's"
                    + " deserializationFilter allows are read back.", e);
        } catch (IOException | ClassNotFoundException e) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "A payload of queue table " + table.qualifiedName()
                    + " cannot be read back as " + table.objectType() + " (is the class visible to the caller?): " + e);
        }
    }

    private static AqException mismatch(QueueTableMeta table, Object payload, String expected) {
        return new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue table " + table.qualifiedName() + " holds "
                + table.payloadType() + " payloads (" + expected + "); got a " + payload.getClass().getName() + ".");
    }

    private static final class ContextObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        ContextObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default resolution (primitive arrays, JDK classes)
                }
            }
            return super.resolveClass(desc);
        }
    }
}
