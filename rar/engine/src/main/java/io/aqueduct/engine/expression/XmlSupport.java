package io.aqueduct.engine.expression;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathExpression;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import javax.xml.xpath.XPathFactoryConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * XML parsing (secure processing, no DTDs, no external entities), XPath compilation and node
 * serialization. The JAXP objects are not thread-safe, so each thread keeps its own (JDK objects
 * only, so the thread locals do not pin this class loader).
 */
final class XmlSupport {
    private XmlSupport() {
    }

    private static final ErrorHandler SILENT = new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    };

    private static final ThreadLocal<DocumentBuilder> BUILDER = ThreadLocal.withInitial(XmlSupport::newBuilder);
    private static final ThreadLocal<XPath> XPATH = ThreadLocal.withInitial(XmlSupport::newXPath);
    private static final ThreadLocal<Transformer> SERIALIZER = ThreadLocal.withInitial(XmlSupport::newSerializer);

    private static DocumentBuilder newBuilder() {
        try {
            DocumentBuilderFactory f = io.aqueduct.engine.xml.SecureXml.documentBuilderFactory();
            // a fully built DOM: deferred node expansion mutates the tree on first read
            f.setFeature("http://apache.org/xml/features/dom/defer-node-expansion", false);
            return f.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("The XML parser cannot be configured securely", e);
        }
    }

    private static XPath newXPath() {
        try {
            XPathFactory f = XPathFactory.newDefaultInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return f.newXPath();
        } catch (XPathFactoryConfigurationException e) {
            throw new IllegalStateException("XPath cannot be configured securely", e);
        }
    }

    private static Transformer newSerializer() {
        try {
            Transformer t = io.aqueduct.engine.xml.SecureXml.transformerFactory().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            return t;
        } catch (javax.xml.transform.TransformerConfigurationException e) {
            throw new IllegalStateException("The XML serializer cannot be configured", e);
        }
    }

    /** The parsed document, or null when the text is not well-formed (or declares a DTD). */
    static Document parse(String text) {
        DocumentBuilder b = BUILDER.get();
        // the handler is set per parse only: a per-thread builder must not keep a reference to
        // this class loader's objects between parses (container threads outlive deployments)
        b.setErrorHandler(SILENT);
        try {
            return b.parse(new InputSource(new StringReader(text)));
        } catch (SAXException | IOException | RuntimeException e) {
            return null;
        } finally {
            b.reset();
            b.setErrorHandler(null);
        }
    }

    /** Compiles XPath 1.0 text for the calling thread. */
    static XPathExpression compile(String xpath) throws XPathExpressionException {
        return XPATH.get().compile(xpath);
    }

    /** The node as XML text (elements, documents) or its value (text, attributes). */
    static String serialize(Node node) {
        switch (node.getNodeType()) {
            case Node.TEXT_NODE:
            case Node.CDATA_SECTION_NODE:
            case Node.ATTRIBUTE_NODE:
            case Node.COMMENT_NODE:
            case Node.PROCESSING_INSTRUCTION_NODE:
                return node.getNodeValue();
            default:
                break;
        }
        try {
            StringWriter w = new StringWriter();
            Transformer t = SERIALIZER.get();
            t.transform(new DOMSource(node), new StreamResult(w));
            return w.toString();
        } catch (TransformerException | RuntimeException e) {
            return node.getTextContent();
        }
    }
}
