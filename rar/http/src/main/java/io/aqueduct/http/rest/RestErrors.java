package io.aqueduct.http.rest;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.http.Faults;
import io.aqueduct.http.HttpAccessException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The REST API's error answers: {@code {"error": <AQ number>, "message": "<sentence>"}} with a status that fits. */
final class RestErrors {
    /** ORA-01031, insufficient privileges (the engine's refusal of an operation the user may not do). */
    static final int INSUFFICIENT_PRIVILEGES = 1031;

    private RestErrors() {
    }

    static Response of(AqException e) {
        return json(statusOf(e.errorCode()), e.errorCode(), e.getMessage());
    }

    static Response of(HttpAccessException e) {
        return json(e.status(), e.errorCode(), e.getMessage());
    }

    static Response badRequest(String sentence) {
        return json(400, AqError.INVALID_VALUE, sentence);
    }

    static int statusOf(int code) {
        return switch (code) {
            case AqError.QUEUE_NOT_FOUND, AqError.QUEUE_DOES_NOT_EXIST, AqError.MESSAGE_NOT_FOUND, AqError.REGISTRATION_NOT_FOUND -> 404;
            case INSUFFICIENT_PRIVILEGES -> 403;
            case AqError.STORE_FAILURE, AqError.STORE_UNAVAILABLE, AqError.COMMIT_OUTCOME_UNKNOWN -> 503;
            default -> 400;
        };
    }

    static Response json(int status, int code, String sentence) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8"))
                .entity(Faults.json(code, sentence)).build();
    }
}
