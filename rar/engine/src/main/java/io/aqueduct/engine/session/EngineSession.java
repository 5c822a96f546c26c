package io.aqueduct.engine.session;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Agent;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.queue.TakeCursor;
import io.aqueduct.engine.store.StoreConnection;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.transaction.xa.XAResource;

/**
 * A queue session of the engine: one connection of the store's XA data source, its current
 * transaction, and its dequeue position in each queue. Used by one thread at a time.
 */
public final class EngineSession implements QueueSession {
    final SessionContext context;
    final TransactionCompletion completion;
    /** The session's connection; replaced (outside an XA branch) when it broke. */
    StoreConnection connection;
    final String user;
    /** Whether the user holds every privilege (the engine's user, a configured administrator): no checks then. */
    private final boolean administrator;
    /** A second connection for IMMEDIATE work, opened on first use. */
    StoreConnection autonomous;
    /** A shared store's attempt-ledger records of this session, in auto-commit; opened on first use. */
    StoreConnection ledgerConnection;
    SessionTransaction current;
    /** The Xid-bound branch this session works in, between XA start and end. */
    SessionTransaction xaBranch;
    final Map<String, Position> positions = new HashMap<>();
    /** Queue names as the caller spells them, resolved once (the hot path parses no names). */
    final Map<String, QueueRuntime> resolved = new HashMap<>();
    boolean closed;

    /** Where the session is in a queue, and the correlation it was navigating with. */
    static final class Position {
        ReadyEntry last;
        String correlation;
        /** What a take read past {@code last} (shared stores that take by key). */
        final TakeCursor cursor = new TakeCursor();
    }

    private final Enqueuer enqueuer;
    private final Dequeuer dequeuer;
    private final Listening listening;

    public EngineSession(SessionContext context, StoreConnection connection, String user) {
        this.context = context;
        this.completion = context.completion();
        this.connection = connection;
        this.user = user;
        this.administrator = context.privileges().isAdministrator(user);
        this.enqueuer = new Enqueuer(this);
        this.dequeuer = new Dequeuer(this);
        this.listening = new Listening(this);
    }

    public String user() {
        return user;
    }

    SessionContext context() {
        return context;
    }

    // ------------------------------------------------------------------ enqueue

    @Override
    public MessageId enqueue(String queue, EnqueueOptions options, Message message) {
        checkOpen();
        if (message == null) {
            throw new AqException(AqError.INVALID_VALUE, "Give a message to enqueue, not null (Message.of(payload)).");
        }
        return enqueueArray(queue, options, List.of(message)).get(0);
    }

    @Override
    public List<MessageId> enqueueArray(String queue, EnqueueOptions options, List<Message> messages) {
        checkOpen();
        return guarded(() -> enqueuer.enqueue(queue, options, messages));
    }

    /**
     * Propagation's enqueue into a destination queue of this session's store, in the session's
     * (local) transaction; see {@link PropagatedMessage}. Messages the destination refuses are
     * reported, not thrown; a destination stopped for enqueue throws 25207.
     */
    public List<PropagatedMessage.Delivery> enqueuePropagated(String queue, List<PropagatedMessage> messages) {
        checkOpen();
        checkLocal("propagate");
        return guarded(() -> enqueuer.enqueuePropagated(queue, messages));
    }

    /**
     * Propagation's enqueue of a buffered message into a destination queue of this session's engine:
     * BUFFERED, in no transaction. A refusal for good is reported; a queue stopped for enqueue (25207)
     * or a full buffered memory (25307) is thrown.
     */
    public PropagatedMessage.Delivery enqueuePropagatedBuffered(String queue, PropagatedMessage message) {
        checkOpen();
        return guarded(() -> enqueuer.enqueuePropagatedBuffered(queue, message));
    }

    /** This session's engine's buffered messages (propagation's source and its receipts at a destination). */
    public io.aqueduct.engine.buffered.BufferedMessages bufferedMessages() {
        return context.buffered();
    }

