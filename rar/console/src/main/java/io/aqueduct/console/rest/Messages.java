package io.aqueduct.console.rest;

import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueMessage;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SubscriberInfo;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletContext;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The message browser of one queue, and the exception queue's requeue and purge. Browsing is AQ's BROWSE dequeue
 * from the head of the queue (filtered by consumer, correlation and condition as a dequeue is): a page is read by
 * moving the session's browse position over the messages before it, never by loading the queue.
 */
@Path("queues/{queue}/messages")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class Messages {
    /** The most messages one page shows. */
    static final int MAX_PAGE = 200;
    /** The most messages a browse skips before its page (offset): a deeper page is better found with a filter. */
    static final int MAX_OFFSET = 100_000;
    /** Messages removed by one purge transaction. */
    static final int PURGE_BATCH = 500;
    /** Characters of a payload a page shows; the message itself shows it whole. */
    static final int PREVIEW = 200;

    @Context
    ServletContext context;
    @PathParam("queue")
    String queue;

    /**
     * A page of the messages a consumer (on a multi-consumer queue) could dequeue, in dequeue order, filtered by
     * correlation (LIKE), condition and state. {@code more} tells whether a next page exists.
     */
    @GET
    public Response browse(@QueryParam("consumer") String consumer, @QueryParam("correlation") String correlation,
            @QueryParam("condition") String condition, @QueryParam("state") String state,
            @QueryParam("offset") int offset, @QueryParam("limit") Integer limit) {
        return Work.json(context, session -> {
            int size = limit == null ? 25 : limit;
            if (size < 1 || size > MAX_PAGE || offset < 0 || offset > MAX_OFFSET) {
                throw new Work.BadRequest("A page holds 1 to " + MAX_PAGE + " messages from offset 0 to " + MAX_OFFSET + ".");
            }
            MessageState wanted = Work.choice(MessageState.class, blank(state), null);
            DequeueOptions o = browsing(consumer).correlation(blank(correlation)).condition(blank(condition));
            int skipped = 0;
            List<Message> page = new ArrayList<>();
            boolean more = false;
            // the browse cursor moves over the messages before the page in batches; only the page is kept
            while (true) {
                List<Message> batch = session.dequeueArray(queue, o, 100);
                o.navigation(Navigation.NEXT_MESSAGE);
                if (batch.isEmpty()) {
                    break;
                }
                for (Message m : batch) {
                    if (wanted != null && m.properties().state() != wanted) {
                        continue;
                    }
                    if (skipped < offset) {
                        skipped++;
                    } else if (page.size() < size) {
                        page.add(m);
                    } else {
                        more = true;
                        break;
                    }
                }
                if (more) {
                    break;
                }
            }
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (Message m : page) {
                a.add(message(m, true));
            }
            return Json.createObjectBuilder().add("offset", offset).add("messages", a).add("more", more).build();
        });
    }

    /**
     * The messages of the queue in every state, or in one (WAITING, READY, PROCESSED, EXPIRED), as the AQ$ view shows
     * them ({@code QueueAdmin.queueMessages}): a page of {@code limit} in enqueue order after message {@code after},
     * each with its consumers' parts and dequeue history on a multi-consumer queue; no payload.
     */
    @GET
    @Path("records")
    public Response records(@QueryParam("state") String state, @QueryParam("after") String after,
            @QueryParam("limit") Integer limit) {
        return Work.json(context, session -> {
            int size = limit == null ? 25 : limit;
            if (size < 1 || size > MAX_PAGE) {
                throw new Work.BadRequest("A page holds 1 to " + MAX_PAGE + " messages.");
            }
            MessageState wanted = Work.choice(MessageState.class, blank(state), null);
            MessageId from = blank(after) == null ? null : parseId(after.trim());
            List<QueueMessage> page = session.admin().queueMessages(queue, wanted, from, size + 1);
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (QueueMessage m : page.subList(0, Math.min(size, page.size()))) {
                JsonArrayBuilder consumers = Json.createArrayBuilder();
                for (QueueMessage.ConsumerPart p : m.consumers()) {
                    consumers.add(Json.createObjectBuilder().add("consumer", agent(p.consumer().name(), p.consumer().address()))
                            .add("state", p.state()).add("attempts", p.attempts()).add("dequeueTime", Catalog.time(p.dequeueTime()))
                            .add("dequeueUser", Catalog.nullable(p.dequeueUser()))
                            .add("dequeueTransaction", Catalog.nullable(p.dequeueTransaction())));
                }
                a.add(Json.createObjectBuilder().add("messageId", m.messageId().toString()).add("state", m.state().name())
                        .add("priority", m.priority()).add("correlation", Catalog.nullable(m.correlation()))
                        .add("attempts", m.attempts()).add("enqueueTime", Catalog.time(m.enqueueTime()))
                        .add("enqueueUser", Catalog.nullable(m.enqueueUser())).add("delayUntil", Catalog.time(m.delay()))
                        .add("expiration", m.expiration()).add("exceptionQueue", Catalog.nullable(m.exceptionQueue()))
                        .add("originalQueue", Catalog.nullable(m.originalQueue()))
                        .add("dequeueTime", Catalog.time(m.dequeueTime())).add("dequeueUser", Catalog.nullable(m.dequeueUser()))
                        .add("dequeueTransaction", Catalog.nullable(m.dequeueTransaction())).add("consumers", consumers));
            }
            return Json.createObjectBuilder().add("messages", a).add("more", page.size() > size).build();
        });
    }

    /**
     * One message with its whole payload and, on a multi-consumer queue, which subscribers may still dequeue it
     * (the consumers it is READY or WAITING for; the others have processed it or were never its recipients).
     */
    @GET
    @Path("{id: [0-9A-Fa-f]+}")
    public Response show(@PathParam("id") String id, @QueryParam("consumer") String consumer) {
        return Work.json(context, session -> {
            MessageId messageId = parseId(id);
            List<SubscriberInfo> subscribers = consumer == null ? List.of() : session.admin().subscribers(queue);
            Message m = find(session, messageId, blank(consumer));
            JsonArrayBuilder pending = Json.createArrayBuilder();
            for (SubscriberInfo s : subscribers) {
                if (s.agent().name() != null && find(session, messageId, s.agent().name(), false) != null) {
                    pending.add(s.agent().name());
                }
            }
            return Json.createObjectBuilder(message(m, false)).add("pendingFor", pending).build();
        });
    }

    /**
     * Requeue (from an exception queue): each message is dequeued and enqueued as a new message with the same
     * payload, priority, correlation, sender, recipients and properties, its attempts at zero and no delay or
     * expiration, all in one transaction: all are moved or none. It goes to {@code target} when one is given (a
     * normal queue of this queue's table), else to the queue it was moved from (recorded since schema 7); a message
     * whose original queue is unknown (moved before it was recorded) needs a target.
     */
    @POST
    @Path("requeue")
    public Response requeue(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            String target = blank(Work.string(o, "target"));
            List<MessageId> ids = ids(o);
            QueueInfo from = session.admin().queue(queue);
            if (target != null) {
                requeueTarget(session, from, target);
            }
            JsonArrayBuilder moved = Json.createArrayBuilder();
            java.util.Set<String> targets = new java.util.TreeSet<>();
            for (MessageId id : ids) {
                Message m = session.dequeue(queue, DequeueOptions.create().messageId(id).waitSeconds(DequeueOptions.NO_WAIT)
                        .consumerName(Work.string(o, "consumer")));
                MessageProperties p = m.properties();
                String to = target;
                if (to == null) {
                    if (p.originalQueue() == null) {
                        throw new Work.BadRequest("Message " + id + " has no recorded original queue (it was moved before"
                                + " Aqueduct recorded it): choose the queue to requeue it to.");
                    }
                    to = p.originalQueue();
                    requeueTarget(session, from, to);
                }
                targets.add(to);
                MessageProperties fresh = MessageProperties.create().priority(p.priority()).correlation(p.correlation())
                        .sender(p.sender());
                if (p.exceptionQueue() != null) {
                    fresh.exceptionQueue(p.exceptionQueue());
                }
                if (p.recipients() != null && !p.recipients().isEmpty()) {
                    fresh.recipients(p.recipients());
                }
                for (Map.Entry<String, Object> e : p.userProperties().entrySet()) {
                    fresh.userProperty(e.getKey(), e.getValue());
                }
                moved.add(session.enqueue(to, EnqueueOptions.create(), Message.of(m.payload(), fresh)).toString());
            }
            session.commit();
            return Json.createObjectBuilder().add("done", ids.size() + " message(s) requeued to " + String.join(", ", targets) + ".")
                    .add("messageIds", moved).build();
        });
    }

    /** A requeue goes to a normal queue of the exception queue's own table (its messages' payload type and consumers). */
    private static void requeueTarget(QueueSession session, QueueInfo from, String target) {
        QueueInfo to = session.admin().queue(target); // 24010 when there is none
        if (to.queueType() != QueueType.NORMAL || !to.queueTable().equals(from.queueTable())
                || !to.owner().equals(from.owner())) {
            throw new Work.BadRequest("A message is requeued to a normal queue of queue table " + from.owner() + "."
                    + from.queueTable() + "; " + to.owner() + "." + to.name() + " is not one.");
        }
    }

    /**
     * Purge: removes the selected messages ({@code messageIds}), or with {@code all} every message the consumer
     * could dequeue (in transactions of {@value #PURGE_BATCH}). Selected ones are removed in one transaction.
     */
    @POST
    @Path("purge")
    public Response purge(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            String consumer = Work.string(o, "consumer");
            long removed = 0;
            if (Work.bool(o, "all", false)) {
                DequeueOptions d = DequeueOptions.create().mode(DequeueMode.REMOVE_NODATA).waitSeconds(DequeueOptions.NO_WAIT)
                        .navigation(Navigation.FIRST_MESSAGE).consumerName(consumer);
                while (true) {
                    int n = session.dequeueArray(queue, d, PURGE_BATCH).size();
                    session.commit();
                    removed += n;
                    if (n == 0) {
                        break;
                    }
                }
            } else {
                for (MessageId id : ids(o)) {
                    session.dequeue(queue, DequeueOptions.create().mode(DequeueMode.REMOVE_NODATA).messageId(id)
                            .waitSeconds(DequeueOptions.NO_WAIT).consumerName(consumer));
                    removed++;
                }
                session.commit();
            }
            return Json.createObjectBuilder().add("done", removed + " message(s) purged from " + queue + ".")
                    .add("removed", removed).build();
        });
    }

    private static List<MessageId> ids(JsonObject o) {
        JsonValue v = o.get("messageIds");
        if (v == null || v.getValueType() != JsonValue.ValueType.ARRAY || v.asJsonArray().isEmpty()) {
            throw new Work.BadRequest("\"messageIds\" must list the messages (32 hexadecimal digits each).");
        }
        List<MessageId> ids = new ArrayList<>();
        for (JsonValue id : v.asJsonArray()) {
            if (id.getValueType() != JsonValue.ValueType.STRING) {
                throw new Work.BadRequest("A message id is a string of 32 hexadecimal digits.");
            }
            ids.add(parseId(((JsonString) id).getString()));
        }
        return ids;
    }

    static MessageId parseId(String id) {
        try {
            return MessageId.parse(id);
        } catch (IllegalArgumentException e) {
            throw new Work.BadRequest("'" + (id.length() > 40 ? id.substring(0, 40) + "..." : id)
                    + "' is not a message id (32 hexadecimal digits).");
        }
    }

    private static DequeueOptions browsing(String consumer) {
        return DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT).consumerName(blank(consumer));
    }

    private Message find(QueueSession session, MessageId id, String consumer) {
        Message m = find(session, id, consumer, true);
        return m;
    }

    private Message find(QueueSession session, MessageId id, String consumer, boolean required) {
        try {
            return session.dequeue(queue, browsing(consumer).messageId(id));
        } catch (AqException e) {
            if (!required && (e.errorCode() == 25228 || e.errorCode() == 25263)) {
                return null;
            }
            throw e;
        }
    }

    static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** A message as the page shows it: properties, and the payload as text (RAW: hexadecimal). */
    static JsonObject message(Message m, boolean preview) {
        MessageProperties p = m.properties();
        JsonObjectBuilder b = Json.createObjectBuilder().add("messageId", m.id().toString())
                .add("state", p.state() == null ? "READY" : p.state().name()).add("priority", p.priority())
                .add("correlation", Catalog.nullable(p.correlation())).add("attempts", p.attempts())
                .add("enqueueTime", Catalog.time(p.enqueueTime())).add("delay", p.delay()).add("expiration", p.expiration())
                .add("exceptionQueue", Catalog.nullable(p.exceptionQueue()))
                .add("originalMessageId", p.originalMessageId() == null ? JsonValue.NULL : Json.createValue(p.originalMessageId().toString()))
                .add("originalQueue", Catalog.nullable(p.originalQueue()))
                .add("deliveryMode", p.deliveryMode().name());
        if (p.sender() != null) {
            b.add("sender", agent(p.sender().name(), p.sender().address()));
        }
        JsonArrayBuilder recipients = Json.createArrayBuilder();
        if (p.recipients() != null) {
            p.recipients().forEach(r -> recipients.add(agent(r.name(), r.address())));
        }
        b.add("recipients", recipients);
        JsonObjectBuilder properties = Json.createObjectBuilder();
        p.userProperties().forEach((k, v) -> properties.add(k, v == null ? "" : String.valueOf(v)));
        b.add("properties", properties);
        Object payload = m.payload();
        String text;
        String kind;
        if (payload instanceof byte[] bytes) {
            kind = "RAW";
            text = HexFormat.of().withUpperCase().formatHex(bytes, 0, preview ? Math.min(bytes.length, PREVIEW / 2) : bytes.length);
            b.add("payloadBytes", bytes.length);
        } else if (payload instanceof String s) {
            kind = "TEXT";
            text = preview && s.length() > PREVIEW ? s.substring(0, PREVIEW) : s;
            b.add("payloadBytes", s.getBytes(StandardCharsets.UTF_8).length);
        } else {
            kind = "OBJECT";
            text = payload == null ? "" : payload.getClass().getName() + ": " + payload;
        }
        return b.add("payloadKind", kind).add("payload", text).build();
    }

    private static JsonObject agent(String name, String address) {
        return Json.createObjectBuilder().add("name", Catalog.nullable(name)).add("address", Catalog.nullable(address)).build();
    }
}
