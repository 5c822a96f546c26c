package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.admin.QueueAdministration;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.QueueTableMeta;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.SessionTransaction;
import io.aqueduct.engine.store.DerbyDialect;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.SubscriberEntity;
import io.aqueduct.engine.store.QueueEntity;
import io.aqueduct.engine.store.QueueTableEntity;
import io.aqueduct.engine.store.Store;
import io.aqueduct.engine.store.StoreConnection;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.time.TimeManager;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The Aqueduct queue engine in one JVM: the store, the catalog of queue tables and queues with
 * their ready indexes, the time manager and the sessions. Plain Java SE; the resource adapter
 * wraps it for Jakarta EE.
 *
 * <pre>
 * try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(Path.of("data")).start();
 *      QueueSession session = engine.openSession()) { ... }
 * </pre>
 */
public final class AqueductEngine implements AutoCloseable {
    /** Where the Derby database lives when nothing is configured. */
    public static final String DEFAULT_DIRECTORY_PROPERTY = "aqueduct.store.directory";

    private final Store store;
    private final AqClock clock;
    private final String user;
    private final String defaultSchema;
    private final Catalog catalog;
    /** Wake-ups to and from the other nodes of a shared store; null on a store of one JVM. */
    private final io.aqueduct.engine.store.NodeSignals signals;
    /** REMOVE attempts in flight on a shared store, counted by another node if this one dies; null on Derby. */
    private final io.aqueduct.engine.session.AttemptLedger attemptLedger;
    /** Derby's attempt journal (REMOVE attempts and prepared branches in flight); null on a shared store. */
    private final io.aqueduct.engine.session.AttemptJournal attemptJournal;
    /**
     * Messages an in-doubt branch of an earlier JVM holds (Derby): kept out of the ready indexes and
     * passed by the time manager until the transaction manager commits or rolls the branch back.
     */
    private final java.util.Set<String> inDoubtMessages = ConcurrentHashMap.newKeySet();
    /** The largest payload an enqueue accepts, in stored bytes. */
    private final long maxPayloadBytes;
    /** What OBJECT payloads may contain when read back. */
    private final io.aqueduct.engine.payload.DeserializationFilter deserializationFilter;
    private final TimeManager timeManager;
    private final QueueAdministration admin;
    /** The engine's own connection (administration, retry accounting, sequence blocks); replaced when it breaks. */
    private StoreConnection internal;
    private final ReentrantLock internalLock = new ReentrantLock();
    private final Map<io.aqueduct.engine.session.XidKey, SessionTransaction> xaBranches = new ConcurrentHashMap<>();
    private final AtomicLong sequence;
    /** On a shared store: the last number of the block of sequence numbers this node reserved. */
    private long sequenceBlockEnd = -1;
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong messageCounter = new AtomicLong();
    private final long messageIdPrefix;
    private final String nodeTag;
    private volatile boolean closed;

