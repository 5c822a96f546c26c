package io.aqueduct.http.rest;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Messages as JSON. {@code payload} in the form of the queue's type: any JSON value on a JSON queue, a string on
 * TEXT and XML queues, a base64 string on RAW queues (OBJECT queues are not reachable over HTTP). The properties by
 * their AQ names: priority, delay, expiration, correlation, exceptionQueue, sender, recipients, and the user
 * properties in {@code properties}. A field this API does not know is refused, not ignored.
 */
final class JsonMessages {
    private static final Set<String> MESSAGE_FIELDS = Set.of("payload", "priority", "delay", "expiration", "correlation",
            "exceptionQueue", "sender", "recipients", "properties");
    private static final Set<String> AGENT_FIELDS = Set.of("name", "address", "protocol");

    private JsonMessages() {
    }

    static JsonObject parse(String body) {
        if (body == null || body.isBlank()) {
            throw new AqException(AqError.INVALID_VALUE, "The request has no body: give a JSON object.");
        }
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    static void onlyKnown(JsonObject o, Set<String> known, String what) {
        for (String k : o.keySet()) {
            if (!known.contains(k)) {
                throw new AqException(AqError.INVALID_VALUE, what + " has no field \"" + k + "\"; it takes "
                        + String.join(", ", known.stream().sorted().toList()) + ".");
            }
        }
    }

    /** {@code sender}: the sender of a message that names none (the request's agent). */
    static Message message(JsonObject m, PayloadType type, String queue, Agent sender) {
        onlyKnown(m, MESSAGE_FIELDS, "A message");
        MessageProperties p = MessageProperties.create().sender(sender);
        if (m.containsKey("priority")) {
            p.priority(integer(m, "priority"));
        }
        if (m.containsKey("delay")) {
            p.delay(number(m, "delay"));
        }
        if (m.containsKey("expiration")) {
            p.expiration(number(m, "expiration"));
        }
        p.correlation(string(m, "correlation"));
        p.exceptionQueue(string(m, "exceptionQueue"));
        if (m.containsKey("sender")) {
            p.sender(agent(m.getJsonObject("sender")));
        }
        if (m.containsKey("recipients")) {
            List<Agent> recipients = new ArrayList<>();
            for (JsonValue v : m.getJsonArray("recipients")) {
                recipients.add(agent(v.asJsonObject()));
            }
            p.recipients(recipients);
        }
        if (m.containsKey("properties")) {
            for (Map.Entry<String, JsonValue> e : m.getJsonObject("properties").entrySet()) {
                p.userProperty(e.getKey(), propertyValue(e.getKey(), e.getValue()));
            }
        }
        if (!m.containsKey("payload")) {
            throw new AqException(AqError.INVALID_VALUE, "A message needs a \"payload\".");
        }
        return Message.of(payload(m.get("payload"), type, queue), p);
    }

    private static Object payload(JsonValue v, PayloadType type, String queue) {
        switch (type) {
            case JSON:
                return v.toString();
            case TEXT:
            case XML:
                if (v instanceof JsonString s) {
                    return s.getString();
                }
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue " + queue + " holds " + type
                        + " payloads: give \"payload\" as a JSON string.");
            case RAW:
                if (v instanceof JsonString s) {
                    try {
                        return Base64.getDecoder().decode(s.getString());
                    } catch (IllegalArgumentException e) {
                        throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue " + queue + " holds RAW payloads:"
                                + " \"payload\" must be base64 (" + e.getMessage() + ").");
                    }
                }
                throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue " + queue
                        + " holds RAW payloads: give \"payload\" as a base64 string.");
            default:
                throw objectQueue(queue);
        }
    }

    static AqException objectQueue(String queue) {
        return new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "Queue " + queue + " holds serialized Java objects (OBJECT):"
                + " those are not sent or received over HTTP; use a RAW, TEXT, JSON or XML queue (or a transformation).");
    }

    private static Object propertyValue(String name, JsonValue v) {
        return switch (v.getValueType()) {
            case STRING -> ((JsonString) v).getString();
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case NUMBER -> ((JsonNumber) v).isIntegral() ? (Object) ((JsonNumber) v).longValueExact() : (Object) ((JsonNumber) v).doubleValue();
            default -> throw new AqException(AqError.INVALID_VALUE, "User property \"" + name
                    + "\" must be a string, number or boolean.");
        };
    }

    private static Agent agent(JsonObject a) {
        onlyKnown(a, AGENT_FIELDS, "An agent");
        return new Agent(string(a, "name"), string(a, "address"), a.containsKey("protocol") ? integer(a, "protocol") : 0);
    }

    private static String string(JsonObject o, String name) {
        if (!o.containsKey(name) || o.isNull(name)) {
            return null;
        }
        if (o.get(name) instanceof JsonString s) {
            return s.getString();
        }
        throw new AqException(AqError.INVALID_VALUE, "\"" + name + "\" must be a string.");
    }

    private static long number(JsonObject o, String name) {
        if (o.get(name) instanceof JsonNumber n && n.isIntegral()) {
            try {
                return n.longValueExact();
            } catch (ArithmeticException e) {
                // too large: the sentence below
            }
        }
        throw new AqException(AqError.INVALID_VALUE, "\"" + name + "\" must be a whole number; got " + o.get(name) + ".");
    }

    private static int integer(JsonObject o, String name) {
        long n = number(o, name);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new AqException(AqError.INVALID_VALUE, "\"" + name + "\" is out of range: " + n + ".");
        }
        return (int) n;
    }

    static JsonObject json(Message m, PayloadType type) {
        MessageProperties p = m.properties();
        JsonObjectBuilder o = Json.createObjectBuilder().add("messageId", m.id().toString()).add("priority", p.priority());
        if (p.correlation() != null) {
            o.add("correlation", p.correlation());
        }
        o.add("attempts", p.attempts());
        if (p.state() != null) {
            o.add("state", p.state().name());
        }
        if (p.enqueueTime() != null) {
            o.add("enqueueTime", p.enqueueTime().toString());
        }
        if (p.exceptionQueue() != null) {
            o.add("exceptionQueue", p.exceptionQueue());
        }
        if (p.sender() != null) {
            o.add("sender", agent(p.sender()));
        }
        if (p.originalMessageId() != null) {
            o.add("originalMessageId", p.originalMessageId().toString());
        }
        if (!p.userProperties().isEmpty()) {
            JsonObjectBuilder props = Json.createObjectBuilder();
            p.userProperties().forEach((k, v) -> {
                if (v instanceof Boolean b) {
                    props.add(k, b);
                } else if (v instanceof Double || v instanceof Float) {
                    props.add(k, ((Number) v).doubleValue());
                } else if (v instanceof Number n) {
                    props.add(k, n.longValue());
                } else {
                    props.add(k, String.valueOf(v));
                }
            });
            o.add("properties", props);
        }
        if (m.payload() != null) {
            switch (type) {
                case JSON -> o.add("payload", Json.createReader(new StringReader(m.text())).readValue());
                case RAW -> o.add("payload", Base64.getEncoder().encodeToString(m.payload() instanceof byte[] b ? b
                        : m.text().getBytes(StandardCharsets.UTF_8)));
                default -> o.add("payload", m.text());
            }
        }
        return o.build();
    }

    private static JsonObject agent(Agent a) {
        JsonObjectBuilder o = Json.createObjectBuilder();
        if (a.name() != null) {
            o.add("name", a.name());
        }
        if (a.address() != null) {
            o.add("address", a.address());
        }
        return o.add("protocol", a.protocol()).build();
    }

    static JsonObject list(List<Message> messages, PayloadType type) {
        JsonArrayBuilder a = Json.createArrayBuilder();
        for (Message m : messages) {
            a.add(json(m, type));
        }
        return Json.createObjectBuilder().add("messages", a).build();
    }

    static JsonArray array(JsonObject o, String name) {
        return o.getJsonArray(name);
    }
}
