package io.aqueduct.it;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** The test side of the probe WAR: GET /aqueduct-probe/probe/<op>?k=v..., answers parsed as k=v lines. */
final class Probe {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    Probe(int port) {
        this(port, "/aqueduct-probe/probe/");
    }

    /** A servlet at {@code path} (e.g. "/aqueduct-topic/recorder/"): its operations are appended to it. */
    Probe(int port, String path) {
        this.base = "http://localhost:" + port + path;
    }

    Map<String, String> call(String op, String... keyValues) {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            q.append(q.length() == 0 ? "?" : "&").append(keyValues[i]).append('=')
                    .append(URLEncoder.encode(keyValues[i + 1], StandardCharsets.UTF_8));
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + op + q)).timeout(Duration.ofMinutes(5)).GET().build();
        HttpResponse<String> resp;
        try {
            resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("probe " + op + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (resp.statusCode() != 200) {
            throw new IllegalStateException("probe " + op + q + " answered " + resp.statusCode() + ":\n" + resp.body());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : resp.body().split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1));
            } else if (!line.isBlank()) {
                out.put(line.trim(), "");
            }
        }
        return out;
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        org.awaitility.Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }

    /**
     * "Nothing more happens for a while": {@code condition} must hold at every poll for {@code during}
     * (a duplicate or a late delivery would make it false, and the wait fails with {@code what}).
     */
    static void stays(String what, Duration during, BooleanSupplier condition) {
        org.awaitility.Awaitility.await(what).during(during).atMost(during.plusSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(condition::getAsBoolean);
    }
}
