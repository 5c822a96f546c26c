package io.aqueduct.http.rest;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.Registration;
import io.aqueduct.http.NotifyUrls;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;

/**
 * Registrations for notifications (DBMS_AQ.REGISTER / UNREGISTER): {@code POST /api/queues/{queue}/registrations}
 * registers ({@code {"notifyUrl": ..., "consumer": ..., "context": base64, "qos": [...], "timeoutSeconds": n}}, 201),
 * {@code DELETE /api/queues/{queue}/registrations?notifyUrl=&consumer=} unregisters (204; 404 when none). The engine
 * refuses a registration without DEQUEUE on the queue (403). A registration commits on its own.
 */
@Path("queues/{queue}/registrations")
@Produces(MediaType.APPLICATION_JSON)
public class Registrations {
    private static final Set<String> FIELDS = Set.of("consumer", "notifyUrl", "context", "qos", "timeoutSeconds");

    @Context
    private HttpServletRequest request;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response register(@PathParam("queue") String queue, String body) {
        return RestWork.run(request, null, (session, user) -> {
            JsonObject o = JsonMessages.parse(body);
            JsonMessages.onlyKnown(o, FIELDS, "A registration");
            if (!(o.get("notifyUrl") instanceof JsonString url)) {
                throw new AqException(AqError.INVALID_VALUE, "A registration needs \"notifyUrl\" (http://, https:// or mailto:).");
            }
            Registration r = Registration.forQueue(queue).notifyUrl(NotifyUrls.checked(url.getString()))
                    .consumer(o.containsKey("consumer") ? o.getString("consumer") : null);
            if (o.containsKey("context")) {
                try {
                    r.context(Base64.getDecoder().decode(o.getString("context")));
                } catch (IllegalArgumentException e) {
                    throw new AqException(AqError.INVALID_VALUE, "\"context\" must be base64: " + e.getMessage() + ".");
                }
            }
            if (o.containsKey("qos")) {
                for (JsonValue v : o.getJsonArray("qos")) {
                    r.qos(qos(v));
                }
            }
            if (o.containsKey("timeoutSeconds")) {
                r.timeoutSeconds(o.getJsonNumber("timeoutSeconds").longValueExact());
            }
            session.register(r);
            var answer = Json.createObjectBuilder().add("queue", queue).add("notifyUrl", r.notifyUrl());
            if (r.consumer() != null) {
                answer.add("consumer", r.consumer());
            }
            return Response.status(201).type(MediaType.APPLICATION_JSON_TYPE).entity(answer.build().toString()).build();
        });
    }

    @DELETE
    public Response unregister(@PathParam("queue") String queue, @QueryParam("notifyUrl") String notifyUrl,
            @QueryParam("consumer") String consumer) {
        return RestWork.run(request, null, (session, user) -> {
            if (notifyUrl == null || notifyUrl.isBlank()) {
                throw new AqException(AqError.INVALID_VALUE, "Name the registration to remove: ?notifyUrl=<its URL>"
                        + " (and &consumer=<name> on a multi-consumer queue).");
            }
            session.unregister(Registration.forQueue(queue).consumer(consumer).notifyUrl(NotifyUrls.checked(notifyUrl)));
            return Response.noContent().build();
        });
    }

    private static NotificationQos qos(JsonValue v) {
        if (v instanceof JsonString s) {
            for (NotificationQos q : NotificationQos.values()) {
                if (q.name().equals(s.getString().toUpperCase(Locale.ROOT))) {
                    return q;
                }
            }
        }
        throw new AqException(AqError.INVALID_VALUE, "\"qos\" holds " + v + "; its entries are \"RELIABLE\", \"PAYLOAD\", \"JSON\".");
    }
}
