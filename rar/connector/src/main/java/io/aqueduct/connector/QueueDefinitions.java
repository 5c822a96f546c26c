package io.aqueduct.connector;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
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
 * queue OE.OE_bookedorders_que table=OE.OE_orders_qtab max_retries=4 retry_delay=43200 retention=0 type=NORMAL;
 * subscriber OE.OE_bookedorders_que name=WEST_SHIPPING rule="tab.user_data.region = 'WESTERN'"
 * </pre>
 *
 * A subscriber (of a multi-consumer queue) is added after its queue: {@code name}, optional
 * {@code address} and {@code protocol}, optional {@code rule} (none: every message). A value with
 * spaces or {@code ;} is written in double quotes ({@code ""} inside them is one {@code "}).
 * Existing objects (a subscriber with the same name, address and protocol included) are left as
 * they are. A malformed definition stops the adapter with a message that names it.
 */
public final class QueueDefinitions {
    private static final Set<String> TABLE_KEYS = Set.of("payload", "object_type", "sort", "multiple_consumers", "grouping", "comment");
    private static final Set<String> QUEUE_KEYS = Set.of("table", "max_retries", "retry_delay", "retention", "type", "comment");
    private static final Set<String> SUBSCRIBER_KEYS = Set.of("name", "address", "protocol", "rule");

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
        for (String entry : split(text, ';', text)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            List<String> words = words(trimmed);
            if (words.size() < 2) {
                throw bad(trimmed, "a definition is 'table <name> key=value ...', 'queue <name> table=<table> ...'"
                        + " or 'subscriber <queue> name=<agent> rule=\"...\"'");
            }
            String kind = words.get(0).toLowerCase(Locale.ROOT);
            Set<String> allowed = switch (kind) {
                case "table" -> TABLE_KEYS;
                case "queue" -> QUEUE_KEYS;
                case "subscriber" -> SUBSCRIBER_KEYS;
                default -> throw bad(trimmed, "unknown kind '" + words.get(0) + "' (use table, queue or subscriber)");
            };
            Map<String, String> settings = new LinkedHashMap<>();
            for (int i = 2; i < words.size(); i++) {
                String word = words.get(i);
                int eq = word.indexOf('=');
                if (eq <= 0 || word.startsWith("\"")) {
                    throw bad(trimmed, "'" + word + "' is not key=value");
                }
                String key = word.substring(0, eq).toLowerCase(Locale.ROOT);
                if (!allowed.contains(key)) {
                    throw bad(trimmed, "unknown setting '" + key + "' (known: " + String.join(", ", allowed) + ")");
                }
                settings.put(key, unquote(word.substring(eq + 1), trimmed));
            }
            if (kind.equals("queue") && !settings.containsKey("table")) {
                throw bad(trimmed, "a queue needs table=<queue table>");
            }
            if (kind.equals("subscriber") && !settings.containsKey("name") && !settings.containsKey("address")) {
                throw bad(trimmed, "a subscriber needs name=<agent name> (or address=<address>)");
            }
            out.add(new Definition(kind, words.get(1), settings));
        }
        return new QueueDefinitions(out);
    }

    /** Splits on {@code separator} outside double quotes (quotes are kept). */
    private static List<String> split(String text, char separator, String context) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted; // "" inside quotes closes and reopens: the text is kept as is
            }
            if (c == separator && !quoted) {
                out.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (quoted) {
            throw bad(context.trim(), "a double quote is not closed");
        }
        out.add(current.toString());
        return out;
    }

    /** The whitespace-separated words of a definition; whitespace inside double quotes belongs to the word. */
    private static List<String> words(String entry) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < entry.length(); i++) {
            char c = entry.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            if (Character.isWhitespace(c) && !quoted) {
                if (current.length() > 0) {
                    out.add(current.toString());
                    current.setLength(0);
                }
            } else {
                current.append(c);
            }
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    /** A value as written: {@code "..."} loses its quotes ({@code ""} inside is one quote); else as is. */
    private static String unquote(String value, String entry) {
        if (!value.startsWith("\"")) {
            if (value.indexOf('"') >= 0) {
                throw bad(entry, "quote the whole value: '" + value + "'");
            }
            return value;
        }
        if (value.length() < 2 || !value.endsWith("\"")) {
            throw bad(entry, "the value " + value + " does not end with its closing double quote");
        }
        String inner = value.substring(1, value.length() - 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '"') {
                if (i + 1 < inner.length() && inner.charAt(i + 1) == '"') {
                    i++;
                } else {
                    throw bad(entry, "a double quote inside " + value + " is written \"\"");
                }
            }
            sb.append(c);
        }
        return sb.toString();
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
                } else if (d.kind().equals("subscriber")) {
                    Agent agent = agent(d);
                    if (!isSubscribed(admin, d.name(), agent)) {
                        admin.addSubscriber(d.name(), agent, d.settings().get("rule"));
                    }
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

    private static Agent agent(Definition d) {
        Map<String, String> s = d.settings();
        int protocol = s.containsKey("protocol") ? Integer.parseInt(s.get("protocol")) : 0;
        return new Agent(s.get("name"), s.get("address"), protocol);
    }

    /** A subscriber with the same name (case-insensitive), address and protocol is already there. */
    private static boolean isSubscribed(QueueAdmin admin, String queue, Agent agent) {
        for (SubscriberInfo s : admin.subscribers(queue)) {
            Agent a = s.agent();
            boolean sameName = a.name() == null ? agent.name() == null : a.name().equalsIgnoreCase(agent.name());
            if (sameName && java.util.Objects.equals(a.address(), agent.address()) && a.protocol() == agent.protocol()) {
                return true;
            }
        }
        return false;
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
