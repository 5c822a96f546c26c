package io.aqueduct.http.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JSON REST API under {@code /aqueduct/api}: queues' messages, registrations for notifications and transactions (docs/http.md). */
@ApplicationPath("api")
public class RestApi extends Application {
}
