package io.aqueduct.connector;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DatabaseLinkInfo;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueuePrivilegeInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.api.SystemPrivilegeInfo;
import io.aqueduct.api.TransformationInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Queue tables, queues, subscribers, transformations, database links and propagation schedules
 * declared in the resource adapter's configuration, created (queues also started) when the adapter
 * starts if they do not exist yet, so that MDBs find their queues at deployment and propagation
 * runs from the start. Definitions are separated by {@code ;}; each is a kind, a name and
 * {@code key=value} settings, applied in the order given:
 *
 * <pre>
 * table OE.OE_orders_qtab payload=JSON sort=priority,enq_time multiple_consumers=false grouping=NONE;
 * queue OE.OE_bookedorders_que table=OE.OE_orders_qtab max_retries=4 retry_delay=43200 retention=0 type=NORMAL;
 * subscriber OE.OE_bookedorders_que name=WEST_SHIPPING rule="tab.user_data.region = 'WESTERN'";
 * transformation OE.TO_SHIPPING from=JSON to=JSON attribute.orderno="source.user_data.orderno";
 * subscriber OE.OE_bookedorders_que name=WS address=WS.WS_BOOKEDORDERS_QUE@SHIPPING transformation=OE.TO_SHIPPING;
 * link SHIPPING url=jdbc:postgresql://shiphost/aq user=aq password=secret;
 * schedule OE.OE_bookedorders_que destination=SHIPPING latency=0 duration=3600 next_time="SYSDATE + 1/24";
 * agent JOHN http=true smtp=false db_users=CBADM;
 * grant ENQUEUE queue=OE.OE_bookedorders_que to=CBADM grant_option=false;
 * grant ENQUEUE_ANY to=CBADM admin_option=false
 * </pre>
 *
 * A subscriber (of a multi-consumer queue) is added after its queue: {@code name}, optional
 * {@code address} and {@code protocol} (a remote subscriber), optional {@code rule} (none: every
 * message) and {@code transformation}. A transformation is {@code from} / {@code to} types and
 * either {@code function=<Transformer class>} or {@code attribute.<target attribute>=<expression>}
 * settings. A link is {@code url} (required), {@code user}, {@code password}. A schedule is for
 * its source queue and {@code destination} (a link; none: queues of this store), with {@code start}
 * (an ISO-8601 instant, when it is created; none: now), {@code duration} (s; none: no end),
 * {@code next_time} and {@code latency} (s; default 60, AQ's). An agent (DBMS_AQADM.CREATE_AQ_AGENT) takes
 * {@code http} and {@code smtp} ({@code true} / {@code false}, default false as AQ's) and {@code db_users}, a
 * comma-separated list of the database users it may act as (ENABLE_DB_ACCESS). A grant names a queue
 * privilege (ENQUEUE, DEQUEUE, ALL) with {@code queue}, {@code to} and optional {@code grant_option}, or a
 * system privilege (ENQUEUE_ANY, DEQUEUE_ANY, MANAGE_ANY) with {@code to} and optional
 * {@code admin_option}; {@code to} is a user or PUBLIC. Agent, user and grantee names are identifiers
 * (a letter, then letters, digits, {@code _ $ #}; at most 30 bytes). A value with spaces or {@code ;} is
 * written in double quotes ({@code ""} inside them is one {@code "}).
 *
 * <p>Existing tables, queues and subscribers (same name, address and protocol) are left as they
 * are; an existing transformation, link or schedule whose settings differ from its definition is
 * altered (one log line says so); one that another node of a shared store creates between the look
 * and the create counts as existing. Nothing is ever dropped. Each object created or altered is
 * logged at INFO. An existing agent keeps its HTTP and mail flags (a log line says when they differ from
 * the definition); the database users its definition names and it is not mapped to are mapped. A grant
 * that is held (from any grantor) is left as it is, except that a grant or admin option the definition
 * asks for is added; nothing is revoked. A malformed definition stops the adapter, before anything is created, with a
 * message that quotes it (passwords masked); one the store refuses stops it naming the definition.
 */
public final class QueueDefinitions {
    private static final Logger LOG = Logger.getLogger(QueueDefinitions.class.getName());
    private static final Set<String> TABLE_KEYS = Set.of("payload", "object_type", "sort", "multiple_consumers", "grouping", "comment");
    private static final Set<String> QUEUE_KEYS = Set.of("table", "max_retries", "retry_delay", "retention", "type", "comment");
    private static final Set<String> SUBSCRIBER_KEYS = Set.of("name", "address", "protocol", "rule", "transformation");
    /** A transformation's settings {@code attribute.<target attribute>=<expression>}. */
    private static final String ATTRIBUTE = "attribute.";
    private static final Set<String> TRANSFORMATION_KEYS = Set.of("from", "to", "function", ATTRIBUTE + "<name>");
    private static final Set<String> LINK_KEYS = Set.of("url", "user", "password");
    private static final Set<String> SCHEDULE_KEYS = Set.of("destination", "start", "duration", "next_time", "latency");
    private static final Set<String> AGENT_KEYS = Set.of("http", "smtp", "db_users");
    private static final Set<String> GRANT_KEYS = Set.of("queue", "to", "grant_option", "admin_option");
    /** AQ's unquoted names, as the engine checks agent, user and grantee names (upper-cased). */
    private static final Pattern IDENTIFIER = Pattern.compile("\\p{L}[\\p{L}\\p{N}_$#]*");
    private static final int IDENTIFIER_MAX_BYTES = 30;
    /** AQ's default latency of SCHEDULE_PROPAGATION, in seconds. */
    static final long DEFAULT_LATENCY_SECONDS = 60;
    private static final Pattern PASSWORD = Pattern.compile("(?i)(password\\s*=\\s*)(\"(?:[^\"]|\"\")*\"?|\\S+)");

    /**
     * One definition. {@code settings} keys are lower case, except the attribute names of a
     * transformation's {@code attribute.<name>} (kept as written: JSON members are case-sensitive).
     */
    private record Definition(String kind, String name, Map<String, String> settings, String text) {
        String label() {
            return kind + " " + name;
        }

        /** The text as logs show it: passwords masked. */
        String shown() {
            return redact(text);
        }
    }

    private final List<Definition> definitions;
    /** What the definitions are called in messages: "queue definition" or "database link definition". */
    private final String what;

    private QueueDefinitions(List<Definition> definitions, String what) {
        this.definitions = definitions;
        this.what = what;
    }

    /** Parses the {@code queueDefinitions} text (null or blank: nothing); 24097 naming a malformed definition. */
    public static QueueDefinitions parse(String text) {
        return parse(text, Set.of("table", "queue", "subscriber", "transformation", "link", "schedule", "agent", "grant"),
                "queue definition");
    }

    /**
     * Parses the {@code databaseLinks} text: {@code link} definitions only (the adapter keeps it in a
     * confidential property, for the passwords); 24097 naming a malformed one.
     */
    public static QueueDefinitions parseLinks(String text) {
        return parse(text, Set.of("link"), "database link definition");
    }

    private static QueueDefinitions parse(String text, Set<String> kinds, String what) {
        List<Definition> out = new ArrayList<>();
        if (text == null) {
            return new QueueDefinitions(out, what);
        }
        for (String entry : split(text, ';', text, what)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            List<String> words = words(trimmed);
            if (words.size() < 2) {
                throw bad(what, trimmed, kinds.size() == 1 ? "a definition is 'link <name> url=... user=... password=...'"
                        : "a definition is 'table <name> key=value ...', 'queue <name> table=<table> ...',"
                        + " 'subscriber <queue> name=<agent> rule=\"...\"', 'transformation <name> from=<type> to=<type> ...',"
                        + " 'link <name> url=...', 'schedule <queue> destination=<link> ...', 'agent <name> http=true"
                        + " db_users=<user>' or 'grant <privilege> queue=<queue> to=<user>'");
            }
            String kind = words.get(0).toLowerCase(Locale.ROOT);
            if (!kinds.contains(kind)) {
                throw bad(what, trimmed, "unknown kind '" + words.get(0) + "' (use " + String.join(", ", ordered(kinds)) + ")");
            }
            Set<String> allowed = switch (kind) {
                case "table" -> TABLE_KEYS;
                case "queue" -> QUEUE_KEYS;
                case "subscriber" -> SUBSCRIBER_KEYS;
                case "transformation" -> TRANSFORMATION_KEYS;
                case "link" -> LINK_KEYS;
                case "agent" -> AGENT_KEYS;
                case "grant" -> GRANT_KEYS;
                default -> SCHEDULE_KEYS;
            };
            Map<String, String> settings = new LinkedHashMap<>();
            for (int i = 2; i < words.size(); i++) {
                String word = words.get(i);
                int eq = word.indexOf('=');
                if (eq <= 0 || word.startsWith("\"")) {
                    throw bad(what, trimmed, "'" + word + "' is not key=value");
                }
                String key = word.substring(0, eq).toLowerCase(Locale.ROOT);
                if (kind.equals("transformation") && key.startsWith(ATTRIBUTE)) {
                    String attribute = word.substring(ATTRIBUTE.length(), eq);
                    if (attribute.isBlank()) {
                        throw bad(what, trimmed, "'" + word + "' names no attribute (attribute.<name>=<expression>)");
                    }
                    key = ATTRIBUTE + attribute;
                } else if (!allowed.contains(key)) {
                    throw bad(what, trimmed, "unknown setting '" + key + "' (known: " + String.join(", ", ordered(allowed)) + ")");
                }
                if (settings.containsKey(key)) {
                    throw bad(what, trimmed, "'" + key + "' is given twice");
                }
                settings.put(key, unquote(word.substring(eq + 1), trimmed, what));
            }
            check(kind, words.get(1), settings, trimmed, what);
            out.add(new Definition(kind, words.get(1), settings, trimmed));
        }
        return new QueueDefinitions(out, what);
    }

    /** What can be checked without the store, so that a mistake stops the adapter before anything is created. */
    private static void check(String kind, String name, Map<String, String> s, String entry, String what) {
        switch (kind) {
            case "agent" -> {
                identifier(name, "agent", entry, what);
                for (String key : List.of("http", "smtp")) {
                    if (s.containsKey(key)) {
                        flag(s.get(key), key, entry, what);
                    }
                }
                for (String user : dbUsers(s)) {
                    identifier(user, "database user", entry, what);
                }
            }
            case "grant" -> {
                String privilege = name.toUpperCase(Locale.ROOT);
                boolean onQueue = isOneOf(privilege, QueuePrivilege.values());
                if (!onQueue && !isOneOf(privilege, SystemPrivilege.values())) {
                    throw bad(what, entry, "'" + name + "' is no privilege (queue privileges: ENQUEUE, DEQUEUE, ALL with"
                            + " queue=<queue>; system privileges: ENQUEUE_ANY, DEQUEUE_ANY, MANAGE_ANY)");
                }
                if (s.get("to") == null || s.get("to").isBlank()) {
                    throw bad(what, entry, "a grant needs to=<user> (or to=PUBLIC)");
                }
                identifier(s.get("to"), "grantee", entry, what);
                if (onQueue && (s.get("queue") == null || s.get("queue").isBlank())) {
                    throw bad(what, entry, "a grant of " + privilege + " needs queue=<queue>");
                }
                if (onQueue && s.containsKey("admin_option")) {
                    throw bad(what, entry, "admin_option is for system privileges; a queue privilege takes grant_option");
                }
                if (!onQueue && s.containsKey("queue")) {
                    throw bad(what, entry, privilege + " is a system privilege (every queue): it takes no queue=");
                }
                if (!onQueue && s.containsKey("grant_option")) {
                    throw bad(what, entry, "grant_option is for queue privileges; a system privilege takes admin_option");
                }
                for (String key : List.of("grant_option", "admin_option")) {
                    if (s.containsKey(key)) {
                        flag(s.get(key), key, entry, what);
                    }
                }
            }
            case "queue" -> {
                if (!s.containsKey("table")) {
                    throw bad(what, entry, "a queue needs table=<queue table>");
                }
            }
            case "subscriber" -> {
                if (!s.containsKey("name") && !s.containsKey("address")) {
                    throw bad(what, entry, "a subscriber needs name=<agent name> (or address=<address>)");
                }
                if (s.containsKey("protocol")) {
                    wholeNumber(s.get("protocol"), "protocol", entry, what);
                }
            }
            case "transformation" -> {
                if (!s.containsKey("from") || !s.containsKey("to")) {
                    throw bad(what, entry, "a transformation needs from=<type> and to=<type> (RAW, TEXT, JSON, XML or a class name)");
                }
                boolean attributes = s.keySet().stream().anyMatch(k -> k.startsWith(ATTRIBUTE));
                if (s.containsKey("function") == attributes) {
                    throw bad(what, entry, "a transformation needs either function=<Transformer class> or"
                            + " attribute.<name>=<expression> settings, not both");
                }
            }
            case "link" -> {
                if (s.get("url") == null || s.get("url").isBlank()) {
                    throw bad(what, entry, "a link needs url=<JDBC URL or Derby store directory>");
                }
            }
            case "schedule" -> {
                if (s.containsKey("start")) {
                    try {
                        Instant.parse(s.get("start"));
                    } catch (DateTimeParseException e) {
                        throw bad(what, entry, "start=" + s.get("start") + " is not an ISO-8601 instant such as 2030-01-01T06:00:00Z");
                    }
                }
                if (s.containsKey("duration") && wholeNumber(s.get("duration"), "duration", entry, what) < 1) {
                    throw bad(what, entry, "duration is a number of seconds, 1 or more (none: a window without end)");
                }
                if (s.containsKey("latency")) {
                    wholeNumber(s.get("latency"), "latency", entry, what);
                }
                if (s.containsKey("next_time") && !s.containsKey("duration")) {
                    throw bad(what, entry, "next_time needs a duration (without one the window never ends)");
                }
            }
            default -> {
                // tables: their values are checked when the table is created
            }
        }
    }

    private static long wholeNumber(String value, String key, String entry, String what) {
        try {
            long n = Long.parseLong(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw bad(what, entry, key + "=" + value + " is not a whole number of 0 or more");
    }

    private static boolean flag(String value, String key, String entry, String what) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw bad(what, entry, key + "=" + value + " is not true or false");
    }

    private static void identifier(String name, String role, String entry, String what) {
        String upper = name.strip().toUpperCase(Locale.ROOT);
        if (!IDENTIFIER.matcher(upper).matches() || upper.getBytes(StandardCharsets.UTF_8).length > IDENTIFIER_MAX_BYTES) {
            throw bad(what, entry, "'" + name + "' is no valid " + role + " name (a letter, then letters, digits, _, $ or #;"
                    + " at most " + IDENTIFIER_MAX_BYTES + " bytes)");
        }
    }

    private static boolean isOneOf(String name, Enum<?>[] values) {
        return Arrays.stream(values).anyMatch(v -> v.name().equals(name));
    }

    /** An agent's {@code db_users}: comma-separated names (none: an empty list). */
    private static List<String> dbUsers(Map<String, String> s) {
        String list = s.get("db_users");
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::strip).toList();
    }

    private static List<String> ordered(Set<String> names) {
        return names.stream().sorted().toList();
    }

    /** Splits on {@code separator} outside double quotes (quotes are kept). */
    private static List<String> split(String text, char separator, String context, String what) {
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
            throw bad(what, context.trim(), "a double quote is not closed");
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
    private static String unquote(String value, String entry, String what) {
        if (!value.startsWith("\"")) {
            if (value.indexOf('"') >= 0) {
                throw bad(what, entry, "quote the whole value: '" + masked(value, entry) + "'");
            }
            return value;
        }
        if (value.length() < 2 || !value.endsWith("\"")) {
            throw bad(what, entry, "the value " + masked(value, entry) + " does not end with its closing double quote");
        }
        String inner = value.substring(1, value.length() - 1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '"') {
                if (i + 1 < inner.length() && inner.charAt(i + 1) == '"') {
                    i++;
                } else {
                    throw bad(what, entry, "a double quote inside " + masked(value, entry) + " is written \"\"");
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** A value shown in a message: hidden when it may be the password of the definition. */
    private static String masked(String value, String entry) {
        return redact(entry).contains(value) ? value : "***";
    }

    /** The definition text with every password value replaced by ***: messages and logs never show one. */
    static String redact(String text) {
        Matcher m = PASSWORD.matcher(text);
        return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + "***"));
    }

    private static AqException bad(String what, String entry, String why) {
        return new AqException(AqError.INVALID_VALUE, "Invalid " + what + " '" + redact(entry) + "': " + why + ".");
    }

    /** How many definitions there are. */
    public int size() {
        return definitions.size();
    }

    /** As {@link #apply(QueueAdmin, String)} for names whose schema is given, or unique without it. */
    public void apply(QueueAdmin admin) {
        apply(admin, null);
    }

    /**
     * Creates what is missing and alters what differs, in the order given, and starts the queues.
     * {@code defaultSchema} (the engine's) resolves transformation names given without a schema.
     */
    public void apply(QueueAdmin admin, String defaultSchema) {
        for (Definition d : definitions) {
            try {
                switch (d.kind()) {
                    case "table" -> table(admin, d);
                    case "queue" -> queue(admin, d);
                    case "subscriber" -> subscriber(admin, d, defaultSchema);
                    case "transformation" -> transformation(admin, d, defaultSchema, true);
                    case "link" -> link(admin, d, true);
                    case "agent" -> agent(admin, d, true);
                    case "grant" -> grant(admin, d, defaultSchema);
                    default -> schedule(admin, d, true);
                }
            } catch (AqException e) {
                throw new AqException(e.errorCode(), capitalized(what) + " '" + d.label() + "' failed: " + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw bad(what, d.label(), e.getMessage());
            }
        }
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static void table(QueueAdmin admin, Definition d) {
        if (!exists(() -> admin.queueTable(d.name()))
                && createdHere(() -> admin.createQueueTable(d.name(), tableProperties(d)), AqError.QUEUE_TABLE_EXISTS)) {
            LOG.info(() -> "Aqueduct created queue table " + d.name() + " (" + d.shown() + ")");
        }
    }

    private static void queue(QueueAdmin admin, Definition d) {
        if (!exists(() -> admin.queue(d.name()))
                && createdHere(() -> admin.createQueue(d.name(), d.settings().get("table"), queueProperties(d)),
                        AqError.QUEUE_EXISTS)) {
            LOG.info(() -> "Aqueduct created queue " + d.name() + " (" + d.shown() + ")");
        }
        boolean exception = admin.queue(d.name()).queueType() == QueueType.EXCEPTION;
        admin.startQueue(d.name(), !exception, true);
    }

    private static void subscriber(QueueAdmin admin, Definition d, String defaultSchema) {
        Agent agent = agent(d);
        String rule = d.settings().get("rule") == null || d.settings().get("rule").isBlank() ? null : d.settings().get("rule");
        String transformation = d.settings().get("transformation");
        SubscriberInfo existing = subscriberOf(admin, d.name(), agent);
        if (existing == null) {
            if (createdHere(() -> admin.addSubscriber(d.name(), agent, rule, transformation), AqError.SUBSCRIBER_EXISTS)) {
                LOG.info(() -> "Aqueduct added subscriber " + describe(agent) + " to queue " + d.name() + " (" + d.shown() + ")");
            }
        } else if (!Objects.equals(existing.rule(), rule)
                || !sameName(existing.transformation(), transformation, defaultSchema)) {
            LOG.info(() -> "Aqueduct subscriber " + describe(agent) + " of queue " + d.name() + " exists with rule "
                    + quoted(existing.rule()) + " and transformation " + quoted(existing.transformation())
                    + ", not those of its definition: left as it is (alterSubscriber changes it)");
        }
    }

    private static void transformation(QueueAdmin admin, Definition d, String defaultSchema, boolean firstTry) {
        Map<String, String> s = d.settings();
        Map<String, String> attributes = new LinkedHashMap<>();
        s.forEach((k, v) -> {
            if (k.startsWith(ATTRIBUTE)) {
                attributes.put(k.substring(ATTRIBUTE.length()), v);
            }
        });
        String function = s.get("function");
        TransformationInfo existing = null;
        for (TransformationInfo t : admin.transformations()) {
            if (sameName(t.qualifiedName(), d.name(), defaultSchema)) {
                existing = t;
            }
        }
        if (existing == null) {
            try {
                if (function != null) {
                    admin.createTransformation(d.name(), s.get("from"), s.get("to"), function);
                } else {
                    admin.createTransformation(d.name(), s.get("from"), s.get("to"), attributes);
                }
            } catch (AqException e) {
                if (e.errorCode() != AqError.TRANSFORMATION_EXISTS || !firstTry) {
                    throw e;
                }
                transformation(admin, d, defaultSchema, false); // another node of a shared store created it meanwhile
                return;
            }
            LOG.info(() -> "Aqueduct created transformation " + d.name() + " (" + d.shown() + ")");
            return;
        }
        if (!existing.fromType().equalsIgnoreCase(s.get("from").strip()) || !existing.toType().equalsIgnoreCase(s.get("to").strip())) {
            throw new AqException(AqError.INVALID_VALUE, "Transformation " + existing.qualifiedName() + " exists from "
                    + existing.fromType() + " to " + existing.toType() + ", not from " + s.get("from") + " to " + s.get("to")
                    + ": its types cannot be altered; drop it (and the subscribers using it) to define it anew.");
        }
        boolean same = function != null ? function.equals(existing.functionClass())
                : existing.functionClass() == null && attributes.equals(existing.attributes());
        if (!same) {
            if (function != null) {
                admin.modifyTransformation(d.name(), function);
            } else {
                admin.modifyTransformation(d.name(), attributes);
            }
            String name = existing.qualifiedName();
            LOG.info(() -> "Aqueduct altered transformation " + name + " to its definition (" + d.shown() + ")");
        }
    }

    /** {@code firstTry}: false when another node of a shared store created it between the look and the create. */
    private static void link(QueueAdmin admin, Definition d, boolean firstTry) {
        Map<String, String> s = d.settings();
        String name = d.name().strip().toUpperCase(Locale.ROOT);
        boolean exists = false;
        for (DatabaseLinkInfo l : admin.databaseLinks()) {
            exists |= l.name().equals(name);
        }
        String shown = d.shown();
        if (!exists) {
            try {
                admin.createDatabaseLink(d.name(), s.get("url"), s.get("user"), s.get("password"));
            } catch (AqException e) {
                if (e.errorCode() != AqError.DATABASE_LINK_EXISTS || !firstTry) {
                    throw e;
                }
                link(admin, d, false);
                return;
            }
            LOG.info(() -> "Aqueduct created database link " + name + " (" + shown + ")");
        } else if (admin.alterDatabaseLink(d.name(), s.get("url"), s.get("user"), s.get("password"))) {
            LOG.info(() -> "Aqueduct altered database link " + name + " to its definition (" + shown + "): propagation"
                    + " connects with the new settings from its next batch");
        }
    }

    private static void schedule(QueueAdmin admin, Definition d, boolean firstTry) {
        Map<String, String> s = d.settings();
        String destination = s.get("destination");
        Instant start = s.containsKey("start") ? Instant.parse(s.get("start")) : null;
        Long duration = s.containsKey("duration") ? Long.valueOf(s.get("duration")) : null;
        String nextTime = s.get("next_time");
        long latency = s.containsKey("latency") ? Long.parseLong(s.get("latency")) : DEFAULT_LATENCY_SECONDS;
        PropagationSchedule existing;
        try {
            existing = admin.propagationSchedule(d.name(), destination);
        } catch (AqException e) {
            if (e.errorCode() != AqError.SCHEDULE_NOT_FOUND) {
                throw e;
            }
            existing = null;
        }
        String to = destination == null ? "this store's queues" : destination;
        if (existing == null) {
            try {
                admin.schedulePropagation(d.name(), destination, start, duration, nextTime, latency);
            } catch (AqException e) {
                if (e.errorCode() != AqError.SCHEDULE_EXISTS || !firstTry) {
                    throw e;
                }
                schedule(admin, d, false);
                return;
            }
            LOG.info(() -> "Aqueduct scheduled propagation from queue " + d.name() + " to " + to + " (" + d.shown() + ")");
            return;
        }
        if (!Objects.equals(existing.windowSeconds(), duration) || !Objects.equals(existing.nextTime(), nextTime)
                || existing.latencySeconds() != latency) {
            admin.alterPropagationSchedule(d.name(), destination, duration, nextTime, latency);
            PropagationSchedule was = existing;
            LOG.info(() -> "Aqueduct altered the propagation schedule from queue " + d.name() + " to " + to
                    + " to its definition (" + d.shown() + "); it had duration=" + was.windowSeconds() + " next_time="
                    + quoted(was.nextTime()) + " latency=" + was.latencySeconds());
        }
        if (start != null && !start.equals(existing.startTime())) {
            PropagationSchedule was = existing;
            LOG.info(() -> "Aqueduct propagation schedule from queue " + d.name() + " to " + to + " keeps its start "
                    + was.startTime() + ": start=" + s.get("start") + " applies when a schedule is created"
                    + " (unschedule it to start it anew)");
        }
        if (existing.disabled()) {
            PropagationSchedule was = existing;
            LOG.warning(() -> "Aqueduct propagation schedule from queue " + d.name() + " to " + to + " is disabled"
                    + (was.lastErrorMessage() == null ? "" : " (last error: " + was.lastErrorMessage() + ")")
                    + ": it propagates nothing until enabled (enablePropagationSchedule)");
        }
    }

    /** {@code firstTry}: false when another node of a shared store created the agent between the look and the create. */
    private static void agent(QueueAdmin admin, Definition d, boolean firstTry) {
        Map<String, String> s = d.settings();
        String name = d.name().strip().toUpperCase(Locale.ROOT);
        boolean http = s.containsKey("http") && Boolean.parseBoolean(s.get("http"));
        boolean smtp = s.containsKey("smtp") && Boolean.parseBoolean(s.get("smtp"));
        AqAgentInfo existing = agentOf(admin, name);
        if (existing == null) {
            try {
                admin.createAqAgent(name, http, smtp);
            } catch (AqException e) {
                if (e.errorCode() != AqError.AGENT_EXISTS || !firstTry) {
                    throw e;
                }
                agent(admin, d, false);
                return;
            }
            LOG.info(() -> "Aqueduct created AQ agent " + name + " (" + d.shown() + ")");
        } else if ((s.containsKey("http") && existing.httpEnabled() != http)
                || (s.containsKey("smtp") && existing.smtpEnabled() != smtp)) {
            LOG.info(() -> "Aqueduct AQ agent " + name + " exists with http=" + existing.httpEnabled() + " smtp="
                    + existing.smtpEnabled() + ", not those of its definition: left as it is (alterAqAgent changes it)");
        }
        List<String> mapped = existing == null ? List.of() : existing.dbUsers();
        for (String user : dbUsers(s)) {
            String upper = user.toUpperCase(Locale.ROOT);
            if (!mapped.contains(upper)) {
                admin.enableDbAccess(name, upper); // mapping again changes nothing: a node racing this one is harmless
                LOG.info(() -> "Aqueduct mapped AQ agent " + name + " to database user " + upper + " (" + d.shown() + ")");
            }
        }
    }

    private static AqAgentInfo agentOf(QueueAdmin admin, String name) {
        for (AqAgentInfo a : admin.aqAgents()) {
            if (a.name().equalsIgnoreCase(name)) {
                return a;
            }
        }
        return null;
    }

    /** Grants what is not held yet (granting again is harmless: the engine keeps one grant and adds an option). */
    private static void grant(QueueAdmin admin, Definition d, String defaultSchema) {
        Map<String, String> s = d.settings();
        String privilege = d.name().strip().toUpperCase(Locale.ROOT);
        String grantee = s.get("to").strip().toUpperCase(Locale.ROOT);
        if (isOneOf(privilege, SystemPrivilege.values())) {
            SystemPrivilege p = SystemPrivilege.valueOf(privilege);
            boolean adminOption = s.containsKey("admin_option") && Boolean.parseBoolean(s.get("admin_option"));
            boolean held = admin.systemPrivileges().stream().anyMatch(g -> g.grantee().equals(grantee) && g.privilege() == p
                    && (g.adminOption() || !adminOption));
            if (!held) {
                admin.grantSystemPrivilege(p, grantee, adminOption);
                LOG.info(() -> "Aqueduct granted " + privilege + " to " + grantee + " (" + d.shown() + ")");
            }
            return;
        }
        QueuePrivilege p = QueuePrivilege.valueOf(privilege);
        String queue = s.get("queue");
        boolean grantOption = s.containsKey("grant_option") && Boolean.parseBoolean(s.get("grant_option"));
        boolean enqueue = false;
        boolean dequeue = false;
        for (QueuePrivilegeInfo g : admin.queuePrivileges()) {
            if (g.grantee().equals(grantee) && sameName(g.owner() + "." + g.queue(), queue, defaultSchema)) {
                enqueue |= g.enqueue() && (g.enqueueGrantable() || !grantOption);
                dequeue |= g.dequeue() && (g.dequeueGrantable() || !grantOption);
            }
        }
        boolean held = switch (p) {
            case ENQUEUE -> enqueue;
            case DEQUEUE -> dequeue;
            case ALL -> enqueue && dequeue;
        };
        if (!held) {
            admin.grantQueuePrivilege(p, queue, grantee, grantOption);
            LOG.info(() -> "Aqueduct granted " + privilege + " on queue " + queue + " to " + grantee + " (" + d.shown() + ")");
        }
    }

    private static String quoted(String s) {
        return s == null ? "none" : "\"" + s + "\"";
    }

    private static String describe(Agent a) {
        return a.name() == null ? "at " + a.address() : a.name() + (a.address() == null ? "" : " at " + a.address());
    }

    /**
     * Whether two names of a schema object are the same: {@code stored} qualified, {@code given} as
     * written (without a schema: in {@code defaultSchema}, or any schema when that is unknown).
     */
    private static boolean sameName(String stored, String given, String defaultSchema) {
        if (stored == null || given == null) {
            return stored == null && given == null;
        }
        String s = stored.strip().toUpperCase(Locale.ROOT);
        String g = given.strip().toUpperCase(Locale.ROOT);
        if (g.indexOf('.') >= 0) {
            return s.equals(g);
        }
        if (defaultSchema != null) {
            return s.equals(defaultSchema.toUpperCase(Locale.ROOT) + "." + g);
        }
        return s.endsWith("." + g);
    }

    private static Agent agent(Definition d) {
        Map<String, String> s = d.settings();
        int protocol = s.containsKey("protocol") ? Integer.parseInt(s.get("protocol")) : 0;
        return new Agent(s.get("name"), s.get("address"), protocol);
    }

    /** The subscriber with the same name (case-insensitive), address and protocol, or null. */
    private static SubscriberInfo subscriberOf(QueueAdmin admin, String queue, Agent agent) {
        for (SubscriberInfo s : admin.subscribers(queue)) {
            Agent a = s.agent();
            boolean sameName = a.name() == null ? agent.name() == null : a.name().equalsIgnoreCase(agent.name());
            if (sameName && Objects.equals(a.address(), agent.address()) && a.protocol() == agent.protocol()) {
                return s;
            }
        }
        return null;
    }

    /**
     * Creates; false when another node of a shared store created the same object meanwhile (nodes starting
     * together apply the same definitions): it exists, as wanted.
     */
    private static boolean createdHere(Runnable create, int existsError) {
        try {
            create.run();
            return true;
        } catch (AqException e) {
            if (e.errorCode() != existsError) {
                throw e;
            }
            return false;
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
