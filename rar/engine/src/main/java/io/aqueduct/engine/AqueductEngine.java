package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStore;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import io.aqueduct.engine.admin.CatalogLoader;
import io.aqueduct.engine.admin.QueueAdministration;
import io.aqueduct.engine.payload.DeserializationFilter;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyIndexLoader;
import io.aqueduct.engine.session.AttemptJournal;
import io.aqueduct.engine.session.AttemptLedger;
import io.aqueduct.engine.session.Branches;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.JournalRecovery;
import io.aqueduct.engine.session.RetryAccounting;
import io.aqueduct.engine.session.SessionContext;
import io.aqueduct.engine.session.TransactionCompletion;
import io.aqueduct.engine.session.XidKey;
import io.aqueduct.engine.store.DerbyDialect;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.Ids;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.NodeIdentity;
import io.aqueduct.engine.store.NodeSignals;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.Store;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.time.TimeManager;
import io.aqueduct.engine.transform.TransformationCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The Aqueduct queue engine in one JVM: the store, the catalog of queue tables and queues with
 * their ready indexes, the time manager and the sessions. Plain Java SE; the resource adapter
 * wraps it for Jakarta EE. It is the composition root: it builds the parts, each given the narrow
 * services it uses, and nothing inside the engine refers back to it.
 *
 * <pre>
 * try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(Path.of("data")).start();
 *      QueueSession session = engine.openSession()) { ... }
 * </pre>
 */
public final class AqueductEngine implements AqStore {
    private static final Logger LOG = Logger.getLogger(AqueductEngine.class.getName());
    /** Where the Derby database lives when nothing is configured. */
    public static final String DEFAULT_DIRECTORY_PROPERTY = "aqueduct.store.directory";
    /** The signal address when the builder is given none (see {@link Builder#signalAddress}). */
    public static final String SIGNAL_ADDRESS_PROPERTY = "aqueduct.signalAddress";

    private final Store store;
    private final AqClock clock;
    private final String user;
    private final String defaultSchema;
    private final Catalog catalog;
    /** Wake-ups to and from the other nodes of a shared store; null on a store of one JVM. */
    private final NodeSignals signals;
    /** REMOVE attempts in flight on a shared store, counted by another node if this one dies; null on Derby. */
    private final AttemptLedger attemptLedger;
    /** Derby's attempt journal (REMOVE attempts and prepared branches in flight); null on a shared store. */
    private final AttemptJournal attemptJournal;
    private final OwnTransactions own;
    private final TimeManager timeManager;
    private final QueueAdministration admin;
    /** The queues' MBeans in the platform MBean server (docs/metrics.md). */
    private final QueueMBeans mbeans;
    private final ScheduleMBeans scheduleMBeans;
    private final EngineMBean engineMBean;
    /** Probes the store for health checks (EngineMXBean), on a connection of its own. */
    private final io.aqueduct.engine.store.StoreProbe probe;
    private final OwnTransactions statisticsReads;
    private final SessionContext sessions;
    private final Branches branches;
    private final io.aqueduct.engine.propagation.DatabaseLinks links;
    private final io.aqueduct.engine.security.Privileges privileges;
    private final io.aqueduct.engine.propagation.Propagator propagator;
    private final io.aqueduct.engine.notification.Registrations registrations;
    private final io.aqueduct.engine.notification.Notifier notifier;
    private final io.aqueduct.engine.buffered.BufferedMessages buffered;
    /** What this engine's store is (see {@link #storeIdentity}); null when started from a bare dialect. */
    private final String identity;
    private volatile boolean closed;

    /**
     * The engines open in this JVM, by store: a database link to a store that is open here already
     * uses that engine (an embedded Derby store cannot be opened twice).
     */
    private static final java.util.Map<String, AqueductEngine> OPEN = new java.util.concurrent.ConcurrentHashMap<>();

