package io.aqueduct.console.rest;

import io.aqueduct.api.Agent;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SubscriberInfo;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
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

/**
 * The subscribers of a multi-consumer queue (ADD_SUBSCRIBER, ALTER_SUBSCRIBER, REMOVE_SUBSCRIBER). The engine checks
 * a rule before anything is written: a malformed one is 25448, its message naming where the rule went wrong.
 */
@Path("queues/{queue}/subscribers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class Subscribers {
    @Context
    ServletContext context;
    @PathParam("queue")
    String queue;

    @GET
    public Response list() {
        return Work.json(context, session -> {
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (SubscriberInfo s : session.admin().subscribers(queue)) {
                a.add(Json.createObjectBuilder().add("name", Catalog.nullable(s.agent().name()))
                        .add("address", Catalog.nullable(s.agent().address())).add("protocol", s.agent().protocol())
                        .add("rule", Catalog.nullable(s.rule())).add("transformation", Catalog.nullable(s.transformation()))
                        .add("syntax", (s.syntax() == null ? RuleSyntax.CONDITION : s.syntax()).name()));
            }
            return a.build();
        });
    }

    /** Adds one: {@code {"name", "address", "protocol", "rule", "transformation", "syntax"}}. */
    @POST
    public Response add(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            Agent agent = agent(o);
            session.admin().addSubscriber(queue, agent, Work.string(o, "rule"), Work.string(o, "transformation"),
                    Work.choice(RuleSyntax.class, Work.string(o, "syntax"), RuleSyntax.CONDITION));
            return Catalog.done("Subscriber " + describe(agent) + " added to " + queue + ".");
        });
    }

    /** Changes one's rule and transformation (the agent identifies it). */
    @PUT
    public Response alter(String body) {
        return Work.json(context, session -> {
            JsonObject o = Work.body(body);
            Agent agent = agent(o);
            session.admin().alterSubscriber(queue, agent, Work.string(o, "rule"), Work.string(o, "transformation"),
                    Work.choice(RuleSyntax.class, Work.string(o, "syntax"), RuleSyntax.CONDITION));
            return Catalog.done("Subscriber " + describe(agent) + " of " + queue + " altered.");
        });
    }

    @DELETE
    public Response remove(@QueryParam("name") String name, @QueryParam("address") String address,
            @QueryParam("protocol") Integer protocol) {
        return Work.json(context, session -> {
            Agent agent = new Agent(Messages.blank(name), Messages.blank(address), protocol == null ? 0 : protocol);
            session.admin().removeSubscriber(queue, agent);
            return Catalog.done("Subscriber " + describe(agent) + " removed from " + queue + ".");
        });
    }

    private static Agent agent(JsonObject o) {
        Long protocol = Work.number(o, "protocol");
        return new Agent(Work.string(o, "name"), Work.string(o, "address"), protocol == null ? 0 : Math.toIntExact(protocol));
    }

    private static String describe(Agent a) {
        return (a.name() == null ? "" : a.name()) + (a.address() == null ? "" : " at " + a.address());
    }
}
