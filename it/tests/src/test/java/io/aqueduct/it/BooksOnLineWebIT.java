package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The BooksOnLine EAR as a user sees it: its web module at /booksonline, the JSON API (place orders, see them
 * shipped, billed and notified; a rolled-back order never exists; bad input is refused) and the page, in embedded
 * Payara. The EAR as built, nothing added.
 */
@ExtendWith(ArquillianExtension.class)
class BooksOnLineWebIT {
    private static final String BASE = "http://localhost:" + Integer.getInteger("it.http.port", 18181) + "/booksonline";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Deployment(name = "booksonline-web", testable = false)
    static EnterpriseArchive booksOnLine() {
        return ShrinkWrap.createFromZipFile(EnterpriseArchive.class,
                AqueductContainerIT.DEPLOYMENTS.resolve("aqueduct-booksonline.ear").toFile());
    }

    @Test
    void placedOrdersAreShippedBilledAndNotifiedAndTheRolledBackOneNeverExists() {
        LogCapture log = LogCapture.start();
        JsonObject placed;
        try {
            placed = (JsonObject) json(send("POST", "/api/orders?count=3&rollback=true&customer=Initech&shipping=FEDEX&region=EASTERN", 200));
        } finally {
            log.stop();
        }
        List<String> booked = placed.getJsonArray("booked").getValuesAs(JsonObject.class).stream().map(o -> o.getString("orderId")).toList();
        String rolledBack = placed.getString("rolledBack");
        assertThat(booked).hasSize(3).doesNotHaveDuplicates().doesNotContain(rolledBack);
        assertThat(placed.getJsonArray("booked").getValuesAs(JsonObject.class)).allSatisfy(o -> assertThat(o.getString("msgid")).isNotBlank());

        for (String id : booked) {
            Awaitility.await("order " + id + " shipped, billed and notified").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        JsonObject o = (JsonObject) json(send("GET", "/api/orders/" + id, 200));
                        return o.getBoolean("shipped") && o.getBoolean("billed") && o.getBoolean("notified");
                    });
        }
        JsonObject one = (JsonObject) json(send("GET", "/api/orders/" + booked.get(0), 200));
        assertThat(one.getString("customer")).isEqualTo("Initech");
        assertThat(one.getString("shipping")).isEqualTo("FEDEX");
        assertThat(one.getString("region")).isEqualTo("EASTERN");
        assertThat(one.getBoolean("booked")).isTrue();

        // the list: newest first, the rolled-back order absent, and unknown to GET by id
        List<String> listed = ((JsonArray) json(send("GET", "/api/orders", 200))).getValuesAs(JsonObject.class).stream()
                .map(o -> o.getString("orderId")).toList();
        assertThat(listed).containsSubsequence(booked.get(2), booked.get(1), booked.get(0)).doesNotContain(rolledBack);
        assertThat(((JsonObject) json(send("GET", "/api/orders/" + rolledBack, 404))).getString("error")).contains(rolledBack);

        // the rollback is one log line of the application's, no stack trace, nothing from the container
        assertThat(log.records).filteredOn(r -> String.valueOf(r.getMessage()).contains(rolledBack)).singleElement()
                .satisfies(r -> {
                    assertThat(r.getMessage()).contains("rolled back");
                    assertThat(r.getThrown()).isNull();
                });
    }

    /**
     * The EAR's console module bridges the engine's and the adapter's MBeans to MicroProfile: Payara serves the figures
     * at /metrics (the application registry) and the health at /health, on the HTTP listener.
     */
    @Test
    void theQueuesFiguresAndTheAdaptersHealthAreServedAsMicroProfileMetricsAndHealth() throws Exception {
        String root = BASE.substring(0, BASE.indexOf("/booksonline"));
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            HttpResponse<String> metrics = HTTP.send(HttpRequest.newBuilder(URI.create(root + "/metrics?scope=application"))
                    .header("Accept", "text/plain").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
            // labels in name order; the store's label is the store's place
            assertThat(metrics.body()).containsPattern("aqueduct_queue_messages\\{mp_scope=\"application\",node=\"\\w+\","
                    + "queue=\"OE.OE_BOOKEDORDERS_MQUE\",state=\"ready\",store=\"derby:[^\"]+\"\\} \\d")
                    .containsPattern("aqueduct_queue_enqueued\\{[^}]*queue=\"OE.OE_BOOKEDORDERS_MQUE\"[^}]*\\} \\d")
                    .containsPattern("aqueduct_queue_oldest_ready_seconds\\{[^}]*queue=\"OE.OE_BOOKEDORDERS_MQUE\"")
                    .containsPattern("aqueduct_queue_buffered_messages\\{[^}]*queue=\"OE.OE_BOOKEDORDERS_MQUE\"[^}]*\\} 0.0")
                    .containsPattern("aqueduct_queue_buffered_memory_bytes\\{[^}]*queue=\"OE.OE_BOOKEDORDERS_MQUE\"")
                    .containsPattern("aqueduct_activation_workers_running\\{activation=\"\\d+\",endpoint=\"io.aqueduct.samples"
                            + ".booksonline.Shipping\",mp_scope=\"application\",queue=\"SHIP.SHIP_BOOKEDORDERS_QUE\"\\} 2.0")
                    .containsPattern("aqueduct_schedule_messages\\{destination=\"AQ\\$_LOCAL\",[^}]*queue=\"OE.OE_BOOKEDORDERS_MQUE\"")
                    .containsPattern("aqueduct_schedule_propagated_bytes\\{destination=\"AQ\\$_LOCAL\"");
        });
        for (String path : List.of("/health", "/health/live", "/health/ready")) {
            HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create(root + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(path + ": " + health.body()).isEqualTo(200);
            assertThat(health.body()).startsWith("{\"status\":\"UP\"");
            if (!path.endsWith("/ready")) {
                assertThat(health.body()).contains("\"name\":\"aqueduct-live\"").contains("timeManagerAlive\":\"true\"")
                        .contains("SHIP.SHIP_BOOKEDORDERS_QUE.workersRunning\":\"2\"");
            }
            if (!path.endsWith("/live")) {
                assertThat(health.body()).contains("\"name\":\"aqueduct-ready\"").contains("storeReachable\":\"true\"");
            }
        }
    }

    @Test
    void badInputIsRefusedWithASentenceAndBooksNothing() {
        String newestBefore = newestOrder();
        for (String bad : List.of("count=0", "count=101", "count=x", "shipping=BOAT", "rollback=maybe", "region=",
                "customer=" + "a".repeat(129), "count=2&shipping=SNAIL&rollback=true")) {
            JsonObject error = (JsonObject) json(send("POST", "/api/orders?" + bad, 400));
            assertThat(error.getString("error")).as(bad).endsWith(".");
        }
        assertThat(newestOrder()).isEqualTo(newestBefore);
    }

    @Test
    void anUnknownPathOrMethodIsAnsweredInJsonToo() {
        assertThat(((JsonObject) json(send("GET", "/api/books", 404))).getString("error")).isEqualTo("Not Found.");
        assertThat(((JsonObject) json(send("DELETE", "/api/orders", 405))).getString("error")).isEqualTo("Method Not Allowed.");
    }

    @Test
    void queuesShowTheSampleQueuesDrainedOnceOrdersAreDone() {
        send("POST", "/api/orders?count=2", 200);
        Awaitility.await("the sample's queues drained").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    List<JsonObject> queues = ((JsonArray) json(send("GET", "/api/queues", 200))).getValuesAs(JsonObject.class);
                    assertThat(queues).extracting(q -> q.getString("queue")).containsExactly("OE.OE_BOOKEDORDERS_MQUE",
                            "SHIP.SHIP_BOOKEDORDERS_QUE", "CB.CB_BILLING_QUE", "CS.CS_BOOKEDORDERS_TOPIC");
                    assertThat(queues).allSatisfy(q -> assertThat(q.getInt("ready")).isZero());
                });
    }

    @Test
    void thePageIsServedWithoutOutsideResources() {
        String page = send("GET", "/", 200).body();
        assertThat(page).contains("<title>BooksOnLine", "api/orders", "api/queues").doesNotContain("src=\"http", "href=\"http");
    }

    private static String newestOrder() {
        JsonArray orders = (JsonArray) json(send("GET", "/api/orders", 200));
        return orders.isEmpty() ? null : orders.getJsonObject(0).getString("orderId");
    }

    private static HttpResponse<String> send(String method, String path, int expectedStatus) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(BASE + path)).timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(method + " " + path + " answered " + response.body()).isEqualTo(expectedStatus);
            return response;
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonStructure json(HttpResponse<String> response) {
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.read();
        }
    }

    /** Every log record of the (embedded, same-JVM) server while it runs: what a server.log would show. */
    private static final class LogCapture extends Handler {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        static LogCapture start() {
            LogCapture capture = new LogCapture();
            Logger.getLogger("").addHandler(capture);
            return capture;
        }

        void stop() {
            Logger.getLogger("").removeHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
