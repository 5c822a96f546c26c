package io.aqueduct.engine.xml;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerFactory;

/**
 * The one way Aqueduct reads and writes XML. Payloads, conditions and transformations are data
 * from whoever can enqueue: no DTD, no external entities or stylesheets, no XInclude, bounded
 * nesting and entity expansion (the JDK's secure processing limits).
 */
public final class SecureXml {
    /** Deeper documents are refused: recursive processing of them would exhaust the stack. */
    static final int MAX_ELEMENT_DEPTH = 1000;

    private SecureXml() {
    }

    /** A namespace-aware parser factory with every external access and DTD refused. */
    public static DocumentBuilderFactory documentBuilderFactory() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setAttribute("http://www.oracle.com/xml/jaxp/properties/maxElementDepth", MAX_ELEMENT_DEPTH);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(true);
            return f;
        } catch (ParserConfigurationException | IllegalArgumentException e) {
            throw new IllegalStateException("The XML parser cannot be configured securely", e);
        }
    }

    /** A serializer factory that fetches nothing from outside. */
    public static TransformerFactory transformerFactory() {
        try {
            TransformerFactory f = TransformerFactory.newDefaultInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            return f;
        } catch (TransformerConfigurationException | IllegalArgumentException e) {
            throw new IllegalStateException("The XML serializer cannot be configured securely", e);
        }
    }
}
