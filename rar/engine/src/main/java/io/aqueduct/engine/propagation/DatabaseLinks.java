package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DatabaseLinkInfo;
import io.aqueduct.api.StorableText;
import io.aqueduct.engine.queue.RemoteAddress;
import io.aqueduct.engine.store.DatabaseLinkEntity;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.time.AqClock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Database links: names for other Aqueduct stores (CREATE DATABASE LINK), kept in the store, and
 * the stores they reach, opened when propagation first uses a link and kept open until the link
 * is dropped, fails, or the engine closes.
 */
public final class DatabaseLinks implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DatabaseLinks.class.getName());
    private static final int MAX_URL_CHARS = 1024;
    private static final int MAX_USER_CHARS = 128;

    private final OwnTransactions own;
    private final LinkedStore.Opener opener;
    private final AqClock clock;
    private final Map<String, Opened> open = new ConcurrentHashMap<>();
    /** The HTTP client of the links over HTTP, made when the first is used. */
    private java.net.http.HttpClient http;

    /** A link's store as propagation opened it, with the settings it was opened with. */
    private record Opened(LinkedStore store, String url, String user, String password) {
        boolean current(DatabaseLinkEntity e) {
            return store.isOpen() && url.equals(e.url) && java.util.Objects.equals(user, e.user)
                    && java.util.Objects.equals(password, e.password);
        }
    }

    public DatabaseLinks(OwnTransactions own, LinkedStore.Opener opener, AqClock clock) {
        this.own = own;
        this.opener = opener;
        this.clock = clock;
    }

    /**
     * Creates a link; checked first (44003 / 24019 name, 24097 URL or user, 2011 exists). A link over HTTP
     * ({@code http(s)://} servlet URL, or AQ's connect descriptor with PROTOCOL=http / https) needs a user.
     */
    public synchronized void create(String name, String url, String user, String password) {
        String link = RemoteAddress.linkName(name);
        check(url, user, password);
        own.run(c -> c.work(em -> {
            if (em.find(DatabaseLinkEntity.class, link) != null) {
                throw new AqException(AqError.DATABASE_LINK_EXISTS, "Database link " + link + " already exists.");
            }
            DatabaseLinkEntity e = new DatabaseLinkEntity();
            e.name = link;
            e.url = url.strip();
            e.user = user;
            e.password = password;
            e.createdMs = clock.millis();
            em.persist(e);
            return null;
        }));
    }

    /**
     * Changes a link's URL, user and password, checked as {@link #create} (2019 unknown); false when
     * it had exactly these. The store it opened is let go at propagation's next use of the link
     * ({@link #store} compares), on every node of a shared store, so a batch in progress is not cut.
     */
    public synchronized boolean alter(String name, String url, String user, String password) {
        String link = RemoteAddress.linkName(name);
        check(url, user, password);
        return own.run(c -> c.work(em -> {
            DatabaseLinkEntity e = em.find(DatabaseLinkEntity.class, link);
            if (e == null) {
                throw new AqException(AqError.DATABASE_LINK_NOT_FOUND, "There is no database link " + link + ".");
            }
            String u = url.strip();
            if (u.equals(e.url) && java.util.Objects.equals(user, e.user) && java.util.Objects.equals(password, e.password)) {
                return false;
            }
            e.url = u;
            e.user = user;
            e.password = password;
            return true;
        }));
    }

    private static void check(String url, String user, String password) {
        if (url == null || url.isBlank()) {
            throw new AqException(AqError.INVALID_VALUE, "A database link needs the store it reaches: a JDBC URL"
                    + " (jdbc:postgresql://..., jdbc:mariadb://..., jdbc:derby:...) or a Derby store directory.");
        }
        StorableText.check(url, "A database link's URL");
        StorableText.check(user, "A database link's user");
        StorableText.check(password, "A database link's password");
        if (url.length() > MAX_URL_CHARS || (user != null && user.length() > MAX_USER_CHARS)
                || (password != null && password.length() > MAX_URL_CHARS)) {
            throw new AqException(AqError.INVALID_VALUE, "A database link's URL and password have at most " + MAX_URL_CHARS
                    + " characters, its user at most " + MAX_USER_CHARS + ".");
        }
        HttpLinkedStore.servlet(url, user); // a link over HTTP: a URL that can work, and an agent's user
    }

    /** Drops a link no schedule uses (24097 otherwise; 2019 unknown), closing the store it opened. */
    public synchronized void drop(String name) {
        String link = RemoteAddress.linkName(name);
        own.run(c -> c.work(em -> {
            DatabaseLinkEntity e = em.find(DatabaseLinkEntity.class, link);
            if (e == null) {
                throw new AqException(AqError.DATABASE_LINK_NOT_FOUND, "There is no database link " + link + ".");
            }
            long uses = em.createQuery("SELECT COUNT(s) FROM ScheduleEntity s WHERE s.destination = :d", Long.class)
                    .setParameter("d", link).getSingleResult();
            if (uses > 0) {
                throw new AqException(AqError.INVALID_VALUE, "Database link " + link + " is the destination of " + uses
                        + " propagation schedule(s): unschedule them first.");
            }
            em.remove(e);
            return null;
        }));
        forget(link);
    }

    public List<DatabaseLinkInfo> list() {
        return own.run(c -> c.work(em -> em.createQuery("SELECT l FROM DatabaseLinkEntity l ORDER BY l.name",
                DatabaseLinkEntity.class).getResultList().stream().map(l -> new DatabaseLinkInfo(l.name, l.url, l.user)).toList()));
    }

    /** Whether a link of that (stored) name exists. */
    public boolean exists(String link) {
        return own.run(c -> c.work(em -> em.find(DatabaseLinkEntity.class, link) != null));
    }

    /**
     * The store {@code link} reaches, opened on first use and again when the link was altered since
     * (its row is read each time): 2019 when the link does not exist, 12541 when its store cannot be
     * opened (the cause says why).
     */
    LinkedStore store(String link) {
        DatabaseLinkEntity e = own.run(c -> c.work(em -> em.find(DatabaseLinkEntity.class, link)));
        if (e == null) {
            throw new AqException(AqError.DATABASE_LINK_NOT_FOUND, "There is no database link " + link
                    + ": create it with createDatabaseLink, or change the schedule's destination.");
        }
        Opened o = open.get(link);
        if (o != null && o.current(e)) {
            return o.store();
        }
        synchronized (this) {
            o = open.get(link);
            if (o != null && o.current(e)) {
                return o.store();
            }
            if (o != null) {
                if (o.store().isOpen()) {
                    LOG.info("Database link " + link + " was altered: Aqueduct propagation now reaches " + e.url);
                }
                forget(link);
            }
            LinkedStore s;
            try {
                java.net.URI servlet = HttpLinkedStore.servlet(e.url, e.user);
                s = servlet != null ? new HttpLinkedStore(link, servlet, e.user, e.password, httpClient())
                        : opener.open(e.url, e.user, e.password);
            } catch (RuntimeException failure) {
                throw new AqException(AqError.DATABASE_LINK_UNREACHABLE, "The store of database link " + link + " ("
                        + e.url + ") cannot be opened: " + failure.getMessage(), failure);
            }
            open.put(link, new Opened(s, e.url, e.user, e.password));
            return s;
        }
    }

    /** Cancels the requests under way to links over HTTP, and lets go of those links (the engine is closing). */
    void stopCalls() {
        for (Map.Entry<String, Opened> e : open.entrySet()) {
            if (e.getValue().store() instanceof HttpLinkedStore) {
                forget(e.getKey());
            }
        }
    }

    private synchronized java.net.http.HttpClient httpClient() {
        if (http == null) {
            http = HttpLinkedStore.newClient();
        }
        return http;
    }

    /** Lets go of a link's store (it failed, or the link was dropped): the next use opens it again. */
    void forget(String link) {
        Opened o = open.remove(link);
        if (o != null) {
            LinkedStore s = o.store();
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "Closing the store of database link " + link, e);
            }
        }
    }

    @Override
    public void close() {
        for (String link : List.copyOf(open.keySet())) {
            forget(link);
        }
    }
}