    private AqueductEngine(Builder b) {
        this.clock = b.clock;
        this.user = b.user;
        Dialect dialect = b.dialect;
        NodeIdentity node = NodeIdentity.random();
        // an existing Derby store's journal is locked before Derby boots: a second engine on it is refused
        // without touching the first one's database (a failed start shuts Derby down)
        Path journalFile = dialect.shared() ? null : dialect.journalFile();
        AttemptJournal early = journalFile != null && Files.isDirectory(journalFile.getParent())
                ? AttemptJournal.open(journalFile) : null;
        try {
            this.store = new Store(dialect);
        } catch (RuntimeException e) {
            if (early != null) {
                early.close();
            }
            throw e;
        }
        this.own = new OwnTransactions(store);
        this.statisticsReads = new OwnTransactions(store); // opened at the first statistics call
        AttemptJournal journal = early;
        try {
            own.open();
            if (!dialect.shared() && journal == null) {
                journal = journalFile == null ? AttemptJournal.inMemory() : AttemptJournal.open(journalFile);
            }
        } catch (RuntimeException e) {
            if (journal != null) {
                journal.close();
            }
            own.close();
            store.close();
            throw e;
        }
        this.attemptJournal = journal;
        this.signals = dialect.shared() ? dialect.signals(node, b.signalAddress != null ? b.signalAddress
                : io.aqueduct.engine.store.DirectSignals.Config.parse(System.getProperty(SIGNAL_ADDRESS_PROPERTY))) : null;
        this.catalog = new Catalog(dialect, signals == null ? null : signals::publish);
        this.attemptLedger = dialect.shared() ? new AttemptLedger(store, node, b.background()) : null;
        this.defaultSchema = b.defaultSchema != null ? b.defaultSchema : dialect.defaultSchema();
        TransformationCatalog transformations = new TransformationCatalog(defaultSchema);
        Branches branches = new Branches();
        this.branches = branches;
        this.timeManager = new TimeManager(store, catalog, clock, branches.inDoubtMessages());
        ReadyIndexLoader indexes = new ReadyIndexLoader(own, catalog, branches.inDoubtMessages(), timeManager::checkCompletion);
        branches.connect(indexes, timeManager);
        Runnable catalogChanged = signals == null ? null : () -> signals.publish(NodeSignals.CATALOG);
        this.privileges = new io.aqueduct.engine.security.Privileges(own, catalog, clock::millis, defaultSchema, user, b.administrators,
                catalogChanged);
        io.aqueduct.engine.security.Privileges granted = privileges;
        this.registrations = new io.aqueduct.engine.notification.Registrations(own, catalog, clock, defaultSchema,
                catalogChanged, new io.aqueduct.engine.notification.RegistrationAccess() {
                    @Override
                    public void checkDequeue(String sessionUser, io.aqueduct.engine.queue.QueueMeta queue) {
                        granted.check(sessionUser, queue, io.aqueduct.api.QueuePrivilege.DEQUEUE);
                    }

                    @Override
                    public void checkMayChange(String sessionUser, String registeredBy, String what) {
                        granted.checkOwnerOrManageAny(sessionUser, registeredBy, what);
                    }
                });
        this.notifier = new io.aqueduct.engine.notification.Notifier(own, catalog, registrations, clock, b.deserializationFilter,
                new io.aqueduct.engine.notification.Transports(b.mail), b.notificationListenerTimeout);
        timeManager.availability(notifier); // delay and retry-delay ends notify when the message is READY
        RetryAccounting retries = new RetryAccounting(own, catalog, clock, timeManager, attemptLedger, notifier);
        TransactionCompletion completion = new TransactionCompletion(own, clock, timeManager, retries, branches,
                attemptLedger, attemptJournal, this::preparedInStore);
        CatalogLoader loader = new CatalogLoader(own, catalog, transformations);
        this.links = new io.aqueduct.engine.propagation.DatabaseLinks(own, linkOpener(b), clock);
        io.aqueduct.engine.propagation.Propagator[] propagation = new io.aqueduct.engine.propagation.Propagator[1];
        io.aqueduct.engine.propagation.ScheduleAdministration schedules = new io.aqueduct.engine.propagation.ScheduleAdministration(
                own, catalog, links, clock, defaultSchema, () -> {
                    if (propagation[0] != null) {
                        propagation[0].wake();
                    }
                    if (signals != null) {
                        signals.publish(NodeSignals.CATALOG); // the other nodes' propagators look again
                    }
                });
        this.admin = new QueueAdministration(own, catalog, transformations, loader, timeManager, defaultSchema,
                catalogChanged, schedules, links, privileges, new io.aqueduct.engine.security.AqAgents(own), registrations, clock,
                statisticsReads);
        // not the grants: a lookup that misses (a mistyped queue name) should not read them all; they are read
        // again on the catalog signal and when older than Privileges.MAX_AGE
        catalog.refresher(() -> !closed && admin.refreshCatalog());
        Ids ids = new Ids(node, own);
        io.aqueduct.engine.buffered.BufferedMessages buffered = new io.aqueduct.engine.buffered.BufferedMessages(clock,
                timeManager, b.maxBufferedBytes, b.bufferedEnqueueWaitMillis, b.deserializationFilter);
        timeManager.inMemoryWork(buffered::runDue); // the one clock drives buffered delays and expirations too
        admin.buffered(new io.aqueduct.engine.admin.BufferedQueues() {
            @Override
            public java.util.List<io.aqueduct.api.BufferedQueueInfo> view() {
                return buffered.view();
            }

            @Override
            public void consumerRemoved(QueueRuntime queue, String consumerKey) {
                buffered.dropConsumer(queue, consumerKey);
            }
        });
        this.buffered = buffered;
        this.sessions = new SessionContext(store, catalog, transformations, clock, ids, defaultSchema,
                new SessionContext.Limits(b.maxPayloadBytes, b.deserializationFilter), completion, branches,
                attemptJournal, attemptLedger, admin, privileges, () -> closed, registrations, notifier,
                new io.aqueduct.engine.propagation.PropagationReceiving(clock), buffered);
        this.propagator = new io.aqueduct.engine.propagation.Propagator(own, catalog, clock, node, dialect.shared(),
                this::openSession, links, transformations, b.deserializationFilter, branches.inDoubtMessages(), user);
        propagation[0] = propagator;
        completion.onPropagatableMessages(propagator::messagesFor);
        completion.notifier(notifier);
        String storeName = b.identity != null ? b.identity : dialect.database();
        this.mbeans = new QueueMBeans(storeName, node.tag(), admin);
        mbeans.listen(catalog);
        this.scheduleMBeans = new ScheduleMBeans(storeName, node.tag(), catalog, schedules);
        scheduleMBeans.listen(propagator);
        this.probe = new io.aqueduct.engine.store.StoreProbe(store);
        this.engineMBean = new EngineMBean(storeName, node.tag(), probe, timeManager, propagator);
        try {
            loader.load();
            privileges.reload();
            registrations.load();
            warnOfXaProblem(own);
            JournalRecovery.recover(attemptJournal, own, catalog, branches, retries);
            ids.continueAfter(indexes.loadAtStart());
        } catch (RuntimeException e) {
            mbeans.close();
            scheduleMBeans.close();
            probe.close();
            statisticsReads.close();
            if (attemptLedger != null) {
                attemptLedger.close();
            }
            own.close();
            if (attemptJournal != null) {
                attemptJournal.close();
            }
            store.close();
            throw e;
        }
        if (attemptLedger != null) {
            timeManager.onBeat(now -> {
                attemptLedger.heartbeat(now);
                completion.settleBranchesEndedElsewhere();
                var left = attemptLedger.leftByDeadNodes(now);
                if (!left.isEmpty()) {
                    retries.countAttemptsLeftBy(left);
                }
            });
        }
        if (signals != null) {
            signals.start(this::signalled, b.background());
        }
        clock.onAdvance(this::clockAdvanced);
        engineMBean.register();
        if (b.timeManager) {
            timeManager.start(b.background());
            propagator.start(b.background());
            notifier.start(b.background());
        }
        this.identity = b.identity;
        if (identity != null) {
            OPEN.put(identity, this);
        }
    }

