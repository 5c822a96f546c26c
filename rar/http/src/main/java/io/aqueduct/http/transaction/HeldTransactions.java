package io.aqueduct.http.transaction;

import io.aqueduct.api.AqError;
import io.aqueduct.api.QueueSession;
import io.aqueduct.http.HttpAccessException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The transactions that span HTTP requests (an XML servlet request without AQXmlCommit, a REST transaction
 * resource): each holds a queue session, and with it a pooled connection, until a request commits or rolls it back
 * or it has been idle for the timeout, when {@link #sweep()} rolls it back. A user holds at most a configured
 * number at once, so that one client cannot take the whole connection pool.
 */
public final class HeldTransactions {
    private static final Logger LOG = Logger.getLogger(HeldTransactions.class.getName());
    /** How many rolled-back-for-idleness ids are remembered, to tell a late client what happened. */
    private static final int REMEMBERED_TIMEOUTS = 1_000;
    private final Map<String, HeldTransaction> byId = new ConcurrentHashMap<>();
    private final Map<String, Boolean> timedOut = Collections.synchronizedMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_TIMEOUTS;
        }
    });
    private final Duration idleTimeout;
    private final int maxPerUser;
    private final Clock clock;
    private final ThreadFactory threads;
    private final SecureRandom random = new SecureRandom();

    /** {@code threads}: where the held sessions live (the container's managed thread factory). */
    public HeldTransactions(Duration idleTimeout, int maxPerUser, Clock clock, ThreadFactory threads) {
        this.idleTimeout = idleTimeout;
        this.maxPerUser = maxPerUser;
        this.clock = clock;
        this.threads = threads;
    }

    public Duration idleTimeout() {
        return idleTimeout;
    }

    /**
     * Begins a transaction for {@code user} in a session {@code open} gives, returned locked (release it with
     * {@link #release}). 429 when the user already holds the maximum.
     */
    public synchronized HeldTransaction begin(String user, Supplier<QueueSession> open) {
        long held = byId.values().stream().filter(t -> t.user().equals(user)).count();
        if (held >= maxPerUser) {
            throw new HttpAccessException(429, AqError.SESSION_STATE, user + " already holds " + held
                    + " open transactions, the most allowed: commit or roll one back first (an idle one is rolled back after "
                    + idleTimeout.toSeconds() + " s).");
        }
        byte[] token = new byte[16];
        random.nextBytes(token);
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(token);
        HeldTransaction t = new HeldTransaction(id, user, Executors.newSingleThreadExecutor(threads), open, clock.instant());
        t.tryLock();
        byId.put(id, t);
        return t;
    }

    /**
     * The transaction {@code id} of {@code user}, locked for this request. 404 when there is none (or it is another
     * user's: its existence is not revealed), 408 when it was rolled back for idleness, 409 when another request is
     * working in it.
     */
    public HeldTransaction acquire(String id, String user) {
        HeldTransaction t = id == null ? null : byId.get(id);
        if (t == null || !t.user().equals(user)) {
            if (id != null && timedOut.containsKey(id)) {
                throw new HttpAccessException(408, AqError.SESSION_STATE, "Transaction " + id + " was rolled back after "
                        + idleTimeout.toSeconds() + " s without a request: nothing of it was committed; start again.");
            }
            throw new HttpAccessException(404, AqError.SESSION_STATE, "There is no open transaction " + id
                    + ": it was committed or rolled back, or never existed.");
        }
        if (!t.tryLock()) {
            throw new HttpAccessException(409, AqError.SESSION_STATE, "Transaction " + id
                    + " is in use by another request: send the requests of one transaction one after the other.");
        }
        if (t.ended()) {
            t.unlock(clock.instant());
            return acquire(id, user);
        }
        return t;
    }

    /** Ends a request's use of {@code t}: it stays open, and its idle time starts now. */
    public void release(HeldTransaction t) {
        t.unlock(clock.instant());
    }

    /** Commits or rolls back {@code t} (locked by this request) and forgets it. */
    public void end(HeldTransaction t, boolean commit) {
        byId.remove(t.id());
        try {
            t.end(commit);
        } finally {
            t.unlock(clock.instant());
        }
    }

    /** Rolls back every transaction idle for longer than the timeout (one in use by a request is not idle). */
    public void sweep() {
        Instant limit = clock.instant().minus(idleTimeout);
        for (HeldTransaction t : byId.values()) {
            if (t.lastUsed().isBefore(limit) && t.tryLock()) {
                try {
                    if (byId.remove(t.id(), t)) {
                        timedOut.put(t.id(), Boolean.TRUE);
                        LOG.info(() -> "Aqueduct HTTP: rolled back transaction " + t.id() + " of " + t.user() + " after "
                                + idleTimeout.toSeconds() + " s without a request");
                        t.end(false);
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Aqueduct HTTP: rolling back idle transaction " + t.id() + " failed", e);
                } finally {
                    t.unlock(clock.instant());
                }
            }
        }
    }

    /** Rolls back {@code id} if it is still open, whoever used it last (the HTTP session holding it ended). */
    public void abandon(String id) {
        HeldTransaction t = id == null ? null : byId.get(id);
        if (t != null && t.tryLock()) {
            try {
                if (byId.remove(id, t)) {
                    t.end(false);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Aqueduct HTTP: rolling back abandoned transaction " + id + " failed", e);
            } finally {
                t.unlock(clock.instant());
            }
        }
    }

    /** At undeployment: everything still open is rolled back. */
    public void rollBackAll() {
        for (String id : byId.keySet()) {
            abandon(id);
        }
    }

    public int open() {
        return byId.size();
    }
}
