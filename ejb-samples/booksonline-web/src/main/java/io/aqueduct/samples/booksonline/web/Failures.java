package io.aqueduct.samples.booksonline.web;

import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The API answers JSON also when something fails: the answers it chose (400, 404) go out as they are, Jersey's
 * (an unknown path: 404, a wrong method: 405) as {@code {"error":"Not Found."}}; an
 * unexpected failure (the store or the database unavailable, say) is logged with its stack trace and answered
 * 500 {@code {"error":"..."}} rather than with the server's HTML error page.
 */
@Provider
public class Failures implements ExceptionMapper<Exception> {
    private static final Logger LOG = Logger.getLogger(Failures.class.getName());

    @Override
    public Response toResponse(Exception e) {
        if (e instanceof WebApplicationException answer) {
            Response r = answer.getResponse();
            // an unknown path or method (Jersey's own answers have no body): the status, said in JSON
            return r.hasEntity() ? r : json(r.getStatus(), r.getStatusInfo().getReasonPhrase() + ".");
        }
        LOG.log(Level.WARNING, "A BooksOnLine request failed", e);
        return json(500, "The request failed: " + e);
    }

    private static Response json(int status, String sentence) {
        return Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(Json.createObjectBuilder().add("error", sentence).build().toString()).build();
    }
}
