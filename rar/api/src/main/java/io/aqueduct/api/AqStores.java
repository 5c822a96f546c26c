package io.aqueduct.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Opens an Aqueduct store from properties, for code that does not compile against the engine (the
 * JMS provider's JNDI context, a program configured by a file). The engine ({@code aqueduct-engine})
 * must be on the class path: it is found with {@link ServiceLoader} as an {@link AqStoreProvider}.
 *
 * <table>
 * <caption>Properties (keys outside {@code aqueduct.} are ignored; an unknown {@code aqueduct.} key is an error)</caption>
 * <tr><td>{@value #STORE_DIRECTORY}</td><td>a durable embedded Derby store in this directory (created if missing)</td></tr>
 * <tr><td>{@value #STORE_MEMORY}</td><td>an in-memory Derby store of this name (tests)</td></tr>
 * <tr><td>{@value #STORE_URL}</td><td>the store at a JDBC URL: PostgreSQL, MariaDB (shared by several JVMs) or Derby</td></tr>
 * <tr><td>{@value #STORE_USER}, {@value #STORE_PASSWORD}</td><td>the database login for {@value #STORE_URL}</td></tr>
 * <tr><td>{@value #USER}</td><td>the AQ user of sessions that name none (default: the JVM's user.name); an administrator</td></tr>
 * <tr><td>{@value #ADMINISTRATORS}</td><td>comma-separated users who hold every system privilege besides {@value #USER} (see docs/security.md)</td></tr>
 * <tr><td>{@value #SCHEMA}</td><td>the schema of queue names given without one (default: the store's)</td></tr>
 * <tr><td>{@value #MAX_PAYLOAD_BYTES}</td><td>the largest payload accepted, in stored bytes (default 64 MiB)</td></tr>
 * <tr><td>{@value #MAX_BUFFERED_BYTES}</td><td>the memory buffered messages may take, in bytes (default 64 MiB; docs/buffered.md)</td></tr>
 * <tr><td>{@value #BUFFERED_ENQUEUE_WAIT_MILLIS}</td><td>how long a buffered enqueue waits for that memory before 25307 (default 5000 ms; 0: at once)</td></tr>
 * <tr><td>{@value #DESERIALIZATION_FILTER}</td><td>classes OBJECT payloads may (or may not) hold beyond the default, ObjectInputFilter syntax</td></tr>
 * <tr><td>{@value #TIME_MANAGER}</td><td>{@code true} (default) or {@code false}: whether delays, expiration and retry delays are applied by a background thread</td></tr>
 * <tr><td>{@value #MAIL_HOST}, {@value #MAIL_PORT}</td><td>the SMTP server of mailto: notifications (port default 25)</td></tr>
 * <tr><td>{@value #MAIL_FROM}</td><td>the sender address of mailto: notifications</td></tr>
 * <tr><td>{@value #MAIL_USER}, {@value #MAIL_PASSWORD}</td><td>the SMTP login (none by default)</td></tr>
 * <tr><td>{@value #MAIL_STARTTLS}</td><td>{@code true} or {@code false} (default): whether the SMTP connection must be upgraded with STARTTLS</td></tr>
 * </table>
 *
 * <p>At most one of directory, memory and URL; with none, the engine's default: the directory in the
 * system property {@value #STORE_DIRECTORY}, else {@code ~/.aqueduct/store}.
 */
public final class AqStores {
    public static final String PREFIX = "aqueduct.";
    public static final String STORE_DIRECTORY = "aqueduct.store.directory";
    public static final String STORE_MEMORY = "aqueduct.store.memory";
    public static final String STORE_URL = "aqueduct.store.url";
    public static final String STORE_USER = "aqueduct.store.user";
    public static final String STORE_PASSWORD = "aqueduct.store.password";
    public static final String USER = "aqueduct.user";
    public static final String ADMINISTRATORS = "aqueduct.administrators";
    public static final String SCHEMA = "aqueduct.schema";
    public static final String MAX_PAYLOAD_BYTES = "aqueduct.maxPayloadBytes";
    public static final String MAX_BUFFERED_BYTES = "aqueduct.maxBufferedBytes";
    public static final String BUFFERED_ENQUEUE_WAIT_MILLIS = "aqueduct.bufferedEnqueueWaitMillis";
    public static final String DESERIALIZATION_FILTER = "aqueduct.deserializationFilter";
    public static final String TIME_MANAGER = "aqueduct.timeManager";
    public static final String MAIL_HOST = "aqueduct.mail.host";
    public static final String MAIL_PORT = "aqueduct.mail.port";
    public static final String MAIL_FROM = "aqueduct.mail.from";
    public static final String MAIL_USER = "aqueduct.mail.user";
    public static final String MAIL_PASSWORD = "aqueduct.mail.password";
    public static final String MAIL_STARTTLS = "aqueduct.mail.starttls";

    /** Every property a store understands. */
    public static final List<String> PROPERTIES = List.of(STORE_DIRECTORY, STORE_MEMORY, STORE_URL, STORE_USER,
            STORE_PASSWORD, USER, ADMINISTRATORS, SCHEMA, MAX_PAYLOAD_BYTES, MAX_BUFFERED_BYTES,
            BUFFERED_ENQUEUE_WAIT_MILLIS, DESERIALIZATION_FILTER, TIME_MANAGER,
            MAIL_HOST, MAIL_PORT, MAIL_FROM, MAIL_USER, MAIL_PASSWORD, MAIL_STARTTLS);

    private AqStores() {
    }

    /**
     * Opens the store the properties describe.
     *
     * @throws AqException 24097 for a bad property (nothing is opened), or when no provider is on the
     *                     class path, or when the store cannot be opened
     */
    public static AqStore open(Map<String, String> properties) {
        Map<String, String> checked = checkProperties(properties);
        return provider().open(checked);
    }

    /**
     * The store properties among {@code properties}, checked: the {@code aqueduct.} keys, values
     * trimmed (but the password), in key order. Callers that share a store between users of the
     * same configuration compare these maps.
     *
     * @throws AqException 24097 naming the property and what is wrong with it
     */
    public static Map<String, String> checkProperties(Map<String, String> properties) {
        if (properties == null) {
            throw new AqException(AqError.INVALID_VALUE, "Give the store properties, not null (an empty map opens the default store).");
        }
        Map<String, String> out = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            if (key == null || !key.startsWith(PREFIX)) {
                continue; // the map may be a whole configuration (a JNDI environment): not ours
            }
            if (!PROPERTIES.contains(key)) {
                unknown.add(key);
                continue;
            }
            String value = e.getValue();
            if (value == null) {
                throw new AqException(AqError.INVALID_VALUE, "The store property " + key + " has no value (null).");
            }
            if (key.equals(STORE_PASSWORD) || key.equals(MAIL_PASSWORD)) {
                out.put(key, value); // a password may begin or end with blanks, or be empty
                continue;
            }
            value = value.trim();
            if (value.isEmpty() && !key.equals(STORE_USER)) {
                throw new AqException(AqError.INVALID_VALUE, "The store property " + key
                        + " is empty: give it a value or leave it out.");
            }
            out.put(key, value);
        }
        if (!unknown.isEmpty()) {
            Collections.sort(unknown);
            throw new AqException(AqError.INVALID_VALUE, "Unknown store propert" + (unknown.size() == 1 ? "y " : "ies ")
                    + String.join(", ", unknown) + "; the store properties are " + String.join(", ", PROPERTIES) + ".");
        }
        List<String> kinds = new ArrayList<>();
        for (String k : List.of(STORE_DIRECTORY, STORE_MEMORY, STORE_URL)) {
            if (out.containsKey(k)) {
                kinds.add(k);
            }
        }
        if (kinds.size() > 1) {
            throw new AqException(AqError.INVALID_VALUE, "Choose one store: " + String.join(" and ", kinds)
                    + " are both given.");
        }
        if (!out.containsKey(STORE_URL) && (out.containsKey(STORE_USER) || out.containsKey(STORE_PASSWORD))) {
            throw new AqException(AqError.INVALID_VALUE, STORE_USER + " and " + STORE_PASSWORD
                    + " are the login of a JDBC store: give " + STORE_URL + " too, or leave them out.");
        }
        wholeNumber(out, MAX_PAYLOAD_BYTES, 1, "bytes");
        wholeNumber(out, MAX_BUFFERED_BYTES, 1, "bytes");
        wholeNumber(out, BUFFERED_ENQUEUE_WAIT_MILLIS, 0, "milliseconds");
        String admins = out.get(ADMINISTRATORS);
        if (admins != null) {
            out.put(ADMINISTRATORS, String.join(",", administrators(admins)));
        }
        for (String flag : List.of(TIME_MANAGER, MAIL_STARTTLS)) {
            String v = out.get(flag);
            if (v != null) {
                String b = v.toLowerCase(Locale.ROOT);
                if (!b.equals("true") && !b.equals("false")) {
                    throw new AqException(AqError.INVALID_VALUE, flag + " is true or false; got '" + v + "'.");
                }
                out.put(flag, b);
            }
        }
        String port = out.get(MAIL_PORT);
        if (port != null) {
            int n;
            try {
                n = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1 || n > 65535) {
                throw new AqException(AqError.INVALID_VALUE, MAIL_PORT + " is a port number, 1 to 65535; got '" + port + "'.");
            }
        }
        if (!out.containsKey(MAIL_HOST) && (out.containsKey(MAIL_PORT) || out.containsKey(MAIL_FROM)
                || out.containsKey(MAIL_USER) || out.containsKey(MAIL_PASSWORD) || out.containsKey(MAIL_STARTTLS))) {
            throw new AqException(AqError.INVALID_VALUE, "The aqueduct.mail. properties describe an SMTP server: give "
                    + MAIL_HOST + " too, or leave them out.");
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * A comma-separated list of administrators, checked: the names trimmed, none empty (a user name
     * is compared upper-cased, as AQ compares unquoted names).
     *
     * @throws AqException 24097 naming the empty entry
     */
    public static List<String> administrators(String commaSeparated) {
        List<String> out = new ArrayList<>();
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return out;
        }
        for (String part : commaSeparated.split(",", -1)) {
            String name = part.strip();
            if (name.isEmpty()) {
                throw new AqException(AqError.INVALID_VALUE, "The administrators '" + commaSeparated
                        + "' have an empty name: separate user names by single commas.");
            }
            StorableText.check(name, "An administrator's name");
            out.add(name);
        }
        return out;
    }

    /**
     * The one provider on the class path: looked up through the thread's context class loader (an
     * application server's or a launcher's), then the loader of this class.
     */
    private static AqStoreProvider provider() {
        List<ClassLoader> loaders = new ArrayList<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            loaders.add(context);
        }
        loaders.add(AqStores.class.getClassLoader());
        for (ClassLoader loader : loaders) {
            Map<String, ServiceLoader.Provider<AqStoreProvider>> found = new LinkedHashMap<>();
            try {
                ServiceLoader.load(AqStoreProvider.class, loader).stream()
                        .forEach(p -> found.putIfAbsent(p.type().getName(), p));
            } catch (ServiceConfigurationError e) {
                throw new AqException(AqError.STORE_FAILURE, "An Aqueduct store provider on the class path is broken: "
                        + e.getMessage(), e);
            }
            if (found.size() > 1) {
                throw new AqException(AqError.STORE_FAILURE, "More than one Aqueduct store provider is on the class path ("
                        + String.join(", ", found.keySet()) + "): keep one aqueduct-engine.");
            }
            if (found.size() == 1) {
                try {
                    return found.values().iterator().next().get();
                } catch (ServiceConfigurationError e) {
                    throw new AqException(AqError.STORE_FAILURE, "The Aqueduct store provider could not be created: "
                            + e.getMessage(), e);
                }
            }
        }
        throw new AqException(AqError.STORE_FAILURE, "No Aqueduct store provider is on the class path: add the engine,"
                + " io.aqueduct:aqueduct-engine (and the JDBC driver of a PostgreSQL or MariaDB store), beside aqueduct-api.");
    }

    private static void wholeNumber(Map<String, String> properties, String key, long least, String unit) {
        String value = properties.get(key);
        if (value == null) {
            return;
        }
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            n = least - 1;
        }
        if (n < least) {
            throw new AqException(AqError.INVALID_VALUE, key + " must be a whole number of " + unit + ", at least " + least
                    + "; got '" + value + "'.");
        }
    }
}
