package io.aqueduct.console.rest;

import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import io.aqueduct.console.Console;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One request's work in a queue session of the caller, answered as JSON; a refusal as
 * {@code {"error": <AQ number>, "message": "AQ-nnnnn: <the engine's sentence>"}} with a status that fits.
 */
final class Work {
    private static final Logger LOG = Logger.getLogger(Work.class.getName());
    static final int INVALID_VALUE = 24097;
    static final int INSUFFICIENT_PRIVILEGES = 1031;

    private Work() {
    }

    static Response json(ServletContext context, Function<QueueSession, JsonValue> work) {
        try (QueueSession session = Console.of(context).openSession()) {
            return Response.ok(work.apply(session).toString(), MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8")).build();
        } catch (AqException e) {
            return error(statusOf(e.errorCode()), e.errorCode(), e.getMessage());
        } catch (BadRequest e) {
            return error(400, INVALID_VALUE, String.format("AQ-%05d: %s", INVALID_VALUE, e.getMessage()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct console: a request failed", e);
            return error(500, 0, "The server failed: " + e);
        }
    }

    static Response error(int status, int code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8"))
                .entity(Json.createObjectBuilder().add("error", code).add("message", message == null ? "" : message).build().toString())
                .build();
    }

    static int statusOf(int code) {
        return switch (code) {
            case 24010, 25205, 25263, 24185, 24042, 24088, 2019 -> 404;
            case INSUFFICIENT_PRIVILEGES -> 403;
            case 0 -> 503;
            default -> 400;
        };
    }

    /** The request's body as a JSON object ({} when empty); not JSON: 400. */
    static JsonObject body(String body) {
        if (body == null || body.isBlank()) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new BadRequest("The request's body is not a JSON object: " + e.getMessage());
        }
    }

    static String string(JsonObject o, String name) {
        JsonValue v = o.get(name);
        if (v == null || v == JsonValue.NULL) {
            return null;
        }
        if (v.getValueType() != JsonValue.ValueType.STRING) {
            throw new BadRequest("\"" + name + "\" must be a string.");
        }
        String s = o.getString(name).trim();
        return s.isEmpty() ? null : s;
    }

    static String required(JsonObject o, String name) {
        String s = string(o, name);
        if (s == null) {
            throw new BadRequest("\"" + name + "\" is required.");
        }
        return s;
    }

    static boolean bool(JsonObject o, String name, boolean otherwise) {
        JsonValue v = o.get(name);
        if (v == null || v == JsonValue.NULL) {
            return otherwise;
        }
        if (v != JsonValue.TRUE && v != JsonValue.FALSE) {
            throw new BadRequest("\"" + name + "\" must be true or false.");
        }
        return v == JsonValue.TRUE;
    }

    static Long number(JsonObject o, String name) {
        JsonValue v = o.get(name);
        if (v == null || v == JsonValue.NULL) {
            return null;
        }
        if (v.getValueType() == JsonValue.ValueType.STRING && !o.getString(name).isBlank()) {
            try {
                return Long.parseLong(o.getString(name).trim());
            } catch (NumberFormatException e) {
                throw new BadRequest("\"" + name + "\" must be a whole number.");
            }
        }
        if (v.getValueType() == JsonValue.ValueType.STRING) {
            return null;
        }
        if (v.getValueType() != JsonValue.ValueType.NUMBER || !o.getJsonNumber(name).isIntegral()) {
            throw new BadRequest("\"" + name + "\" must be a whole number.");
        }
        return o.getJsonNumber(name).longValueExact();
    }

    static <E extends Enum<E>> E choice(Class<E> type, String value, E otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("\"" + value + "\" is none of " + java.util.Arrays.toString(type.getEnumConstants()) + ".");
        }
    }

    /** Input the API cannot even pass to the engine (malformed JSON, a missing field): 24097. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }
}
