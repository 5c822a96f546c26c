package io.aqueduct.http.rest;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Visibility;
import io.aqueduct.http.HttpAccess;
import io.aqueduct.http.HttpUser;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A queue's messages: {@code POST /api/queues/{queue}/messages} sends (publishes, with recipients),
 * {@code POST /api/queues/{queue}/receive} dequeues, {@code GET /api/queues/{queue}/messages} browses. Each takes
 * {@code ?transaction=<id>} to work in a transaction of {@link Transactions}; without it a request is its own
 * transaction, committed when it succeeds. The work of a request in a transaction runs on that transaction's
 * thread, where nothing request-scoped (the injected request) may be read: it uses what the method took first.
 */
@Path("queues/{queue}")
@Produces(MediaType.APPLICATION_JSON)
public class QueueMessages {
    private static final Set<String> SEND_FIELDS = Set.of("messages", "visibility", "transformation", "payload", "priority",
            "delay", "expiration", "correlation", "exceptionQueue", "sender", "recipients", "properties");

    @Context
    private HttpServletRequest request;

    /**
     * Body: one message ({@code {"payload": ..., "priority": 2, ...}}) or several ({@code {"messages": [...]}}), with
     * optional {@code "visibility"} (ON_COMMIT, IMMEDIATE) and {@code "transformation"}. 201 with the message ids.
     */
    @POST
    @Path("messages")
    @Consumes(MediaType.WILDCARD)
    public Response send(@PathParam("queue") String queue, @QueryParam("transaction") String transaction, String body) {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        return RestWork.run(request, transaction, (session, user) -> {
            JsonObject o = JsonMessages.parse(body);
            JsonMessages.onlyKnown(o, SEND_FIELDS, "A send request");
            EnqueueOptions options = EnqueueOptions.create().visibility(choice("visibility",
                    o.containsKey("visibility") ? o.getString("visibility") : null, Visibility.class));
            if (o.containsKey("transformation")) {
                options.transformation(o.getString("transformation"));
            }
            PayloadType type = access.payloadTypes().of(session, user.dbUser(), queue);
            List<JsonObject> given = new ArrayList<>();
            if (o.containsKey("messages")) {
                if (o.keySet().stream().anyMatch(k -> !Set.of("messages", "visibility", "transformation").contains(k))) {
                    throw new AqException(AqError.INVALID_VALUE, "A send request gives either \"messages\" or one message's"
                            + " fields, not both.");
                }
                for (JsonValue v : o.getJsonArray("messages")) {
                    given.add(v.asJsonObject());
                }
            } else {
                JsonObject one = Json.createObjectBuilder(o).remove("visibility").remove("transformation").build();
                given.add(one);
            }
            int max = access.settings().maxBatch();
            if (given.isEmpty() || given.size() > max) {
                throw new AqException(AqError.INVALID_VALUE, "A send request holds " + given.size() + " messages; it takes 1 to "
                        + max + ".");
            }
            List<Message> messages = new ArrayList<>();
            for (JsonObject m : given) {
                messages.add(JsonMessages.message(m, type, queue, user.sender()));
            }
            List<MessageId> ids = messages.size() == 1 ? List.of(session.enqueue(queue, options, messages.get(0)))
                    : session.enqueueArray(queue, options, messages);
            JsonArrayBuilder a = Json.createArrayBuilder();
            ids.forEach(id -> a.add(id.toString()));
            return Response.status(201).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(Json.createObjectBuilder().add("messageIds", a).build().toString()).build();
        });
    }

    /**
     * Dequeues up to {@code max} (default 1) messages: 200 with {@code {"messages": [...]}}, 204 when none came
     * within {@code wait} seconds (default 0; at most the configured maximum, as is -1 "forever").
     */
    @POST
    @Path("receive")
    @Consumes(MediaType.WILDCARD)
    public Response receive(@PathParam("queue") String queue, @QueryParam("transaction") String transaction,
            @QueryParam("consumer") String consumer, @QueryParam("wait") Long wait, @QueryParam("correlation") String correlation,
            @QueryParam("messageId") String messageId, @QueryParam("condition") String condition,
            @QueryParam("selector") String selector, @QueryParam("navigation") String navigation,
            @QueryParam("mode") String mode, @QueryParam("visibility") String visibility, @QueryParam("max") Integer max) {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        return RestWork.run(request, transaction, (session, user) -> {
            DequeueOptions options = options(consumer, correlation, messageId, condition, selector)
                    .navigation(choice("navigation", navigation, Navigation.class))
                    .mode(choice("mode", mode, DequeueMode.class))
                    .visibility(choice("visibility", visibility, Visibility.class));
            long cap = access.settings().maxWaitSeconds();
            options.waitSeconds(wait == null ? 0 : wait < 0 || wait > cap ? cap : wait);
            List<Message> got = take(access, session, user, queue, options, max);
            PayloadType type = access.payloadTypes().of(session, user.dbUser(), queue);
            return got.isEmpty() ? Response.noContent().build()
                    : Response.ok(JsonMessages.list(got, type).toString(), MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    /** Browses up to {@code max} (default 10) messages from the head of the queue: 200, an empty list when none. */
    @GET
    @Path("messages")
    public Response browse(@PathParam("queue") String queue, @QueryParam("transaction") String transaction,
            @QueryParam("consumer") String consumer, @QueryParam("correlation") String correlation,
            @QueryParam("condition") String condition, @QueryParam("selector") String selector, @QueryParam("max") Integer max) {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        return RestWork.run(request, transaction, (session, user) -> {
            DequeueOptions options = options(consumer, correlation, null, condition, selector).mode(DequeueMode.BROWSE)
                    .navigation(Navigation.FIRST_MESSAGE).waitSeconds(DequeueOptions.NO_WAIT);
            List<Message> got = take(access, session, user, queue, options, max == null ? 10 : max);
            return Response.ok(JsonMessages.list(got, access.payloadTypes().of(session, user.dbUser(), queue)).toString(),
                    MediaType.APPLICATION_JSON_TYPE).build();
        });
    }

    private static List<Message> take(HttpAccess access, QueueSession session, HttpUser user, String queue, DequeueOptions options, Integer max) {
        int n = max == null ? 1 : max;
        if (n < 1 || n > access.settings().maxBatch()) {
            throw new AqException(AqError.INVALID_VALUE, "max is " + n + "; it is 1 to " + access.settings().maxBatch() + ".");
        }
        if (access.payloadTypes().of(session, user.dbUser(), queue) == PayloadType.OBJECT) {
            throw JsonMessages.objectQueue(queue);
        }
        if (n > 1) {
            return session.dequeueArray(queue, options, n);
        }
        try {
            return List.of(session.dequeue(queue, options));
        } catch (AqException e) {
            if (e.errorCode() == AqError.NO_MESSAGE) {
                return List.of();
            }
            throw e;
        }
    }

    private static DequeueOptions options(String consumer, String correlation, String messageId, String condition,
            String selector) {
        DequeueOptions o = DequeueOptions.create().consumerName(consumer).correlation(correlation).condition(condition)
                .selector(selector);
        if (messageId != null) {
            o.messageId(MessageId.parse(messageId));
        }
        return o;
    }

    static <E extends Enum<E>> E choice(String name, String value, Class<E> type) {
        if (value == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new AqException(AqError.INVALID_VALUE, name + " is '" + value + "'; it is one of "
                    + java.util.Arrays.toString(type.getEnumConstants()) + ".");
        }
    }
}
