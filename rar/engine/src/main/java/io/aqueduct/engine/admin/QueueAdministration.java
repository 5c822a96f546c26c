package io.aqueduct.engine.admin;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.StorableText;
import io.aqueduct.api.Agent;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.SubscriberEntity;
import java.util.ArrayList;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.StoreConnection;
import io.aqueduct.engine.time.DueWork;
import io.aqueduct.engine.transform.TransformationCatalog;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.QueueTableMeta;
import io.aqueduct.engine.store.QueueEntity;
import io.aqueduct.engine.store.QueueCounts;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.store.QueueTableEntity;
import jakarta.persistence.EntityManager;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import io.aqueduct.api.TransformationInfo;
import io.aqueduct.engine.transform.PayloadTypeName;
import io.aqueduct.engine.transform.Transformation;
import io.aqueduct.engine.transform.Transformations;

/**
 * DBMS_AQADM for Aqueduct. Every operation checks its input against the catalog first, then
 * changes the store in a transaction of its own and, once that has committed, the in-memory
 * catalog: a refused operation changes nothing.
 */
public final class QueueAdministration implements QueueAdmin {
    private static final Pattern JAVA_CLASS_NAME =
            Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");
    private static final int MAX_COMMENT_BYTES = 2000;
    /** AQ's limit of subscribers per queue. */
    public static final int MAX_SUBSCRIBERS = 1024;
    /** The rule column's size. */
    private static final int MAX_RULE_BYTES = 4000;
    /**
     * The longest retry delay or retention: about 1,000 years, so that now plus either stays a date
     * every store keeps (before the year 10000) until the year 8999.
     */
    public static final long MAX_DURATION_SECONDS = 1000L * 365 * 86_400;
    private static final Pattern AGENT_NAME = Pattern.compile("\\p{L}[\\p{L}\\p{N}_$#]*");

    private final OwnTransactions own;
    private final Catalog catalog;
    private final TransformationCatalog transformations;
    private final CatalogLoader loader;
    private final DueWork dueWork;
    private final String defaultSchema;
    /** Tells the other nodes of a shared store to re-read the catalog; null on a store of one JVM. */
    private final Runnable catalogChanged;
    private final io.aqueduct.engine.propagation.ScheduleAdministration schedules;
    private final io.aqueduct.engine.propagation.DatabaseLinks links;
    private final io.aqueduct.engine.security.Privileges privileges;
    private final io.aqueduct.engine.security.AqAgents agents;
    private final io.aqueduct.engine.notification.Registrations registrations;

    private final AqClock clock;
    /** A connection of its own for the statistics: a count over a large table must not hold up administration and retry accounting. */
    private final OwnTransactions statisticsReads;

    public QueueAdministration(OwnTransactions own, Catalog catalog, TransformationCatalog transformations,
            CatalogLoader loader, DueWork dueWork, String defaultSchema, Runnable catalogChanged,
            io.aqueduct.engine.propagation.ScheduleAdministration schedules, io.aqueduct.engine.propagation.DatabaseLinks links,
            io.aqueduct.engine.security.Privileges privileges, io.aqueduct.engine.security.AqAgents agents,
            io.aqueduct.engine.notification.Registrations registrations, AqClock clock, OwnTransactions statisticsReads) {
        this.clock = clock;
        this.statisticsReads = statisticsReads;
        this.privileges = privileges;
        this.agents = agents;
        this.registrations = registrations;
        this.schedules = schedules;
        this.links = links;
        this.own = own;
        this.catalog = catalog;
        this.transformations = transformations;
        this.loader = loader;
        this.dueWork = dueWork;
        this.defaultSchema = defaultSchema;
        this.catalogChanged = catalogChanged;
    }

    /**
     * Administration's transaction: the engine's own, and on a shared store the other nodes are
     * told (after the commit) to re-read the catalog.
     */
    private <T> T inAdminTransaction(java.util.function.Function<StoreConnection, T> work) {
        T result = own.run(work);
        if (catalogChanged != null) {
            catalogChanged.run();
        }
        return result;
    }

    /**
     * Re-reads the catalog on a shared store (another node changed it); returns whether it did
     * (false on a store of one JVM, whose catalog is always whole). Under the administration's
     * lock: a local change (commit, then its update of the catalog in memory) is never interleaved
     * with a re-read that already sees its commit.
     */
    public synchronized boolean refreshCatalog() {
        if (catalogChanged == null) {
            return false;
        }
        loader.refresh();
        return true;
    }

    /**
     * Runs an insert of a new object. On a shared store another node may create the same object between
     * this node's look at its catalog and the insert: the database's unique constraint refuses the insert,
     * and after a re-read of the catalog that shows the other node's object, the failure is AQ's "already
     * exists" error ({@code exists}) rather than a store failure.
     */
    private <T> T insertNew(java.util.function.Supplier<T> insert, java.util.function.BooleanSupplier existsNow,
            java.util.function.Function<RuntimeException, AqException> exists) {
        try {
            return insert.get();
        } catch (RuntimeException e) {
            if (catalogChanged == null || !integrityViolation(e)) {
                throw e;
            }
            loader.refresh();
            if (!existsNow.getAsBoolean()) {
                throw e;
            }
            throw exists.apply(e);
        }
    }

    private static boolean integrityViolation(Throwable failure) {
        return io.aqueduct.engine.store.StoreConnection.isIntegrityViolation(failure); // a unique key here
    }

    // ------------------------------------------------------------------ queue tables

