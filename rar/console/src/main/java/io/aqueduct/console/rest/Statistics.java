package io.aqueduct.console.rest;

import io.aqueduct.api.AqException;
import io.aqueduct.api.ConsumerStatistics;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The figures the page polls every two seconds: every queue's messages by state and waiting time (V$AQ, from
 * {@code queueStatistics()}) with its change count (which the page turns into rates), as the console's background
 * poll last read them ({@link io.aqueduct.console.StatisticsPoller}: a page never waits for the store's locks), and
 * for the open queue the age of its head message (one BROWSE of the first message, in the caller's session).
 */
@Path("statistics")
@Produces(MediaType.APPLICATION_JSON)
public class Statistics {
    @Context
    ServletContext context;

    @GET
    public Response statistics(@QueryParam("queue") String queue, @QueryParam("consumer") String consumer) {
        return Work.json(context, session -> {
            Instant now = Instant.now();
            StatisticsPoller.Snapshot snapshot = Console.of(context).statistics().latest();
            JsonArrayBuilder queues = Json.createArrayBuilder();
            for (QueueStatistics s : snapshot.queues()) {
                JsonArrayBuilder consumers = Json.createArrayBuilder();
                for (ConsumerStatistics c : s.consumers()) {
                    consumers.add(Json.createObjectBuilder().add("name", Catalog.nullable(c.consumer().name()))
                            .add("address", Catalog.nullable(c.consumer().address())).add("waiting", c.waiting())
                            .add("ready", c.ready()).add("expired", c.expired()).add("totalWait", c.totalWaitSeconds())
                            .add("averageWait", c.averageWaitSeconds()));
                }
                queues.add(Json.createObjectBuilder().add("queue", s.qualifiedName()).add("waiting", s.waiting())
                        .add("ready", s.ready()).add("expired", s.expired()).add("totalWait", s.totalWaitSeconds())
                        .add("averageWait", s.averageWaitSeconds()).add("changes", snapshot.changes().getOrDefault(s.qualifiedName(), 0L))
                        .add("consumers", consumers));
            }
            JsonObjectBuilder answer = Json.createObjectBuilder()
                    .add("time", snapshot.time() == null ? JsonValue.NULL : Json.createValue(snapshot.time().toEpochMilli()))
                    .add("queues", queues).add("failure", Catalog.nullable(snapshot.failure()));
            if (Messages.blank(queue) != null) {
                answer.add("head", Json.createObjectBuilder().add("queue", queue.trim())
                        .add("ageSeconds", headAge(session, queue.trim(), Messages.blank(consumer), now)));
            }
            return answer.build();
        });
    }

    /** Seconds since the enqueue of the message a dequeue would take next (0: none). */
    private static double headAge(QueueSession session, String queue, String consumer, Instant now) {
        try {
            List<Message> head = session.dequeueArray(queue, DequeueOptions.create().mode(DequeueMode.BROWSE)
                    .navigation(Navigation.FIRST_MESSAGE).waitSeconds(DequeueOptions.NO_WAIT).consumerName(consumer), 1);
            if (head.isEmpty() || head.get(0).properties().enqueueTime() == null) {
                return 0;
            }
            return Math.max(0, Duration.between(head.get(0).properties().enqueueTime(), now).toMillis() / 1000.0);
        } catch (AqException e) {
            return 0; // a stopped queue, a consumer just removed: no head to show
        }
    }
}
