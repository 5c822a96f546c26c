package io.aqueduct.engine.expression;

import java.util.List;
import org.w3c.dom.Node;

/**
 * The XMLType value of {@code extract(...)} (or of an XML payload): one or more DOM nodes. An empty
 * result is NULL, never an empty fragment.
 */
final class XmlFragment {
    final List<Node> nodes;
    private String stringValue;

    XmlFragment(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** {@code getStringVal()}: text and attribute nodes by value, elements as XML text, concatenated. */
    String stringValue() {
        String s = stringValue;
        if (s == null) {
            if (nodes.size() == 1) {
                s = XmlSupport.serialize(nodes.get(0));
            } else {
                StringBuilder sb = new StringBuilder();
                for (Node n : nodes) {
                    sb.append(XmlSupport.serialize(n));
                }
                s = sb.toString();
            }
            stringValue = s;
        }
        return s;
    }

    @Override
    public String toString() {
        return stringValue();
    }
}