    @Override
    public synchronized void createQueueTable(String queueTable, QueueTableProperties properties) {
        QualifiedName qn = QualifiedName.forCreate(queueTable, defaultSchema, "queue table");
        QueueTableProperties p = properties == null ? QueueTableProperties.create() : properties;
        if (p.payloadType() == PayloadType.OBJECT
                && (p.objectType() == null || !JAVA_CLASS_NAME.matcher(p.objectType()).matches())) {
            throw new AqException(AqError.INVALID_VALUE, "'" + p.objectType()
                    + "' is not a Java class name: an OBJECT queue table needs the fully qualified name of its payload class.");
        }
        checkComment(p.comment());
        if (catalog.table(qn.toString()) != null) {
            throw new AqException(AqError.QUEUE_TABLE_EXISTS, "Queue table " + qn + " already exists.");
        }
        String exceptionQueue = "AQ$_" + qn.name() + "_E";
        if (catalog.queue(qn.schema() + "." + exceptionQueue) != null) {
            throw new AqException(AqError.QUEUE_EXISTS, "Queue " + qn.schema() + "." + exceptionQueue
                    + " already exists; the default exception queue of " + qn + " would take that name.");
        }
        QueueMeta[] created = new QueueMeta[1];
        QueueTableMeta table = insertNew(() -> inAdminTransaction(c -> {
            QueueTableMeta t = c.work(em -> {
                QueueTableEntity e = new QueueTableEntity();
                e.id = nextId(em, "QueueTableEntity");
                e.owner = qn.schema();
                e.name = qn.name();
                e.payloadType = p.payloadType().name();
                e.objectType = p.objectType();
                e.sortOrder = p.sortOrder().sortList();
                e.multipleConsumers = (short) (p.multipleConsumers() ? 1 : 0);
                e.messageGrouping = p.messageGrouping().name();
                e.comment = p.comment();
                em.persist(e);
                QueueTableMeta meta = CatalogLoader.tableMeta(e);
                QueueEntity q = newQueue(em, qn.schema(), exceptionQueue, e.id, QueueProperties.create()
                        .queueType(QueueType.EXCEPTION).comment("exception queue of " + qn));
                created[0] = queueMeta(q, meta);
                return meta;
            });
            c.jdbc(conn -> own.dialect().createQueueTableView(conn, t.owner(), t.name(), t.id(),
                    t.multipleConsumers()));
            return t;
        }), () -> catalog.table(qn.toString()) != null,
                e -> new AqException(AqError.QUEUE_TABLE_EXISTS, "Queue table " + qn + " already exists (another node"
                        + " created it meanwhile).", e));
        catalog.putTable(table);
        catalog.putQueue(created[0]);
    }

    @Override
    public synchronized void alterQueueTable(String queueTable, String newComment) {
        QueueTableMeta t = table(queueTable);
        String comment = newComment == null ? t.comment() : newComment; // null leaves it unchanged, as in AQ
        checkComment(comment);
        inAdminTransaction(c -> c.work(em -> {
            em.find(QueueTableEntity.class, t.id()).comment = comment;
            return null;
        }));
        QueueTableMeta altered = new QueueTableMeta(t.id(), t.owner(), t.name(), t.payloadType(), t.objectType(),
                t.sortOrder(), t.multipleConsumers(), t.grouping(), comment);
        catalog.putTable(altered);
        for (QueueRuntime q : catalog.queuesOf(t.id())) {
            QueueMeta m = q.meta();
            q.meta(new QueueMeta(m.id(), m.owner(), m.name(), altered, m.type(), m.maxRetries(), m.retryDelaySeconds(),
                    m.retentionSeconds(), m.enqueueEnabled(), m.dequeueEnabled(), m.comment()));
        }
    }

    @Override
    public synchronized void dropQueueTable(String queueTable, boolean force) {
        QueueTableMeta t = table(queueTable);
        String defaultExceptionQueue = t.defaultExceptionQueueName();
        List<QueueRuntime> queues = catalog.queuesOf(t.id());
        List<QueueRuntime> userQueues = queues.stream()
                .filter(q -> !(q.meta().owner().equals(t.owner()) && q.meta().name().equals(defaultExceptionQueue))).toList();
        if (!userQueues.isEmpty() && !force) {
            throw new AqException(AqError.QUEUE_TABLE_HAS_QUEUES, "Queue table " + t.qualifiedName() + " still has queues ("
                    + String.join(", ", userQueues.stream().map(q -> q.meta().name()).sorted().toList())
                    + "): drop them first, or drop the queue table with force.");
        }
        // force: stop everything and let the transactions working on the queues end first
        for (QueueRuntime q : queues) {
            setEnabled(q, false, false);
            awaitQuiet(q);
        }
        inAdminTransaction(c -> {
            c.work(em -> {
                for (QueueRuntime q : queues) {
                    deleteConsumers(em, q.meta().id());
                    io.aqueduct.engine.notification.Registrations.deleteOfQueue(em, q.meta().id());
                }
                em.createQuery("DELETE FROM MessageEntity m WHERE m.queueTableId = :t").setParameter("t", t.id()).executeUpdate();
                em.createQuery("DELETE FROM QueueEntity q WHERE q.queueTableId = :t").setParameter("t", t.id()).executeUpdate();
                em.createQuery("DELETE FROM QueueTableEntity t WHERE t.id = :t").setParameter("t", t.id()).executeUpdate();
                return null;
            });
            c.jdbc(conn -> own.dialect().dropQueueTableView(conn, t.owner(), t.name()));
            return dropGrants(c, queues);
        });
        for (QueueRuntime q : queues) {
            catalog.removeQueue(q);
        }
        catalog.removeTable(t.qualifiedName());
        privileges.reload();
        registrations.load(); // the registrations on its queues went with them
    }

    /** A dropped queue's grants go with it, in the transaction that drops it. */
    private Void dropGrants(StoreConnection c, List<QueueRuntime> queues) {
        c.jdbc(conn -> {
            for (QueueRuntime q : queues) {
                io.aqueduct.engine.security.Privileges.queueDropped(conn, own.dialect(), q.meta().id());
            }
        });
        return null;
    }

    // ------------------------------------------------------------------ queues

