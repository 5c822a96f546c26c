package io.aqueduct.engine.expression;

import javax.xml.xpath.XPathExpression;
import javax.xml.xpath.XPathExpressionException;

/**
 * An XPath literal of an expression: checked once when the expression is parsed, compiled once per
 * evaluating thread (JAXP XPathExpression objects are not thread-safe).
 */
final class CompiledXPath {
    final String text;
    private final ThreadLocal<XPathExpression> perThread;

    private CompiledXPath(String text, XPathExpression first) {
        this.text = text;
        this.perThread = ThreadLocal.withInitial(() -> {
            try {
                return XmlSupport.compile(text);
            } catch (XPathExpressionException e) {
                throw new IllegalStateException(e); // it compiled when parsed; cannot happen
            }
        });
        perThread.set(first); // the parsing thread keeps the copy it compiled
    }

    /** Compiles the XPath text; throws when it is not valid XPath 1.0. */
    static CompiledXPath of(String text) throws XPathExpressionException {
        return new CompiledXPath(text, XmlSupport.compile(text));
    }

    XPathExpression get() {
        return perThread.get();
    }
}
