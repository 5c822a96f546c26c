package io.aqueduct.http.idap;

import io.aqueduct.http.Faults;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reading the elements of an AQ XML request strictly: an element the operation does not know, one given twice, text
 * where elements belong, or a value of the wrong form is a fault that names it, never silently ignored.
 */
final class Elements {
    private Elements() {
    }

    /** The element children of {@code parent}; refuses non-blank text and elements outside {@code known}. */
    static List<Element> children(Element parent, Set<String> known) {
        return children(parent, known, false);
    }

    /** As above; with {@code anyElement}, elements of any name and namespace are taken (a payload). */
    static List<Element> children(Element parent, Set<String> known, boolean anyElement) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                Element e = (Element) n;
                if (!anyElement && (!Faults.AQ_NS.equals(e.getNamespaceURI()) || !known.contains(e.getLocalName()))) {
                    throw new IdapRequestException("<" + parent.getLocalName() + "> has no element <" + e.getLocalName()
                            + ">" + (Faults.AQ_NS.equals(e.getNamespaceURI()) ? "" : " in namespace " + e.getNamespaceURI())
                            + "; it takes " + String.join(", ", known.stream().sorted().toList()) + " (namespace "
                            + Faults.AQ_NS + ").");
                }
                out.add(e);
            } else if ((n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE)
                    && !n.getNodeValue().isBlank()) {
                throw new IdapRequestException("<" + parent.getLocalName() + "> holds text where elements belong: '"
                        + abbreviate(n.getNodeValue().strip()) + "'.");
            }
        }
        return out;
    }

    /** The one child named {@code name}, or null; twice is refused. */
    static Element optional(List<Element> children, Element parent, String name) {
        Element found = null;
        for (Element e : children) {
            if (e.getLocalName().equals(name)) {
                if (found != null) {
                    throw new IdapRequestException("<" + parent.getLocalName() + "> has <" + name + "> twice; give it once.");
                }
                found = e;
            }
        }
        return found;
    }

    static Element required(List<Element> children, Element parent, String name) {
        Element e = optional(children, parent, name);
        if (e == null) {
            throw new IdapRequestException("<" + parent.getLocalName() + "> needs a <" + name + "> element.");
        }
        return e;
    }

    static List<Element> all(List<Element> children, String name) {
        return children.stream().filter(e -> e.getLocalName().equals(name)).toList();
    }

    /** The text of a leaf element, trimmed; an element inside it is refused. */
    static String text(Element e) {
        if (e == null) {
            return null;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                throw new IdapRequestException("<" + e.getLocalName() + "> holds a value, not the element <"
                        + n.getLocalName() + ">.");
            }
        }
        return e.getTextContent().strip();
    }

    static String text(List<Element> children, Element parent, String name) {
        return text(optional(children, parent, name));
    }

    static Long number(List<Element> children, Element parent, String name) {
        String t = text(children, parent, name);
        if (t == null) {
            return null;
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IdapRequestException("<" + name + "> must be a whole number; got '" + abbreviate(t) + "'.");
        }
    }

    static Integer integer(List<Element> children, Element parent, String name) {
        Long n = number(children, parent, name);
        if (n == null) {
            return null;
        }
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new IdapRequestException("<" + name + "> is out of range: " + n + ".");
        }
        return n.intValue();
    }

    static <E extends Enum<E>> E choice(List<Element> children, Element parent, String name, Class<E> type) {
        String t = text(children, parent, name);
        if (t == null) {
            return null;
        }
        for (E value : type.getEnumConstants()) {
            if (value.name().equalsIgnoreCase(t)) {
                return value;
            }
        }
        throw new IdapRequestException("<" + name + "> is '" + abbreviate(t) + "'; it is one of "
                + java.util.Arrays.toString(type.getEnumConstants()) + ".");
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
