package io.aqueduct.jms.jndi;

import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStores;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.jms.client.Users;
import io.aqueduct.jms.destination.AqueductDestination;
import jakarta.jms.InvalidDestinationException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.naming.ConfigurationException;

/**
 * A JNDI environment read and checked, with no side effect: the store's properties, the connection
 * factories, the destinations and the users it declares. Anything wrong is a
 * {@link ConfigurationException} naming the property.
 */
final class JndiEnvironment {
    static final String CONNECTION_FACTORY = "connectionFactory.";
    static final String XA_CONNECTION_FACTORY = "xaConnectionFactory.";
    static final String QUEUE = "queue.";
    static final String TOPIC = "topic.";
    static final String USER = "user.";
    static final String JMS_PREFIX = "aqueduct.jms.";
    static final String DEFAULT_USER = "aqueduct.jms.defaultUser";
    static final String DYNAMIC_QUEUES = "dynamicQueues/";
    static final String DYNAMIC_TOPICS = "dynamicTopics/";
    static final String DEFAULT_FACTORY = "ConnectionFactory";
    static final String DEFAULT_XA_FACTORY = "XAConnectionFactory";

    /** The properties a declared destination may have, after {@code queue.<name>.} / {@code topic.<name>.}. */
    static final List<String> DESTINATION_ATTRIBUTES = List.of("create", "queueTable", "sortOrder", "maxRetries",
            "retryDelay", "retention");
    /** The options of a connection factory's value. */
    static final List<String> FACTORY_OPTIONS = List.of("clientId", "user");

    /** A connection factory to bind. */
    record Factory(String jndiName, boolean xa, String clientId, String user) {
    }

    /**
     * A destination to bind; with {@code create}, the AQ queue (and its queue table) is created at
     * the first lookup when missing, with these properties.
     */
    record Destination(String jndiName, boolean topic, String aqName, boolean create, String queueTable,
            QueueTableProperties tableProperties, QueueProperties queueProperties) {
    }

    final Map<String, String> storeProperties;
    final Map<String, Factory> factories;
    final Map<String, Destination> destinations;
    final Map<String, String> passwords;
    final String defaultUser;

    private JndiEnvironment(Map<String, String> storeProperties, Map<String, Factory> factories,
            Map<String, Destination> destinations, Map<String, String> passwords, String defaultUser) {
        this.storeProperties = storeProperties;
        this.factories = factories;
        this.destinations = destinations;
        this.passwords = passwords;
        this.defaultUser = defaultUser;
    }

    /** Who may connect through a factory whose own default user is {@code factoryUser} (null: the context's). */
    Users users(String factoryUser) {
        String d = factoryUser != null ? factoryUser : defaultUser;
        return passwords.isEmpty() ? Users.anyone(d) : Users.of(passwords, d);
    }

