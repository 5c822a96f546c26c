package io.aqueduct.engine.expression;

import io.aqueduct.api.PayloadType;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Payload attribute paths ({@code customer.country}) over JSON objects, maps, XML elements and Java
 * objects. A name matches exactly first, then ignoring case, then ignoring case and underscores
 * ({@code order_region} finds {@code orderRegion}). A missing attribute is NULL, never an error.
 */
final class Attributes {
    private Attributes() {
    }

    /** Marks a missing attribute (distinct from an attribute whose value is null). */
    static final Object MISSING = new Object();

    /** The payload value that attribute paths start from, or null when the payload has no attributes. */
    static Object root(PayloadView p) {
        PayloadType type = p.type();
        if (type == null) {
            return null;
        }
        switch (type) {
            case JSON:
                return p.json();
            case XML: {
                Document d = p.xml();
                return d == null ? null : d.getDocumentElement();
            }
            case OBJECT:
                return p.value();
            default:
                return null;
        }
    }

    /** The whole payload as a value ({@code tab.user_data}). */
    static Object payloadValue(PayloadView p) {
        PayloadType type = p.type();
        if (type == null) {
            return null;
        }
        switch (type) {
            case TEXT:
                return Values.normalize(p.value());
            case JSON: {
                JsonValue j = p.json();
                return j == null ? null : Values.fromJson(j);
            }
            case XML: {
                Document d = p.xml();
                return d == null ? null : new XmlFragment(List.of(d.getDocumentElement()));
            }
            case OBJECT:
                return Values.normalize(p.value());
            default:
                return p.value(); // RAW bytes: compares as unknown
        }
    }

    /** Follows the path from {@code root}; the normalized value, or null when any step is missing. */
    static Object resolve(Object root, String[] path) {
        Object cur = root;
        for (int i = 0; i < path.length; i++) {
            if (cur == null) {
                return null;
            }
            if (i == 0 && cur instanceof Element e) {
                Object next = step(cur, path[0]);
                if (next == MISSING && path.length > 1 && localName(e).equalsIgnoreCase(path[0])) {
                    continue; // the path names the document element itself
                }
                cur = next;
            } else {
                cur = step(cur, path[i]);
            }
            if (cur == MISSING) {
                return null;
            }
        }
        return Values.normalize(cur);
    }

    static Object step(Object cur, String name) {
        if (cur instanceof JsonValue j) {
            return j instanceof JsonObject o ? member(o, name) : MISSING;
        }
        if (cur instanceof Map<?, ?> map) {
            return mapEntry(map, name);
        }
        if (cur instanceof Document d) {
            cur = d.getDocumentElement();
        }
        if (cur instanceof Element e) {
            return child(e, name);
        }
        if (cur instanceof Node || isScalar(cur)) {
            return MISSING;
        }
        return Reflection.get(cur, name);
    }

    private static boolean isScalar(Object v) {
        return v instanceof CharSequence || v instanceof Number || v instanceof Boolean || v instanceof Character
                || v instanceof Enum || v instanceof Temporal || v instanceof java.util.Date
                || v instanceof Collection || v.getClass().isArray() || v instanceof XmlFragment;
    }

    /** Exact, then case-insensitive, then ignoring underscores too. */
    static boolean loose(String candidate, String name) {
        int i = 0;
        int j = 0;
        int n = candidate.length();
        int m = name.length();
        while (true) {
            while (i < n && candidate.charAt(i) == '_') {
                i++;
            }
            while (j < m && name.charAt(j) == '_') {
                j++;
            }
            if (i == n || j == m) {
                return i == n && j == m;
            }
            char a = candidate.charAt(i++);
            char b = name.charAt(j++);
            if (a != b && Character.toLowerCase(a) != Character.toLowerCase(b)
                    && Character.toUpperCase(a) != Character.toUpperCase(b)) {
                return false;
            }
        }
    }

    private static Object member(JsonObject o, String name) {
        JsonValue v = o.get(name);
        if (v != null) {
            return v;
        }
        for (Map.Entry<String, JsonValue> e : o.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        for (Map.Entry<String, JsonValue> e : o.entrySet()) {
            if (loose(e.getKey(), name)) {
                return e.getValue();
            }
        }
        return MISSING;
    }

    private static Object mapEntry(Map<?, ?> map, String name) {
        try {
            if (map.containsKey(name)) {
                return map.get(name);
            }
        } catch (RuntimeException e) {
            // maps that refuse String keys
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() instanceof String k && k.equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getKey() instanceof String k && loose(k, name)) {
                return e.getValue();
            }
        }
        return MISSING;
    }

    static String localName(Node n) {
        String l = n.getLocalName();
        if (l != null) {
            return l;
        }
        String q = n.getNodeName();
        int colon = q.indexOf(':');
        return colon >= 0 ? q.substring(colon + 1) : q;
    }

