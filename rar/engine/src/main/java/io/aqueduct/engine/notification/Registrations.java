package io.aqueduct.engine.notification;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.Registration;
import io.aqueduct.api.RegistrationInfo;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.NotificationEntity;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.RegistrationEntity;
import io.aqueduct.engine.time.AqClock;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The notification registrations: stored in {@code AQ_REGISTRATION} (REGISTER and UNREGISTER commit on
 * the engine's own connection, as AQ's do not wait for the caller's transaction) and held in memory by
 * queue, so that an enqueue into a queue nobody registered on pays one map lookup. On a shared store
 * a change is published as a catalog change and every node reads the registrations again.
 */
public final class Registrations {
    /** AQ$_REG_INFO.context is RAW(2000). */
    static final int MAX_CONTEXT_BYTES = 2000;
    static final int MAX_URL_LENGTH = 4000;
    /** AQ_REGISTRATION.REG_USER is VARCHAR(128). */
    static final int MAX_USER_LENGTH = 128;
    /** 100 years: any longer timeout is no timeout, and the instant it ends must fit the stores' range. */
    static final long MAX_TIMEOUT_SECONDS = 100L * 366 * 24 * 3600;

    private final OwnTransactions own;
    private final Catalog catalog;
    private final AqClock clock;
    private final String defaultSchema;
    private final Runnable publish;
    private final RegistrationAccess access;
    private final java.security.SecureRandom random = new java.security.SecureRandom();
    /** By queue id; replaced as a whole on every change (readers never lock). */
    private volatile Map<Long, List<Registered>> byQueue = Map.of();
    private volatile Map<Long, Registered> byId = Map.of();

    /**
     * @param publish tells the other nodes of a shared store that the registrations changed (null on Derby)
     */
    public Registrations(OwnTransactions own, Catalog catalog, AqClock clock, String defaultSchema, Runnable publish,
            RegistrationAccess access) {
        this.own = own;
        this.access = access;
        this.catalog = catalog;
        this.clock = clock;
        this.defaultSchema = defaultSchema;
        this.publish = publish;
    }

    /** The registrations on queue {@code queueId}; empty (and cheap) when there are none. */
    public List<Registered> forQueue(long queueId) {
        List<Registered> r = byQueue.get(queueId);
        return r == null ? List.of() : r;
    }

    Registered byId(long id) {
        return byId.get(id);
    }

    Iterable<Registered> all() {
        return byId.values();
    }

    boolean anyReliable() {
        for (Registered r : byId.values()) {
            if (r.reliable()) {
                return true;
            }
        }
        return false;
    }

    /** Reads the registrations from the store (at start, and when another node changed them). */
    public void load() {
        List<RegistrationEntity> rows = own.run(c -> c.work(em -> em.createNamedQuery(RegistrationEntity.ALL,
                RegistrationEntity.class).getResultList()));
        Map<Long, List<Registered>> queues = new HashMap<>();
        Map<Long, Registered> ids = new HashMap<>();
        boolean refreshed = false;
        for (RegistrationEntity e : rows) {
            QueueRuntime q = catalog.queue(e.queueId);
            if (q == null && !refreshed) {
                refreshed = true;
                if (catalog.refresh()) {
                    q = catalog.queue(e.queueId); // a queue another node created, that this one has not read yet
                }
            }
            if (q == null) {
                continue; // its queue was dropped (on another node, and this one has not read the catalog yet)
            }
            Registered r = new Registered(e.id, e.queueId, q.meta().qualifiedName(), e.consumer, e.url, e.context,
                    qosOf(e.qos), e.timeoutSeconds, e.createdMs, e.expiresMs);
            ids.put(r.id(), r);
            queues.computeIfAbsent(r.queueId(), k -> new ArrayList<>()).add(r);
        }
        queues.replaceAll((k, v) -> Collections.unmodifiableList(v));
        byQueue = Map.copyOf(queues);
        byId = Map.copyOf(ids);
    }

    /** REGISTER: all are checked first, then stored in one transaction; an existing one (queue, consumer, address) is replaced. */
    public void register(List<Registration> registrations, String user) {
        if (registrations == null || registrations.isEmpty()) {
            throw new AqException(AqError.INVALID_VALUE, "Give at least one registration to register.");
        }
        List<RegistrationEntity> rows = new ArrayList<>();
        for (Registration r : registrations) {
            RegistrationEntity row = checked(r, user, true);
            // after checked(): its catalog refresh finds a queue another node created a moment ago
            access.checkDequeue(user, catalog.queue(row.queueId).meta());
            rows.add(row);
        }
        own.run(c -> c.work(em -> {
            List<RegistrationEntity> existings = new ArrayList<>();
            for (RegistrationEntity row : rows) {
                RegistrationEntity existing = find(em, row.queueId, row.consumer, row.url);
                if (existing != null) {
                    access.checkMayChange(user, existing.user, "replace the registration of " + nameOf(existing)
                            + " for " + existing.url + " that " + existing.user + " made");
                }
                existings.add(existing);
            }
            for (int i = 0; i < rows.size(); i++) {
                RegistrationEntity row = rows.get(i);
                RegistrationEntity existing = existings.get(i);
                if (existing != null) {
                    if (!qosOf(row.qos).contains(NotificationQos.RELIABLE)) {
                        // no longer RELIABLE: its rows would wait for a delivery that only looks at RELIABLE ones
                        em.createNamedQuery(NotificationEntity.OF_REGISTRATION).setParameter("reg", existing.id).executeUpdate();
                    }
                    existing.context = row.context;
                    existing.qos = row.qos;
                    existing.timeoutSeconds = row.timeoutSeconds;
                    existing.expiresMs = row.expiresMs;
                    existing.user = row.user;
                } else {
                    em.persist(row);
                }
            }
            return null;
        }));
        changed();
    }

    /** UNREGISTER: each must exist (24950, then none is removed); its pending notifications go with it. */
    public void unregister(List<Registration> registrations, String user) {
        if (registrations == null || registrations.isEmpty()) {
            throw new AqException(AqError.INVALID_VALUE, "Give at least one registration to unregister.");
        }
        List<RegistrationEntity> keys = new ArrayList<>();
        for (Registration r : registrations) {
            keys.add(checked(r, null, false));
        }
        own.run(c -> c.work(em -> {
            List<RegistrationEntity> found = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                RegistrationEntity k = keys.get(i);
                RegistrationEntity existing = find(em, k.queueId, k.consumer, k.url);
                if (existing == null) {
                    Registration r = registrations.get(i);
                    throw new AqException(AqError.REGISTRATION_NOT_FOUND, "No registration of "
                            + catalog.queue(k.queueId).meta().qualifiedName() + (k.consumer == null ? "" : ":" + k.consumer)
                            + " for " + r.notifyUrl() + " exists: nothing was unregistered.");
                }
                access.checkMayChange(user, existing.user, "unregister the registration of " + nameOf(existing)
                        + " for " + existing.url + " that " + existing.user + " made");
                found.add(existing);
            }
            for (RegistrationEntity e : found) {
                em.createNamedQuery(NotificationEntity.OF_REGISTRATION).setParameter("reg", e.id).executeUpdate();
                em.remove(e);
            }
            return null;
        }));
        changed();
    }

    /**
     * Removes registration {@code id} if it is still stored (its timeout passed); true when this call
     * removed it (on a shared store exactly one node does).
     */
    boolean removeTimedOut(long id) {
        boolean removed = own.run(c -> c.work(em -> {
            RegistrationEntity e = em.find(RegistrationEntity.class, id);
            if (e == null) {
                return false;
            }
            em.createNamedQuery(NotificationEntity.OF_REGISTRATION).setParameter("reg", id).executeUpdate();
            em.remove(e);
            return true;
        }));
        changed();
        return removed;
    }

    /** Removes the registrations of a queue being dropped, with their pending notifications, in the caller's transaction. */
    public static void deleteOfQueue(jakarta.persistence.EntityManager em, long queueId) {
        for (RegistrationEntity e : em.createNamedQuery(RegistrationEntity.ALL, RegistrationEntity.class).getResultList()) {
            if (e.queueId == queueId) {
                em.createNamedQuery(NotificationEntity.OF_REGISTRATION).setParameter("reg", e.id).executeUpdate();
                em.remove(e);
            }
        }
    }

    /** QueueAdmin.registrations(): what the store has, with the counts as they are now. */
    public List<RegistrationInfo> infos() {
        return own.run(c -> c.work(em -> {
            List<RegistrationInfo> out = new ArrayList<>();
            for (RegistrationEntity e : em.createNamedQuery(RegistrationEntity.ALL, RegistrationEntity.class).getResultList()) {
                QueueRuntime q = catalog.queue(e.queueId);
                long pending = ((Number) em.createNamedQuery(NotificationEntity.COUNT).setParameter("reg", e.id)
                        .getSingleResult()).longValue();
                out.add(new RegistrationInfo(q == null ? null : q.meta().qualifiedName(), e.consumer, e.url,
                        e.context == null ? null : e.context.clone(), qosOf(e.qos), e.timeoutSeconds,
                        Instant.ofEpochMilli(e.createdMs), e.expiresMs == null ? null : Instant.ofEpochMilli(e.expiresMs),
                        e.delivered, e.failed, pending, e.lastErrorMessage,
                        e.lastErrorMs == null ? null : Instant.ofEpochMilli(e.lastErrorMs), e.user));
            }
            return out;
        }));
    }

    /** The registrations changed in the store: read them again here, and tell the other nodes. */
    private void changed() {
        load();
        if (publish != null) {
            publish.run();
        }
    }

    private String nameOf(RegistrationEntity e) {
        QueueRuntime q = catalog.queue(e.queueId);
        return (q == null ? String.valueOf(e.queueId) : q.meta().qualifiedName()) + (e.consumer == null ? "" : ":" + e.consumer);
    }

    private static RegistrationEntity find(jakarta.persistence.EntityManager em, long queueId, String consumer, String url) {
        for (RegistrationEntity e : em.createNamedQuery(RegistrationEntity.ALL, RegistrationEntity.class).getResultList()) {
            if (e.queueId == queueId && java.util.Objects.equals(e.consumer, consumer) && e.url.equals(url)) {
                return e;
            }
        }
        return null;
    }

    /** Checks a registration as REGISTER / UNREGISTER take it; its row (with a new id) when it is valid. */
    private RegistrationEntity checked(Registration r, String user, boolean registering) {
        if (r == null) {
            throw new AqException(AqError.INVALID_VALUE, "A registration is null.");
        }
        if (r.queue() == null || r.queue().isBlank()) {
            throw new AqException(AqError.INVALID_VALUE, "A registration names its queue: " + r + ".");
        }
        QualifiedName qn = QualifiedName.forLookup(r.queue(), defaultSchema, "queue");
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString()); // another node may have created it
        }
        if (q == null) {
            throw new AqException(AqError.QUEUE_NOT_FOUND, "Queue " + qn + " does not exist: nothing was registered.");
        }
        if (registering && q.meta().isException()) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + qn + " is an exception queue: messages are moved"
                    + " into it, never enqueued or made available there, so a registration on it would never be"
                    + " notified. Register on the queue whose messages you want to hear of.");
        }
        if (registering && user != null && user.length() > MAX_USER_LENGTH) {
            throw new AqException(AqError.INVALID_VALUE, "A registration records its user in at most " + MAX_USER_LENGTH
                    + " characters; this session's user has " + user.length() + ": open the session with a shorter user name.");
        }
        // an exception queue of a multi-consumer table is dequeued without a consumer (one registered before this was refused)
        boolean multi = q.meta().table().multipleConsumers() && !q.meta().isException();
        String consumer = r.consumer();
        if (multi && (consumer == null || consumer.isBlank())) {
            throw new AqException(AqError.CONSUMER_NAME_REQUIRED, "Queue " + qn + " is a multi-consumer queue: name the"
                    + " consumer whose messages to be notified of (queue:consumer).");
        }
        if (!multi && consumer != null) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + qn + " is a single-consumer queue: a registration"
                    + " on it names no consumer; got " + consumer + ".");
        }
        if (consumer != null) {
            Agent.named(consumer); // the name's rules (24019 when longer than 30 bytes)
        }
        String url = checkedUrl(r.notifyUrl());
        byte[] context = r.context();
        if (context != null && context.length > MAX_CONTEXT_BYTES) {
            throw new AqException(AqError.INVALID_VALUE, "A registration's context is at most " + MAX_CONTEXT_BYTES
                    + " bytes; got " + context.length + ".");
        }
        if (r.timeoutSeconds() < 0 || r.timeoutSeconds() > MAX_TIMEOUT_SECONDS) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid timeout " + r.timeoutSeconds()
                    + ": use 0 (none) or a number of seconds up to " + MAX_TIMEOUT_SECONDS + " (100 years).");
        }
        long now = clock.millis();
        RegistrationEntity e = new RegistrationEntity();
        e.id = random.nextLong() & Long.MAX_VALUE;
        e.queueId = q.meta().id();
        e.consumer = consumer == null ? null : Subscriber.localKey(consumer);
        e.url = url;
        e.context = context;
        e.qos = qosText(r.qos());
        e.timeoutSeconds = r.timeoutSeconds();
        e.user = user;
        e.createdMs = now;
        e.expiresMs = r.timeoutSeconds() == 0 ? null : now + Math.multiplyExact(r.timeoutSeconds(), 1000L);
        return e;
    }

    /** The address as stored: http(s) with a host, mailto: with one address, java: with a name; 24915 otherwise. */
    static String checkedUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "A registration needs an address to notify:"
                    + " http://..., https://..., mailto:... or java:<name>.");
        }
        String u = url.strip();
        if (u.length() > MAX_URL_LENGTH) {
            throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "A notification address is at most "
                    + MAX_URL_LENGTH + " characters; got " + u.length() + ".");
        }
        if (u.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "A notification address has no control characters.");
        }
        String lower = u.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            try {
                URI uri = new URI(u);
                if (uri.getHost() == null) {
                    throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "The notification address " + u + " names no host.");
                }
            } catch (java.net.URISyntaxException e) {
                throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "The notification address " + u
                        + " is not a URL: " + e.getMessage() + ".");
            }
            return u;
        }
        if (lower.startsWith("mailto:")) {
            if (!MAIL_ADDRESS.matcher(mailAddress(u)).matches()) {
                throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, u + " is not one mail address: use"
                        + " mailto:name@host (or AQ's mailto://name@host).");
            }
            return u;
        }
        if (lower.startsWith("java:")) {
            String name = u.substring(5);
            if (name.isEmpty() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || "._-/$".indexOf(ch) >= 0)) {
                throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "java:" + name + " is not a listener name:"
                        + " use letters, digits and . _ - / $.");
            }
            return u;
        }
        throw new AqException(AqError.INVALID_NOTIFICATION_ADDRESS, "Aqueduct cannot notify " + u
                + ": use http://..., https://..., mailto:... or java:<name> (a listener bound on the store).");
    }

    /** One plain address (no list, display name, comment or route): what a mailto: registration names. */
    private static final java.util.regex.Pattern MAIL_ADDRESS = java.util.regex.Pattern.compile(
            "[^@\\s,;:<>()\\[\\]\"\\\\]+@[^@\\s,;:<>()\\[\\]\"\\\\]+");

    /** The address of a mailto: URL: {@code mailto:a@b} or AQ's {@code mailto://a@b}. */
    static String mailAddress(String url) {
        String address = url.substring("mailto:".length());
        return address.startsWith("//") ? address.substring(2) : address;
    }

    /** Checks the sender address of mail notifications (24097 when it is not one plain address). */
    public static void checkSender(String from) {
        if (!MAIL_ADDRESS.matcher(from).matches()) {
            throw new AqException(AqError.INVALID_VALUE, "The mail sender " + from + " is not one address: use name@host.");
        }
    }

    static String qosText(Set<NotificationQos> qos) {
        List<String> names = new ArrayList<>();
        for (NotificationQos q : NotificationQos.values()) {
            if (qos.contains(q)) {
                names.add(q.name());
            }
        }
        return String.join(",", names);
    }

    static Set<NotificationQos> qosOf(String text) {
        Set<NotificationQos> out = EnumSet.noneOf(NotificationQos.class);
        if (text != null && !text.isBlank()) {
            for (String s : text.split(",")) {
                out.add(NotificationQos.valueOf(s.strip()));
            }
        }
        return Collections.unmodifiableSet(out);
    }
}