    static JndiEnvironment parse(Hashtable<?, ?> environment) throws ConfigurationException {
        Map<String, String> ours = new TreeMap<>();
        Map<String, String> store = new HashMap<>();
        if (environment != null) {
            for (Map.Entry<?, ?> e : environment.entrySet()) {
                if (!(e.getKey() instanceof String key) || !isOurs(key)) {
                    continue; // java.naming.* and anything else another layer put in the environment
                }
                if (!(e.getValue() instanceof String value)) {
                    throw configuration("The property " + key + " must be a string; it is "
                            + (e.getValue() == null ? "null" : "a " + e.getValue().getClass().getName()) + ".");
                }
                if (key.startsWith(AqStores.PREFIX) && !key.startsWith(JMS_PREFIX)) {
                    store.put(key, value);
                } else {
                    ours.put(key, value);
                }
            }
        }
        Map<String, String> storeProperties;
        try {
            storeProperties = AqStores.checkProperties(store);
        } catch (AqException e) {
            throw configuration(e.getMessage(), e);
        }

        String defaultUser = null;
        Map<String, String> passwords = new TreeMap<>();
        Map<String, String> factoryValues = new TreeMap<>();
        Map<String, Boolean> factoryXa = new HashMap<>();
        Map<String, String> queueKeys = new TreeMap<>();
        Map<String, String> topicKeys = new TreeMap<>();
        for (Map.Entry<String, String> e : ours.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.startsWith(JMS_PREFIX)) {
                if (!key.equals(DEFAULT_USER)) {
                    throw configuration("Unknown property " + key + ": the aqueduct.jms. property is " + DEFAULT_USER
                            + " (the store's are " + String.join(", ", AqStores.PROPERTIES) + ").");
                }
                defaultUser = value.isBlank() ? null : value.trim();
            } else if (key.startsWith(USER)) {
                String rest = key.substring(USER.length());
                if (!rest.endsWith(".password") || rest.length() == ".password".length()) {
                    throw configuration("Unknown property " + key + ": a user is declared as user.<name>.password = <password>.");
                }
                passwords.put(rest.substring(0, rest.length() - ".password".length()), value);
            } else if (key.startsWith(CONNECTION_FACTORY) || key.startsWith(XA_CONNECTION_FACTORY)) {
                boolean xa = key.startsWith(XA_CONNECTION_FACTORY);
                String name = jndiName(key, key.substring((xa ? XA_CONNECTION_FACTORY : CONNECTION_FACTORY).length()));
                if (factoryXa.containsKey(name)) {
                    throw configuration("The name '" + name + "' is declared twice: as " + CONNECTION_FACTORY + name
                            + " and as " + XA_CONNECTION_FACTORY + name + ".");
                }
                factoryXa.put(name, xa);
                factoryValues.put(name, value);
            } else if (key.startsWith(QUEUE)) {
                queueKeys.put(key.substring(QUEUE.length()), value);
            } else {
                topicKeys.put(key.substring(TOPIC.length()), value);
            }
        }

        Map<String, Factory> factories = new LinkedHashMap<>();
        for (Map.Entry<String, String> f : factoryValues.entrySet()) {
            boolean xa = factoryXa.get(f.getKey());
            factories.put(f.getKey(), factory(f.getKey(), xa, f.getValue()));
        }
        if (factories.isEmpty()) {
            // as Artemis and Qpid do: a context that declares no factory still gives the usual ones
            factories.put(DEFAULT_FACTORY, new Factory(DEFAULT_FACTORY, false, null, null));
            factories.put(DEFAULT_XA_FACTORY, new Factory(DEFAULT_XA_FACTORY, true, null, null));
        }

        Map<String, Destination> destinations = new LinkedHashMap<>();
        destinations(QUEUE, false, queueKeys, destinations);
        destinations(TOPIC, true, topicKeys, destinations);
        for (String name : destinations.keySet()) {
            if (factories.containsKey(name)) {
                throw configuration("The name '" + name + "' is declared twice: as a connection factory and as a "
                        + (destinations.get(name).topic() ? "topic" : "queue") + ".");
            }
        }