    /** A child element by name (first match), else an attribute of that name. */
    private static Object child(Element e, String name) {
        Element ci = null;
        Element loose = null;
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c.getNodeType() != Node.ELEMENT_NODE) {
                continue;
            }
            String l = localName(c);
            if (l.equals(name)) {
                return c;
            }
            if (ci == null && l.equalsIgnoreCase(name)) {
                ci = (Element) c;
            } else if (loose == null && loose(l, name)) {
                loose = (Element) c;
            }
        }
        if (ci != null) {
            return ci;
        }
        if (loose != null) {
            return loose;
        }
        NamedNodeMap attrs = e.getAttributes();
        for (int k = 0; k < attrs.getLength(); k++) {
            Node a = attrs.item(k);
            if (localName(a).equalsIgnoreCase(name)) {
                return a;
            }
        }
        return MISSING;
    }

    /** Getter / field access on Java objects, with the accessor found once per class and name. */
    static final class Reflection {
        private Reflection() {
        }

        @FunctionalInterface
        interface Accessor {
            Object get(Object target) throws ReflectiveOperationException;
        }

        private static final Accessor NONE = t -> MISSING;

        private static final ClassValue<Map<String, Accessor>> CACHE = new ClassValue<>() {
            @Override
            protected Map<String, Accessor> computeValue(Class<?> type) {
                return new ConcurrentHashMap<>();
            }
        };

        static Object get(Object target, String name) {
            Class<?> type = target.getClass();
            Map<String, Accessor> byName = CACHE.get(type);
            Accessor a = byName.get(name);
            if (a == null) {
                a = byName.computeIfAbsent(name, n -> find(type, n));
            }
            try {
                return a.get(target);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null; // a getter that fails gives an unknown value, not an error
            }
        }

        private static Accessor find(Class<?> type, String name) {
            List<Method> methods = candidateMethods(type);
            List<Field> fields = candidateFields(type);
            // 1. getter named exactly, 2. ignoring case, 3. ignoring case and underscores
            for (int pass = 0; pass < 3; pass++) {
                for (Method m : methods) {
                    if (matchesGetter(m, name, pass, fields)) {
                        return method(m);
                    }
                }
                for (Field f : fields) {
                    if (matches(f.getName(), name, pass)) {
                        return f::get;
                    }
                }
            }
            return NONE;
        }

        private static Accessor method(Method m) {
            return t -> {
                try {
                    return m.invoke(t);
                } catch (InvocationTargetException e) {
                    return null;
                }
            };
        }

        private static boolean matches(String candidate, String name, int pass) {
            switch (pass) {
                case 0:
                    return candidate.equals(name);
                case 1:
                    return candidate.equalsIgnoreCase(name);
                default:
                    return loose(candidate, name);
            }
        }

        /**
         * getX() / isX() (boolean), or x() when it is a record component accessor or a field x
         * exists: other methods (delete(), close(), ...) are never called.
         */
        private static boolean matchesGetter(Method m, String name, int pass, List<Field> fields) {
            String method = m.getName();
            if (matches(method, name, pass) && isPlainAccessor(m, fields)) {
                return true;
            }
            for (String prefix : new String[] {"get", "is"}) {
                if (prefix.equals("is") && m.getReturnType() != boolean.class && m.getReturnType() != Boolean.class) {
                    continue;
                }
                if (method.length() > prefix.length() && method.startsWith(prefix)) {
                    String rest = method.substring(prefix.length());
                    String decap = Character.toLowerCase(rest.charAt(0)) + rest.substring(1);
                    if (pass == 0 ? decap.equals(name) || rest.equals(name) : matches(rest, name, pass)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean isPlainAccessor(Method m, List<Field> fields) {
            Class<?> owner = m.getDeclaringClass();
            if (owner.isRecord()) {
                for (var c : owner.getRecordComponents()) {
                    if (c.getName().equals(m.getName())) {
                        return true;
                    }
                }
            }
            for (Field f : fields) {
                if (f.getName().equals(m.getName())) {
                    return true;
                }
            }
            return false;
        }

        /** No-argument, non-void, non-static methods not declared by Object, usable on this object. */
        private static List<Method> candidateMethods(Class<?> type) {
            List<Method> out = new ArrayList<>();
            for (Method m : type.getMethods()) {
                if (usable(m) && (Modifier.isPublic(m.getDeclaringClass().getModifiers()) || m.trySetAccessible())) {
                    out.add(m);
                }
            }
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (!Modifier.isPublic(m.getModifiers()) && usable(m) && !m.isSynthetic() && m.trySetAccessible()) {
                        out.add(m);
                    }
                }
            }
            return out;
        }

        private static boolean usable(Method m) {
            return m.getParameterCount() == 0 && m.getReturnType() != void.class
                    && !Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class
                    && !m.getName().equals("hashCode") && !m.getName().equals("toString")
                    && !m.getName().equals("getClass");
        }

        private static List<Field> candidateFields(Class<?> type) {
            List<Field> out = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()
                            && (Modifier.isPublic(f.getModifiers()) && Modifier.isPublic(c.getModifiers())
                                    || f.trySetAccessible())) {
                        out.add(f);
                    }
                }
            }
            return out;
        }
    }
}