    /** What keeps XA from working on the store (PostgreSQL's max_prepared_transactions = 0) is said once, at start. */
    private static void warnOfXaProblem(OwnTransactions own) {
        String problem = own.run(c -> {
            try {
                return c.dialect().xaProblem(c.connection());
            } catch (java.sql.SQLException e) {
                LOG.log(Level.FINE, "Aqueduct could not ask the store whether XA works", e);
                return null;
            }
        });
        if (problem != null) {
            LOG.warning("Aqueduct: " + problem);
        }
    }

    /**
     * How this engine opens the store of a database link: the engine of this JVM that has it open
     * already, else a new engine on it (same clock, same place for its loops, closed with this one).
     */
    private io.aqueduct.engine.propagation.LinkedStore.Opener linkOpener(Builder b) {
        AqClock linkClock = b.clock;
        java.util.concurrent.Executor executor = b.backgroundExecutor;
        String linkUser = b.user;
        return (url, linkDbUser, password) -> {
            String key = storeIdentity(url, linkDbUser);
            AqueductEngine there = OPEN.get(key);
            if (there != null && !there.isClosed()) {
                return linkedStore(there, false, linkClock);
            }
            Builder lb = builder().clock(linkClock).user(linkUser);
            if (executor != null) {
                lb.backgroundExecutor(executor);
            }
            String derby = derbyPart(url);
            if (derby != null && derby.startsWith("memory:")) {
                lb.derbyInMemory(derby.substring("memory:".length()));
            } else if (derby != null) {
                lb.derbyDirectory(Path.of(derby));
            } else {
                lb.jdbc(url, linkDbUser, password);
            }
            return linkedStore(lb.start(), true, linkClock);
        };
    }

