package io.aqueduct.bench.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.CommandRunner;
import org.glassfish.internal.api.Globals;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * bench/run http: send and receive rates of 1 KiB TEXT messages through aqueduct.war (the JSON REST API and the XML
 * servlet, one or 10 messages per request, each request its own committed transaction) beside the same operations
 * through the EJB path (the probe WAR's container-managed EJB: one message or an array of 10 per transaction), in one
 * embedded Payara, one keep-alive java.net.http client. Every message carries a unique 12-digit number first, so
 * that each case checks that what was sent came out exactly once (lost, dup). Prints BENCH lines (also to
 * target/bench.txt). A benchmark, not a test: it fails only when the run itself fails or loses / duplicates a message.
 */
@ExtendWith(ArquillianExtension.class)
class HttpBenchIT {
    static final int PORT = Integer.getInteger("it.http.port", 18291);
    static final String HOST = "http://localhost:" + PORT;
    static final Path DEPLOYMENTS = Path.of(System.getProperty("it.deployments", "target/deployments"));
    static final String AQ = "http://ns.oracle.com/AQ/schemas/access";
    static final int SIZE = 1024;
    /** Messages per case, way and round; with 10 per request that is a tenth as many requests. */
    static final int MESSAGES = Integer.getInteger("bench.httpMessages", 1000);
    static final int WARMUP = Integer.getInteger("bench.httpWarmup", 300);
    static final int ROUNDS = Integer.getInteger("bench.httpRounds", 3);
    static final String USER = "bench";
    static final String PASSWORD = "secret-bench";
    static final Pattern ID = Pattern.compile("(?:\"payload\":\"|<text>|message=)(\\d{12})");
    static final Pattern COUNT = Pattern.compile("<message_count>(\\d+)</message_count>");

    /** HTTP/1.1, so that one connection is kept alive and reused (no h2c upgrade attempt); cookies kept as a browser would. */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(10)).build();
    private final String authorization = "Basic "
            + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    private long nextId = 1;

    /** The BooksOnLine EAR (with aqueduct.war at /aqueduct) and the probe WAR added, as it/tests deploys it. */
    @Deployment(name = "booksonline", testable = false)
    static EnterpriseArchive booksOnLine() {
        EnterpriseArchive ear = ShrinkWrap.createFromZipFile(EnterpriseArchive.class,
                DEPLOYMENTS.resolve("aqueduct-booksonline.ear").toFile());
        ear.addAsModule(ShrinkWrap.createFromZipFile(WebArchive.class, DEPLOYMENTS.resolve("aqueduct-probe.war").toFile()));
        try (InputStream in = ear.get("META-INF/application.xml").getAsset().openStream()) {
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            ear.setApplicationXML(new StringAsset(xml.replaceFirst("<module>",
                    "<module><web><web-uri>aqueduct-probe.war</web-uri><context-root>aqueduct-probe</context-root></web></module>\n  <module>")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ear;
    }

    /** What one way did in one case, one round: rates and the exactly-once check. */
    record Result(String name, long enqNanos, long deqNanos, int enqN, int deqN, int lost, int dup, int perRequest) {
    }

    /** A case's rounds: its BENCH line gives total messages over total timed seconds, and each round. */
    static final class Totals {
        final String name;
        final int perRequest;
        final List<Result> rounds = new ArrayList<>();

        Totals(String name, int perRequest) {
            this.name = name;
            this.perRequest = perRequest;
        }

        double enqPerS() {
            return rounds.stream().mapToLong(Result::enqN).sum() / (rounds.stream().mapToLong(Result::enqNanos).sum() / 1e9);
        }

        double deqPerS() {
            return rounds.stream().mapToLong(Result::deqN).sum() / (rounds.stream().mapToLong(Result::deqNanos).sum() / 1e9);
        }

        int lost() {
            return rounds.stream().mapToInt(Result::lost).sum();
        }

        int dup() {
            return rounds.stream().mapToInt(Result::dup).sum();
        }

        String line() {
            StringBuilder enq = new StringBuilder();
            StringBuilder deq = new StringBuilder();
            for (Result r : rounds) {
                enq.append(enq.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", r.enqN() / (r.enqNanos() / 1e9)));
                deq.append(deq.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", r.deqN() / (r.deqNanos() / 1e9)));
            }
            return String.format(Locale.ROOT,
                    "BENCH %s enq_per_s=%.1f deq_per_s=%.1f enq_n=%d deq_n=%d lost=%d dup=%d per_request=%d rounds=%d enq_rounds=%s deq_rounds=%s",
                    name, enqPerS(), deqPerS(), rounds.stream().mapToInt(Result::enqN).sum(), rounds.stream().mapToInt(Result::deqN).sum(),
                    lost(), dup(), perRequest, rounds.size(), enq, deq);
        }
    }

    /** The two ways in: send n messages k per request, then receive them (k per request where the way has it). */
    interface Way {
        /** Sends these messages (ids) in one request; the ids that must come out of the queue for them. */
        List<String> send(List<String> ids);

        /** Receives up to k messages in one request; their ids (empty: the queue is empty). */
        List<String> receive(int k);
    }

    @Test
    void bench() throws Exception {
        createUser();
        Way rest = new Way() {
            public List<String> send(List<String> ids) {
                StringBuilder b = new StringBuilder();
                if (ids.size() == 1) {
                    b.append("{\"payload\":\"").append(payload(ids.get(0))).append("\"}");
                } else {
                    b.append("{\"messages\":[");
                    for (int i = 0; i < ids.size(); i++) {
                        b.append(i == 0 ? "" : ",").append("{\"payload\":\"").append(payload(ids.get(i))).append("\"}");
                    }
                    b.append("]}");
                }
                expect(201, post("/aqueduct/api/queues/HB.REST_Q/messages", "application/json", b.toString()));
                return ids;
            }

            public List<String> receive(int k) {
                HttpResponse<String> r = post("/aqueduct/api/queues/HB.REST_Q/receive?max=" + k, "application/json", "");
                if (r.statusCode() == 204) {
                    return List.of();
                }
                return ids(expect(200, r));
            }
        };
        Way idap = new Way() {
            public List<String> send(List<String> ids) {
                StringBuilder set = new StringBuilder();
                for (int i = 0; i < ids.size(); i++) {
                    set.append("<message><message_number>").append(i + 1).append("</message_number><message_payload><text>")
                            .append(payload(ids.get(i))).append("</text></message_payload></message>");
                }
                String body = envelope("<AQXmlSend xmlns=\"" + AQ + "\"><producer_options><destination>HB.IDAP_Q</destination>"
                        + "</producer_options><message_set><message_count>" + ids.size() + "</message_count>" + set
                        + "</message_set><AQXmlCommit/></AQXmlSend>");
                String answer = expect(200, post("/aqueduct/aqserv/servlet", "text/xml; charset=UTF-8", body));
                if (!answer.contains("<status_code>0</status_code>")) {
                    throw new IllegalStateException("AQXmlSend answered " + answer);
                }
                return ids;
            }

            public List<String> receive(int k) {
                String body = envelope("<AQXmlReceive xmlns=\"" + AQ + "\"><consumer_options><destination>HB.IDAP_Q</destination>"
                        + "<wait_time>0</wait_time>" + (k > 1 ? "<batch_size>" + k + "</batch_size>" : "")
                        + "</consumer_options><AQXmlCommit/></AQXmlReceive>");
                String answer = expect(200, post("/aqueduct/aqserv/servlet", "text/xml; charset=UTF-8", body));
                List<String> got = ids(answer);
                Matcher m = COUNT.matcher(answer);
                if (!m.find() || Integer.parseInt(m.group(1)) != got.size()) {
                    throw new IllegalStateException("AQXmlReceive: message_count is not the messages' number: " + answer);
                }
                return got;
            }
        };
        // the EJB path, driven over the same client: the probe servlet (GET, no authentication, plain text) calls its
        // EJB, which enqueues the array (enqueueArray) or dequeues one message (REMOVE, no wait) in a container
        // transaction of its own; the probe pads "text" with x to "size", the same payload as the HTTP ways send
        Way ejb = new Way() {
            public List<String> send(List<String> ids) {
                // the probe's array enqueue repeats one text: the request's first id stands for all of its messages,
                // and that id must come out ids.size() times
                expect(200, get("/aqueduct-probe/probe/enqueue?queue=HB.EJB_Q&size=" + SIZE + "&count=" + ids.size()
                        + "&text=" + ids.get(0)));
                return Collections.nCopies(ids.size(), ids.get(0));
            }

            public List<String> receive(int k) {
                String answer = expect(200, get("/aqueduct-probe/probe/dequeue?queue=HB.EJB_Q"));
                return answer.startsWith("none") ? List.of() : ids(answer);
            }
        };

        // warm-up (the JIT, the pools, the three paths once each way), not measured
        for (Way w : List.of(rest, idap, ejb)) {
            for (Result r : List.of(run("warm-up", w, WARMUP, 1, 1), run("warm-up", w, WARMUP, 10, w == ejb ? 1 : 10))) {
                if (r.lost() != 0 || r.dup() != 0 || r.deqN() != WARMUP) {
                    throw new AssertionError("the warm-up lost or duplicated a message: " + r);
                }
            }
        }
        // per size, the three ways one after the other, their order turned each round (A B C, B C A, C A B) so that
        // none is always first after a pause or always last on a warmer store
        List<String> lines = new ArrayList<>();
        List<Totals> all = new ArrayList<>();
        long inProcessNanos = 0;
        for (int k : new int[] {1, 10}) {
            List<Totals> ways = List.of(new Totals("aqueduct-http/derby/rest/" + k + "-per-request", k),
                    new Totals("aqueduct-http/derby/idap/" + k + "-per-request", k),
                    new Totals("aqueduct-ejb/derby/probe/" + k + "-per-request", k));
            List<Way> how = List.of(rest, idap, ejb);
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < 3; i++) {
                    int w = (i + round) % 3;
                    // the probe has no array dequeue: with 10 per request the EJB side receives one per transaction
                    ways.get(w).rounds.add(run(ways.get(w).name, how.get(w), MESSAGES, k, how.get(w) == ejb ? 1 : k));
                }
                if (k == 1) {
                    // a server-side loop of EJB calls, as run-payara's aqueduct-ejb/derby/enqueue: no HTTP at all
                    inProcessNanos += inProcessEnqueue(MESSAGES);
                }
            }
            all.addAll(ways);
        }
        for (Totals t : all) {
            lines.add(t.line());
        }
        double inProcess = ROUNDS * MESSAGES / (inProcessNanos / 1e9);
        lines.add(String.format(Locale.ROOT, "BENCH aqueduct-ejb/derby/in-process/1-per-request enq_per_s=%.1f enq_n=%d rounds=%d",
                inProcess, ROUNDS * MESSAGES, ROUNDS));
        for (int i = 0; i < all.size(); i += 3) {
            Totals e = all.get(i + 2);
            for (Totals h : List.of(all.get(i), all.get(i + 1))) {
                // with 10 per request the EJB side received one per transaction (no array dequeue in the probe):
                // that ratio is named for what it compares, batched over HTTP against single through the EJB
                lines.add(String.format(Locale.ROOT, "BENCH ratio/derby/http-vs-ejb %s enq=%.2f %s=%.2f vs=%s",
                        h.name.substring("aqueduct-http/derby/".length()), h.enqPerS() / e.enqPerS(),
                        h.perRequest == 1 ? "deq" : "deq_vs_ejb_single", h.deqPerS() / e.deqPerS(), e.name));
            }
        }
        lines.add(String.format(Locale.ROOT,
                "BENCH ratio/derby/http-vs-ejb-in-process rest/1-per-request enq=%.2f idap/1-per-request enq=%.2f vs=aqueduct-ejb/derby/in-process/1-per-request",
                all.get(0).enqPerS() / inProcess, all.get(1).enqPerS() / inProcess));
        lines.forEach(System.out::println);
        Files.write(Path.of("target", "bench.txt"), lines);
        for (Totals t : all) {
            if (t.lost() != 0 || t.dup() != 0) {
                throw new AssertionError("a message was lost or duplicated: " + t.line());
            }
        }
    }

    /**
     * Sends n messages, {@code k} per request, then receives until the queue is empty, {@code kr} per request; both
     * timed from the first request to the last answer (the receive's last, empty answer is not counted).
     */
    private Result run(String name, Way way, int n, int k, int kr) {
        Map<String, Integer> expected = new HashMap<>();
        long t0 = System.nanoTime();
        for (int sent = 0; sent < n; sent += k) {
            List<String> ids = new ArrayList<>(k);
            for (int i = 0; i < Math.min(k, n - sent); i++) {
                ids.add(String.format(Locale.ROOT, "%012d", nextId++));
            }
            for (String id : way.send(ids)) {
                expected.merge(id, 1, Integer::sum);
            }
        }
        long enqNanos = System.nanoTime() - t0;
        Map<String, Integer> got = new HashMap<>();
        int received = 0;
        long t1 = System.nanoTime();
        long last = t1;
        while (true) {
            List<String> ids = way.receive(kr);
            if (ids.isEmpty()) {
                break;
            }
            last = System.nanoTime();
            received += ids.size();
            for (String id : ids) {
                got.merge(id, 1, Integer::sum);
            }
        }
        long deqNanos = last - t1;
        return check(name, expected, got, n, received, enqNanos, deqNanos, k);
    }

    /** lost: sent but not received (as often as sent); dup: received more often than sent, or never sent. */
    private static Result check(String name, Map<String, Integer> expected, Map<String, Integer> got, int n, int received,
            long enqNanos, long deqNanos, int k) {
        int lost = 0;
        int dup = 0;
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            int g = got.getOrDefault(e.getKey(), 0);
            lost += Math.max(0, e.getValue() - g);
            dup += Math.max(0, g - e.getValue());
        }
        for (Map.Entry<String, Integer> g : got.entrySet()) {
            if (!expected.containsKey(g.getKey())) {
                dup += g.getValue();
            }
        }
        return new Result(name, enqNanos, deqNanos, n, received, lost, dup, k);
    }

    /** The probe's server-side loop: n EJB calls, one message per container transaction (REQUIRES_NEW); its nanoseconds. */
    private long inProcessEnqueue(int n) {
        String answer = expect(200, get("/aqueduct-probe/probe/enqueue-each?queue=HB.EJB_Q&size=" + SIZE + "&n=" + n));
        Matcher m = Pattern.compile("nanos=(\\d+)").matcher(answer);
        if (!m.find()) {
            throw new IllegalStateException("enqueue-each answered " + answer);
        }
        long nanos = Long.parseLong(m.group(1));
        // its messages are all "xxx...": emptied (and counted) so that the cases after it start from an empty queue
        int drained = 0;
        while (!expect(200, get("/aqueduct-probe/probe/dequeue?queue=HB.EJB_Q")).startsWith("none")) {
            drained++;
        }
        if (drained != n) {
            throw new IllegalStateException("enqueue-each of " + n + " left " + drained + " messages in HB.EJB_Q");
        }
        return nanos;
    }

    private void createUser() throws IOException {
        CommandRunner runner = Globals.getDefaultHabitat().getService(CommandRunner.class);
        // as asadmin takes it: the password from a password file, never on the command line
        Path passwordFile = Files.createTempFile("aqueduct-bench-user", ".txt");
        Files.writeString(passwordFile, "AS_ADMIN_USERPASSWORD=" + PASSWORD + "\n");
        CommandResult r = runner.run("create-file-user", "--groups", "aqueduct-http", "--passwordfile", passwordFile.toString(), USER);
        Files.delete(passwordFile);
        if (r.getExitStatus() != CommandResult.ExitStatus.SUCCESS) {
            throw new IllegalStateException("create-file-user " + USER + ": " + r.getOutput() + " " + r.getFailureCause());
        }
    }

    private static String payload(String id) {
        return id + "x".repeat(SIZE - id.length());
    }

    private static String envelope(String operation) {
        return "<?xml version=\"1.0\"?><Envelope xmlns=\"http://schemas.xmlsoap.org/soap/envelope/\"><Body>" + operation
                + "</Body></Envelope>";
    }

    private static List<String> ids(String answer) {
        List<String> ids = new ArrayList<>();
        Matcher m = ID.matcher(answer);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private static String expect(int status, HttpResponse<String> r) {
        if (r.statusCode() != status) {
            throw new IllegalStateException(r.request().method() + " " + r.request().uri() + " answered " + r.statusCode()
                    + " (expected " + status + "): " + r.body());
        }
        return r.body();
    }

    private HttpResponse<String> post(String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(URI.create(HOST + path)).header("Content-Type", contentType)
                .header("Authorization", authorization).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> get(String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(HOST + pathAndQuery)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return http.send(b.timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(b.build().uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
