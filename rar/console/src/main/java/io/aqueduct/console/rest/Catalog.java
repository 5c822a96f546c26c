package io.aqueduct.console.rest;

import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.TransformationInfo;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Queue tables and queues (DBMS_AQADM's catalog and DDL), start / stop, transformations and propagation schedules.
 * Every change goes through {@link QueueAdmin}: the same validation and AQ errors as the Java API.
 */
@Path("")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class Catalog {
    @Context
    ServletContext context;

    /** The queue tables and the queues with their settings (depths come from {@code statistics}). */
    @GET
    @Path("catalog")
    public Response catalog() {
        return Work.json(context, session -> {
            QueueAdmin admin = session.admin();
            List<QueueTableInfo> tables = admin.queueTables();
            Map<String, QueueTableInfo> byName = new HashMap<>();
            JsonArrayBuilder t = Json.createArrayBuilder();
            for (QueueTableInfo table : tables) {
                byName.put(table.owner() + "." + table.name(), table);
                t.add(Json.createObjectBuilder().add("owner", table.owner()).add("name", table.name())
                        .add("qualified", table.owner() + "." + table.name()).add("payloadType", table.payloadType().name())
                        .add("objectType", nullable(table.objectType())).add("sortOrder", table.sortOrder().sortList())
                        .add("multipleConsumers", table.multipleConsumers()).add("grouping", table.messageGrouping().name())
                        .add("comment", nullable(table.comment())));
            }
            JsonArrayBuilder q = Json.createArrayBuilder();
            for (QueueInfo queue : admin.queues()) {
                QueueTableInfo table = byName.get(qualifiedTable(queue));
                q.add(Json.createObjectBuilder().add("owner", queue.owner()).add("name", queue.name())
                        .add("qualified", queue.owner() + "." + queue.name()).add("queueTable", qualifiedTable(queue))
                        .add("type", queue.queueType().name()).add("maxRetries", queue.maxRetries())
                        .add("retryDelay", queue.retryDelaySeconds()).add("retention", queue.retentionSeconds())
                        .add("enqueueEnabled", queue.enqueueEnabled()).add("dequeueEnabled", queue.dequeueEnabled())
                        .add("comment", nullable(queue.comment()))
                        .add("multipleConsumers", table != null && table.multipleConsumers())
                        .add("payloadType", table == null ? "" : table.payloadType().name()));
            }
            return Json.createObjectBuilder().add("queueTables", t).add("queues", q).build();
        });
    }

    private static String qualifiedTable(QueueInfo queue) {
        return queue.queueTable().contains(".") ? queue.queueTable() : queue.owner() + "." + queue.queueTable();
    }

    @POST
    @Path("queue-tables")
    public Response createQueueTable(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            String name = Work.required(o, "name");
            QueueTableProperties p = QueueTableProperties.create()
                    .payloadType(Work.choice(PayloadType.class, Work.string(o, "payloadType"), PayloadType.RAW))
                    .multipleConsumers(Work.bool(o, "multipleConsumers", false))
                    .messageGrouping(Work.choice(MessageGrouping.class, Work.string(o, "grouping"), MessageGrouping.NONE))
                    .comment(Work.string(o, "comment"));
            if (Work.string(o, "objectType") != null) {
                p.objectType(Work.string(o, "objectType"));
            }
            if (Work.string(o, "sortOrder") != null) {
                p.sortOrder(SortOrder.fromSortList(Work.string(o, "sortOrder")));
            }
            session.admin().createQueueTable(name, p);
            return done("Queue table " + name + " created, with its exception queue.");
        });
    }

    @DELETE
    @Path("queue-tables/{table}")
    public Response dropQueueTable(@PathParam("table") String table, @QueryParam("force") boolean force) {
        return Work.json(context, session -> {
            session.admin().dropQueueTable(table, force);
            return done("Queue table " + table + " dropped.");
        });
    }

    @POST
    @Path("queues")
    public Response createQueue(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            String name = Work.required(o, "name");
            QueueProperties p = QueueProperties.create()
                    .queueType(Work.choice(QueueType.class, Work.string(o, "type"), QueueType.NORMAL))
                    .comment(Work.string(o, "comment"));
            Long maxRetries = Work.number(o, "maxRetries");
            if (maxRetries != null) {
                p.maxRetries(Math.toIntExact(Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, maxRetries))));
            }
            Long retryDelay = Work.number(o, "retryDelay");
            if (retryDelay != null) {
                p.retryDelay(retryDelay);
            }
            Long retention = Work.number(o, "retention");
            if (retention != null) {
                p.retention(retention);
            }
            session.admin().createQueue(name, Work.required(o, "queueTable"), p);
            return done("Queue " + name + " created (stopped: start it for enqueue and dequeue).");
        });
    }

    @PUT
    @Path("queues/{queue}")
    public Response alterQueue(@PathParam("queue") String queue, String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            Long maxRetries = Work.number(o, "maxRetries");
            session.admin().alterQueue(queue, maxRetries == null ? null : Math.toIntExact(Math.max(Integer.MIN_VALUE,
                    Math.min(Integer.MAX_VALUE, maxRetries))), Work.number(o, "retryDelay"), Work.number(o, "retention"),
                    Work.string(o, "comment"));
            return done("Queue " + queue + " altered.");
        });
    }

    @DELETE
    @Path("queues/{queue}")
    public Response dropQueue(@PathParam("queue") String queue) {
        return Work.json(context, session -> {
            session.admin().dropQueue(queue);
            return done("Queue " + queue + " dropped.");
        });
    }

    @POST
    @Path("queues/{queue}/start")
    public Response start(@PathParam("queue") String queue, String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            boolean enqueue = Work.bool(o, "enqueue", true);
            boolean dequeue = Work.bool(o, "dequeue", true);
            session.admin().startQueue(queue, enqueue, dequeue);
            return done("Queue " + queue + " started for " + what(enqueue, dequeue) + ".");
        });
    }

    @POST
    @Path("queues/{queue}/stop")
    public Response stop(@PathParam("queue") String queue, String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            boolean enqueue = Work.bool(o, "enqueue", true);
            boolean dequeue = Work.bool(o, "dequeue", true);
            session.admin().stopQueue(queue, enqueue, dequeue, Work.bool(o, "wait", true));
            return done("Queue " + queue + " stopped for " + what(enqueue, dequeue) + ".");
        });
    }

    private static String what(boolean enqueue, boolean dequeue) {
        return enqueue && dequeue ? "enqueue and dequeue" : enqueue ? "enqueue" : dequeue ? "dequeue" : "nothing";
    }

    @GET
    @Path("transformations")
    public Response transformations() {
        return Work.json(context, session -> {
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (TransformationInfo t : session.admin().transformations()) {
                JsonObjectBuilder attributes = Json.createObjectBuilder();
                if (t.attributes() != null) {
                    t.attributes().forEach(attributes::add);
                }
                a.add(Json.createObjectBuilder().add("name", t.qualifiedName()).add("fromType", t.fromType())
                        .add("toType", t.toType()).add("functionClass", nullable(t.functionClass())).add("attributes", attributes));
            }
            return a.build();
        });
    }

    @GET
    @Path("schedules")
    public Response schedules() {
        return Work.json(context, session -> {
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (PropagationSchedule s : session.admin().propagationSchedules()) {
                a.add(Json.createObjectBuilder().add("queue", s.qualifiedQueue())
                        .add("destination", s.destination() == null ? PropagationSchedule.LOCAL : s.destination())
                        .add("disabled", s.disabled()).add("latency", s.latencySeconds())
                        .add("startTime", time(s.startTime())).add("window", s.windowSeconds() == null ? JsonValue.NULL
                                : Json.createValue(s.windowSeconds()))
                        .add("nextTime", nullable(s.nextTime())).add("lastRun", time(s.lastRun())).add("nextRun", time(s.nextRun()))
                        .add("totalNumber", s.totalNumber()).add("totalBytes", s.totalBytes())
                        .add("totalTime", s.totalTimeSeconds()).add("averageTime", s.averageTimeSeconds())
                        .add("failures", s.failures()).add("lastErrorTime", time(s.lastErrorTime()))
                        .add("lastError", nullable(s.lastErrorMessage())));
            }
            return a.build();
        });
    }

    @POST
    @Path("schedules/{queue}/{destination}/{action: enable|disable}")
    public Response enableSchedule(@PathParam("queue") String queue, @PathParam("destination") String destination,
            @PathParam("action") String action) {
        return Work.json(context, session -> {
            String d = PropagationSchedule.LOCAL.equals(destination) ? null : destination;
            if (action.equals("enable")) {
                session.admin().enablePropagationSchedule(queue, d);
            } else {
                session.admin().disablePropagationSchedule(queue, d);
            }
            return done("Propagation of " + queue + " to " + destination + " " + action + "d.");
        });
    }

    static JsonValue nullable(String s) {
        return s == null ? JsonValue.NULL : Json.createValue(s);
    }

    static JsonValue time(Instant t) {
        return t == null ? JsonValue.NULL : Json.createValue(t.toString());
    }

    static JsonObject done(String sentence) {
        return Json.createObjectBuilder().add("done", sentence).build();
    }
}
