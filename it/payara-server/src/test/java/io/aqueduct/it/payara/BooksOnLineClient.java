package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The BooksOnLine sample's JSON API (/booksonline/api) on a domain, as a user of the web page sees it: place
 * orders, read an order's state, wait for its delivery; and the helpers that check what asadmin and server.log say.
 */
final class BooksOnLineClient {
    private static final Duration HTTP = Duration.ofSeconds(60);
    private final PayaraDomain domain;

    BooksOnLineClient(PayaraDomain domain) {
        this.domain = domain;
    }

    /** The ids of one POST /booksonline/api/orders: those booked, and the one rolled back on purpose (or null). */
    record Batch(List<String> booked, String rolledBack) {
    }

    /** POST /booksonline/api/orders with count (and rollback); fails unless the answer is 200. */
    Batch place(int count, boolean rollback) {
        HttpResponse<String> r = domain.post("/booksonline/api/orders", "count=" + count + "&rollback=" + rollback
                + "&customer=IT&shipping=FEDEX&region=WESTERN", HTTP);
        assertThat(r.statusCode()).as("POST /booksonline/api/orders: %s", r.body()).isEqualTo(200);
        JsonObject o = json(r.body()).asJsonObject();
        List<String> ids = new ArrayList<>();
        o.getJsonArray("booked").forEach(v -> ids.add(v.asJsonObject().getString("orderId")));
        String rolledBack = o.isNull("rolledBack") ? null : o.getString("rolledBack");
        assertThat(ids).as("booked orders of %s", r.body()).hasSize(count).doesNotHaveDuplicates();
        return new Batch(ids, rolledBack);
    }

    /** GET /booksonline/api/orders/{id}: the order, or null when the sample answers 404. */
    JsonObject order(String id) {
        HttpResponse<String> r = domain.response("/booksonline/api/orders/" + id, HTTP);
        if (r.statusCode() == 404) {
            return null;
        }
        assertThat(r.statusCode()).as("GET /booksonline/api/orders/%s: %s", id, r.body()).isEqualTo(200);
        return json(r.body()).asJsonObject();
    }

    /** Waits until every order is shipped (Shipping MDB, after propagation), billed (JMS queue) and notified (JMS topic). */
    void awaitDelivered(List<String> ids, Duration within) {
        for (String id : ids) {
            await("order " + id + " shipped, billed and notified").atMost(within).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        JsonObject o = order(id);
                        return o != null && o.getBoolean("booked") && o.getBoolean("shipped") && o.getBoolean("billed")
                                && o.getBoolean("notified");
                    });
        }
    }

    /** The rolled-back order: never booked, so the sample does not know it (404), nor shipped, billed or notified. */
    void assertNeverBooked(String id) {
        assertThat(order(id)).as("the rolled-back order %s", id).isNull();
    }

    /**
     * The server.log records (from a byte offset) that mention {@code text}: a record starts with "[20..-" (Payara's
     * ODL format) and holds its message and stack trace, if any.
     */
    static List<String> logRecords(String log, String text) {
        return Stream.of(Pattern.compile("\n(?=\\[\\d{4}-\\d\\d-\\d\\dT)").split(log)).filter(r -> r.contains(text)).toList();
    }

    /** True when a log record carries a stack trace (a line "at package.Class.method(...)"). */
    static boolean hasStackTrace(String record) {
        return Pattern.compile("(?m)^\\s+at [\\w.$]+\\(").matcher(record).find();
    }

    /** The lines of an asadmin output that report a failed command (multimode goes on after a failure). */
    static List<String> failures(String asadminOutput) {
        return asadminOutput.lines().filter(l -> l.contains("failed") || l.startsWith("remote failure")
                || l.contains("Invalid command")).toList();
    }

    static JsonValue json(String text) {
        try (JsonReader r = Json.createReader(new StringReader(text))) {
            return r.readValue();
        }
    }

    static void deleteTree(Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
