package io.aqueduct.engine.notification;

import io.aqueduct.api.AqNotification;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * Delivers a notification to an http://, https:// or mailto: address. HTTP: a POST of the
 * AQXmlNotification envelope ({@code text/xml; charset=UTF-8}), or of its JSON form
 * ({@code application/json}) for a registration with QoS JSON; any 2xx answer is a delivery, anything
 * else (or no answer within the timeouts) a failure. Mail: the envelope as a {@code text/xml} message.
 */
public final class Transports {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final MailSettings mailSettings;
    private volatile HttpClient http;

    public Transports(MailSettings mail) {
        this.mailSettings = mail == null ? MailSettings.NONE : mail;
    }

    void send(String url, AqNotification n, boolean json) throws IOException, InterruptedException {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            post(url, json ? Envelopes.json(n) : Envelopes.xml(n), json ? "application/json" : "text/xml; charset=UTF-8");
        } else if (lower.startsWith("mailto:")) {
            sendMail(url, n);
        } else {
            throw new IOException("Aqueduct cannot notify " + url);
        }
    }

    /**
     * Jakarta Mail is loaded only here, at the first mailto: notification: a server without it (the
     * resource adapter uses the container's) runs every other kind of notification, and a mailto: one
     * fails with an error that says what is missing.
     */
    private void sendMail(String url, AqNotification n) throws IOException {
        try {
            new MailTransport(mailSettings).send(url, n);
        } catch (NoClassDefFoundError e) {
            throw new IOException("Jakarta Mail is not available here (" + e.getMessage() + "): add jakarta.mail-api and"
                    + " an implementation (org.eclipse.angus:angus-mail) to deliver mailto: notifications.", e);
        }
    }

    private void post(String url, String body, String contentType) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body, java.nio.charset.StandardCharsets.UTF_8)).build();
        HttpResponse<Void> response = client().send(request, HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("HTTP " + response.statusCode() + " from " + url);
        }
    }

    /** One client for all HTTP notifications, made at the first (it starts threads of its own only then). */
    private HttpClient client() {
        HttpClient c = http;
        if (c == null) {
            synchronized (this) {
                c = http;
                if (c == null) {
                    c = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
                    http = c;
                }
            }
        }
        return c;
    }
}
