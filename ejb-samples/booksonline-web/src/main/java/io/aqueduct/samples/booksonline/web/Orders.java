package io.aqueduct.samples.booksonline.web;

import io.aqueduct.samples.booksonline.BooksOnLine.ShippingPriority;
import io.aqueduct.samples.booksonline.OrderEntry;
import io.aqueduct.samples.booksonline.OrderIds;
import io.aqueduct.samples.booksonline.OrderRolledBack;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Arrays;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Orders: {@code POST /api/orders} books orders through the OrderEntry EJB, each in a container transaction of
 * its own (and, with {@code rollback=true}, one more that is rolled back on purpose); {@code GET /api/orders}
 * and {@code GET /api/orders/{orderId}} show what the MDBs did with them.
 */
@RequestScoped // a CDI bean: without it the @EJB field stayed null in the EAR's web module (embedded Payara 6.2024.8)
@Path("orders")
@Produces(MediaType.APPLICATION_JSON)
public class Orders {
    private static final Logger LOG = Logger.getLogger(Orders.class.getName());
    /** The most orders a POST books, and a GET lists. */
    static final int MAX = 100;

    @EJB
    private OrderEntry orders;

    /**
     * Parameters from the query or a form body (servlet parameters are both), checked before anything is booked:
     * a bad one is a 400 and no order.
     */
    @POST
    public JsonObject place(@Context UriInfo uri, MultivaluedMap<String, String> form) {
        // the form as JAX-RS reads it, not HttpServletRequest.getParameter: on Payara that loses the body's first
        // field when the body arrives in a packet of its own, after the headers
        Function<String, String> p = n -> form != null && form.getFirst(n) != null ? form.getFirst(n)
                : uri.getQueryParameters().getFirst(n);
        int count = count(p.apply("count"));
        boolean rollback = bool("rollback", p.apply("rollback"));
        String customer = text("customer", p.apply("customer"), "Web customer", 128);
        ShippingPriority shipping = shipping(p.apply("shipping"));
        String region = text("region", p.apply("region"), "WESTERN", 32);

        JsonArrayBuilder booked = Json.createArrayBuilder();
        for (int i = 0; i < count; i++) {
            String orderId = OrderIds.next();
            String msgid = orders.bookOrder(orderId, customer, shipping, region).toString();
            booked.add(Json.createObjectBuilder().add("orderId", orderId).add("msgid", msgid));
        }
        var result = Json.createObjectBuilder().add("booked", booked);
        if (rollback) {
            String orderId = OrderIds.next();
            try {
                orders.bookOrderThenFail(orderId, customer, shipping, region);
                throw new IllegalStateException("order " + orderId + " was not rolled back");
            } catch (OrderRolledBack expected) {
                // the one line a deliberate rollback deserves (an application exception: the container logs nothing)
                LOG.info("BooksOnLine order " + orderId + " rolled back on purpose (rollback=true): its order row, its queue"
                        + " message and its JMS messages were never committed");
            }
            result.add("rolledBack", orderId);
        } else {
            result.addNull("rolledBack");
        }
        return result.build();
    }

    /** The newest orders first, at most {@value #MAX}. */
    @GET
    public String list() {
        JsonArrayBuilder list = Json.createArrayBuilder();
        orders.orders(MAX).forEach(o -> list.add(json(o)));
        return list.build().toString();
    }

    @GET
    @Path("{orderId}")
    public JsonObject one(@PathParam("orderId") String orderId) {
        OrderEntry.OrderStatus o = orderId.length() > 64 ? null : orders.order(orderId);
        if (o == null) {
            throw Errors.of(Response.Status.NOT_FOUND, "There is no order " + orderId + ".");
        }
        return json(o);
    }

    private static JsonObject json(OrderEntry.OrderStatus o) {
        return Json.createObjectBuilder().add("orderId", o.orderId()).add("customer", o.customer()).add("shipping", o.shipping())
                .add("region", o.region()).add("booked", true).add("shipped", o.shipped()).add("billed", o.billed())
                .add("notified", o.notified()).build();
    }

    private static int count(String value) {
        if (value == null) {
            return 1;
        }
        try {
            int count = Integer.parseInt(value.trim());
            if (count >= 1 && count <= MAX) {
                return count;
            }
        } catch (NumberFormatException e) {
            // the sentence below says what is expected
        }
        throw Errors.of(Response.Status.BAD_REQUEST, "count must be a whole number from 1 to " + MAX + ", not \"" + shorten(value) + "\".");
    }

    private static boolean bool(String name, String value) {
        if (value == null || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw Errors.of(Response.Status.BAD_REQUEST, name + " must be true or false, not \"" + shorten(value) + "\".");
    }

    private static String text(String name, String value, String absent, int maxLength) {
        if (value == null) {
            return absent;
        }
        if (value.isBlank() || value.length() > maxLength || value.chars().anyMatch(Character::isISOControl)) {
            throw Errors.of(Response.Status.BAD_REQUEST,
                    name + " must have 1 to " + maxLength + " characters, none of them a control character.");
        }
        return value;
    }

    private static ShippingPriority shipping(String value) {
        if (value == null) {
            return ShippingPriority.GROUND;
        }
        try {
            return ShippingPriority.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw Errors.of(Response.Status.BAD_REQUEST, "shipping must be one of " + Arrays.toString(ShippingPriority.values())
                    + ", not \"" + shorten(value) + "\".");
        }
    }

    private static String shorten(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