    @Override
    public synchronized void createQueue(String queue, String queueTable, QueueProperties properties) {
        QualifiedName qn = QualifiedName.forCreate(queue, defaultSchema, "queue");
        QueueTableMeta t = table(queueTable);
        QueueProperties p = properties == null ? QueueProperties.create() : properties;
        checkQueueSettings(p.maxRetries(), p.retryDelay(), p.retention());
        checkComment(p.comment());
        if (!qn.schema().equals(t.owner())) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + qn + " must be in the schema of its queue table "
                    + t.qualifiedName() + ": name it " + t.owner() + "." + qn.name() + ".");
        }
        if (catalog.queue(qn.toString()) != null) {
            throw new AqException(AqError.QUEUE_EXISTS, "Queue " + qn + " already exists.");
        }
        QueueMeta meta = insertNew(
                () -> inAdminTransaction(c -> c.work(em -> queueMeta(newQueue(em, qn.schema(), qn.name(), t.id(), p), t))),
                () -> catalog.queue(qn.toString()) != null,
                e -> new AqException(AqError.QUEUE_EXISTS, "Queue " + qn + " already exists (another node created it"
                        + " meanwhile).", e));
        catalog.putQueue(meta);
    }

    @Override
    public synchronized void alterQueue(String queue, Integer maxRetries, Long retryDelaySeconds, Long retentionSeconds,
            String comment) {
        QueueRuntime q = queue(queue, true);
        QueueMeta m = q.meta();
        int retries = maxRetries == null ? m.maxRetries() : maxRetries;
        long delay = retryDelaySeconds == null ? m.retryDelaySeconds() : retryDelaySeconds;
        long retention = retentionSeconds == null ? m.retentionSeconds() : retentionSeconds;
        String newComment = comment == null ? m.comment() : comment;
        checkQueueSettings(retries, delay, retention);
        checkComment(newComment);
        inAdminTransaction(c -> c.work(em -> {
            QueueEntity e = em.find(QueueEntity.class, m.id());
            e.maxRetries = retries;
            e.retryDelay = delay;
            e.retention = retention;
            e.comment = newComment;
            return null;
        }));
        q.meta(new QueueMeta(m.id(), m.owner(), m.name(), m.table(), m.type(), retries, delay, retention,
                m.enqueueEnabled(), m.dequeueEnabled(), newComment));
    }

    @Override
    public synchronized void dropQueue(String queue) {
        QueueRuntime q = queue(queue, true);
        QueueMeta m = q.meta();
        if (m.name().equals(m.table().defaultExceptionQueueName()) && m.owner().equals(m.table().owner())) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + m.qualifiedName() + " is the default exception queue of "
                    + m.table().qualifiedName() + ": it is dropped with its queue table.");
        }
        if (m.enqueueEnabled() || m.dequeueEnabled()) {
            throw new AqException(AqError.QUEUE_NOT_STOPPED, "Queue " + m.qualifiedName()
                    + " must be stopped for enqueue and dequeue before it is dropped.");
        }
        if (q.busy()) {
            throw new AqException(AqError.QUEUE_BUSY, "Queue " + m.qualifiedName()
                    + " still has transactions working on it: stop it with wait, then drop it.");
        }
        inAdminTransaction(c -> {
            c.work(em -> {
                deleteConsumers(em, m.id());
                io.aqueduct.engine.notification.Registrations.deleteOfQueue(em, m.id());
                em.createQuery("DELETE FROM MessageEntity m WHERE m.queueId = :q").setParameter("q", m.id()).executeUpdate();
                em.createQuery("DELETE FROM QueueEntity q WHERE q.id = :q").setParameter("q", m.id()).executeUpdate();
                return null;
            });
            return dropGrants(c, List.of(q));
        });
        catalog.removeQueue(q);
        privileges.reload();
        registrations.load(); // its registrations went with it
    }

    @Override
    public List<io.aqueduct.api.RegistrationInfo> registrations() {
        return registrations.infos();
    }

    /** This engine's buffered messages (set once by the engine, which builds them after administration). */
    private volatile BufferedQueues buffered = BufferedQueues.NONE;

    public void buffered(BufferedQueues buffered) {
        this.buffered = buffered;
    }

    @Override
    public List<io.aqueduct.api.BufferedQueueInfo> bufferedQueues() {
        return buffered.view();
    }

    @Override
    public synchronized void startQueue(String queue, boolean enqueue, boolean dequeue) {
        QueueRuntime q = queue(queue, true);
        QueueMeta m = q.meta();
        if (enqueue && m.isException()) {
            throw new AqException(AqError.EXCEPTION_QUEUE_ENQUEUE, "Cannot enable enqueue on " + m.qualifiedName()
                    + ": it is an exception queue; start it for dequeue only.");
        }
        setEnabled(q, enqueue || m.enqueueEnabled(), dequeue || m.dequeueEnabled());
    }

    @Override
    public void stopQueue(String queue, boolean enqueue, boolean dequeue, boolean wait) {
        QueueRuntime q;
        synchronized (this) {
            q = queue(queue, true);
            QueueMeta m = q.meta();
            if (!wait && q.busy()) {
                throw new AqException(AqError.QUEUE_BUSY, "Queue " + m.qualifiedName()
                        + " has transactions working on it; stop it with wait to let them end first.");
            }
            setEnabled(q, m.enqueueEnabled() && !enqueue, m.dequeueEnabled() && !dequeue);
        }
        if (wait) {
            awaitQuiet(q);
        }
    }

    private void awaitQuiet(QueueRuntime q) {
        try {
            q.awaitQuiet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AqException(AqError.QUEUE_BUSY, "Interrupted while waiting for the transactions on "
                    + q.meta().qualifiedName() + " to end.");
        }
    }

    private void setEnabled(QueueRuntime q, boolean enqueue, boolean dequeue) {
        QueueMeta m = q.meta();
        if (m.enqueueEnabled() == enqueue && m.dequeueEnabled() == dequeue) {
            return;
        }
        inAdminTransaction(c -> c.work(em -> {
            QueueEntity e = em.find(QueueEntity.class, m.id());
            e.enqueueEnabled = (short) (enqueue ? 1 : 0);
            e.dequeueEnabled = (short) (dequeue ? 1 : 0);
            return null;
        }));
        q.meta(new QueueMeta(m.id(), m.owner(), m.name(), m.table(), m.type(), m.maxRetries(), m.retryDelaySeconds(),
                m.retentionSeconds(), enqueue, dequeue, m.comment()));
    }

    private static void deleteConsumers(EntityManager em, long queueId) {
        // a dropped queue's propagation schedules go with it, as DROP_QUEUE's do in AQ
        io.aqueduct.engine.propagation.ScheduleAdministration.dropSchedulesOf(em, queueId);
        em.createQuery("DELETE FROM ConsumerStateEntity c WHERE c.queueId = :q").setParameter("q", queueId).executeUpdate();
        em.createQuery("DELETE FROM SubscriberEntity s WHERE s.queueId = :q").setParameter("q", queueId).executeUpdate();
    }

    // ------------------------------------------------------------------ subscribers

    @Override
    public void addSubscriber(String queue, Agent subscriber, String rule) {
        addSubscriber(queue, subscriber, rule, null, RuleSyntax.CONDITION);
    }

    @Override
    public void addSubscriber(String queue, Agent subscriber, String rule, String transformation) {
        addSubscriber(queue, subscriber, rule, transformation, RuleSyntax.CONDITION);
    }

    @Override
    public synchronized void addSubscriber(String queue, Agent subscriber, String rule, String transformation,
            RuleSyntax syntax) {
        RuleSyntax ruleSyntax = syntax == null ? RuleSyntax.CONDITION : syntax;
        QueueRuntime q = subscribable(queue, subscriber);
        if (subscriber.address() != null && subscriber.protocol() == 0) {
            // a remote subscriber of the default protocol is served by propagation: its address must name a queue
            io.aqueduct.engine.queue.RemoteAddress.parse(subscriber.address());
        }
        Expression parsed = rule(rule, ruleSyntax);
        String tname = subscriberTransformation(q, transformation);
        Subscriber s = Subscriber.of(subscriber, parsed, tname, ruleSyntax);
        if (find(q, s.key()) != null) {
            throw new AqException(AqError.SUBSCRIBER_EXISTS, "Agent " + describe(subscriber) + " is already a subscriber of "
                    + q.meta().qualifiedName() + ".");
        }
        if (q.subscribers().size() >= MAX_SUBSCRIBERS) {
            throw new AqException(AqError.TOO_MANY_SUBSCRIBERS, "Queue " + q.meta().qualifiedName() + " already has "
                    + MAX_SUBSCRIBERS + " subscribers, the most a queue can have.");
        }
        insertNew(() -> inAdminTransaction(c -> c.work(em -> {
            SubscriberEntity e = new SubscriberEntity();
            e.id = nextId(em, "SubscriberEntity");
            e.queueId = q.meta().id();
            e.consumer = s.key();
            e.name = subscriber.name();
            e.address = subscriber.address();
            e.protocol = subscriber.protocol();
            e.rule = storedRule(rule, parsed);
            e.ruleSyntax = ruleSyntax.name();
            e.transformation = tname;
            em.persist(e);
            return null;
        })), () -> {
            QueueRuntime now = catalog.queue(q.meta().qualifiedName());
            return now != null && find(now, s.key()) != null;
        }, e -> new AqException(AqError.SUBSCRIBER_EXISTS, "Agent " + describe(subscriber) + " is already a subscriber of "
                + q.meta().qualifiedName() + " (another node added it meanwhile).", e));
        List<Subscriber> subs = new ArrayList<>(q.subscribers());
        subs.add(s);
        q.subscribers(subs);
    }

    @Override
    public void addJmsSubscriber(String queue, String name, String selector) {
        addSubscriber(queue, Agent.named(jmsSubscriber(name)), selector, null, RuleSyntax.SELECTOR);
    }

    @Override
    public void removeJmsSubscriber(String queue, String name) {
        removeSubscriber(queue, Agent.named(jmsSubscriber(name)));
    }

    private static String jmsSubscriber(String name) {
        if (name == null || !name.toUpperCase(java.util.Locale.ROOT).startsWith(QueueAdmin.JMS_SUBSCRIBER_PREFIX)) {
            throw new AqException(AqError.INVALID_VALUE, "A Jakarta Messaging subscriber's name begins with "
                    + QueueAdmin.JMS_SUBSCRIBER_PREFIX + "; got " + name + ". Add other subscribers with addSubscriber.");
        }
        return name;
    }

    /** What marks a queue table as a temporary destination's: its comment begins so. */
    public static final String TEMPORARY_COMMENT = "Jakarta Messaging temporary destination";

    @Override
    public void createTemporaryQueue(String queue, boolean multipleConsumers) {
        String name = temporaryName(queue);
        String table = "T" + name;
        createQueueTable(table, io.aqueduct.api.QueueTableProperties.create().payloadType(io.aqueduct.api.PayloadType.RAW)
                .sortOrder(io.aqueduct.api.SortOrder.PRIORITY_ENQ_TIME).multipleConsumers(multipleConsumers)
                .comment(TEMPORARY_COMMENT + " (" + (multipleConsumers ? "topic" : "queue") + ")"));
        createQueue(name, table, io.aqueduct.api.QueueProperties.create());
        startQueue(name, true, true);
        // whoever is handed the destination (a JMSReplyTo) may send to it, as JMS has it
        privileges.grantQueue(null, io.aqueduct.api.QueuePrivilege.ENQUEUE, name, "PUBLIC", false);
    }

    @Override
    public void dropTemporaryQueue(String queue) {
        String name = temporaryName(queue);
        if (!isTemporary(name)) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + name + " is no temporary destination: drop it with"
                    + " dropQueue / dropQueueTable.");
        }
        dropQueueTable("T" + name, true);
    }

    /** Whether queue {@code queue} (unqualified, in the default schema) is a temporary destination's. */
    public boolean isTemporary(String queue) {
        QueueRuntime q = catalog.queue(QualifiedName.forLookup(queue, defaultSchema, "queue").toString());
        if (q == null) {
            return false;
        }
        String comment = q.meta().table().comment();
        return q.meta().table().name().equals(("T" + q.meta().name()).toUpperCase(java.util.Locale.ROOT))
                && comment != null && comment.startsWith(TEMPORARY_COMMENT);
    }

    private static String temporaryName(String queue) {
        if (queue == null || queue.indexOf('.') >= 0) {
            throw new AqException(AqError.INVALID_VALUE, "Name a temporary destination's queue without a schema (it is"
                    + " in the default schema); got " + queue + ".");
        }
        return queue;
    }

    /** Changes the rule only (now a condition): the subscriber keeps its transformation. */
    @Override
    public synchronized void alterSubscriber(String queue, Agent subscriber, String rule) {
        QueueRuntime q = subscribable(queue, subscriber);
        Subscriber existing = existing(q, subscriber);
        alterSubscriber(queue, subscriber, rule, existing.transformation(), RuleSyntax.CONDITION);
    }

    @Override
    public void alterSubscriber(String queue, Agent subscriber, String rule, String transformation) {
        alterSubscriber(queue, subscriber, rule, transformation, RuleSyntax.CONDITION);
    }

    @Override
    public synchronized void alterSubscriber(String queue, Agent subscriber, String rule, String transformation,
            RuleSyntax syntax) {
        RuleSyntax ruleSyntax = syntax == null ? RuleSyntax.CONDITION : syntax;
        QueueRuntime q = subscribable(queue, subscriber);
        if (subscriber.address() != null && subscriber.protocol() == 0) {
            // a remote subscriber of the default protocol is served by propagation: its address must name a queue
            io.aqueduct.engine.queue.RemoteAddress.parse(subscriber.address());
        }
        Expression parsed = rule(rule, ruleSyntax);
        Subscriber existing = existing(q, subscriber);
        String tname = subscriberTransformation(q, transformation);
        inAdminTransaction(c -> c.work(em -> em.createQuery("UPDATE SubscriberEntity s SET s.rule = :r,"
                + " s.ruleSyntax = :y, s.transformation = :t WHERE s.queueId = :q AND s.consumer = :k")
                .setParameter("r", storedRule(rule, parsed)).setParameter("y", ruleSyntax.name())
                .setParameter("t", tname).setParameter("q", q.meta().id())
                .setParameter("k", existing.key()).executeUpdate()));
        List<Subscriber> subs = new ArrayList<>(q.subscribers());
        subs.replaceAll(s -> s.key().equals(existing.key())
                ? new Subscriber(s.key(), s.agent(), parsed, tname, ruleSyntax) : s);
        q.subscribers(subs);
    }

    /** The qualified name of a subscriber's transformation (null for none), checked against the queue. */
    private String subscriberTransformation(QueueRuntime q, String transformation) {
        if (transformation == null) {
            return null;
        }
        Transformation t = transformations.lookup(transformation);
        PayloadTypeName queueType = PayloadTypeName.of(q.meta().table());
        if (!t.from().sameAs(queueType)) {
            throw new AqException(AqError.TRANSFORMATION_WRONG_TYPE, "Transformation " + t.qualifiedName() + " takes "
                    + t.from() + " payloads; queue " + q.meta().qualifiedName() + " holds " + queueType + ".");
        }
        return t.qualifiedName();
    }

    // ------------------------------------------------------------------ transformations

    @Override
    public synchronized void createTransformation(String name, String fromType, String toType, String functionClass) {
        QualifiedName qn = QualifiedName.forCreate(name, defaultSchema, "transformation");
        Transformation t = Transformation.function(qn.schema(), qn.name(), typeName(fromType, "source"),
                typeName(toType, "target"), functionClass);
        create(t);
    }

    @Override
    public synchronized void createTransformation(String name, String fromType, String toType,
            Map<String, String> attributeExpressions) {
        QualifiedName qn = QualifiedName.forCreate(name, defaultSchema, "transformation");
        Transformation t = Transformation.attributes(qn.schema(), qn.name(), typeName(fromType, "source"),
                typeName(toType, "target"), attributeExpressions);
        create(t);
    }

    private void create(Transformation t) {
        if (transformations.get(t.qualifiedName()) != null) {
            throw new AqException(AqError.TRANSFORMATION_EXISTS, "Transformation " + t.qualifiedName() + " already exists.");
        }
        Transformations.checkStorable(t);
        inAdminTransaction(c -> {
            c.jdbc(conn -> Transformations.insert(conn, own.dialect(), t));
            return null;
        });
        transformations.put(t);
    }

    @Override
    public synchronized void modifyTransformation(String name, String functionClass) {
        Transformation old = transformations.lookup(name);
        replace(Transformation.function(old.schema(), old.name(), old.from(), old.to(), functionClass));
    }

    @Override
    public synchronized void modifyTransformation(String name, Map<String, String> attributeExpressions) {
        Transformation old = transformations.lookup(name);
        replace(Transformation.attributes(old.schema(), old.name(), old.from(), old.to(), attributeExpressions));
    }

    @Override
    public synchronized void modifyTransformation(String name, String attribute, String expression) {
        Transformation old = transformations.lookup(name);
        if (old.functionClass() != null) {
            throw new AqException(AqError.INVALID_VALUE, "Transformation " + old.qualifiedName() + " is computed by the"
                    + " function " + old.functionClass() + ": replace it with a map of attribute expressions instead.");
        }
        Map<String, String> attributes = new LinkedHashMap<>(old.attributeTexts());
        String key = attributes.keySet().stream().filter(a -> a.equalsIgnoreCase(attribute)).findFirst().orElse(attribute);
        attributes.put(key, expression);
        replace(Transformation.attributes(old.schema(), old.name(), old.from(), old.to(), attributes));
    }

    private void replace(Transformation t) {
        Transformations.checkStorable(t);
        inAdminTransaction(c -> {
            c.jdbc(conn -> Transformations.update(conn, own.dialect(), t));
            return null;
        });
        transformations.put(t);
    }

    @Override
    public synchronized void dropTransformation(String name) {
        Transformation t = transformations.lookup(name);
        List<String> users = new ArrayList<>();
        for (QueueRuntime q : catalog.queues()) {
            for (Subscriber s : q.subscribers()) {
                if (t.qualifiedName().equals(s.transformation())) {
                    users.add(describe(s.agent()) + " of " + q.meta().qualifiedName());
                }
            }
        }
        if (!users.isEmpty()) {
            throw new AqException(AqError.INVALID_VALUE, "Transformation " + t.qualifiedName() + " is used by subscriber(s) "
                    + String.join(", ", users.stream().sorted().toList()) + ": alter or remove them first.");
        }
        inAdminTransaction(c -> {
            c.jdbc(conn -> Transformations.delete(conn, own.dialect(), t));
            return null;
        });
        transformations.remove(t.qualifiedName());
    }

    @Override
    public List<TransformationInfo> transformations() {
        return transformations.all().stream().sorted(Comparator.comparing(Transformation::qualifiedName))
                .map(Transformation::info).toList();
    }

    private static PayloadTypeName typeName(String text, String what) {
        PayloadTypeName t = PayloadTypeName.parse(text, what);
        if (t.objectType() != null && t.objectType().length() > Transformation.MAX_TYPE_CHARS) {
            throw new AqException(AqError.INVALID_VALUE, "A " + what + " type name has at most "
                    + Transformation.MAX_TYPE_CHARS + " characters.");
        }
        return t;
    }

    /** Its pending messages become UNDELIVERABLE to it; not an error even with messages pending. */
    @Override
    public synchronized void removeSubscriber(String queue, Agent subscriber) {
        QueueRuntime q = subscribable(queue, subscriber);
        Subscriber existing = existing(q, subscriber);
        List<String> affected = inAdminTransaction(c -> c.work(em -> {
            em.createQuery("DELETE FROM SubscriberEntity s WHERE s.queueId = :q AND s.consumer = :k")
                    .setParameter("q", q.meta().id()).setParameter("k", existing.key()).executeUpdate();
            List<String> msgids = em.createQuery("SELECT c.msgid FROM ConsumerStateEntity c WHERE c.queueId = :q"
                    + " AND c.consumer = :k AND c.state IN (0, 1)", String.class)
                    .setParameter("q", q.meta().id()).setParameter("k", existing.key()).getResultList();
            em.createQuery("UPDATE ConsumerStateEntity c SET c.state = :undeliverable, c.timeManagerInfo = NULL"
                    + " WHERE c.queueId = :q AND c.consumer = :k AND c.state IN (0, 1)")
                    .setParameter("undeliverable", ConsumerStates.UNDELIVERABLE).setParameter("q", q.meta().id())
                    .setParameter("k", existing.key()).executeUpdate();
            return msgids;
        }));
        List<Subscriber> subs = new ArrayList<>(q.subscribers());
        subs.removeIf(s -> s.key().equals(existing.key()));
        q.subscribers(subs);
        q.dropLane(existing.key());
        buffered.consumerRemoved(q, existing.key());
        affected.forEach(id -> dueWork.checkCompletion(id.trim()));
    }

    @Override
    public List<SubscriberInfo> subscribers(String queue) {
        return queue(queue, true).subscribers().stream().map(Subscriber::info).toList();
    }

    /** A subscriber rule checked and compiled in its syntax (25448 when malformed), before anything is written. */
    private static Expression rule(String text, RuleSyntax syntax) {
        StorableText.check(text, "A subscriber rule");
        if (text != null && text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_RULE_BYTES) {
            throw new AqException(AqError.INVALID_EXPRESSION, "A subscriber rule has at most " + MAX_RULE_BYTES + " bytes.");
        }
        return Subscriber.compileRule(text, syntax);
    }

    /** What RULE_TEXT holds: the rule as given, or null when it selects everything (no rule, a blank selector). */
    private static String storedRule(String text, Expression parsed) {
        return parsed == null ? null : text;
    }

    private QueueRuntime subscribable(String queue, Agent subscriber) {
        QueueRuntime q = queue(queue, true);
        if (!q.meta().table().multipleConsumers()) {
            throw new AqException(AqError.NOT_MULTI_CONSUMER, "Queue " + q.meta().qualifiedName()
                    + " is a single-consumer queue: subscribers belong to multi-consumer queues.");
        }
        if (q.meta().isException()) {
            throw new AqException(AqError.NOT_MULTI_CONSUMER, "Queue " + q.meta().qualifiedName()
                    + " is an exception queue: it has no subscribers; read it without a consumer name.");
        }
        if (subscriber == null) {
            throw new AqException(AqError.INVALID_VALUE, "A subscriber agent is required.");
        }
        if (subscriber.name() != null && !AGENT_NAME.matcher(subscriber.name()).matches()) {
            throw new AqException(AqError.INVALID_NAME, "'" + subscriber.name() + "' is not a valid agent name:"
                    + " use a letter followed by letters, digits, _, $ or #.");
        }
        if (subscriber.name() == null && subscriber.address() == null) {
            throw new AqException(AqError.INVALID_VALUE, "A subscriber needs a name (local) or an address (remote).");
        }
        return q;
    }

    private Subscriber existing(QueueRuntime q, Agent agent) {
        Subscriber s = find(q, Subscriber.keyOf(agent));
        if (s == null) {
            throw new AqException(AqError.NOT_A_SUBSCRIBER, "Agent " + describe(agent) + " is not a subscriber of "
                    + q.meta().qualifiedName() + ".");
        }
        return s;
    }

    private static Subscriber find(QueueRuntime q, String key) {
        return q.subscribers().stream().filter(s -> s.key().equals(key)).findFirst().orElse(null);
    }

    private static String describe(Agent a) {
        return "(" + a.name() + ", " + a.address() + ", " + a.protocol() + ")";
    }

    // ------------------------------------------------------------------ catalog

    @Override
    public QueueTableInfo queueTable(String queueTable) {
        return table(queueTable).info();
    }

    @Override
    public QueueInfo queue(String queue) {
        return queue(queue, true).meta().info();
    }

    @Override
    public List<QueueTableInfo> queueTables() {
        return catalog.tables().stream().sorted(Comparator.comparing(QueueTableMeta::qualifiedName))
                .map(QueueTableMeta::info).toList();
    }

    @Override
    public List<QueueInfo> queues() {
        return catalog.queues().stream().map(QueueRuntime::meta)
                .sorted(Comparator.comparing(QueueMeta::qualifiedName)).map(QueueMeta::info).toList();
    }

    @Override
    public List<io.aqueduct.api.QueueStatistics> queueStatistics() {
        List<QueueRuntime> queues = catalog.queues().stream()
                .sorted(Comparator.comparing(q -> q.meta().qualifiedName())).toList();
        return statistics(queues);
    }

    @Override
    public io.aqueduct.api.QueueStatistics queueStatistics(String queue) {
        return statistics(List.of(queue(queue, true))).get(0);
    }

    private List<io.aqueduct.api.QueueStatistics> statistics(List<QueueRuntime> queues) {
        long now = clock.millis();
        QueueCounts counts = statisticsReads.run(c -> {
            QueueCounts[] read = new QueueCounts[1];
            c.jdbc(jdbc -> read[0] = QueueCounts.read(jdbc, c.dialect(), now));
            return read[0];
        });
        List<io.aqueduct.api.QueueStatistics> result = new ArrayList<>(queues.size());
        for (QueueRuntime q : queues) {
            QueueMeta m = q.meta();
            QueueCounts.Figures f = counts.queues.getOrDefault(m.id(), new QueueCounts.Figures());
            List<io.aqueduct.api.ConsumerStatistics> consumers = new ArrayList<>();
            if (m.table().multipleConsumers()) {
                // the subscribers, also those with nothing pending, then whoever else the rows name (recipient lists)
                Map<Agent, QueueCounts.Figures> byConsumer = new java.util.TreeMap<>(AGENT_ORDER);
                if (!m.isException()) {
                    for (Subscriber s : q.subscribers()) {
                        byConsumer.put(s.agent(), new QueueCounts.Figures());
                    }
                }
                byConsumer.putAll(counts.consumers.getOrDefault(m.id(), Map.of()));
                byConsumer.forEach((agent, cf) -> consumers.add(new io.aqueduct.api.ConsumerStatistics(agent, cf.waiting,
                        cf.ready, cf.expired, seconds(cf.totalWaitMillis), average(cf.totalWaitMillis, cf.ready),
                        oldest(cf, now))));
            }
            result.add(new io.aqueduct.api.QueueStatistics(m.owner(), m.name(), m.id(), f.waiting, f.ready, f.expired,
                    seconds(f.totalWaitMillis), average(f.totalWaitMillis, f.ready), oldest(f, now), consumers));
        }
        return result;
    }

    @Override
    public List<io.aqueduct.api.QueueMessage> queueMessages(String queue, io.aqueduct.api.MessageState state,
            io.aqueduct.api.MessageId after, int max) {
        if (max < 1 || max > io.aqueduct.api.QueueMessage.MAX_PAGE) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid max " + max + ": read 1 to "
                    + io.aqueduct.api.QueueMessage.MAX_PAGE + " messages at a time.");
        }
        QueueMeta m = queue(queue, true).meta();
        return statisticsReads.run(c -> {
            List<io.aqueduct.api.QueueMessage> page = new ArrayList<>();
            c.jdbc(jdbc -> {
                long[] position = null;
                if (after != null) {
                    position = io.aqueduct.engine.store.QueueMessageRows.position(jdbc, c.dialect(), m.id(), after);
                    if (position == null) {
                        throw new AqException(AqError.INVALID_VALUE, "Message " + after + " is not in queue "
                                + m.qualifiedName() + " (any more): read again from the first.");
                    }
                }
                page.addAll(io.aqueduct.engine.store.QueueMessageRows.page(jdbc, c.dialect(), m.id(),
                        m.table().multipleConsumers(), state, position, max));
            });
            return page;
        });
    }

    private static final Comparator<Agent> AGENT_ORDER = Comparator
            .comparing(Agent::name, Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparing(Agent::address, Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparingInt(Agent::protocol);

    private static double oldest(QueueCounts.Figures f, long now) {
        return f.ready == 0 || f.oldestReadySince == Long.MAX_VALUE ? 0 : Math.max(0, now - f.oldestReadySince) / 1000.0;
    }

    private static double seconds(long millis) {
        return millis / 1000.0;
    }

    private static double average(long totalMillis, long count) {
        return count == 0 ? 0 : totalMillis / 1000.0 / count;
    }

    private QueueTableMeta table(String queueTable) {
        QualifiedName qn = QualifiedName.forLookup(queueTable, defaultSchema, "queue table");
        QueueTableMeta t = catalog.table(qn.toString());
        if (t == null && catalog.refresh()) {
            t = catalog.table(qn.toString()); // another node may have created it
        }
        if (t == null) {
            throw new AqException(AqError.QUEUE_TABLE_NOT_FOUND, "Queue table " + qn + " does not exist.");
        }
        return t;
    }

    private QueueRuntime queue(String queue, boolean admin) {
        QualifiedName qn = QualifiedName.forLookup(queue, defaultSchema, "queue");
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString()); // another node may have created it
        }
        if (q == null) {
            throw new AqException(admin ? AqError.QUEUE_NOT_FOUND : AqError.QUEUE_DOES_NOT_EXIST, "Queue " + qn + " does not exist.");
        }
        return q;
    }

    private static void checkQueueSettings(int maxRetries, long retryDelay, long retention) {
        if (maxRetries < 0) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid max_retries " + maxRetries + ": use 0 or more.");
        }
        if (retryDelay < 0) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid retry_delay " + retryDelay + ": use 0 or more seconds.");
        }
        if (retention < QueueProperties.INFINITE) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid retention_time " + retention
                    + ": use 0 or more seconds, or INFINITE (-1).");
        }
        // both are added to a message's time: the sum must stay a date the stores keep (before the year 10000)
        if (retryDelay > MAX_DURATION_SECONDS) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid retry_delay " + retryDelay + ": at most "
                    + MAX_DURATION_SECONDS + " seconds (about 1,000 years).");
        }
        if (retention > MAX_DURATION_SECONDS) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid retention_time " + retention + ": at most "
                    + MAX_DURATION_SECONDS + " seconds (about 1,000 years), or INFINITE (-1).");
        }
    }

    private static void checkComment(String comment) {
        StorableText.check(comment, "A comment");
        if (comment != null && comment.getBytes(StandardCharsets.UTF_8).length > MAX_COMMENT_BYTES) {
            throw new AqException(AqError.INVALID_VALUE, "A comment has at most " + MAX_COMMENT_BYTES + " bytes.");
        }
    }

    /** Ids never come back after a drop: a dropped queue's sessions must not mistake a new queue for it. */
    private long nextId(EntityManager em, String entity) {
        String name = switch (entity) {
            case "QueueEntity" -> "QUEUE";
            case "SubscriberEntity" -> "SUBSCRIBER";
            default -> "QUEUE_TABLE";
        };
        em.createNativeQuery(own.dialect().sql("admin.nextId.take")).setParameter(1, name).executeUpdate();
        return ((Number) em.createNativeQuery(own.dialect().sql("admin.nextId.read")).setParameter(1, name)
                .getSingleResult()).longValue();
    }

    private QueueEntity newQueue(EntityManager em, String owner, String name, long tableId, QueueProperties p) {
        QueueEntity q = new QueueEntity();
        q.id = nextId(em, "QueueEntity");
        q.owner = owner;
        q.name = name;
        q.queueTableId = tableId;
        q.queueType = p.queueType().name();
        q.maxRetries = p.maxRetries();
        q.retryDelay = p.retryDelay();
        q.retention = p.retention();
        q.comment = p.comment();
        q.enqueueEnabled = 0; // AQ creates queues stopped: start them to use them
        q.dequeueEnabled = 0;
        em.persist(q);
        return q;
    }

    private static QueueMeta queueMeta(QueueEntity q, QueueTableMeta t) {
        return new QueueMeta(q.id, q.owner, q.name, t, QueueType.valueOf(q.queueType), q.maxRetries, q.retryDelay,
                q.retention, q.enqueueEnabled == 1, q.dequeueEnabled == 1, q.comment);
    }

    // ------------------------------------------------------------------ propagation

    @Override
    public void schedulePropagation(String queue, String destination, java.time.Instant startTime, Long durationSeconds,
            String nextTime, long latencySeconds) {
        schedules.schedule(queue, destination, startTime, durationSeconds, nextTime, latencySeconds);
    }

    @Override
    public void unschedulePropagation(String queue, String destination) {
        schedules.unschedule(queue, destination);
    }

    @Override
    public void alterPropagationSchedule(String queue, String destination, Long durationSeconds, String nextTime,
            long latencySeconds) {
        schedules.alter(queue, destination, durationSeconds, nextTime, latencySeconds);
    }

    @Override
    public void enablePropagationSchedule(String queue, String destination) {
        schedules.enable(queue, destination);
    }

    @Override
    public void disablePropagationSchedule(String queue, String destination) {
        schedules.disable(queue, destination);
    }

    @Override
    public List<io.aqueduct.api.PropagationSchedule> propagationSchedules() {
        return schedules.list();
    }

    @Override
    public io.aqueduct.api.PropagationSchedule propagationSchedule(String queue, String destination) {
        return schedules.get(queue, destination);
    }

    @Override
    public void createDatabaseLink(String name, String url, String user, String password) {
        links.create(name, url, user, password);
    }

    @Override
    public boolean alterDatabaseLink(String name, String url, String user, String password) {
        return links.alter(name, url, user, password);
    }

    @Override
    public void dropDatabaseLink(String name) {
        links.drop(name);
    }

    @Override
    public List<io.aqueduct.api.DatabaseLinkInfo> databaseLinks() {
        return links.list();
    }

    // ------------------------------------------------------------------ agents and privileges (as an administrator)

    @Override
    public void createAqAgent(String agent, boolean enableHttp, boolean enableSmtp) {
        agents.create(agent, enableHttp, enableSmtp);
    }

    @Override
    public void alterAqAgent(String agent, Boolean enableHttp, Boolean enableSmtp) {
        agents.alter(agent, enableHttp, enableSmtp);
    }

    @Override
    public void dropAqAgent(String agent) {
        agents.drop(agent);
    }

    @Override
    public void enableDbAccess(String agent, String dbUser) {
        agents.enableDbAccess(agent, dbUser);
    }

    @Override
    public void disableDbAccess(String agent, String dbUser) {
        agents.disableDbAccess(agent, dbUser);
    }

    @Override
    public List<io.aqueduct.api.AqAgentInfo> aqAgents() {
        return agents.list();
    }

    @Override
    public void grantQueuePrivilege(io.aqueduct.api.QueuePrivilege privilege, String queue, String grantee, boolean grantOption) {
        privileges.grantQueue(null, privilege, queue, grantee, grantOption);
    }

    @Override
    public void revokeQueuePrivilege(io.aqueduct.api.QueuePrivilege privilege, String queue, String grantee) {
        privileges.revokeQueue(null, privilege, queue, grantee);
    }

    @Override
    public void grantSystemPrivilege(io.aqueduct.api.SystemPrivilege privilege, String grantee, boolean adminOption) {
        privileges.grantSystem(null, privilege, grantee, adminOption);
    }

    @Override
    public void revokeSystemPrivilege(io.aqueduct.api.SystemPrivilege privilege, String grantee) {
        privileges.revokeSystem(null, privilege, grantee);
    }

    @Override
    public List<io.aqueduct.api.QueuePrivilegeInfo> queuePrivileges() {
        return privileges.queuePrivileges();
    }

    @Override
    public List<io.aqueduct.api.SystemPrivilegeInfo> systemPrivileges() {
        return privileges.systemPrivileges();
    }
}