    /**
     * Runs store work in the session's (local) transaction: what propagation reads and marks in
     * its source queue and records in its schedule commits or rolls back with the session.
     */
    public <T> T inTransaction(java.util.function.Function<jakarta.persistence.EntityManager, T> body) {
        checkOpen();
        checkLocal("propagate");
        return guarded(() -> work(connection(), transaction(), true, body));
    }

    /** Consumers' parts of these messages were taken in this transaction: each message is completed once it commits, if nobody else has it pending. */
    public void partsTaken(java.util.Collection<String> msgids) {
        transaction().partsTaken.addAll(msgids);
    }

    public boolean isClosed() {
        return closed;
    }

    /** The SQL dialect of this session's store. */
    public io.aqueduct.engine.store.Dialect dialect() {
        return context.store().dialect();
    }

    /** A queue of this session's store (the catalog refreshed once when not known); 25205 when it does not exist. */
    public io.aqueduct.engine.queue.QueueMeta queueMeta(String queue) {
        return resolve(queue).meta();
    }

    /** Checks that this session's user may use {@code queue} for {@code needed}: 25205 unknown, 1031 refused. */
    public void requirePrivilege(String queue, io.aqueduct.api.QueuePrivilege needed) {
        checkOpen();
        resolve(queue, needed);
    }

    @Override
    public byte[] receivePropagation(byte[] request) {
        checkOpen();
        checkLocal("receive propagation");
        return guarded(() -> context.propagationReceiver().receive(this, request));
    }

    /** A queue this session's user may use for {@code needed} (ENQUEUE or DEQUEUE): 25205 unknown, 1031 refused. */
    QueueRuntime resolve(String queue, io.aqueduct.api.QueuePrivilege needed) {
        QueueRuntime q = resolve(queue);
        if (!administrator) {
            context.privileges().check(user, q.meta(), needed);
        }
        return q;
    }

    /**
     * Refuses (1031) a recipient list naming, in an address, a queue this session's user may not
     * enqueue into (propagation would deliver there as the engine's user). Only a session that is not
     * an administrator, only for recipients with an address: a plain enqueue pays nothing.
     */
    void checkRecipientAddresses(io.aqueduct.engine.queue.QueueMeta queue, List<Agent> recipients) {
        if (administrator || recipients == null) {
            return;
        }
        for (Agent a : recipients) {
            if (a != null && a.address() != null) {
                context.privileges().checkAddress(user, queue.owner(), a, "enqueue into " + queue.qualifiedName()
                        + " for a recipient");
            }
        }
    }

    QueueRuntime resolve(String queue) {
        QueueRuntime known = queue == null ? null : resolved.get(queue);
        if (known != null && !known.dropped()) {
            return known;
        }
        QualifiedName qn = QualifiedName.forLookup(queue, context.defaultSchema(), "queue");
        QueueRuntime q = context.catalog().queue(qn.toString());
        if (q == null && context.catalog().refresh()) {
            q = context.catalog().queue(qn.toString()); // another node may have created it
        }
        if (q == null) {
            throw new AqException(AqError.QUEUE_DOES_NOT_EXIST, "The queue " + qn + " does not exist.");
        }
        if (resolved.size() > 256) {
            resolved.clear();
        }
        resolved.put(queue, q);
        return q;
    }

    // ------------------------------------------------------------------ dequeue

    @Override
    public Message dequeue(String queue, DequeueOptions options) {
        checkOpen();
        return guarded(() -> dequeuer.dequeue(queue, options));
    }

    @Override
    public List<Message> dequeueArray(String queue, DequeueOptions options, int max) {
        checkOpen();
        return guarded(() -> dequeuer.dequeueArray(queue, options, max));
    }

    /**
     * AQ's LISTEN: waits until one of the agents has a message and returns the first such agent in
     * the order given (not fair: an agent early in the list can starve later ones). An agent names
     * the queue in its address and, on a multi-consumer queue, the consumer in its name.
     *
     * @throws AqException 25254 when {@code waitSeconds} pass without a message
     */
    @Override
    public Agent listen(List<Agent> agents, long waitSeconds, io.aqueduct.api.DeliveryMode deliveryMode) {
        checkOpen();
        return guarded(() -> listening.listen(agents, waitSeconds, deliveryMode));
    }

