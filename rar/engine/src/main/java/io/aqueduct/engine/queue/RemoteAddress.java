package io.aqueduct.engine.queue;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.PropagationSchedule;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a remote consumer's messages go: its address {@code [schema.]queue} (a queue of this store)
 * or {@code [schema.]queue@link} (a queue of the store a database link names), with protocol 0.
 * Propagation schedules are per source queue and {@link #destination}: the link's name, or
 * {@link PropagationSchedule#LOCAL} for this store.
 *
 * @param queue the destination queue, {@code [schema.]name} as written (resolved where it lives)
 * @param link the database link (upper-case), or null for this store
 */
public record RemoteAddress(String queue, String link) {
    private static final Pattern LINK = Pattern.compile("\\p{L}[\\p{L}\\p{N}_$#]*(\\.[\\p{L}\\p{N}_$#]+)*");
    /** The longest link name: the schedule's destination column. */
    public static final int MAX_LINK_BYTES = 128;

    /** The schedule destination this address is served by. */
    public String destination() {
        return link == null ? PropagationSchedule.LOCAL : link;
    }

    /**
     * The address of a remote consumer (protocol 0 and an address of the form above), or null for a
     * local consumer and for an address propagation cannot serve (another protocol, or not a queue name).
     */
    public static RemoteAddress of(Agent agent) {
        if (agent.address() == null || agent.protocol() != 0) {
            return null;
        }
        try {
            return parse(agent.address());
        } catch (AqException e) {
            return null;
        }
    }

    /** Parses {@code [schema.]queue[@link]}; 44003 (24019: a part too long) when it is not of that form. */
    public static RemoteAddress parse(String address) {
        if (address == null || address.isBlank()) {
            throw new AqException(AqError.INVALID_NAME, "An address names a queue: [schema.]queue or [schema.]queue@link.");
        }
        String text = address.strip();
        int at = text.indexOf('@');
        String queue = at < 0 ? text : text.substring(0, at);
        try {
            String link = at < 0 ? null : linkName(text.substring(at + 1));
            // checks the queue part's form without a default schema (the destination's own applies)
            QualifiedName.forLookup(queue.indexOf('.') < 0 ? "X." + queue : queue, "X", "destination queue");
            return new RemoteAddress(queue, link);
        } catch (AqException e) {
            throw new AqException(e.errorCode(), "'" + address + "' is not an address propagation can serve: give"
                    + " [schema.]queue (a queue of this store) or [schema.]queue@link (a queue of the store a database link"
                    + " names) — " + e.getMessage(), e);
        }
    }

    /**
     * A database link's name as stored (upper-case): an identifier, optionally with a domain
     * ({@code SHIPPING.EXAMPLE.COM}); 44003 otherwise, 24019 when longer than 128 bytes.
     */
    public static String linkName(String text) {
        if (text == null || text.isBlank()) {
            throw new AqException(AqError.INVALID_NAME, "A database link name is required.");
        }
        String upper = text.strip().toUpperCase(Locale.ROOT);
        if (!LINK.matcher(upper).matches()) {
            throw new AqException(AqError.INVALID_NAME, "'" + text + "' is not a valid database link name: use a letter"
                    + " followed by letters, digits, _, $ or #, optionally with a domain (name.example.com).");
        }
        if (upper.getBytes(StandardCharsets.UTF_8).length > MAX_LINK_BYTES) {
            throw new AqException(AqError.NAME_TOO_LONG, "The database link name '" + text + "' has more than "
                    + MAX_LINK_BYTES + " bytes.");
        }
        return upper;
    }

    /** A schedule's destination as given (null or AQ$_LOCAL: this store; else a link name), as stored. */
    public static String scheduleDestination(String destination) {
        if (destination == null || destination.strip().equalsIgnoreCase(PropagationSchedule.LOCAL)) {
            return PropagationSchedule.LOCAL;
        }
        return linkName(destination);
    }
}