        JndiEnvironment env = new JndiEnvironment(storeProperties, Collections.unmodifiableMap(factories),
                Collections.unmodifiableMap(destinations), Collections.unmodifiableMap(passwords), defaultUser);
        // the users are checked now, not at the first lookup: a default user that is not declared
        for (Factory f : factories.values()) {
            try {
                env.users(f.user());
            } catch (IllegalArgumentException e) {
                throw configuration(e.getMessage() + (f.user() != null ? " (option user of " + f.jndiName() + ")"
                        : " (" + DEFAULT_USER + ")"), e);
            }
        }
        return env;
    }

    private static boolean isOurs(String key) {
        return key.startsWith(AqStores.PREFIX) || key.startsWith(CONNECTION_FACTORY) || key.startsWith(XA_CONNECTION_FACTORY)
                || key.startsWith(QUEUE) || key.startsWith(TOPIC) || key.startsWith(USER);
    }

    /** A name to bind: not empty, not under the dynamic prefixes. */
    private static String jndiName(String key, String name) throws ConfigurationException {
        if (name.isBlank()) {
            throw configuration("The property " + key + " names nothing: write " + key + "<jndi name>.");
        }
        if (name.startsWith(DYNAMIC_QUEUES) || name.startsWith(DYNAMIC_TOPICS)) {
            throw configuration("The property " + key + " declares a name under " + DYNAMIC_QUEUES + " or " + DYNAMIC_TOPICS
                    + ", which are kept for destinations looked up by their AQ name.");
        }
        return name;
    }

    /** {@code clientId=orders-app; user=CLERK}: options separated by ';' (empty: none). */
    private static Factory factory(String name, boolean xa, String value) throws ConfigurationException {
        String key = (xa ? XA_CONNECTION_FACTORY : CONNECTION_FACTORY) + name;
        Map<String, String> options = new HashMap<>();
        for (String part : value.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String option = eq < 0 ? part.trim() : part.substring(0, eq).trim();
            if (eq < 0 || !FACTORY_OPTIONS.contains(option)) {
                throw configuration("The property " + key + " has '" + part.trim() + "': its value is options"
                        + " option=value separated by ';', the options being " + String.join(", ", FACTORY_OPTIONS) + ".");
            }
            String v = part.substring(eq + 1).trim();
            if (v.isEmpty()) {
                throw configuration("The option " + option + " of " + key + " is empty: give it a value or leave it out.");
            }
            if (options.put(option, v) != null) {
                throw configuration("The option " + option + " of " + key + " is given twice.");
            }
        }
        return new Factory(name, xa, options.get("clientId"), options.get("user"));
    }

    /**
     * The destinations of one kind. {@code queue.<name>.<attribute>} is an attribute when
     * {@code queue.<name>} is declared and the attribute is one of {@link #DESTINATION_ATTRIBUTES};
     * any other key is a JNDI name (names may hold dots).
     */
    private static void destinations(String prefix, boolean topic, Map<String, String> keys,
            Map<String, Destination> out) throws ConfigurationException {
        String kind = topic ? "topic" : "queue";
        Map<String, Map<String, String>> attributes = new TreeMap<>();
        List<String> names = new ArrayList<>();
        for (String rest : keys.keySet()) {
            int dot = rest.lastIndexOf('.');
            String base = dot < 0 ? null : rest.substring(0, dot);
            String last = dot < 0 ? null : rest.substring(dot + 1);
            if (base != null && keys.containsKey(base)) {
                if (!DESTINATION_ATTRIBUTES.contains(last)) {
                    throw configuration("Unknown property " + prefix + rest + ": the properties of " + prefix + base
                            + " are " + String.join(", ", DESTINATION_ATTRIBUTES) + ".");
                }
                attributes.computeIfAbsent(base, b -> new HashMap<>()).put(last, keys.get(rest));
            } else if (base != null && DESTINATION_ATTRIBUTES.contains(last)) {
                throw configuration("The property " + prefix + rest + " belongs to " + prefix + base
                        + ", which is not declared: add " + prefix + base + " = <AQ queue name>.");
            } else {
                names.add(rest);
            }
        }
        for (String name : names) {
            String key = prefix + name;
            jndiName(key, name);
            if (out.containsKey(name)) {
                throw configuration("The name '" + name + "' is declared twice: as queue." + name + " and as topic." + name + ".");
            }
            String aqName;
            try {
                aqName = AqueductDestination.checkName(keys.get(name));
            } catch (InvalidDestinationException e) {
                throw configuration("The property " + key + ": " + e.getMessage(), e);
            }
            out.put(name, destination(key, name, topic, kind, aqName, attributes.getOrDefault(name, Map.of())));
        }
    }

    private static Destination destination(String key, String name, boolean topic, String kind, String aqName,
            Map<String, String> a) throws ConfigurationException {
        String create = a.get("create");
        boolean creates = create != null && bool(key + ".create", create);
        if (!creates) {
            List<String> given = new ArrayList<>(a.keySet());
            given.remove("create");
            if (!given.isEmpty()) {
                Collections.sort(given);
                throw configuration("The properties " + String.join(", ", given) + " of " + key
                        + " say how to create the queue: add " + key + ".create = true (an existing queue is used as it is).");
            }
            return new Destination(name, topic, aqName, false, null, null, null);
        }
        String table = a.get("queueTable");
        if (table == null) {
            table = derivedQueueTable(key, aqName);
        } else {
            try {
                table = AqueductDestination.checkName(table);
            } catch (InvalidDestinationException e) {
                throw configuration("The property " + key + ".queueTable: " + e.getMessage()
                        .replace("AQ queue name", "AQ queue table name"), e);
            }
        }
        // a JMS Queue is a single-consumer queue, a Topic a multi-consumer one; the JMS codec's bytes are RAW
        QueueTableProperties tp = QueueTableProperties.create().payloadType(io.aqueduct.api.PayloadType.RAW)
                .multipleConsumers(topic).sortOrder(SortOrder.PRIORITY_ENQ_TIME)
                .comment("JMS " + kind + " " + name + " (JNDI)");
        QueueProperties qp = QueueProperties.create();
        try {
            String sort = a.get("sortOrder");
            if (sort != null) {
                tp.sortOrder(sortOrder(key + ".sortOrder", sort));
            }
            if (a.containsKey("maxRetries")) {
                qp.maxRetries((int) number(key + ".maxRetries", a.get("maxRetries"), Integer.MAX_VALUE));
            }
            if (a.containsKey("retryDelay")) {
                qp.retryDelay(number(key + ".retryDelay", a.get("retryDelay"), Long.MAX_VALUE));
            }
            if (a.containsKey("retention")) {
                String r = a.get("retention").trim();
                qp.retention(r.equalsIgnoreCase("INFINITE") ? QueueProperties.INFINITE : number(key + ".retention", r, Long.MAX_VALUE));
            }
        } catch (AqException e) {
            throw configuration("A property of " + key + " is refused: " + e.getMessage(), e);
        }
        return new Destination(name, topic, aqName, true, table, tp, qp);
    }

    /** {@code [schema.]<queue>_QT}: the queue's own table, so that queue and topic never share one by accident. */
    private static String derivedQueueTable(String key, String aqName) throws ConfigurationException {
        int dot = aqName.indexOf('.');
        String queue = dot < 0 ? aqName : aqName.substring(dot + 1);
        if (queue.length() + 3 > 24) {
            throw configuration("The queue table of " + key + " would be " + queue + "_QT, longer than AQ's 24 characters:"
                    + " name it with " + key + ".queueTable.");
        }
        return aqName + "_QT";
    }

    private static SortOrder sortOrder(String key, String value) throws ConfigurationException {
        String v = value.trim();
        for (SortOrder o : SortOrder.values()) {
            if (o.name().equalsIgnoreCase(v)) {
                return o;
            }
        }
        try {
            return SortOrder.fromSortList(v); // AQ's spelling, priority,enq_time
        } catch (AqException e) {
            throw configuration("The property " + key + " is '" + value + "': use PRIORITY_ENQ_TIME (the default), ENQ_TIME"
                    + " or ENQ_TIME_PRIORITY.", e);
        }
    }

    private static long number(String key, String value, long max) throws ConfigurationException {
        try {
            long n = Long.parseLong(value.trim());
            if (n >= 0 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw configuration("The property " + key + " is '" + value + "': give a whole number, 0 or more"
                + (max == Integer.MAX_VALUE ? " (at most " + max + ")" : "") + ".");
    }

    private static boolean bool(String key, String value) throws ConfigurationException {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return v.equals("true");
        }
        throw configuration("The property " + key + " is true or false; got '" + value + "'.");
    }

    static ConfigurationException configuration(String message) {
        return new ConfigurationException(message);
    }

    static ConfigurationException configuration(String message, Throwable cause) {
        ConfigurationException e = new ConfigurationException(message);
        e.setRootCause(cause);
        return e;
    }
}
