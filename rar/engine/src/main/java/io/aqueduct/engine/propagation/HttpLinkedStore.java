package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database link over HTTP (AQ's "propagation using HTTP"): the store is another server's, reached
 * through its Aqueduct servlet (aqueduct.war, {@code /aqueduct/aqserv/servlet}) with the link's user
 * and password as an AQ agent's BASIC credentials. Each call is one POST of a {@link PropagationWire}
 * request; the servlet runs it in one transaction of that server's store as the agent's database
 * user (whose ENQUEUE privileges it needs) and commits before it answers. An answer that never comes
 * leaves the outcome unknown: the source rolls back and the receipts decide at the next batch.
 */
final class HttpLinkedStore implements LinkedStore {
    /** The servlet's path under a server's root when the link gives AQ's connect descriptor. */
    static final String SERVLET_PATH = "/aqueduct/aqserv/servlet";
    /** The header of an answer that carries an AQ error (its number), the text being the body. */
    static final String ERROR_HEADER = "X-Aqueduct-Error";
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
    /** Messages per request, in bytes (about): half the servlet's default body limit. */
    static final long REQUEST_BYTES = 512 * 1024;
    /** Receipt ids per request (about 80 bytes each: well within the servlet's body limit). */
    static final int FORGET_PER_REQUEST = 5000;
    /** The longest answer read: an answer is a few bytes per message, an error a sentence. */
    static final int MAX_ANSWER_BYTES = 4 * 1024 * 1024;
    private static final Pattern DESCRIPTOR = Pattern.compile("\\s*\\(\\s*DESCRIPTION\\s*=.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private final URI servlet;
    private final String link;
    private final String user;
    private final String authorization;
    private final HttpClient client;
    private volatile boolean open = true;
    /** Requests under way: closing the store (the engine stops, the link is altered or dropped) cancels them. */
    private final java.util.Set<java.util.concurrent.CompletableFuture<?>> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();

    HttpLinkedStore(String link, URI servlet, String user, String password, HttpClient client) {
        this.link = link;
        this.servlet = servlet;
        this.user = user;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
        this.client = client;
    }

    /** The client every HTTP link of an engine shares (its connections and its one selector thread). */
    static HttpClient newClient() {
        return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * The servlet a link's URL names when it is one over HTTP: an {@code http://} / {@code https://} URL
     * (the servlet's, used as given), or AQ's descriptor {@code (DESCRIPTION=(ADDRESS=(PROTOCOL=http)(HOST=h)(PORT=p)))}
     * ({@code http://h:p/aqueduct/aqserv/servlet}). Null: not HTTP (a JDBC URL or a Derby directory). 24097
     * for an HTTP link that cannot work, or a descriptor of another protocol.
     */
    static URI servlet(String url, String user) {
        String u = url.strip();
        String lower = u.toLowerCase(Locale.ROOT);
        URI uri;
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            try {
                uri = new URI(u);
            } catch (URISyntaxException e) {
                throw invalid("The URL " + u + " is not a valid URL: " + e.getMessage() + ".");
            }
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw invalid("The URL " + u + " names no host: give the Aqueduct servlet's URL, e.g."
                        + " https://dest.example.com:8181" + SERVLET_PATH + ".");
            }
            if (uri.getRawUserInfo() != null) {
                throw invalid("Give the agent's user and password as the link's user and password, not in its URL"
                        + " (the URL is shown in the link listings).");
            }
            if (uri.getRawFragment() != null || uri.getRawQuery() != null) {
                throw invalid("The URL " + u + " has a query or fragment: give the Aqueduct servlet's URL, e.g. https://"
                        + uri.getHost() + SERVLET_PATH + ".");
            }
        } else if (DESCRIPTOR.matcher(u).matches()) {
            String protocol = part(u, "PROTOCOL");
            String host = part(u, "HOST");
            String port = part(u, "PORT");
            if (protocol == null || !(protocol.equalsIgnoreCase("http") || protocol.equalsIgnoreCase("https"))) {
                throw invalid("The connect descriptor's PROTOCOL is " + (protocol == null ? "missing" : protocol)
                        + ": Aqueduct reaches another store over HTTP (PROTOCOL=http or https), by a JDBC URL, or as a Derby directory.");
            }
            if (host == null || host.isBlank()) {
                throw invalid("The connect descriptor has no HOST: give the web server running the Aqueduct servlet.");
            }
            int p;
            try {
                p = port == null ? (protocol.equalsIgnoreCase("https") ? 443 : 80) : Integer.parseInt(port.strip());
            } catch (NumberFormatException e) {
                throw invalid("The connect descriptor's PORT " + port + " is not a number.");
            }
            if (p < 1 || p > 65_535) {
                throw invalid("The connect descriptor's PORT " + p + " is not a TCP port (1-65535).");
            }
            try {
                uri = new URI(protocol.toLowerCase(Locale.ROOT), null, host.strip(), p, SERVLET_PATH, null, null);
            } catch (URISyntaxException e) {
                throw invalid("The connect descriptor's HOST " + host + " is not a host name: " + e.getMessage() + ".");
            }
        } else {
            return null;
        }
        if (user == null || user.isBlank()) {
            throw invalid("A database link over HTTP needs the user and password of an AQ agent enabled for HTTP at the"
                    + " destination (CONNECT TO agent IDENTIFIED BY password).");
        }
        if (user.indexOf(':') >= 0) {
            throw invalid("A database link's user over HTTP cannot contain ':' (BASIC authentication separates user and"
                    + " password by it).");
        }
        return uri;
    }

    private static String part(String descriptor, String name) {
        Matcher m = Pattern.compile("\\(\\s*" + name + "\\s*=\\s*([^()]*?)\\s*\\)", Pattern.CASE_INSENSITIVE).matcher(descriptor);
        return m.find() ? m.group(1) : null;
    }

    private static AqException invalid(String message) {
        return new AqException(AqError.INVALID_VALUE, message);
    }

    @Override
    public LinkSession openSession(String ignoredUser) {
        return new Session();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
        inFlight.forEach(f -> f.cancel(true));
    }

    /** One POST: the answer's body, or the AQ error the answer (or its absence) means. */
    private byte[] post(byte[] request) {
        HttpRequest r = HttpRequest.newBuilder(servlet).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", PropagationWire.CONTENT_TYPE).header("Accept", PropagationWire.CONTENT_TYPE)
                .header("Authorization", authorization).POST(HttpRequest.BodyPublishers.ofByteArray(request)).build();
        if (!open) {
            throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "Propagation to database link " + link
                    + " stopped: the link was altered or dropped, or the engine is closing.");
        }
        HttpResponse<byte[]> response;
        java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> call = client.sendAsync(r, info -> new BoundedBody(MAX_ANSWER_BYTES));
        inFlight.add(call);
        try {
            // the whole answer within the timeout, body included: a server that trickles it does not hold propagation
            response = call.get(REQUEST_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "The Aqueduct servlet of database link " + link + " ("
                    + servlet + ") cannot be reached: " + cause, cause);
        } catch (java.util.concurrent.TimeoutException e) {
            call.cancel(true);
            throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "The Aqueduct servlet of database link " + link + " ("
                    + servlet + ") gave no whole answer within " + REQUEST_TIMEOUT.toSeconds() + " s.", e);
        } catch (java.util.concurrent.CancellationException e) {
            throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "Propagation to database link " + link
                    + " stopped: the link was altered or dropped, or the engine is closing.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "Propagation to database link " + link
                    + " was interrupted while waiting for " + servlet + ".", e);
        } finally {
            inFlight.remove(call);
        }
        int status = response.statusCode();
        String error = response.headers().firstValue(ERROR_HEADER).orElse(null);
        if (error != null) {
            int code;
            try {
                code = Integer.parseInt(error.strip());
            } catch (NumberFormatException e) {
                code = AqError.DATABASE_LINK_UNREACHABLE;
            }
            throw new AqException(code, "The store of database link " + link + " (" + servlet + ") refused: " + text(response));
        }
        if (status == 200 && response.headers().firstValue("Content-Type").orElse("").startsWith(PropagationWire.CONTENT_TYPE)) {
            return response.body();
        }
        if (status == 413) {
            throw new AqException(AqError.INVALID_VALUE, "The Aqueduct servlet of database link " + link + " (" + servlet
                    + ") refused a request of " + request.length + " bytes as too large: raise its context parameter"
                    + " io.aqueduct.http.maxBodyBytes above the largest message (a transaction group travels whole).");
        }
        if (status == 401) {
            throw new AqException(AqError.LOGON_DENIED, "The Aqueduct servlet of database link " + link + " (" + servlet
                    + ") refused the user " + user + " and its password: alter the link with an AQ agent's credentials"
                    + " that server's realm knows.");
        }
        if (status == 403) {
            throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, "The Aqueduct servlet of database link " + link + " ("
                    + servlet + ") refused user " + user + " (HTTP 403): it needs the role aqueduct-http there and an AQ"
                    + " agent of that name enabled for HTTP and mapped to a database user. " + text(response));
        }
        throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "Database link " + link + " (" + servlet
                + ") answered HTTP " + status + " without an Aqueduct propagation answer: is the URL the Aqueduct"
                + " servlet's (" + SERVLET_PATH + ")? " + text(response));
    }

    /** About what an arrival takes in a request: its payload and a generous allowance for the rest. */
    private static long estimate(LinkSession.Arrival a) {
        Object p = a.message().message().payload();
        long payload = p instanceof byte[] b ? b.length : p instanceof String t ? 3L * t.length() : 0;
        return payload + 1024;
    }

    /** The answer's bytes, refused beyond {@code max}: a server cannot make propagation read without end. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private final java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
        private java.util.concurrent.Flow.Subscription subscription;

        BoundedBody(int max) {
            this.max = max;
        }

        @Override
        public java.util.concurrent.CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> buffers) {
            for (java.nio.ByteBuffer b : buffers) {
                if (bytes.size() + b.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new IOException("the answer is longer than " + max + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
    }

    private static String text(HttpResponse<byte[]> response) {
        String s = new String(response.body(), StandardCharsets.UTF_8).strip();
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }

    /** The calls of one schedule's run; HTTP keeps no state between them. */
    final class Session implements LinkSession {
        private boolean closed;

        /**
         * One request per up to {@link #REQUEST_BYTES} of messages (the servlet's body limit is 1 MiB unless
         * raised), cut only between source transaction groups, so a group stays one transaction there. A
         * failure after an earlier request committed leaves those messages delivered: the source's parts stay
         * READY, and their receipts make the next batch count them as delivered.
         */
        @Override
        public List<Arrived> deliver(String source, List<Arrival> arrivals) {
            List<Arrived> out = new java.util.ArrayList<>(arrivals.size());
            int from = 0;
            long bytes = 0;
            for (int i = 0; i < arrivals.size(); i++) {
                long size = estimate(arrivals.get(i));
                if (i > from && bytes + size > REQUEST_BYTES
                        && !java.util.Objects.equals(arrivals.get(i).sourceGroup(), arrivals.get(i - 1).sourceGroup())) {
                    out.addAll(send(source, arrivals.subList(from, i)));
                    from = i;
                    bytes = 0;
                }
                bytes += size;
            }
            out.addAll(send(source, arrivals.subList(from, arrivals.size())));
            return out;
        }

        private List<Arrived> send(String source, List<LinkSession.Arrival> arrivals) {
            return PropagationWire.delivered(post(PropagationWire.deliver(source, arrivals)), arrivals.size());
        }

        /** Buffered arrivals: as {@link #deliver}, cut between any two messages (a buffered message has no group). */
        @Override
        public List<Arrived> deliverBuffered(List<Arrival> arrivals) {
            List<Arrived> out = new java.util.ArrayList<>(arrivals.size());
            int from = 0;
            long bytes = 0;
            for (int i = 0; i < arrivals.size(); i++) {
                long size = estimate(arrivals.get(i));
                if (i > from && bytes + size > REQUEST_BYTES) {
                    out.addAll(sendBuffered(arrivals.subList(from, i)));
                    from = i;
                    bytes = 0;
                }
                bytes += size;
            }
            out.addAll(sendBuffered(arrivals.subList(from, arrivals.size())));
            return out;
        }

        private List<Arrived> sendBuffered(List<LinkSession.Arrival> arrivals) {
            return PropagationWire.delivered(post(PropagationWire.deliverBuffered(arrivals)), arrivals.size());
        }

        @Override
        public void forgetBuffered(List<String> receiptIds) {
            for (int i = 0; i < receiptIds.size(); i += FORGET_PER_REQUEST) {
                PropagationWire.done(post(PropagationWire.forgetBuffered(receiptIds.subList(i, Math.min(receiptIds.size(),
                        i + FORGET_PER_REQUEST)))));
            }
        }

        @Override
        public void forget(List<String> receiptIds) {
            for (int i = 0; i < receiptIds.size(); i += FORGET_PER_REQUEST) {
                PropagationWire.done(post(PropagationWire.forget(receiptIds.subList(i, Math.min(receiptIds.size(),
                        i + FORGET_PER_REQUEST)))));
            }
        }

        @Override
        public List<Receipt> receipts(String source, String after, int max) {
            return PropagationWire.receiptList(post(PropagationWire.receipts(source, after, max)));
        }

        @Override
        public boolean isClosed() {
            return closed || !open;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
