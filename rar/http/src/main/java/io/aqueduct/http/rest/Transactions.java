package io.aqueduct.http.rest;

import io.aqueduct.api.AqException;
import io.aqueduct.http.HttpAccess;
import io.aqueduct.http.HttpAccessException;
import io.aqueduct.http.HttpUser;
import io.aqueduct.http.transaction.HeldTransaction;
import jakarta.json.Json;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * Transactions spanning requests: {@code POST /api/transactions} begins one (201, {@code {"transaction": id}} and
 * its Location); requests with {@code ?transaction=<id>} work in it; {@code POST .../{id}/commit} and
 * {@code POST .../{id}/rollback} (or {@code DELETE .../{id}}) end it (204). An id is only its user's; one idle for
 * the configured timeout is rolled back (408 afterwards).
 */
@Path("transactions")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public class Transactions {
    @Context
    private HttpServletRequest request;
    @Context
    private UriInfo uri;

    @POST
    public Response begin() {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        try {
            HttpUser user = access.users().of(request);
            HeldTransaction t = access.transactions().begin(user.name(), () -> access.openSession(user));
            access.transactions().release(t);
            return Response.created(uri.getAbsolutePathBuilder().path(t.id()).build()).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(Json.createObjectBuilder().add("transaction", t.id())
                            .add("timeoutSeconds", access.transactions().idleTimeout().toSeconds()).build().toString())
                    .build();
        } catch (HttpAccessException e) {
            return RestErrors.of(e);
        } catch (AqException e) {
            return RestErrors.of(e);
        }
    }

    @POST
    @Path("{id}/commit")
    public Response commit(@PathParam("id") String id) {
        return end(id, true);
    }

    @POST
    @Path("{id}/rollback")
    public Response rollback(@PathParam("id") String id) {
        return end(id, false);
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) {
        return end(id, false);
    }

    private Response end(String id, boolean commit) {
        HttpAccess access = HttpAccess.of(request.getServletContext());
        try {
            HeldTransaction t = access.transactions().acquire(id, access.users().of(request).name());
            access.transactions().end(t, commit);
            return Response.noContent().build();
        } catch (HttpAccessException e) {
            return RestErrors.of(e);
        } catch (AqException e) {
            return RestErrors.of(e);
        }
    }
}
