package io.aqueduct.samples.booksonline.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** BooksOnLine's JSON API: {@code /api/orders} ({@link Orders}) and {@code /api/queues} ({@link Queues}); errors as JSON ({@link Failures}). */
@ApplicationPath("api")
public class BooksOnLineApi extends Application {
}
