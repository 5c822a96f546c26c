package io.aqueduct.console.rest;

import io.aqueduct.api.ConsumerStatistics;
import io.aqueduct.api.QueueStatistics;
import io.aqueduct.console.Console;
import io.aqueduct.console.StatisticsPoller;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The figures the page polls every two seconds, as the console's background poll last read them
 * ({@link StatisticsPoller}: a page never waits for the store's locks): every queue's messages by state, waits and
 * oldest READY message (V$AQ, from {@code queueStatistics()}), per consumer on multi-consumer queues, and its
 * enqueue / dequeue / failed-attempt counters since the engine started (the engine's queue MBeans), which the page
 * turns into rates.
 */
@Path("statistics")
@Produces(MediaType.APPLICATION_JSON)
public class Statistics {
    @Context
    ServletContext context;

    @GET
    public Response statistics() {
        return Work.json(context, session -> {
            StatisticsPoller.Snapshot snapshot = Console.of(context).statistics().latest();
            JsonArrayBuilder queues = Json.createArrayBuilder();
            for (QueueStatistics s : snapshot.queues()) {
                JsonArrayBuilder consumers = Json.createArrayBuilder();
                for (ConsumerStatistics c : s.consumers()) {
                    consumers.add(Json.createObjectBuilder().add("name", Catalog.nullable(c.consumer().name()))
                            .add("address", Catalog.nullable(c.consumer().address())).add("waiting", c.waiting())
                            .add("ready", c.ready()).add("expired", c.expired()).add("totalWait", c.totalWaitSeconds())
                            .add("averageWait", c.averageWaitSeconds()).add("oldestReady", c.oldestReadySeconds()));
                }
                JsonObjectBuilder q = Json.createObjectBuilder().add("queue", s.qualifiedName()).add("waiting", s.waiting())
                        .add("ready", s.ready()).add("expired", s.expired()).add("totalWait", s.totalWaitSeconds())
                        .add("averageWait", s.averageWaitSeconds()).add("oldestReady", s.oldestReadySeconds());
                StatisticsPoller.Counters c = snapshot.counters().get(s.qualifiedName());
                if (c != null) {
                    q.add("enqueued", c.enqueued()).add("dequeued", c.dequeued()).add("failedAttempts", c.failedAttempts());
                }
                queues.add(q.add("consumers", consumers));
            }
            return Json.createObjectBuilder()
                    .add("time", snapshot.time() == null ? JsonValue.NULL : Json.createValue(snapshot.time().toEpochMilli()))
                    .add("queues", queues).add("failure", Catalog.nullable(snapshot.failure())).build();
        });
    }
}
