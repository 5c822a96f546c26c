package io.aqueduct.http.idap;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.PayloadType;
import io.aqueduct.http.Faults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * {@code <message_payload>} in the form of the queue's payload type. XML queues: the document's root element itself
 * (as the seed's {@code <ORDER_TYP>}); elements in the envelope's AQ namespace (inherited from
 * {@code <AQXmlSend xmlns=...>}) are stored without a namespace, so the stored document is the one the sender wrote
 * and dequeue conditions read {@code tab.user_data.orderno}. The other types, in one element of the AQ namespace:
 * {@code <text>} for TEXT, {@code <json>} holding the JSON text for JSON, {@code <raw>} holding base64 for RAW.
 * OBJECT queues (serialized Java objects) are not reachable over HTTP: reading serialized objects from the network
 * is how deserialization attacks work.
 */
final class IdapPayloads {
    private IdapPayloads() {
    }

    static Object read(Element payload, PayloadType type, String queue) {
        List<Element> children = Elements.children(payload, Set.of(), true);
        if (children.size() != 1) {
            throw new IdapRequestException("<message_payload> holds " + children.size() + " elements; give exactly one: "
                    + expected(type) + ".");
        }
        Element e = children.get(0);
        switch (type) {
            case XML:
                Document doc = SafeXml.newDocument();
                doc.appendChild(withoutAqNamespace(doc, e));
                return SafeXml.serialize(doc, false);
            case TEXT:
                return wrapped(e, "text", type);
            case JSON:
                return wrapped(e, "json", type);
            case RAW:
                try {
                    return Base64.getMimeDecoder().decode(wrapped(e, "raw", type).strip());
                } catch (IllegalArgumentException ex) {
                    throw new IdapRequestException("<raw> must hold base64: " + ex.getMessage());
                }
            default:
                throw objectQueue(queue);
        }
    }

    static AqException objectQueue(String queue) {
        return new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue " + queue + " holds serialized Java objects (OBJECT):"
                + " those are not sent or received over HTTP; use a RAW, TEXT, JSON or XML queue (or a transformation).");
    }

    private static String expected(PayloadType type) {
        return switch (type) {
            case XML -> "the XML document's root element";
            case TEXT -> "<text>";
            case JSON -> "<json> with the JSON text";
            case RAW -> "<raw> with base64";
            case OBJECT -> "nothing: OBJECT queues are not reachable over HTTP";
        };
    }

    private static String wrapped(Element e, String name, PayloadType type) {
        if (!Faults.AQ_NS.equals(e.getNamespaceURI()) || !e.getLocalName().equals(name)) {
            throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "The queue holds " + type + " payloads: <message_payload>"
                    + " takes " + expected(type) + ", not <" + e.getLocalName() + ">.");
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                throw new IdapRequestException("<" + name + "> holds text; escape markup in it (&lt;) or use CDATA.");
            }
        }
        return e.getTextContent();
    }

    /** A deep copy of {@code e} into {@code doc} where the AQ namespace becomes no namespace. */
    private static Node withoutAqNamespace(Document doc, Element e) {
        String ns = Faults.AQ_NS.equals(e.getNamespaceURI()) ? null : e.getNamespaceURI();
        Element copy = doc.createElementNS(ns, ns == null ? e.getLocalName() : e.getTagName());
        NamedNodeMap attributes = e.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++) {
            Attr a = (Attr) attributes.item(i);
            if ("http://www.w3.org/2000/xmlns/".equals(a.getNamespaceURI()) && Faults.AQ_NS.equals(a.getValue())) {
                continue;
            }
            copy.setAttributeNodeNS((Attr) doc.importNode(a, true));
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            copy.appendChild(n.getNodeType() == Node.ELEMENT_NODE ? withoutAqNamespace(doc, (Element) n) : doc.importNode(n, true));
        }
        return copy;
    }

    /** The payload as {@code <message_payload>} content in a response. */
    static void write(IdapCall call, Element target, PayloadType type, Object payload) {
        if (payload == null) {
            return;
        }
        switch (type) {
            case XML -> {
                try {
                    Document stored = SafeXml.parse(String.valueOf(payload));
                    target.appendChild(call.response.importNode(stored.getDocumentElement(), true));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            case TEXT -> target.appendChild(call.element("text", payload));
            case JSON -> target.appendChild(call.element("json", payload));
            case RAW -> target.appendChild(call.element("raw", Base64.getEncoder().encodeToString(
                    payload instanceof byte[] b ? b : String.valueOf(payload).getBytes(StandardCharsets.UTF_8))));
            default -> throw new IllegalStateException("OBJECT payloads are refused before they are dequeued");
        }
    }
}
