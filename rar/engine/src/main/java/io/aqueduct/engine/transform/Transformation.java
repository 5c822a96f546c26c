package io.aqueduct.engine.transform;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.TransformationInfo;
import io.aqueduct.api.Transformer;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.expression.MessageSnapshot;
import io.aqueduct.engine.expression.MessageView;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A named transformation (DBMS_TRANSFORM) as the engine keeps it: immutable, replaced when
 * modified. Either a {@link Transformer} class or one value expression per target attribute.
 * {@link #apply} checks the payload against the source type (24186), transforms it and checks the
 * result against the target type (25229 when the function throws or returns something else).
 * JSON and XML results are given as text, as a dequeue of such a queue gives them.
 */
public final class Transformation {
    private static final Pattern ATTRIBUTE = Pattern.compile("\\p{L}[\\p{L}\\p{N}_]*");
    /** The column sizes of AQ_TRANSFORMATION. */
    public static final int MAX_TYPE_CHARS = 256;
    public static final int MAX_DEFINITION_CHARS = 32000;

    private final String schema;
    private final String name;
    private final PayloadTypeName from;
    private final PayloadTypeName to;
    private final String functionClass;
    private final Map<String, Expression> attributes;

    private Transformation(String schema, String name, PayloadTypeName from, PayloadTypeName to, String functionClass,
            Map<String, Expression> attributes) {
        this.schema = schema;
        this.name = name;
        this.from = from;
        this.to = to;
        this.functionClass = functionClass;
        this.attributes = attributes;
    }

    /** A function transformation; the class must load and implement {@link Transformer} (24097 otherwise). */
    public static Transformation function(String schema, String name, PayloadTypeName from, PayloadTypeName to,
            String functionClass) {
        if (functionClass == null || functionClass.isBlank()) {
            throw new AqException(AqError.INVALID_VALUE, "Transformation " + schema + "." + name
                    + " needs the name of its function class (an io.aqueduct.api.Transformer).");
        }
        String cls = functionClass.trim();
        if (cls.length() > MAX_TYPE_CHARS) {
            throw new AqException(AqError.INVALID_VALUE, "A function class name has at most " + MAX_TYPE_CHARS + " characters.");
        }
        Class<?> c = load(cls, "function class of transformation " + schema + "." + name, AqError.INVALID_VALUE);
        if (!Transformer.class.isAssignableFrom(c)) {
            throw new AqException(AqError.INVALID_VALUE, "Class " + cls + " is not a transformation function: it must"
                    + " implement io.aqueduct.api.Transformer.");
        }
        constructor(c, AqError.INVALID_VALUE);
        return new Transformation(schema, name, from, to, cls, Map.of());
    }

    /** An attribute transformation; each expression must parse (25448), each attribute fit the target. */
    public static Transformation attributes(String schema, String name, PayloadTypeName from, PayloadTypeName to,
            Map<String, String> expressions) {
        Map<String, Expression> parsed = new LinkedHashMap<>();
        Map<String, String> given = expressions == null ? Map.of() : expressions;
        Class<?> target = null;
        if (to.type() == PayloadType.OBJECT) {
            target = load(to.objectType(), "target class of transformation " + schema + "." + name, AqError.INVALID_VALUE);
            constructor(target, AqError.INVALID_VALUE);
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            String attribute = e.getKey();
            if (attribute == null || !ATTRIBUTE.matcher(attribute).matches()) {
                throw new AqException(AqError.INVALID_VALUE, "'" + attribute + "' is not a valid target attribute name"
                        + " of transformation " + schema + "." + name + ": use a letter followed by letters, digits or _.");
            }
            if (parsed.keySet().stream().anyMatch(a -> a.equalsIgnoreCase(attribute))) {
                throw new AqException(AqError.INVALID_VALUE, "Attribute " + attribute + " appears twice in transformation "
                        + schema + "." + name + ".");
            }
            if (e.getValue() == null || e.getValue().isBlank()) {
                throw new AqException(AqError.INVALID_EXPRESSION, "Attribute " + attribute + " of transformation "
                        + schema + "." + name + " needs an expression.");
            }
            if (target != null && !hasProperty(target, attribute)) {
                throw new AqException(AqError.INVALID_VALUE, "Class " + target.getName() + " has no settable property "
                        + attribute + " (a setter or a non-final field) for transformation " + schema + "." + name + ".");
            }
            parsed.put(attribute, Expression.parseValue(e.getValue()));
        }
        if ((to.type() == PayloadType.TEXT || to.type() == PayloadType.RAW) && parsed.size() > 1) {
            throw new AqException(AqError.INVALID_VALUE, "A " + to.type() + " target has one attribute (the whole"
                    + " payload); transformation " + schema + "." + name + " maps " + parsed.size() + ".");
        }
        return new Transformation(schema, name, from, to, null, Collections.unmodifiableMap(parsed));
    }

    /**
     * A transformation read back from the store: checked when it was defined, so classes are not
     * loaded now (the application's may not be visible at engine start); expressions are parsed.
     */
    static Transformation stored(String schema, String name, PayloadTypeName from, PayloadTypeName to,
            String functionClass, Map<String, String> expressions) {
        if (functionClass != null) {
            return new Transformation(schema, name, from, to, functionClass, Map.of());
        }
        Map<String, Expression> parsed = new LinkedHashMap<>();
        expressions.forEach((k, v) -> parsed.put(k, Expression.parseValue(v)));
        return new Transformation(schema, name, from, to, null, Collections.unmodifiableMap(parsed));
    }

    public String schema() {
        return schema;
    }

    public String name() {
        return name;
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    public PayloadTypeName from() {
        return from;
    }

    public PayloadTypeName to() {
        return to;
    }

    /** The function class, or null for an attribute transformation. */
    public String functionClass() {
        return functionClass;
    }

    /** Target attribute → expression, in order. */
    public Map<String, Expression> attributes() {
        return attributes;
    }

    public Map<String, String> attributeTexts() {
        Map<String, String> out = new LinkedHashMap<>();
        attributes.forEach((k, v) -> out.put(k, v.text()));
        return Collections.unmodifiableMap(out);
    }

    public TransformationInfo info() {
        return new TransformationInfo(schema, name, from.toString(), to.toString(), functionClass, attributeTexts());
    }

    // ------------------------------------------------------------------ applying

    /**
     * The transformed payload of a message with these properties (they are what an attribute
     * expression sees besides {@code source.user_data}); null stays null.
     */
    public Object apply(Object payload, MessageProperties properties) {
        if (payload == null) {
            return null;
        }
        try {
            from.check(payload, name);
        } catch (AqException e) {
            throw new AqException(AqError.TRANSFORMATION_WRONG_TYPE, "Transformation " + qualifiedName() + " takes "
                    + from + " payloads; got a " + payload.getClass().getName() + ": " + e.getMessage());
        }
        Object result;
        if (functionClass != null) {
            result = runFunction(payload);
        } else {
            result = mapAttributes(payload, properties);
        }
        if (result == null) {
            throw failed("it returned null", null);
        }
        try {
            to.check(result, name);
        } catch (AqException e) {
            throw failed("its result is not of the target type " + to + " (" + e.getMessage() + ")", null);
        }
        if ((to.type() == PayloadType.JSON || to.type() == PayloadType.XML) && !(result instanceof String)) {
            result = new String(to.check(result, name), StandardCharsets.UTF_8);
        }
        return result;
    }

    private Object runFunction(Object payload) {
        Transformer t;
        try {
            Class<?> c = load(functionClass, "function class of transformation " + qualifiedName(), AqError.TRANSFORMATION_FAILED);
            t = (Transformer) constructor(c, AqError.TRANSFORMATION_FAILED).newInstance();
        } catch (AqException e) {
            throw e;
        } catch (InvocationTargetException e) {
            throw failed("its function class " + functionClass + " could not be instantiated", e.getCause());
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw failed("its function class " + functionClass + " could not be instantiated", e);
        }
        try {
            return t.transform(payload);
        } catch (Exception | LinkageError | StackOverflowError e) {
            throw failed("its function " + functionClass + " threw " + e, e);
        }
    }

    private Object mapAttributes(Object payload, MessageProperties p) {
        if (attributes.isEmpty()) {
            throw failed("it has no attribute expressions yet (set them with modifyTransformation)", null);
        }
        MessageSnapshot.Builder b = MessageSnapshot.builder().payload(from.type(), payload);
        if (p != null) {
            b.priority(p.priority()).correlation(p.correlation()).delay(p.delay()).expiration(p.expiration())
                    .senderName(p.sender() == null ? null : p.sender().name()).userProperties(p.userProperties());
        }
        MessageView view = b.build();
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Expression> e : attributes.entrySet()) {
            try {
                values.put(e.getKey(), e.getValue().value(view));
            } catch (RuntimeException ex) {
                throw failed("attribute " + e.getKey() + " (" + e.getValue().text() + ") could not be evaluated: " + ex, ex);
            }
        }
        return switch (to.type()) {
            case JSON -> toJson(values);
            case XML -> toXml(values);
            case OBJECT -> toObject(values);
            case TEXT -> {
                Object v = values.values().iterator().next();
                yield v == null ? null : text(v);
            }
            case RAW -> {
                Object v = values.values().iterator().next();
                yield v == null ? null : v instanceof byte[] bytes ? bytes : text(v).getBytes(StandardCharsets.UTF_8);
            }
        };
    }

    private static String toJson(Map<String, Object> values) {
        JsonObjectBuilder b = Json.createObjectBuilder();
        values.forEach((k, v) -> {
            if (v == null) {
                b.addNull(k);
            } else if (v instanceof JsonValue j) {
                b.add(k, j);
            } else if (v instanceof Boolean bool) {
                b.add(k, bool);
            } else if (v instanceof BigDecimal d) {
                b.add(k, d);
            } else if (v instanceof BigInteger i) {
                b.add(k, i);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                b.add(k, ((Number) v).longValue());
            } else if (v instanceof Number n) {
                b.add(k, n.doubleValue());
            } else {
                b.add(k, text(v));
            }
        });
        return b.build().toString();
    }

    private String toXml(Map<String, Object> values) {
        try {
            DocumentBuilderFactory f = io.aqueduct.engine.xml.SecureXml.documentBuilderFactory();
            Document d = f.newDocumentBuilder().newDocument();
            Element root = d.createElement(name);
            d.appendChild(root);
            values.forEach((k, v) -> {
                Element child = d.createElement(k);
                if (v != null) {
                    child.setTextContent(text(v));
                }
                root.appendChild(child);
            });
            var t = io.aqueduct.engine.xml.SecureXml.transformerFactory().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter w = new StringWriter();
            t.transform(new DOMSource(d), new StreamResult(w));
            return w.toString();
        } catch (Exception e) {
            throw failed("its XML could not be built: " + e, e);
        }
    }

    private Object toObject(Map<String, Object> values) {
        Object target;
        Class<?> c = load(to.objectType(), "target class of transformation " + qualifiedName(), AqError.TRANSFORMATION_FAILED);
        try {
            target = constructor(c, AqError.TRANSFORMATION_FAILED).newInstance();
        } catch (InvocationTargetException e) {
            throw failed("a new " + c.getName() + " could not be made", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw failed("a new " + c.getName() + " could not be made", e);
        }
        for (Map.Entry<String, Object> e : values.entrySet()) {
            set(target, e.getKey(), e.getValue());
        }
        return target;
    }

    private void set(Object target, String attribute, Object value) {
        Class<?> c = target.getClass();
        Method setter = setter(c, attribute);
        try {
            if (setter != null) {
                setter.setAccessible(true);
                setter.invoke(target, convert(value, setter.getParameterTypes()[0], attribute));
                return;
            }
            Field f = field(c, attribute);
            if (f == null) {
                throw failed(c.getName() + " has no settable property " + attribute, null);
            }
            f.setAccessible(true);
            f.set(target, convert(value, f.getType(), attribute));
        } catch (InvocationTargetException e) {
            throw failed("setting " + attribute + " threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof AqException aq) {
                throw aq;
            }
            throw failed("attribute " + attribute + " could not be set: " + e, e);
        }
    }

    private Object convert(Object v, Class<?> type, String attribute) {
        if (v == null) {
            if (type.isPrimitive()) {
                throw failed("attribute " + attribute + " is null and its type " + type.getName() + " takes no null", null);
            }
            return null;
        }
        if (type.isInstance(v)) {
            return v;
        }
        if (type == String.class) {
            return text(v);
        }
        if (v instanceof jakarta.json.JsonNumber jn) {
            v = jn.bigDecimalValue();
        } else if (v instanceof jakarta.json.JsonString js) {
            v = js.getString();
        }
        try {
            if (v instanceof Number || v instanceof String) {
                BigDecimal d = v instanceof Number n ? new BigDecimal(n.toString()) : new BigDecimal(((String) v).trim());
                if (type == int.class || type == Integer.class) {
                    return d.intValueExact();
                }
                if (type == long.class || type == Long.class) {
                    return d.longValueExact();
                }
                if (type == short.class || type == Short.class) {
                    return d.shortValueExact();
                }
                if (type == double.class || type == Double.class) {
                    return d.doubleValue();
                }
                if (type == float.class || type == Float.class) {
                    return d.floatValue();
                }
                if (type == BigDecimal.class) {
                    return d;
                }
                if (type == BigInteger.class) {
                    return d.toBigIntegerExact();
                }
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw failed("attribute " + attribute + " = " + v + " does not fit " + type.getName(), e);
        }
        if ((type == boolean.class || type == Boolean.class) && v instanceof Boolean) {
            return v;
        }
        if (type == Instant.class && v instanceof String s) {
            try {
                return Instant.parse(s);
            } catch (RuntimeException e) {
                throw failed("attribute " + attribute + " = " + v + " is not an instant", e);
            }
        }
        throw failed("attribute " + attribute + " is a " + v.getClass().getName() + ", not a " + type.getName(), null);
    }

    private static String text(Object v) {
        if (v instanceof jakarta.json.JsonString js) {
            return js.getString();
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return String.valueOf(v);
    }

    private AqException failed(String why, Throwable cause) {
        return new AqException(AqError.TRANSFORMATION_FAILED, "Error on transformation of message by "
                + qualifiedName() + ": " + why + ".", cause);
    }

    // ------------------------------------------------------------------ reflection

    /** Loads a class with the thread's context class loader, else the engine's. */
    static Class<?> load(String className, String what, int errorCode) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        for (ClassLoader l : new ClassLoader[] {context, Transformation.class.getClassLoader()}) {
            if (l == null) {
                continue;
            }
            try {
                return Class.forName(className, false, l);
            } catch (ClassNotFoundException | LinkageError e) {
                // try the next loader
            }
        }
        throw new AqException(errorCode, "Class " + className + " (the " + what + ") cannot be found by the"
                + " context class loader or the engine's.");
    }

    private static Constructor<?> constructor(Class<?> c, int errorCode) {
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            throw new AqException(errorCode, "Class " + c.getName() + " is abstract: it cannot be instantiated.");
        }
        try {
            Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            return k;
        } catch (NoSuchMethodException | RuntimeException e) {
            throw new AqException(errorCode, "Class " + c.getName() + " needs an accessible no-argument constructor.");
        }
    }

    private static boolean hasProperty(Class<?> c, String attribute) {
        return setter(c, attribute) != null || field(c, attribute) != null;
    }

    private static Method setter(Class<?> c, String attribute) {
        String wanted = "set" + attribute.toLowerCase(Locale.ROOT).replace("_", "");
        for (Method m : c.getMethods()) {
            if (m.getParameterCount() == 1 && !Modifier.isStatic(m.getModifiers())
                    && m.getName().toLowerCase(Locale.ROOT).replace("_", "").equals(wanted)) {
                return m;
            }
        }
        return null;
    }

    private static Field field(Class<?> c, String attribute) {
        String wanted = attribute.toLowerCase(Locale.ROOT).replace("_", "");
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (!Modifier.isStatic(mod) && !Modifier.isFinal(mod)
                        && f.getName().toLowerCase(Locale.ROOT).replace("_", "").equals(wanted)) {
                    return f;
                }
            }
        }
        return null;
    }
}