    private static io.aqueduct.engine.propagation.LinkedStore linkedStore(AqueductEngine engine, boolean owned, AqClock clock) {
        return new io.aqueduct.engine.propagation.LinkedStore() {
            @Override
            public io.aqueduct.engine.propagation.LinkSession openSession(String user) {
                return new io.aqueduct.engine.propagation.StoreLinkSession(engine.openSession(user), clock);
            }

            @Override
            public boolean isOpen() {
                return !engine.isClosed();
            }

            @Override
            public void close() {
                if (owned) {
                    engine.close();
                }
            }
        };
    }

    /** The Derby database a link's URL names (a directory, or "memory:name"), or null for another database. */
    private static String derbyPart(String url) {
        String u = url.strip();
        if (!u.regionMatches(true, 0, "jdbc:", 0, 5)) {
            return u; // a Derby store directory
        }
        if (!u.regionMatches(true, 0, "jdbc:derby:", 0, 11)) {
            return null;
        }
        String rest = u.substring(11);
        if (rest.startsWith("//")) {
            return null; // Derby's network server (jdbc:derby://host:port/db): a JDBC URL like any other
        }
        int semicolon = rest.indexOf(';');
        return semicolon < 0 ? rest : rest.substring(0, semicolon);
    }

    /** One name per store, whatever way it was given: a link to a store this JVM has open finds its engine. */
    static String storeIdentity(String url, String user) {
        String derby = derbyPart(url);
        if (derby != null) {
            return derby.startsWith("memory:") ? "derby:" + derby
                    : "derby:" + Path.of(derby).toAbsolutePath().normalize();
        }
        return url.strip() + "|" + (user == null ? "" : user);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Opens a queue session working as the engine's default user. */
    @Override
    public QueueSession openSession() {
        return openSession(user);
    }

    /** Opens a queue session; {@code user} is recorded as enqueue / dequeue user. */
    @Override
    public EngineSession openSession(String user) {
        checkOpen();
        return new EngineSession(sessions, store.open(), user == null ? this.user : user);
    }

    /** The administrative interface; each operation commits on its own, as AQ's DDL does. */
    @Override
    public QueueAdmin admin() {
        checkOpen();
        return admin;
    }

    @Override
    public void bindNotificationListener(String name, io.aqueduct.api.AqNotificationListener listener) {
        checkOpen();
        notifier.bind(name, listener);
    }

    @Override
    public void unbindNotificationListener(String name) {
        notifier.unbind(name);
    }

    /** The notification loop (tests drive it by hand with {@code runDue()} when the time manager does not run). */
    public io.aqueduct.engine.notification.Notifier notifier() {
        return notifier;
    }

    /** The time manager (tests drive it by hand with {@link TimeManager#runDue()}). */
    public TimeManager timeManager() {
        return timeManager;
    }

    public AqClock clock() {
        return clock;
    }

    /**
     * The ids of the messages that XA branches left in doubt by an earlier JVM hold: invisible to
     * dequeue until the transaction manager commits or rolls those branches back (empty when nothing
     * is in doubt). A read-only live view for operators and monitoring.
     */
    public Set<String> inDoubtMessages() {
        return branches.inDoubtMessages();
    }

    /** The schema of names given without one. */
    public String defaultSchema() {
        return defaultSchema;
    }

    /** The XA branches the database lists as prepared, asked through a session's resource (as a transaction manager would). */
    private Set<XidKey> preparedInStore() {
        Set<XidKey> listed = new HashSet<>();
        try (EngineSession s = openSession(null)) {
            Xid[] xids = s.xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            for (Xid x : xids == null ? new Xid[0] : xids) {
                listed.add(XidKey.of(x));
            }
        } catch (XAException e) {
            throw new AqException(AqError.STORE_FAILURE, "Cannot list the store's in-doubt branches: " + e, e);
        }
        return listed;
    }

    /** Another node changed a queue (or the catalog): wake whoever waits here to look again. */
    private void signalled(long queueId) {
        if (queueId == NodeSignals.CATALOG) {
            privileges.expire(); // a grant or revoke on another node: the next check reads the grants again
            propagator.wake(); // a schedule may have changed
            try {
                catalog.refresh();
                registrations.load(); // a registration may have changed
                notifier.wake();
            } catch (RuntimeException e) {
                // the next lookup that misses tries again
                LOG.log(Level.WARNING, "Aqueduct could not re-read the catalog another node changed", e);
            }
            return;
        }
        QueueRuntime q = queueId == NodeSignals.ALL ? null : catalog.queue(queueId);
        if (q != null) {
            q.wakeAll();
            propagator.messagesFor(queueId); // another node's commit may have added messages to propagate
        } else {
            catalog.queues().forEach(QueueRuntime::wakeAll);
            propagator.wake();
        }
        if (queueId == NodeSignals.ALL) {
            timeManager.wake();
        }
    }

    private void clockAdvanced() {
        for (QueueRuntime q : catalog.queues()) {
            q.wakeAll();
        }
        catalog.listeners().wakeAll();
        timeManager.wake();
        propagator.wake();
        notifier.wake();
    }

    /** The propagation job (tests drive it by hand with {@code runDue()} when the time manager does not run). */
    public io.aqueduct.engine.propagation.Propagator propagator() {
        return propagator;
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
        // propagation first, on an engine still open: a batch in progress ends as it would have (on a
        // closed engine it would fail and count as the schedule's failure, delaying it 30 s after a restart)
        propagator.close();
        closed = true;
        if (identity != null) {
            OPEN.remove(identity, this);
        }
        if (signals != null) {
            signals.close();
        }
        links.close();
        mbeans.close();
        scheduleMBeans.close();
        engineMBean.close();
        probe.close();
        notifier.close();
        buffered.close(); // the buffered messages are lost here, as documented; waiting enqueuers are told
        timeManager.close();
        if (attemptLedger != null) {
            attemptLedger.close();
        }
        for (QueueRuntime q : catalog.queues()) {
            q.wakeAll();
        }
        catalog.listeners().wakeAll();
        statisticsReads.close();
        own.close();
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
        private java.util.List<String> administrators = java.util.List.of();
        private String defaultSchema;
        private boolean timeManager = true;
        private java.util.concurrent.Executor backgroundExecutor;
        /** The store's identity when it was given by place (a link to it from this JVM finds this engine). */
        private String identity;
        private DeserializationFilter deserializationFilter =
                DeserializationFilter.DEFAULT;

        /** By default: 64 MiB, within what every store keeps in one row (MariaDB's default packet is 16 MiB: raise max_allowed_packet). */
        public static final long DEFAULT_MAX_PAYLOAD_BYTES = 64L * 1024 * 1024;
        private long maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
        /** By default: 64 MiB of buffered messages per engine. */
        public static final long DEFAULT_MAX_BUFFERED_BYTES = 64L * 1024 * 1024;
        private long maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES;
        /** By default a buffered enqueue waits up to 5 s for memory. */
        public static final long DEFAULT_BUFFERED_ENQUEUE_WAIT_MILLIS = 5000;
        private long bufferedEnqueueWaitMillis = DEFAULT_BUFFERED_ENQUEUE_WAIT_MILLIS;
        private io.aqueduct.engine.notification.MailSettings mail = io.aqueduct.engine.notification.MailSettings.NONE;
        private java.time.Duration notificationListenerTimeout = io.aqueduct.engine.notification.Notifier.LISTENER_TIMEOUT;
        private io.aqueduct.engine.store.DirectSignals.Config signalAddress;

        /**
         * Where this node listens for the other nodes' wake-ups on a shared store (UDP datagrams; the
         * address is registered in the store, where the others find it): {@code host}, {@code host:port},
         * {@code :port}, {@code [IPv6]:port}; {@code off} for the database's signal only. Empty or null:
         * an ephemeral port on the address this host reaches the database server from (a non-loopback
         * address of an interface that is up when that is loopback). Not called: the system property
         * {@value AqueductEngine#SIGNAL_ADDRESS_PROPERTY}, if set. Ignored on Derby.
         *
         * @throws io.aqueduct.api.AqException 24097 when malformed
         */
        public Builder signalAddress(String address) {
            this.signalAddress = io.aqueduct.engine.store.DirectSignals.Config.parse(address);
            return this;
        }

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
         * The memory the buffered messages of this engine may take together, in bytes as the engine counts
         * them (stored payload, user properties, 256 bytes per message and 64 per further consumer). A buffered
         * enqueue that would go beyond it waits ({@link #bufferedEnqueueWaitMillis}) and then fails with 25307
         * (docs/buffered.md).
         *
         * @throws io.aqueduct.api.AqException 24097 when not positive
         */
        public Builder maxBufferedBytes(long bytes) {
            if (bytes < 1) {
                throw new AqException(AqError.INVALID_VALUE, "maxBufferedBytes must be at least 1; got " + bytes + ".");
            }
            this.maxBufferedBytes = bytes;
            return this;
        }

        /**
         * How long a buffered enqueue waits, on the engine's clock, for dequeues to free memory when
         * {@link #maxBufferedBytes} is reached, before it fails with 25307; 0: it fails at once.
         *
         * @throws io.aqueduct.api.AqException 24097 when negative
         */
        public Builder bufferedEnqueueWaitMillis(long millis) {
            if (millis < 0) {
                throw new AqException(AqError.INVALID_VALUE, "bufferedEnqueueWaitMillis must be 0 or more; got " + millis + ".");
            }
            this.bufferedEnqueueWaitMillis = millis;
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
            this.deserializationFilter = DeserializationFilter.of(patterns);
            return this;
        }

        /**
         * The SMTP server of mailto: notifications: {@code host} and {@code port} (25, or 587 with STARTTLS,
         * usually), the sender address {@code from} (null: the JVM's mail defaults), the login
         * ({@code user} null: none) and whether STARTTLS is required. Without it a mailto: notification
         * fails (counted in its registration, retried) until an engine with a mail server delivers it.
         *
         * @throws io.aqueduct.api.AqException 24097 for a port outside 1-65535 or a malformed sender
         */
        public Builder mail(String host, int port, String from, String user, String password, boolean startTls) {
            if (port < 1 || port > 65535) {
                throw new AqException(AqError.INVALID_VALUE, "The SMTP port must be 1 to 65535; got " + port + ".");
            }
            if (from != null) {
                io.aqueduct.engine.notification.Registrations.checkSender(from);
            }
            this.mail = new io.aqueduct.engine.notification.MailSettings(host == null || host.isBlank() ? null : host.strip(),
                    port, from, user, password, startTls);
            return this;
        }

        /**
         * How long a {@code java:} notification listener may take with one notification (default 30 s):
         * a call that takes longer counts as a failed delivery, tried again after the back-off.
         *
         * @throws io.aqueduct.api.AqException 24097 for a timeout that is null, zero or negative
         */
        public Builder notificationListenerTimeout(java.time.Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new AqException(AqError.INVALID_VALUE, "The notification listener timeout must be positive, not "
                        + timeout + ".");
            }
            this.notificationListenerTimeout = timeout;
            return this;
        }

        /** A durable embedded Derby database in {@code directory}. */
        public Builder derbyDirectory(Path directory) {
            if (directory == null) {
                throw new AqException(AqError.INVALID_VALUE, "Give the directory of the Derby store, not null.");
            }
            this.dialect = DerbyDialect.directory(directory);
            this.identity = "derby:" + directory.toAbsolutePath().normalize();
            return this;
        }

        /** An in-memory Derby database (tests). */
        public Builder derbyInMemory(String name) {
            // the name becomes part of a JDBC URL: nothing that could add attributes or leave the memory subprotocol
            if (name == null || name.isBlank() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_'
                    || ch == '-' || ch == '.') || name.contains("..")) {
                throw new AqException(AqError.INVALID_VALUE, "'" + name + "' is not a name for an in-memory Derby store:"
                        + " use letters, digits, _, - and single dots.");
            }
            this.dialect = DerbyDialect.inMemory(name);
            this.identity = "derby:memory:" + name;
            return this;
        }

        /**
         * The store at a JDBC URL: PostgreSQL or MariaDB (several engines, in several JVMs, may
         * share it) or Derby; the dialect is chosen from what the database says it is.
         */
        public Builder jdbc(String url, String user, String password) {
            this.dialect = io.aqueduct.engine.store.Dialects.forJdbc(new io.aqueduct.engine.store.JdbcSettings(url, user, password));
            this.identity = url == null ? null : storeIdentity(url, user);
            return this;
        }

        public Builder dialect(Dialect dialect) {
            this.dialect = dialect;
            this.identity = null;
            return this;
        }

        public Builder clock(AqClock clock) {
            if (clock == null) {
                throw new AqException(AqError.INVALID_VALUE, "Give the engine a clock, not null (AqClock.system() is the default).");
            }
            this.clock = clock;
            return this;
        }

        /** The user recorded for sessions that do not name one. */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /**
         * Users who hold every privilege implicitly, besides the engine's {@link #user(String)}
         * (compared upper-cased; see docs/security.md). Null or none: the engine's user only.
         *
         * @throws io.aqueduct.api.AqException 24097 for an empty or unstorable name
         */
        public Builder administrators(java.util.Collection<String> users) {
            java.util.List<String> out = new java.util.ArrayList<>();
            for (String u : users == null ? java.util.List.<String>of() : users) {
                if (u == null || u.isBlank() || u.contains(",")) {
                    throw new AqException(AqError.INVALID_VALUE, "'" + u + "' is not an administrator's name: give one"
                            + " user name per entry.");
                }
                out.addAll(io.aqueduct.api.AqStores.administrators(u));
            }
            this.administrators = java.util.List.copyOf(out);
            return this;
        }

        /** As {@link #administrators(java.util.Collection)}, from a comma-separated list. */
        public Builder administrators(String commaSeparated) {
            this.administrators = java.util.List.copyOf(io.aqueduct.api.AqStores.administrators(commaSeparated));
            return this;
        }

        /** The schema of names given without one (the dialect's default otherwise). */
        public Builder defaultSchema(String schema) {
            this.defaultSchema = schema == null ? null : QualifiedName.schema(schema);
            return this;
        }

        /** Whether the time manager thread runs (tests may drive it by hand with runDue()). */
        public Builder timeManager(boolean run) {
            this.timeManager = run;
            return this;
        }

        /**
         * Runs every long-running loop of the engine as a task of this executor instead of on
         * daemon threads of its own: the time manager, the propagation loop and the notification loop
         * (when the time manager runs), and on PostgreSQL / MariaDB the cross-node signal sender and receivers
         * (database and direct) and the attempt ledger's clearing loop. In a container this is the resource adapter's
         * WorkManager; it must run up to seven tasks at once for the engine's lifetime (three on Derby; they end when the
         * engine closes), and as many again for each database link's store that propagation opens
         * (a store this JVM has open already is shared, not opened twice).
         */
        public Builder backgroundExecutor(java.util.concurrent.Executor executor) {
            this.backgroundExecutor = executor;
            return this;
        }

        /** Where the loops run: the executor given, else daemon threads of the engine's own. */
        private io.aqueduct.engine.store.Background background() {
            return backgroundExecutor == null ? io.aqueduct.engine.store.Background.daemonThreads()
                    : io.aqueduct.engine.store.Background.of(backgroundExecutor);
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
                identity = "derby:" + path.toAbsolutePath().normalize();
            }
            return new AqueductEngine(this);
        }
    }

    static {
        // make sure the entity classes are loaded with the engine (persistence.xml lists them)
        MessageEntity.class.getName();
    }
}