    /**
     * Waits until {@code queue} has a message this session could dequeue (matching the
     * correlation, if one is given), without taking it: true when there is one, false when
     * {@code waitMillis} passed. Message delivery waits with this outside a transaction, then
     * dequeues inside one.
     */
    public boolean awaitAvailable(String queue, String correlation, long waitMillis, java.util.function.BooleanSupplier cancelled) {
        return awaitAvailable(queue, null, correlation, waitMillis, cancelled);
    }

    /** As above, for the named consumer of a multi-consumer queue. */
    @Override
    public boolean awaitAvailable(String queue, String consumerName, String correlation, long waitMillis,
            java.util.function.BooleanSupplier cancelled) {
        return awaitAvailable(queue, consumerName, correlation, io.aqueduct.api.DeliveryMode.PERSISTENT, waitMillis, cancelled);
    }

    /**
     * As above, for messages of {@code deliveryMode}: {@code BUFFERED} looks at this engine's buffered
     * messages only, {@code PERSISTENT_OR_BUFFERED} at both kinds (a buffered enqueue wakes the wait at once).
     */
    @Override
    public boolean awaitAvailable(String queue, String consumerName, String correlation, io.aqueduct.api.DeliveryMode deliveryMode,
            long waitMillis, java.util.function.BooleanSupplier cancelled) {
        checkOpen();
        io.aqueduct.api.DeliveryMode mode = deliveryMode == null ? io.aqueduct.api.DeliveryMode.PERSISTENT : deliveryMode;
        return guarded(() -> listening.awaitAvailable(queue, consumerName, correlation, mode, waitMillis, cancelled));
    }

