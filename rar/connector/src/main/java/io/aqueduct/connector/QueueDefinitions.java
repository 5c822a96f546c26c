package io.aqueduct.connector;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Queue tables and queues declared in the resource adapter's configuration, created (and started)
 * when the adapter starts if they do not exist yet, so that MDBs find their queues at deployment.
 * Definitions are separated by {@code ;}; each is a kind, a name and {@code key=value} settings:
 *
 * <pre>
 * table OE.OE_orders_qtab payload=JSON sort=priority,enq_time multiple_consumers=false grouping=NONE;
 * queue OE.OE_bookedorders_que table=OE.OE_orders_qtab max_retries=4 retry_delay=43200 retention=0 type=NORMAL
 * </pre>
 *
 * Existing objects are left as they are. A malformed definition stops the adapter with a message
 * that names it.
 */
public final class QueueDefinitions {
    private static final Set<String> TABLE_KEYS = Set.of("payload", "object_type", "sort", "multiple_consumers", "grouping", "comment");
    private static final Set<String> QUEUE_KEYS = Set.of("table", "max_retries", "retry_delay", "retention", "type", "comment");

    private record Definition(String kind, String name, Map<String, String> settings) {
    }

    private final List<Definition> definitions;

    private QueueDefinitions(List<Definition> definitions) {
        this.definitions = definitions;
    }

    public static QueueDefinitions parse(String text) {
        List<Definition> out = new ArrayList<>();
        if (text == null) {
            return new QueueDefinitions(out);
        }
        for (String entry : text.split(";")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] words = trimmed.split("\\s+");
            if (words.length < 2) {
                throw bad(trimmed, "a definition is 'table <name> key=value ...' or 'queue <name> table=<table> ...'");
            }
            String kind = words[0].toLowerCase(Locale.ROOT);
            Set<String> allowed = switch (kind) {
                case "table" -> TABLE_KEYS;
                case "queue" -> QUEUE_KEYS;
                default -> throw bad(trimmed, "unknown kind '" + words[0] + "' (use table or queue)");
            };
            Map<String, String> settings = new LinkedHashMap<>();
            for (int i = 2; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq <= 0) {
                    throw bad(trimmed, "'" + words[i] + "' is not key=value");
                }
                String key = words[i].substring(0, eq).toLowerCase(Locale.ROOT);
                if (!allowed.contains(key)) {
                    throw bad(trimmed, "unknown setting '" + key + "' (known: " + String.join(", ", allowed) + ")");
                }
                settings.put(key, words[i].substring(eq + 1));
            }
            if (kind.equals("queue") && !settings.containsKey("table")) {
                throw bad(trimmed, "a queue needs table=<queue table>");
            }
            out.add(new Definition(kind, words[1], settings));
        }
        return new QueueDefinitions(out);
    }

    private static AqException bad(String entry, String why) {
        return new AqException(AqError.INVALID_VALUE, "Invalid queue definition '" + entry + "': " + why + ".");
    }

    /** Creates what is missing, in the order given, and starts the queues. */
    public void apply(QueueAdmin admin) {
        for (Definition d : definitions) {
            try {
                if (d.kind().equals("table")) {
                    if (exists(() -> admin.queueTable(d.name()))) {
                        continue;
                    }
                    admin.createQueueTable(d.name(), tableProperties(d));
                } else {
                    if (!exists(() -> admin.queue(d.name()))) {
                        admin.createQueue(d.name(), d.settings().get("table"), queueProperties(d));
                    }
                    boolean exception = admin.queue(d.name()).queueType() == QueueType.EXCEPTION;
                    admin.startQueue(d.name(), !exception, true);
                }
            } catch (AqException e) {
                throw new AqException(e.errorCode(), "Queue definition '" + d.kind() + " " + d.name() + "' failed: "
                        + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw bad(d.kind() + " " + d.name(), e.getMessage());
            }
        }
    }

    private static boolean exists(Runnable lookup) {
        try {
            lookup.run();
            return true;
        } catch (AqException e) {
            if (e.errorCode() == AqError.QUEUE_TABLE_NOT_FOUND || e.errorCode() == AqError.QUEUE_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    private static QueueTableProperties tableProperties(Definition d) {
        Map<String, String> s = d.settings();
        QueueTableProperties p = QueueTableProperties.create();
        if (s.containsKey("object_type")) {
            p.objectType(s.get("object_type"));
        } else if (s.containsKey("payload")) {
            p.payloadType(PayloadType.valueOf(s.get("payload").toUpperCase(Locale.ROOT)));
        }
        if (s.containsKey("sort")) {
            p.sortOrder(SortOrder.fromSortList(s.get("sort")));
        }
        if (s.containsKey("multiple_consumers")) {
            p.multipleConsumers(bool(s.get("multiple_consumers")));
        }
        if (s.containsKey("grouping")) {
            p.messageGrouping(MessageGrouping.valueOf(s.get("grouping").toUpperCase(Locale.ROOT)));
        }
        return p.comment(s.get("comment"));
    }

    private static QueueProperties queueProperties(Definition d) {
        Map<String, String> s = d.settings();
        QueueProperties p = QueueProperties.create();
        if (s.containsKey("max_retries")) {
            p.maxRetries(Integer.parseInt(s.get("max_retries")));
        }
        if (s.containsKey("retry_delay")) {
            p.retryDelay(Long.parseLong(s.get("retry_delay")));
        }
        if (s.containsKey("retention")) {
            String r = s.get("retention");
            p.retention(r.equalsIgnoreCase("INFINITE") ? QueueProperties.INFINITE : Long.parseLong(r));
        }
        if (s.containsKey("type")) {
            p.queueType(QueueType.valueOf(s.get("type").toUpperCase(Locale.ROOT)));
        }
        return p.comment(s.get("comment"));
    }

    private static boolean bool(String v) {
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("'" + v + "' is not true or false");
    }
}
