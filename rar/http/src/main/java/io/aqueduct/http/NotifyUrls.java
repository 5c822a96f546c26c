package io.aqueduct.http;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.util.Locale;

/** Where a registration made over HTTP may send its notifications. */
public final class NotifyUrls {
    private NotifyUrls() {
    }

    /**
     * {@code url} when an Internet client may name it: {@code http://}, {@code https://} or {@code mailto:} (the
     * engine checks them further). A {@code java:} name is an application's in-JVM listener: a client over HTTP may not
     * direct notifications (and its context) to one, nor remove an application's registration, so it is refused (24915)
     * before anything is registered or unregistered.
     */
    public static String checked(String url) {
        if (url != null && url.strip().toLowerCase(Locale.ROOT).startsWith("java:")) {
            throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "The notify URL " + url + " names an in-JVM listener:"
                    + " over HTTP a registration notifies an http://, https:// or mailto: address.");
        }
        return url;
    }
}
