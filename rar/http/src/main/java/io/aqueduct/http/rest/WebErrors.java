package io.aqueduct.http.rest;

import io.aqueduct.api.AqError;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An unknown path, a wrong method, a bad query parameter: answered in the API's JSON error form too. */
@Provider
public class WebErrors implements ExceptionMapper<WebApplicationException> {
    @Override
    public jakarta.ws.rs.core.Response toResponse(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String reason = e.getResponse().getStatusInfo().getReasonPhrase();
        String sentence = status == 404 && e.getCause() instanceof IllegalArgumentException
                ? "A query parameter is not of its type (wait, max: whole numbers): " + e.getCause().getMessage()
                : reason + ".";
        return RestErrors.json(status == 404 && e.getCause() != null ? 400 : status, AqError.INVALID_VALUE, sentence);
    }
}
