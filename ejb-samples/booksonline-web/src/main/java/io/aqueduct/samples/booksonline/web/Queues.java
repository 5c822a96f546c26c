package io.aqueduct.samples.booksonline.web;

import io.aqueduct.samples.booksonline.QueueDepths;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/queues}: the messages ready in each of the sample's queues (per subscriber on a multi-consumer
 * queue), {@code [{"queue":..,"subscriber":..|null,"ready":n,"capped":false},...]}; see {@link QueueDepths}.
 */
@RequestScoped // a CDI bean: without it the @EJB field stayed null in the EAR's web module (embedded Payara 6.2024.8)
@Path("queues")
@Produces(MediaType.APPLICATION_JSON)
public class Queues {
    @EJB
    private QueueDepths depths;

    @GET
    public String list() {
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (QueueDepths.Depth d : depths.depths()) {
            JsonObjectBuilder o = Json.createObjectBuilder().add("queue", d.queue());
            if (d.subscriber() == null) {
                o.addNull("subscriber");
            } else {
                o.add("subscriber", d.subscriber());
            }
            list.add(o.add("ready", d.ready()).add("capped", d.capped()));
        }
        return list.build().toString();
    }
}