    /** A unit of work; one that fails inside an XA branch (no savepoint to undo it) dooms the branch. */
    static <T> T work(StoreConnection c, SessionTransaction tx, boolean atomic,
            java.util.function.Function<jakarta.persistence.EntityManager, T> body) {
        try {
            return c.work(body, atomic);
        } catch (RuntimeException e) {
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true;
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public void register(List<io.aqueduct.api.Registration> registrations) {
        checkOpen();
        // AQ lets a user register only for what it may dequeue: checked by the registrations, after their catalog refresh
        context.registrations().register(registrations, user);
    }

    @Override
    public void unregister(List<io.aqueduct.api.Registration> registrations) {
        checkOpen();
        context.registrations().unregister(registrations, user);
    }

    SessionTransaction transaction() {
        if (xaBranch != null) {
            return xaBranch;
        }
        if (current == null) {
            current = new SessionTransaction(context.ids().nextTransactionId());
        }
        return current;
    }

    @Override
    public void commit() {
        checkOpen();
        checkLocal("commit");
        SessionTransaction tx = current;
        current = null;
        if (connection.broken()) {
            // known broken before this commit: whatever the transaction held went with the connection
            if (tx != null && !tx.isEmpty()) {
                completion.afterConnectionLost(tx, false);
                throw new AqException(AqError.STORE_UNAVAILABLE, "The connection to the Aqueduct store broke before"
                        + " this commit: the transaction was rolled back (what it dequeued is back in its queue, the attempt"
                        + " counted). Do the work again once the store is back.");
            }
            connection();
            return;
        }
        commit(connection, tx == null ? new SessionTransaction(context.ids().nextTransactionId()) : tx);
    }

    /**
     * Commits {@code tx} on {@code c} and applies the outcome. When the connection breaks during
     * the commit, the engine finds out from the rows whether it committed: the caller returns
     * normally if it did, and is told it rolled back (3113: do it again) or that the outcome cannot
     * be known (25405) otherwise.
     */
    void commit(StoreConnection c, SessionTransaction tx) {
        try {
            c.commit();
        } catch (AqException e) {
            if (!c.broken()) {
                try {
                    c.rollback();
                } finally {
                    completion.afterRollback(tx);
                }
                throw e;
            }
            TransactionCompletion.Lost outcome = completion.afterConnectionLost(tx, true);
            if (outcome == TransactionCompletion.Lost.COMMITTED) {
                return; // the database had committed it before the connection went
            }
            if (outcome == TransactionCompletion.Lost.ROLLED_BACK) {
                throw new AqException(AqError.STORE_UNAVAILABLE, "The connection to the Aqueduct store broke before the"
                        + " commit reached it: the transaction was rolled back (what it dequeued is back in its queue, the"
                        + " attempt counted). Do the work again once the store is back.", e);
            }
            throw new AqException(AqError.COMMIT_OUTCOME_UNKNOWN, "The connection to the Aqueduct store broke during the"
                    + " commit, and " + (outcome == null ? "the store cannot be asked now whether it committed; the engine finds"
                    + " out when it is back (a dequeued message comes back, its attempt counted, only if the commit failed)"
                    : "the messages it touched are gone from the store, so whether it committed cannot be told")
                    + ". Check before you repeat work that must not happen twice.", e);
        }
        completion.afterCommit(tx);
    }

    /** Work on {@code c} failed before its commit: roll back and apply that (the database did already if the connection broke). */
    void abandon(StoreConnection c, SessionTransaction tx, RuntimeException failure) {
        if (c.broken()) {
            completion.afterConnectionLost(tx, false);
            return;
        }
        try {
            c.rollback();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        completion.afterRollback(tx);
    }

    @Override
    public void rollback() {
        if (!closed && context.engineClosed().getAsBoolean()) {
            current = null; // the engine's close rolled back every open session's work already
            return;
        }
        checkOpen();
        checkLocal("rollback");
        SessionTransaction tx = current;
        current = null;
        rollbackOnConnection(tx);
    }

    /** Rolls the connection's transaction back and applies that; a broken connection's was rolled back already. */
    private void rollbackOnConnection(SessionTransaction tx) {
        if (!connection.broken()) {
            try {
                connection.rollback();
            } catch (AqException e) {
                if (!connection.broken()) {
                    throw e;
                }
            }
        }
        if (tx == null) {
            return;
        }
        if (connection.broken()) {
            completion.afterConnectionLost(tx, false); // the database rolled back when the connection went
        } else {
            completion.afterRollback(tx);
        }
    }

    /**
     * Runs a public operation; when one of the session's connections broke under it, the work of
     * the transaction on it is lost (the database rolled it back) and the outcome is applied now:
     * the caller has its error, and the next call works on a fresh connection.
     */
    private <T> T guarded(java.util.function.Supplier<T> operation) {
        try {
            return operation.get();
        } catch (AqException e) {
            if (e.errorCode() == AqError.STORE_UNAVAILABLE) {
                connectionTrouble();
            }
            throw e;
        } catch (OutOfMemoryError e) {
            throw outOfMemory(e);
        }
    }

    /**
     * The heap ran out mid-call (a huge payload being copied or written): how far the call got is
     * not known, so the transaction it worked in is given up (an XA branch is doomed, its transaction
     * manager rolls it back) and the session goes on with a fresh one.
     */
    private AqException outOfMemory(OutOfMemoryError e) {
        AqException failure = new AqException(AqError.OUT_OF_MEMORY, "Aqueduct ran out of memory in this call (" + e.getMessage()
                + "); the session's transaction was rolled back. Send smaller payloads (the engine's maxPayloadBytes bounds"
                + " them) or give the JVM more heap.", e);
        if (autonomous != null) {
            autonomous.closeQuietly(); // an IMMEDIATE call's own transaction goes with its connection
            autonomous = null;
        }
        if (xaBranch != null) {
            xaBranch.rollbackOnly = true;
            return failure;
        }
        SessionTransaction tx = current;
        current = null;
        try {
            rollbackOnConnection(tx);
        } catch (RuntimeException alsoFailed) {
            failure.addSuppressed(alsoFailed);
        }
        return failure;
    }

    private void connectionTrouble() {
        if (autonomous != null && autonomous.broken()) {
            autonomous.closeQuietly();
            autonomous = null;
        }
        if (ledgerConnection != null && ledgerConnection.broken()) {
            ledgerConnection.closeQuietly();
            ledgerConnection = null;
        }
        if (connection.broken() && xaBranch == null && current != null) {
            SessionTransaction lost = current;
            current = null;
            completion.afterConnectionLost(lost, false);
        }
    }

    /** The session's connection, replaced first if it broke (not inside an XA branch: a branch keeps its connection). */
    StoreConnection connection() {
        if (connection.broken() && xaBranch == null) {
            connectionTrouble();
            StoreConnection fresh = context.store().open(); // STORE_UNAVAILABLE while the store is down: tried again next call
            connection.closeQuietly();
            connection = fresh;
        }
        return connection;
    }

    /** Is the session's connection known to be broken (no round trip to ask)? Its XAResource is then stale. */
    public boolean connectionBroken() {
        return connection.broken();
    }

    /** Has the session's connection gone (checked with the database when not known yet)? */
    public boolean connectionGone() {
        if (!connection.broken()) {
            try {
                if (!connection.connection().isValid(2)) {
                    connection.markBroken();
                }
            } catch (java.sql.SQLException e) {
                connection.markBroken();
            }
        }
        return connection.broken();
    }

    private void checkLocal(String what) {
        if (xaBranch != null) {
            throw new AqException(AqError.SESSION_STATE, "Cannot " + what
                    + " a session that works in an XA transaction: the transaction manager ends it.");
        }
    }

    /**
     * The database's XAResource for this session's connection, wrapped with the engine's hooks: the
     * one a transaction manager enlists (Xids taken by value, {@code isSameRM} true only for this
     * session's resources).
     */
    @Override
    public XAResource xaResource() {
        return xaResource(failure -> { });
    }

    /**
     * {@link #xaResource()}, whose every XAException is first given to {@code onFailure} (before it
     * is thrown; on the calling thread): a resource adapter's managed connection tells its pool when
     * the store connection under it is gone.
     */
    public XAResource xaResource(java.util.function.Consumer<javax.transaction.xa.XAException> onFailure) {
        java.util.Objects.requireNonNull(onFailure, "onFailure");
        checkOpen();
        return new AqXaResource(this, connection(), onFailure);
    }

    /**
     * Puts the connection in auto-commit for an XA command about another branch (recovery) when
     * the session has no work of its own: MariaDB refuses XA COMMIT / ROLLBACK / RECOVER beside a
     * local transaction, and with auto-commit off every statement opens one. Returns whether it
     * switched; {@link #leaveXaCommandMode} switches back.
     */
    boolean enterXaCommandMode() {
        if (closed || xaBranch != null || (current != null && !current.isEmpty()) || preparedBranches.get() > 0
                || !context.store().dialect().xaCommandsNeedIdleConnection()) {
            return false;
        }
        current = null;
        try {
            connection.connection().rollback();
            connection.connection().setAutoCommit(true);
            return true;
        } catch (java.sql.SQLException refused) {
            return false; // the connection is tied to a branch of its own: XA commands run as they are
        }
    }

    void leaveXaCommandMode(boolean switched) {
        if (switched) {
            try {
                connection.connection().setAutoCommit(false);
            } catch (java.sql.SQLException e) {
                AqException failure = connection.failure(e);
                if (!connection.broken()) {
                    throw failure;
                }
                // gone: the XA command's own outcome is what the caller needs to hear; the connection is replaced later
            }
        }
    }

    /** Rolls back local work left uncommitted (a pooled session going back to its pool). */
    public void rollbackLocalWork() {
        if (!closed && xaBranch == null && current != null && !current.isEmpty()) {
            rollback();
        }
    }

    /** The change count of a queue (see {@link #awaitQueueChange}). */
    @Override
    public long queueVersion(String queue) {
        return resolve(queue).version();
    }

    /**
     * Waits until the queue changes after {@code seen} (a message committed, released, expired...),
     * or {@code millis} pass: a delivery whose condition matched nothing waits here instead of polling.
     */
    @Override
    public void awaitQueueChange(String queue, long seen, long millis) {
        try {
            resolve(queue).awaitChange(seen, millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Forgets the dequeue positions (a pooled session handed to a new user starts afresh). */
    public void resetPositions() {
        positions.clear();
    }

    /** Wakes the dequeues and waits of this session's queues so they can notice a cancellation. */
    @Override
    public void wakeWaiters(String queue) {
        context.catalog().queues().stream().filter(r -> r.meta().qualifiedName().equals(
                QualifiedName.forLookup(queue, context.defaultSchema(), "queue").toString())).forEach(QueueRuntime::wakeAll);
    }

    /** Does the named queue exist? */
    public boolean queueExists(String queue) {
        return context.catalog().queue(QualifiedName.forLookup(queue, context.defaultSchema(), "queue").toString()) != null;
    }

    @Override
    public boolean inGlobalTransaction() {
        return xaBranch != null;
    }

    /** XA start: from now on the session works in the branch's transaction. */
    void joinBranch(SessionTransaction branch) {
        if (current != null && !current.isEmpty()) {
            throw new AqException(AqError.SESSION_STATE, "The session has uncommitted local work; commit or roll it back"
                    + " before it joins an XA transaction.");
        }
        current = null;
        xaBranch = branch;
        connection.inGlobalTransaction(true);
    }

    /** XA end: the session leaves the branch; the branch is ended by prepare / commit / rollback. */
    void leaveBranch() {
        xaBranch = null;
        connection.inGlobalTransaction(false);
    }

    /**
     * Branches prepared on this session's connection and not yet ended: the connection is tied to them
     * (MariaDB refuses any other statement on it), so XA commands run on it as they are.
     */
    final java.util.concurrent.atomic.AtomicInteger preparedBranches = new java.util.concurrent.atomic.AtomicInteger();

    SessionTransaction newBranchTransaction() {
        SessionTransaction branch = new SessionTransaction(context.ids().nextTransactionId());
        branch.owner = this;
        return branch;
    }

    @Override
    public QueueAdmin admin() {
        checkOpen();
        return administrator ? context.admin()
                : new io.aqueduct.engine.security.CheckedAdmin(context.admin(), context.privileges(), user, context.defaultSchema());
    }

    StoreConnection autonomous() {
        if (autonomous != null && autonomous.broken()) {
            autonomous.closeQuietly();
            autonomous = null;
        }
        if (autonomous == null) {
            autonomous = context.store().open();
        }
        return autonomous;
    }

    void checkOpen() {
        if (closed) {
            throw new AqException(AqError.SESSION_STATE, "The queue session is closed.");
        }
        if (context.engineClosed().getAsBoolean()) {
            throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine of this session is closed; open a session"
                    + " of a running engine.");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (current != null && xaBranch == null && !context.engineClosed().getAsBoolean()) {
                SessionTransaction tx = current;
                current = null;
                rollbackOnConnection(tx);
            }
        } finally {
            connection.closeQuietly();
            if (autonomous != null) {
                autonomous.closeQuietly();
            }
            if (ledgerConnection != null) {
                ledgerConnection.closeQuietly();
            }
        }
    }

    static LocalDateTime utc(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    /** A wait in seconds as milliseconds; FOREVER, and waits too long to count in milliseconds, wait forever. */
    static long waitMillis(long waitSeconds) {
        if (waitSeconds == io.aqueduct.api.DequeueOptions.FOREVER || waitSeconds > Long.MAX_VALUE / 1000) {
            return Long.MAX_VALUE;
        }
        return waitSeconds * 1000;
    }

    /** When a wait of {@code waitMillis} from {@code now} ends; Long.MAX_VALUE is never. */
    static long deadline(long now, long waitMillis) {
        return waitMillis > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + waitMillis;
    }
}
