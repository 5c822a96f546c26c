package io.aqueduct.samples.booksonline.web;

import jakarta.json.Json;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The API's errors: a status and {@code {"error":"<sentence>"}}. */
final class Errors {
    static WebApplicationException of(Response.Status status, String sentence) {
        return new WebApplicationException(sentence, Response.status(status).type(MediaType.APPLICATION_JSON)
                .entity(Json.createObjectBuilder().add("error", sentence).build().toString()).build());
    }

    private Errors() {
    }
}
