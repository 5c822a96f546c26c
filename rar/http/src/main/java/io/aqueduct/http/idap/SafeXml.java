package io.aqueduct.http.idap;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * XML from the network, read without trusting it: no document type declaration at all (so no entity, internal or
 * external, can be declared, expanded or fetched: XXE and "billion laughs" fail at their DOCTYPE), no XInclude, no
 * external DTD or schema, the JDK's secure-processing limits, and the JDK's own parser and transformer whatever the
 * container puts first on the class path, and at most {@value #MAX_DEPTH} levels of nesting. The engine does the same for stored payloads; this WAR may use only the
 * API, so it has its own.
 */
final class SafeXml {
    /** The deepest element nesting accepted (an envelope with an XML payload needs some 10 levels more than the payload). */
    static final int MAX_DEPTH = 500;
    private static final DocumentBuilderFactory FACTORY = factory();
    private static final TransformerFactory TRANSFORMERS = transformers();

    private SafeXml() {
    }

    private static DocumentBuilderFactory factory() {
        DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
        try {
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            // a deeply nested document would overflow the stack of whatever walks it (copying a payload, writing XML)
            f.setAttribute("http://www.oracle.com/xml/jaxp/properties/maxElementDepth", Integer.toString(MAX_DEPTH));
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("The JDK's XML parser refuses a safety feature: " + e, e);
        }
        return f;
    }

    private static TransformerFactory transformers() {
        TransformerFactory f = TransformerFactory.newDefaultInstance();
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
        return f;
    }

    /** Parses a request body; an {@link IdapRequestException} says what is wrong with it and where. */
    static Document parse(InputStream in) throws IOException {
        return parse(new InputSource(in), "The request");
    }

    /** Parses a stored XML payload (written through the engine, which checked it) to embed it in a response. */
    static Document parse(String xml) throws IOException {
        return parse(new InputSource(new StringReader(xml)), "A stored XML payload");
    }

    private static Document parse(InputSource source, String what) throws IOException {
        try {
            DocumentBuilder builder = FACTORY.newDocumentBuilder();
            // the error comes back as the exception; the parser's default handler would also print it to stderr
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder.parse(source);
        } catch (SAXParseException e) {
            String message = e.getMessage();
            if (message != null && message.contains("DOCTYPE")) {
                throw new IdapRequestException(what + " declares a document type (<!DOCTYPE ...>): that is refused,"
                        + " an AQ XML request needs none and entities are not expanded.");
            }
            throw new IdapRequestException(what + " is not well-formed XML (line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + "): " + message);
        } catch (SAXException e) {
            throw new IdapRequestException(what + " is not well-formed XML: " + e.getMessage());
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    static Document newDocument() {
        try {
            return FACTORY.newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    static String serialize(Node node, boolean declaration) {
        try {
            Transformer t = TRANSFORMERS.newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, declaration ? "no" : "yes");
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(node), new StreamResult(w));
            return w.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException("Serializing XML failed: " + e, e);
        }
    }
}
