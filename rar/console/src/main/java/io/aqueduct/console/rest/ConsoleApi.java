package io.aqueduct.console.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The console's JSON API under {@code /aqueduct-console/api}, used by its page (docs/console.md). */
@ApplicationPath("api")
public class ConsoleApi extends Application {
}
