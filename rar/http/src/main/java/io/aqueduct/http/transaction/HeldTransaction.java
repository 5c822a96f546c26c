package io.aqueduct.http.transaction;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueSession;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * A queue session kept open between HTTP requests: its uncommitted work waits for the commit or rollback of a later
 * request. The session lives on a thread of its own from the container's managed thread factory, and each request's
 * work runs there: the container closes the connections a request opened when the request ends, so a session opened
 * on a request thread could not outlive it. One request at a time works in it (a second one meanwhile is refused,
 * not queued: an HTTP client that sends two requests of one transaction at once has a bug worth seeing).
 */
public final class HeldTransaction {
    private final String id;
    private final String user;
    private final ExecutorService worker;
    private final QueueSession session;
    /** Not a ReentrantLock: "in use" belongs to a request, not a thread (the sweeper must not re-enter it). */
    private final Semaphore inUse = new Semaphore(1);
    private volatile Instant lastUsed;
    private volatile boolean ended;

    HeldTransaction(String id, String user, ExecutorService worker, java.util.function.Supplier<QueueSession> open, Instant now) {
        this.id = id;
        this.user = user;
        this.worker = worker;
        this.lastUsed = now;
        QueueSession opened;
        try {
            opened = await(worker.submit(open::get));
        } catch (RuntimeException e) {
            worker.shutdown();
            throw e;
        }
        this.session = opened;
    }

    /** The transaction's id: a random 128-bit token (it is all a client needs to continue the transaction). */
    public String id() {
        return id;
    }

    public String user() {
        return user;
    }

    /**
     * Runs {@code work} in the transaction's session (on its thread) and returns what it returns; its exception is
     * thrown here. Only between a successful {@link HeldTransactions#acquire} and the release.
     */
    public <T> T run(Function<QueueSession, T> work) {
        return await(worker.submit(() -> work.apply(session)));
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new AqException(AqError.SESSION_STATE, "The request was interrupted while its transaction worked.");
        }
    }

    boolean tryLock() {
        return inUse.tryAcquire();
    }

    void unlock(Instant now) {
        lastUsed = now;
        inUse.release();
    }

    Instant lastUsed() {
        return lastUsed;
    }

    boolean ended() {
        return ended;
    }

    /** Commits (or rolls back) and closes the session, and lets its thread end; the caller holds the lock. */
    void end(boolean commit) {
        ended = true;
        try {
            run(s -> {
                try {
                    if (commit) {
                        s.commit();
                    } else {
                        s.rollback();
                    }
                } finally {
                    s.close();
                }
                return null;
            });
        } finally {
            worker.shutdown();
        }
    }
}
