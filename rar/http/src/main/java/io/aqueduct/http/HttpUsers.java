package io.aqueduct.http;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Who an HTTP request works as: the user the container authenticated (web.xml requires it for every operation).
 * That name is the AQ user of the request's queue session, so the engine's privilege checks apply to it.
 */
public final class HttpUsers {
    private HttpUsers() {
    }

    /** The authenticated user's name; the container refused the request (401) before this when there is none. */
    public static String of(HttpServletRequest request) {
        var principal = request.getUserPrincipal();
        if (principal == null || principal.getName() == null || principal.getName().isBlank()) {
            throw new HttpAccessException(401, io.aqueduct.api.AqError.INVALID_VALUE,
                    "This request has no authenticated user: log in (HTTP BASIC) as a user with the role aqueduct-http.");
        }
        return principal.getName();
    }
}
