package io.aqueduct.http;

import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each queue's messages carry, read from the catalog and remembered for a while: the XML servlet and the REST
 * API write and read a payload in the form of its type (an XML element, a JSON value, text, base64 bytes). A queue
 * dropped and created again with another type is seen after at most {@link #REMEMBERED}.
 */
public final class PayloadTypes {
    static final Duration REMEMBERED = Duration.ofSeconds(30);
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final Clock clock;

    private record Known(PayloadType type, Instant until) {
    }

    public PayloadTypes(Clock clock) {
        this.clock = clock;
    }

    /** {@code queue}'s payload type; the catalog's AqException (24010 unknown queue) when it cannot be read. */
    public PayloadType of(QueueSession session, String user, String queue) {
        String key = user + '\u0000' + queue;
        Instant now = clock.instant();
        Known k = known.get(key);
        if (k != null && k.until().isAfter(now)) {
            return k.type();
        }
        QueueInfo q = session.admin().queue(queue);
        QueueTableInfo table = session.admin().queueTable(q.owner() + "." + q.queueTable());
        known.put(key, new Known(table.payloadType(), now.plus(REMEMBERED)));
        return table.payloadType();
    }
}
