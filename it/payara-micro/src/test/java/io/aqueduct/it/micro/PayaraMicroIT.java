package io.aqueduct.it.micro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Payara Micro 6.2025.10 runs the BooksOnLine WAR on the standalone resource adapter, started the way
 * server-config/README.md ("Payara Micro") says: a root directory (--rootdir) under target/micro,
 * server-config/micro-setup.asadmin as the post-boot command file at the first start (its two paths pointed at
 * this module's copies), Derby with --addLibs, the queues from server-config/queue-definitions.txt, --nocluster,
 * free ports. Orders placed over the sample's HTTP API are shipped, billed and notified; Micro stopped gracefully
 * and started again on the same root directory (without the command file and --deploy: the root directory
 * remembers them) finds its store, queues and orders, and takes new orders; killed with kill -9 and started
 * again the same way, it does too.
 *
 * <p>Micro's console output: target/micro/first-start.log, second-start.log and third-start.log.
 */
@Timeout(value = 360, unit = TimeUnit.SECONDS)
class PayaraMicroIT {
    private static final Path DEPLOYMENTS = Path.of(System.getProperty("micro.deployments", "target/deployments")).toAbsolutePath();
    private static final Path WORK = Path.of(System.getProperty("micro.workDir", "target/micro")).toAbsolutePath();
    private static final Path SERVER_CONFIG = Path.of(System.getProperty("micro.serverConfig", "../../server-config")).toAbsolutePath().normalize();
    /** The documented paths in micro-setup.asadmin, relative to the repository root. */
    private static final String DOCUMENTED_RAR = "rar/connector/target/aqueduct-rar-0.1.0-SNAPSHOT.rar";
    private static final String DOCUMENTED_RESOURCES = "server-config/glassfish-resources.xml";
    private static final Duration START = Duration.ofSeconds(150);

    // HTTP/1.1: the client's default, an h2c upgrade, only adds a Grizzly WARNING (GOAWAY) to Micro's log at each close
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Path rootDir = WORK.resolve("root");
    private final List<MicroProcess> started = new ArrayList<>();
    private int httpPort;
    private int gridPort;
    private final long t0 = System.nanoTime();

    @BeforeEach
    void freshWorkDirectory() throws IOException {
        deleteTree(WORK);
        Files.createDirectories(WORK);
        httpPort = MicroProcess.freePort(Integer.getInteger("micro.httpPort", 28080));
        gridPort = MicroProcess.freePort(Integer.getInteger("micro.gridPort", 28900));
    }

    @AfterEach
    void killWhatStillRuns() {
        started.forEach(MicroProcess::kill);
    }

    @Test
    void ordersTravelAndOutliveRestartsOnTheSameRootDirectory() throws Exception {
        // --- first start: the documented command, post-boot command file and WAR included
        MicroProcess first = start("first-start.log", List.of(
                "--postbootcommandfile", commandFile().toString(),
                "--deploy", DEPLOYMENTS.resolve("booksonline.war").toString()));
        String log = first.log();
        assertThat(log).as("the post-boot commands (deploy, add-resources, set) all succeed")
                .doesNotContain("Boot Command deploy failed", "Boot Command add-resources failed", "Boot Command set failed")
                .contains("Boot Command add-resources returned with result SUCCESS");
        assertThat(log).as("the adapter creates the sample's queues from the definitions")
                .contains("Aqueduct created queue OE.OE_BOOKEDORDERS_MQUE", "Aqueduct created queue SHIP.SHIP_BOOKEDORDERS_QUE",
                        "Aqueduct created queue CB.CB_BILLING_QUE", "Aqueduct created queue CS.CS_BOOKEDORDERS_TOPIC");
        assertThat(log).as("a new store in the root directory, not in Micro's temporary runtime directory")
                .contains("Aqueduct opened the store (Derby) in " + rootDir.resolve("aqueduct").resolve("store") + " (new)")
                .doesNotContain("payaramicro-rt");
        assertThat(log).contains("booksonline was successfully deployed");

        int logBeforeOrders = first.log().length();
        JsonObject placed = placeOrders(Map.of("count", "3", "rollback", "true", "customer", "Micro Books"));
        List<String> firstOrders = placed.getJsonArray("booked").getValuesAs(JsonObject.class).stream()
                .map(o -> o.getString("orderId")).toList();
        String rolledBack = placed.getString("rolledBack");
        assertThat(firstOrders).hasSize(3).doesNotHaveDuplicates().doesNotContain(rolledBack);
        awaitShippedBilledNotified(firstOrders);
        log("3 orders shipped, billed and notified");

        assertThat(get("/booksonline/api/orders/" + rolledBack).statusCode())
                .as("the rolled-back order was never booked").isEqualTo(404);
        String logOfOrders = first.log().substring(logBeforeOrders);
        assertThat(logOfOrders.lines().filter(l -> l.contains("rolled back") && l.contains(rolledBack)))
                .as("the rolled-back order is one log line").hasSize(1);
        assertThat(logOfOrders).as("placing and processing the orders logs no stack trace").doesNotContain("\tat ");
        JsonArray queues = json(getOk("/booksonline/api/queues")).asJsonArray();
        assertThat(queues.getValuesAs(JsonObject.class).stream().map(q -> q.getString("queue")))
                .contains("OE.OE_BOOKEDORDERS_MQUE", "SHIP.SHIP_BOOKEDORDERS_QUE", "CB.CB_BILLING_QUE", "CS.CS_BOOKEDORDERS_TOPIC");

        // --- a graceful stop keeps the root directory: the store and the sample's Derby database
        assertThat(first.stop(Duration.ofSeconds(60))).as("Micro stops within 60 s of SIGTERM").isTrue();
        log("stopped");
        assertThat(rootDir.resolve("aqueduct/store/seg0")).as("the adapter's Derby store").isDirectory();
        assertThat(rootDir.resolve("databases/booksonline/seg0")).as("the sample's Derby database").isDirectory();

        // --- second start on the same root directory: no command file, no --deploy
        MicroProcess second = start("second-start.log", List.of());
        String log2 = second.log();
        assertThat(log2).as("the same store is opened again")
                .contains("Aqueduct opened the store (Derby) in " + rootDir.resolve("aqueduct").resolve("store") + " (existing)");
        assertThat(log2).as("the queues exist: the definitions create nothing")
                .contains("0 queue table(s) and 0 queue(s) created now")
                .doesNotContain("Aqueduct created", "Aqueduct added subscriber", "Aqueduct scheduled propagation");
        Map<String, JsonObject> listed = json(getOk("/booksonline/api/orders")).asJsonArray().getValuesAs(JsonObject.class)
                .stream().collect(Collectors.toMap(o -> o.getString("orderId"), o -> o));
        assertThat(listed).as("the orders of the first run are listed").containsKeys(firstOrders.toArray(String[]::new));
        for (String id : firstOrders) {
            assertThat(progress(listed.get(id))).as(id).isEqualTo("shipped billed notified");
        }

        JsonObject again = placeOrders(Map.of("count", "1", "customer", "Micro Books"));
        String newOrder = again.getJsonArray("booked").getJsonObject(0).getString("orderId");
        assertThat(newOrder).as("a new order id, not one of the first run").isNotIn(firstOrders).isNotEqualTo(rolledBack);
        awaitShippedBilledNotified(List.of(newOrder));
        log("a new order shipped, billed and notified after the restart");

        // --- kill -9 once every order is processed (a kill in the middle of a delivery counts a failed attempt,
        // whose message comes back after the queue's retry_delay, 60 s), then the same start again
        second.kill();
        log("killed (kill -9)");
        MicroProcess third = start("third-start.log", List.of());
        assertThat(third.log()).as("the same store is opened again")
                .contains("Aqueduct opened the store (Derby) in " + rootDir.resolve("aqueduct").resolve("store") + " (existing)");
        Map<String, JsonObject> afterKill = json(getOk("/booksonline/api/orders")).asJsonArray().getValuesAs(JsonObject.class)
                .stream().collect(Collectors.toMap(o -> o.getString("orderId"), o -> o));
        List<String> before = Stream.concat(firstOrders.stream(), Stream.of(newOrder)).toList();
        assertThat(afterKill).as("every order booked before the kill is listed").containsKeys(before.toArray(String[]::new));
        for (String id : before) {
            assertThat(progress(afterKill.get(id))).as(id).isEqualTo("shipped billed notified");
        }
        String lastOrder = placeOrders(Map.of("count", "1", "customer", "Micro Books")).getJsonArray("booked")
                .getJsonObject(0).getString("orderId");
        awaitShippedBilledNotified(List.of(lastOrder));
        log("after kill -9 and a start: every order listed, a new one shipped, billed and notified");
        assertThat(third.stop(Duration.ofSeconds(60))).as("Micro stops within 60 s of SIGTERM").isTrue();
    }

    /** Micro started as the README says, plus {@code extra}; waits until it is ready. */
    private MicroProcess start(String logName, List<String> extra) throws IOException {
        List<String> jvm = List.of("-Xmx512m",
                "-Daqueduct.queueDefinitions=" + Files.readString(SERVER_CONFIG.resolve("queue-definitions.txt")).trim());
        List<String> args = new ArrayList<>(List.of("--rootdir", rootDir.toString(), "--nocluster",
                "--port", Integer.toString(httpPort), "--startport", Integer.toString(gridPort),
                "--addLibs", Stream.of("derby.jar", "derbytools.jar", "derbyshared.jar")
                        .map(j -> DEPLOYMENTS.resolve(j).toString()).collect(Collectors.joining(":"))));
        args.addAll(extra);
        log("starting Payara Micro (http " + httpPort + ", data grid " + gridPort + "), log " + WORK.resolve(logName));
        MicroProcess micro = MicroProcess.start(WORK, jvm, DEPLOYMENTS.resolve("payara-micro.jar"), args, WORK.resolve(logName));
        started.add(micro);
        micro.awaitReady(START);
        log("Payara Micro ready");
        return micro;
    }

    /** server-config/micro-setup.asadmin with its two repository-relative paths made absolute (this module's copies). */
    private Path commandFile() throws IOException {
        String text = Files.readString(SERVER_CONFIG.resolve("micro-setup.asadmin"));
        assertThat(text).as("the documented command file names the RAR and the resources").contains(DOCUMENTED_RAR, DOCUMENTED_RESOURCES);
        Path file = WORK.resolve("micro-setup.asadmin");
        Files.writeString(file, text.replace(DOCUMENTED_RAR, DEPLOYMENTS.resolve("aqueduct-rar.rar").toString())
                .replace(DOCUMENTED_RESOURCES, SERVER_CONFIG.resolve("glassfish-resources.xml").toString()));
        return file;
    }

    /** POST /booksonline/api/orders with a form, as the sample's page sends it. */
    private JsonObject placeOrders(Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/booksonline/api/orders"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(r.statusCode()).as("POST /booksonline/api/orders " + body + ": " + r.body()).isEqualTo(200);
        return json(r.body()).asJsonObject();
    }

    private void awaitShippedBilledNotified(List<String> orders) {
        for (String id : orders) {
            await(id + " shipped, billed and notified").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> progress(json(getOk("/booksonline/api/orders/" + id)).asJsonObject()),
                            p -> p.equals("shipped billed notified"));
        }
    }

    private static String progress(JsonObject order) {
        return Stream.of("shipped", "billed", "notified").filter(order::getBoolean).collect(Collectors.joining(" "));
    }

    private String getOk(String path) {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as("GET " + path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    private static JsonStructure json(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.read();
        }
    }

    private void log(String what) {
        System.out.printf("[PayaraMicroIT %5.1f s] %s%n", (System.nanoTime() - t0) / 1e9, what);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