    private AqueductEngine(Builder b) {
        this.clock = b.clock;
        this.user = b.user;
        // an existing Derby store's journal is locked before Derby boots: a second engine on it is refused
        // without touching the first one's database (a failed start shuts Derby down)
        java.nio.file.Path journalFile = b.dialect.shared() ? null : b.dialect.journalFile();
        io.aqueduct.engine.session.AttemptJournal early = journalFile != null
                && java.nio.file.Files.isDirectory(journalFile.getParent())
                ? io.aqueduct.engine.session.AttemptJournal.open(journalFile) : null;
        try {
            this.store = new Store(b.dialect);
        } catch (RuntimeException e) {
            if (early != null) {
                early.close();
            }
            throw e;
        }
        this.signals = b.dialect.shared() ? b.dialect.signals() : null;
        this.catalog = new Catalog(b.dialect, signals == null ? null : signals::publish);
        this.attemptLedger = b.dialect.shared() ? new io.aqueduct.engine.session.AttemptLedger(this) : null;
        this.defaultSchema = b.defaultSchema != null ? b.defaultSchema : b.dialect.defaultSchema();
        SecureRandom random = new SecureRandom();
        this.messageIdPrefix = random.nextLong();
        this.nodeTag = Long.toHexString(random.nextInt() & 0xffffffL);
        this.deserializationFilter = b.deserializationFilter;
        this.maxPayloadBytes = b.maxPayloadBytes;
        this.timeManager = new TimeManager(this);
        StoreConnection opened = null;
        io.aqueduct.engine.session.AttemptJournal journal = early;
        try {
            opened = store.open();
            if (!b.dialect.shared() && journal == null) {
                journal = journalFile == null ? io.aqueduct.engine.session.AttemptJournal.inMemory()
                        : io.aqueduct.engine.session.AttemptJournal.open(journalFile);
            }
        } catch (RuntimeException e) {
            if (journal != null) {
                journal.close();
            }
            if (opened != null) {
                opened.close();
            }
            store.close();
            throw e;
        }
        this.internal = opened;
        this.attemptJournal = journal;
        try {
            this.sequence = new AtomicLong(loadCatalog());
        } catch (RuntimeException e) {
            internal.close();
            if (attemptJournal != null) {
                attemptJournal.close();
            }
            store.close();
            throw e;
        }
        this.admin = new QueueAdministration(this);
        if (signals != null) {
            signals.start(this::signalled);
        }
        clock.onAdvance(this::clockAdvanced);
        if (b.timeManagerExecutor != null) {
            timeManager.start(b.timeManagerExecutor);
        } else if (b.timeManager) {
            timeManager.start();
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Opens a queue session working as the engine's default user. */
    public QueueSession openSession() {
        return openSession(user);
    }

    /** Opens a queue session; {@code user} is recorded as enqueue / dequeue user. */
    public EngineSession openSession(String user) {
        checkOpen();
        return new EngineSession(this, store.open(), user == null ? this.user : user);
    }

    /** The administrative interface; each operation commits on its own, as AQ's DDL does. */
    public QueueAdmin admin() {
        checkOpen();
        return admin;
    }

    public TimeManager timeManager() {
        return timeManager;
    }

    public AqClock clock() {
        return clock;
    }

    /** The largest payload an enqueue accepts, in stored bytes (see {@link Builder#maxPayloadBytes}). */
    public long maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** What OBJECT payloads may contain when they are read back (see {@link Builder#deserializationFilter}). */
    public io.aqueduct.engine.payload.DeserializationFilter deserializationFilter() {
        return deserializationFilter;
    }

    /** The attempt journal of a Derby store; null on a shared store. */
    public io.aqueduct.engine.session.AttemptJournal attemptJournal() {
        return attemptJournal;
    }

    /** Does an in-doubt branch of an earlier JVM hold this message (Derby)? */
    public boolean inDoubt(String msgid) {
        return !inDoubtMessages.isEmpty() && inDoubtMessages.contains(msgid);
    }

    /** The messages in-doubt branches hold (Derby; empty almost always). */
    public java.util.Set<String> inDoubtMessages() {
        return java.util.Collections.unmodifiableSet(inDoubtMessages);
    }

    /**
     * A recovered branch was committed or rolled back and its outcome applied in the table: its
     * messages leave the in-doubt set and what is now available of them enters the ready indexes.
     */
    public void branchResolved(List<String> msgids) {
        inDoubtMessages.removeAll(msgids);
        Map<Long, List<ReadyEntry>> byQueue = inOwnTransaction(c -> c.work(em -> availableMessages(em, msgids, false)));
        byQueue.forEach((queueId, entries) -> {
            QueueRuntime q = catalog.queue(queueId);
            if (q != null) {
                q.addAll(entries);
            }
        });
        timeManager.wake();
    }

    /** The attempt ledger of a shared store; null on a store of one JVM. */
    public io.aqueduct.engine.session.AttemptLedger attemptLedger() {
        return attemptLedger;
    }

    public Catalog catalog() {
        return catalog;
    }

    public Store store() {
        return store;
    }

    public String defaultSchema() {
        return defaultSchema;
    }

    /** Open XA branches of this engine's sessions, by Xid: ended through any of its XAResources. */
    public Map<io.aqueduct.engine.session.XidKey, SessionTransaction> xaBranches() {
        return xaBranches;
    }

    /** The next message sequence number: unique in the store, increasing in enqueue order on this node. */
    public long nextSequence() {
        if (!store.dialect().shared()) {
            return sequence.incrementAndGet();
        }
        synchronized (sequence) {
            long next = sequence.get() + 1;
            if (next > sequenceBlockEnd) {
                // several nodes number their messages: each takes a block of the database's sequence at a time
                next = inOwnTransaction(c -> {
                    long[] first = new long[1];
                    c.jdbc(conn -> first[0] = store.dialect().reserveSequenceBlock(conn));
                    return first[0];
                });
                sequenceBlockEnd = next + store.dialect().sequenceBlockSize() - 1;
            }
            sequence.set(next);
            return next;
        }
    }

    /** Another node changed a queue (or the catalog): wake whoever waits here to look again. */
    private void signalled(long queueId) {
        if (queueId == io.aqueduct.engine.store.NodeSignals.CATALOG) {
            try {
                refreshCatalog();
            } catch (RuntimeException e) {
                // the next lookup that misses tries again
                java.util.logging.Logger.getLogger(AqueductEngine.class.getName()).log(java.util.logging.Level.WARNING,
                        "Aqueduct could not re-read the catalog another node changed", e);
            }
            return;
        }
        QueueRuntime q = queueId == io.aqueduct.engine.store.NodeSignals.ALL ? null : catalog.queue(queueId);
        if (q != null) {
            q.wakeAll();
        } else {
            catalog.queues().forEach(QueueRuntime::wakeAll);
        }
        if (queueId == io.aqueduct.engine.store.NodeSignals.ALL) {
            timeManager.wake();
        }
    }

    public String nextTransactionId() {
        return nodeTag + "." + transactions.incrementAndGet();
    }

    /** 16 bytes: a random per-start prefix and a counter, unique without asking the database. */
    public byte[] nextMessageId() {
        long n = messageCounter.incrementAndGet();
        byte[] id = new byte[16];
        for (int i = 0; i < 8; i++) {
            id[i] = (byte) (messageIdPrefix >>> (56 - 8 * i));
            id[8 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return id;
    }

    /**
     * Runs work on the engine's own connection in a transaction of its own (administration, retry
     * accounting), committing it; a lock timeout or deadlock is tried again.
     */
    public <T> T inOwnTransaction(Function<StoreConnection, T> work) {
        internalLock.lock();
        try {
            for (int attempt = 1;; attempt++) {
                StoreConnection c = ownConnection();
                T result;
                try {
                    result = work.apply(c);
                } catch (RuntimeException e) {
                    if (c.broken()) {
                        // nothing was committed: once more on a fresh connection (the server may be back already)
                        replaceOwnConnection();
                        if (attempt >= 2) {
                            throw e;
                        }
                        continue;
                    }
                    c.rollback();
                    if (attempt >= 5 || !c.isTransient(e)) {
                        throw e;
                    }
                    continue;
                }
                try {
                    c.commit();
                } catch (AqException e) {
                    if (c.broken()) {
                        replaceOwnConnection();
                        throw new AqException(AqError.COMMIT_OUTCOME_UNKNOWN, "The connection to the Aqueduct store broke while"
                                + " it committed; whether the change was made is not known. Look before you repeat it.", e);
                    }
                    throw e;
                }
                return result;
            }
        } finally {
            internalLock.unlock();
        }
    }

    /** The engine's own connection, opened again after it broke (throws STORE_UNAVAILABLE while the store is down). */
    private StoreConnection ownConnection() {
        if (internal == null) {
            internal = store.open();
        }
        return internal;
    }

    private void replaceOwnConnection() {
        StoreConnection broken = internal;
        internal = null;
        if (broken != null) {
            broken.closeQuietly();
        }
    }

    /**
     * Administration's transaction: as {@link #inOwnTransaction}, and on a shared store the other
     * nodes are told (after the commit) to re-read the catalog.
     */
    public <T> T inAdminTransaction(Function<StoreConnection, T> work) {
        T result = inOwnTransaction(work);
        if (signals != null) {
            signals.publish(io.aqueduct.engine.store.NodeSignals.CATALOG);
        }
        return result;
    }

    /**
     * Re-reads queue tables, queues, subscribers and transformations on a shared store (another
     * node changed them); returns whether it did (false on a store of one JVM, whose catalog is
     * always whole). Queues keep their waiters; a queue gone from the table is marked dropped.
     */
    public boolean refreshCatalog() {
        if (signals == null || closed) {
            return false;
        }
        // under the administration's lock: a local administrative change (commit, then its update of the
        // catalog in memory) is never interleaved with a re-read that already sees its commit
        synchronized (admin) {
            inOwnTransaction(c -> {
                c.jdbc(conn -> io.aqueduct.engine.transform.Transformations.loadAll(conn).forEach(catalog::putTransformation));
                return null;
            });
            inOwnTransaction(c -> c.work(em -> {
                java.util.Set<Long> tableIds = new java.util.HashSet<>();
                for (QueueTableEntity t : em.createQuery("SELECT t FROM QueueTableEntity t", QueueTableEntity.class).getResultList()) {
                    catalog.putTable(tableMeta(t));
                    tableIds.add(t.id);
                }
                for (QueueTableMeta t : List.copyOf(catalog.tables())) {
                    if (!tableIds.contains(t.id())) {
                        catalog.removeTable(t.qualifiedName());
                    }
                }
                java.util.Map<Long, List<Subscriber>> subscribers = new java.util.HashMap<>();
                for (SubscriberEntity sub : em.createQuery("SELECT s FROM SubscriberEntity s ORDER BY s.id", SubscriberEntity.class)
                        .getResultList()) {
                    subscribers.computeIfAbsent(sub.queueId, k -> new java.util.ArrayList<>()).add(Subscriber.of(
                            new io.aqueduct.api.Agent(sub.name, sub.address, sub.protocol),
                            sub.rule == null ? null : Expression.parse(sub.rule), sub.transformation));
                }
                java.util.Set<Long> queueIds = new java.util.HashSet<>();
                for (QueueEntity q : em.createQuery("SELECT q FROM QueueEntity q", QueueEntity.class).getResultList()) {
                    QueueRuntime r = catalog.putQueue(queueMeta(q));
                    r.subscribers(subscribers.getOrDefault(q.id, List.of()));
                    queueIds.add(q.id);
                }
                for (QueueRuntime r : List.copyOf(catalog.queues())) {
                    if (!queueIds.contains(r.meta().id())) {
                        catalog.removeQueue(r);
                    }
                }
                return null;
            }));
        }
        return true;
    }

    private void clockAdvanced() {
        for (QueueRuntime q : catalog.queues()) {
            q.wakeAll();
        }
        catalog.listeners().wakeAll();
        timeManager.wake();
    }

    /** Loads queue tables and queues, fills the ready indexes; returns the highest message sequence. */
    private long loadCatalog() {
        inOwnTransaction(c -> {
            c.jdbc(conn -> io.aqueduct.engine.transform.Transformations.loadAll(conn).forEach(catalog::putTransformation));
            return null;
        });
        inOwnTransaction(c -> c.work(em -> {
            for (QueueTableEntity t : em.createQuery("SELECT t FROM QueueTableEntity t", QueueTableEntity.class).getResultList()) {
                catalog.putTable(tableMeta(t));
            }
            for (QueueEntity q : em.createQuery("SELECT q FROM QueueEntity q", QueueEntity.class).getResultList()) {
                catalog.putQueue(queueMeta(q));
            }
            for (SubscriberEntity sub : em.createQuery("SELECT s FROM SubscriberEntity s ORDER BY s.id", SubscriberEntity.class)
                    .getResultList()) {
                QueueRuntime q = catalog.queue(sub.queueId);
                if (q != null) {
                    List<Subscriber> subs = new java.util.ArrayList<>(q.subscribers());
                    subs.add(Subscriber.of(new io.aqueduct.api.Agent(sub.name, sub.address, sub.protocol),
                            sub.rule == null ? null : Expression.parse(sub.rule), sub.transformation));
                    q.subscribers(subs);
                }
            }
            return null;
        }));
        recoverJournal();
        return inOwnTransaction(c -> c.work(em -> {
            for (java.util.Map.Entry<Long, List<ReadyEntry>> e : availableMessages(em, null, true).entrySet()) {
                QueueRuntime q = catalog.queue(e.getKey());
                if (q != null) {
                    q.addAll(e.getValue());
                }
            }
            // dirty on Derby: an in-doubt branch's rows count too (their numbers are taken), and no lock is waited for
            Object max = em.createNativeQuery("SELECT MAX(SEQ) FROM AQ_MESSAGE" + store.dialect().dirtyReadSuffix())
                    .getSingleResult();
            return max == null ? 0L : ((Number) max).longValue();
        }));
    }

    /**
     * Derby after a crash: reads what the attempt journal says the transactions of the earlier JVM
     * held. A branch the database still has in doubt is registered by its Xid (a transaction
     * manager's commit or rollback through any session applies the engine's side) and its messages
     * stay out of the indexes; every other transaction is over (Derby rolled it back at boot, or it
     * committed before the journal was cleared): its REMOVE attempts are counted now, as failed if
     * the message is still there to retry.
     */
    private void recoverJournal() {
        if (attemptJournal == null || attemptJournal.leftBehind().isEmpty()) {
            return;
        }
        java.util.Set<io.aqueduct.engine.session.XidKey> inDoubt = new java.util.HashSet<>();
        try {
            javax.transaction.xa.Xid[] xids = ownConnection().xaResource().recover(
                    javax.transaction.xa.XAResource.TMSTARTRSCAN | javax.transaction.xa.XAResource.TMENDRSCAN);
            for (javax.transaction.xa.Xid x : xids == null ? new javax.transaction.xa.Xid[0] : xids) {
                inDoubt.add(io.aqueduct.engine.session.XidKey.of(x));
            }
        } catch (javax.transaction.xa.XAException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot list the XA branches in doubt in the Aqueduct store: " + e, e);
        }
        Map<Long, List<io.aqueduct.engine.session.AttemptJournal.Entry>> byTransaction = new java.util.LinkedHashMap<>();
        for (io.aqueduct.engine.session.AttemptJournal.Entry e : attemptJournal.leftBehind()) {
            byTransaction.computeIfAbsent(e.tx(), k -> new java.util.ArrayList<>()).add(e);
        }
        List<io.aqueduct.engine.session.AttemptJournal.Entry> toCount = new java.util.ArrayList<>();
        List<Integer> settled = new java.util.ArrayList<>();
        int branches = 0;
        for (List<io.aqueduct.engine.session.AttemptJournal.Entry> records : byTransaction.values()) {
            io.aqueduct.engine.session.XidKey xid = records.stream().filter(r -> r.xid() != null)
                    .map(io.aqueduct.engine.session.AttemptJournal.Entry::xid).findFirst().orElse(null);
            if (xid != null && inDoubt.contains(xid)) {
                SessionTransaction branch = SessionTransaction.recovered(catalog, records);
                xaBranches.put(xid, branch);
                inDoubtMessages.addAll(branch.recoveredMessages());
                branches++;
            } else {
                records.stream().filter(r -> r.kind() == io.aqueduct.engine.session.AttemptJournal.ATTEMPT).forEach(toCount::add);
                records.forEach(r -> settled.add(r.slot()));
            }
        }
        io.aqueduct.engine.session.TransactionCompletion.countAttemptsAtStart(this, toCount);
        attemptJournal.free(settled);
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(AqueductEngine.class.getName());
        if (!toCount.isEmpty()) {
            log.info("Aqueduct counted " + toCount.size() + " dequeue attempt(s) that a stopped JVM left unfinished.");
        }
        if (branches > 0) {
            log.warning("Aqueduct found " + branches + " XA branch(es) in doubt holding " + inDoubtMessages.size()
                    + " message(s); they stay invisible until the transaction manager recovers them (XAResource.recover,"
                    + " then commit or rollback through any Aqueduct session).");
        }
    }

    /** Re-reads the available messages of every queue into the ready indexes (after XA recovery). */
    public void resynchronize() {
        Map<Long, List<ReadyEntry>> byQueue = inOwnTransaction(c -> c.work(em -> availableMessages(em, null, false)));
        for (QueueRuntime q : catalog.queues()) {
            q.resynchronize(byQueue.getOrDefault(q.meta().id(), List.of()));
        }
        timeManager.wake();
    }

    /**
     * What can be dequeued, by queue, as the table says: READY messages (each local consumer's
     * pending part on a multi-consumer queue) and EXPIRED ones in exception queues. A multi-consumer
     * message nobody has pending any more is handed to the time manager to be completed.
     */
    @SuppressWarnings("unchecked")
    private Map<Long, List<ReadyEntry>> availableMessages(jakarta.persistence.EntityManager em, List<String> only, boolean atStart) {
        Map<Long, List<ReadyEntry>> out = new java.util.HashMap<>();
        Map<String, ReadyEntry> multi = new java.util.HashMap<>();
        if (only != null && only.isEmpty()) {
            return out;
        }
        // at start, on Derby, read without locks: rows an in-doubt branch holds would block the read (its
        // uncommitted rows are known from the journal and left out); nobody else works yet
        String dirty = atStart ? store.dialect().dirtyReadSuffix() : "";
        String ids = only == null ? "" : " AND MSGID IN (" + "?, ".repeat(only.size() - 1) + "?)";
        jakarta.persistence.Query messages = em.createNativeQuery("SELECT " + ReadyEntries.SQL_COLUMNS + " FROM AQ_MESSAGE"
                + " WHERE STATE IN (0, 3)" + ids + dirty);
        jakarta.persistence.Query consumerParts = em.createNativeQuery("SELECT MSGID, CONSUMER, QID, ADDRESS, STATE"
                + " FROM AQ_MESSAGE_CONSUMER WHERE STATE IN (0, 1)" + ids + dirty);
        for (int i = 0; only != null && i < only.size(); i++) {
            messages.setParameter(i + 1, only.get(i));
            consumerParts.setParameter(i + 1, only.get(i));
        }
        for (Object[] row : (List<Object[]>) messages.getResultList()) {
            QueueRuntime q = catalog.queue(ReadyEntries.queueId(row));
            if (q == null || inDoubt(ReadyEntries.msgid(row))) {
                continue;
            }
            if (q.meta().table().multipleConsumers() && !q.meta().isException()) {
                multi.put(ReadyEntries.msgid(row), ReadyEntries.entry(row));
            } else {
                out.computeIfAbsent(q.meta().id(), k -> new java.util.ArrayList<>()).add(ReadyEntries.entry(row));
            }
        }
        if (!multi.isEmpty()) {
            java.util.Set<String> pending = new java.util.HashSet<>();
            for (Object[] part : (List<Object[]>) consumerParts.getResultList()) {
                String msgid = ((String) part[0]).trim();
                ReadyEntry message = multi.get(msgid);
                if (message == null) {
                    continue;
                }
                pending.add(msgid);
                // WAITING parts come back through the time manager; remote ones through propagation
                if (part[3] == null && ((Number) part[4]).intValue() == 0) {
                    out.computeIfAbsent(((Number) part[2]).longValue(), k -> new java.util.ArrayList<>())
                            .add(message.forConsumer(((String) part[1]).trim(), message.expiresAt));
                }
            }
            for (String msgid : multi.keySet()) {
                if (!pending.contains(msgid)) {
                    timeManager.checkCompletion(msgid);
                }
            }
        }
        return out;
    }

    public QueueTableMeta tableMeta(QueueTableEntity t) {
        return new QueueTableMeta(t.id, t.owner, t.name, PayloadType.valueOf(t.payloadType), t.objectType,
                SortOrder.fromSortList(t.sortOrder), t.multipleConsumers == 1, MessageGrouping.valueOf(t.messageGrouping),
                t.comment);
    }

    public QueueMeta queueMeta(QueueEntity q) {
        QueueTableMeta table = catalog.tables().stream().filter(t -> t.id() == q.queueTableId).findFirst()
                .orElseThrow(() -> new IllegalStateException("Queue " + q.name + " has no queue table " + q.queueTableId));
        return new QueueMeta(q.id, q.owner, q.name, table, QueueType.valueOf(q.queueType), q.maxRetries, q.retryDelay,
                q.retention, q.enqueueEnabled == 1, q.dequeueEnabled == 1, q.comment);
    }

    private void checkOpen() {
        if (closed) {
            throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine is closed.");
        }
    }

    /** Stops the time manager and shuts the store down; open sessions' work is rolled back. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (signals != null) {
            signals.close();
        }
        timeManager.close();
        if (attemptLedger != null) {
            attemptLedger.close();
        }
        for (QueueRuntime q : catalog.queues()) {
            q.wakeAll();
        }
        catalog.listeners().wakeAll();
        internalLock.lock();
        try {
            if (internal != null) {
                internal.closeQuietly();
            }
        } finally {
            internalLock.unlock();
        }
        store.close();
        if (attemptJournal != null) {
            attemptJournal.close();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** How to start an engine. */
    public static final class Builder {
        private Dialect dialect;
        private AqClock clock = AqClock.system();
        private String user = System.getProperty("user.name", "AQUEDUCT");
        private String defaultSchema;
        private boolean timeManager = true;
        private java.util.concurrent.Executor timeManagerExecutor;
        private io.aqueduct.engine.payload.DeserializationFilter deserializationFilter =
                io.aqueduct.engine.payload.DeserializationFilter.DEFAULT;

        /** By default: 64 MiB, within what every store keeps in one row (MariaDB's default packet is 16 MiB: raise max_allowed_packet). */
        public static final long DEFAULT_MAX_PAYLOAD_BYTES = 64L * 1024 * 1024;
        private long maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;

        /**
         * The largest payload an enqueue accepts, in stored bytes (UTF-8 for text, JSON and XML; the
         * serialized form for objects); larger ones are refused with 24097 before anything is written.
         *
         * @throws io.aqueduct.api.AqException 24097 when not positive
         */
        public Builder maxPayloadBytes(long bytes) {
            if (bytes < 1) {
                throw new AqException(AqError.INVALID_VALUE, "maxPayloadBytes must be at least 1; got " + bytes + ".");
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * Classes OBJECT payloads may hold beyond the default (the queue table's object type and its
         * package, the JDK's value classes, primitive arrays), or that they may not, in the JDK's
         * ObjectInputFilter syntax: {@code com.example.shared.*;!com.example.orders.Internal}.
         * Decided before the default rule; anything neither allows is refused when read back.
         *
         * @throws io.aqueduct.api.AqException 24097 for malformed patterns
         */
        public Builder deserializationFilter(String patterns) {
            this.deserializationFilter = io.aqueduct.engine.payload.DeserializationFilter.of(patterns);
            return this;
        }

        /** A durable embedded Derby database in {@code directory}. */
        public Builder derbyDirectory(Path directory) {
            this.dialect = DerbyDialect.directory(directory);
            return this;
        }

        /** An in-memory Derby database (tests). */
        public Builder derbyInMemory(String name) {
            this.dialect = DerbyDialect.inMemory(name);
            return this;
        }

        /**
         * The store at a JDBC URL: PostgreSQL or MariaDB (several engines, in several JVMs, may
         * share it) or Derby; the dialect is chosen from what the database says it is.
         */
        public Builder jdbc(String url, String user, String password) {
            this.dialect = io.aqueduct.engine.store.Dialects.forJdbc(new io.aqueduct.engine.store.JdbcSettings(url, user, password));
            return this;
        }

        public Builder dialect(Dialect dialect) {
            this.dialect = dialect;
            return this;
        }

        public Builder clock(AqClock clock) {
            this.clock = clock;
            return this;
        }

        /** The user recorded for sessions that do not name one. */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /** The schema of names given without one (the dialect's default otherwise). */
        public Builder defaultSchema(String schema) {
            this.defaultSchema = schema == null ? null : schema.toUpperCase(java.util.Locale.ROOT);
            return this;
        }

        /** Whether the time manager thread runs (tests may drive it by hand with runDue()). */
        public Builder timeManager(boolean run) {
            this.timeManager = run;
            return this;
        }

        /** Runs the time manager's loop on this executor (a container's WorkManager) instead of a thread of its own. */
        public Builder timeManagerExecutor(java.util.concurrent.Executor executor) {
            this.timeManagerExecutor = executor;
            return this;
        }

        /**
         * Starts the engine. Without a store chosen, a durable Derby database in the directory of
         * the {@value #DEFAULT_DIRECTORY_PROPERTY} system property, else {@code ~/.aqueduct/store}.
         */
        public AqueductEngine start() {
            if (dialect == null) {
                String dir = System.getProperty(DEFAULT_DIRECTORY_PROPERTY);
                Path path = dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".aqueduct", "store");
                dialect = DerbyDialect.directory(path);
            }
            return new AqueductEngine(this);
        }
    }

    static {
        // make sure the entity classes are loaded with the engine (persistence.xml lists them)
        MessageEntity.class.getName();
    }
}
