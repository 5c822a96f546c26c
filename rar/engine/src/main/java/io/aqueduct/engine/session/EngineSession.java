package io.aqueduct.engine.session;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.transform.PayloadTypeName;
import io.aqueduct.engine.transform.Transformation;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.expression.Expression;
import io.aqueduct.engine.expression.MessageSnapshot;
import io.aqueduct.engine.expression.MessageView;
import io.aqueduct.engine.expression.PayloadView;
import io.aqueduct.engine.store.ConsumerStateEntity;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.StoreConnection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import javax.transaction.xa.XAResource;

/**
 * A queue session of the engine: one connection of the store's XA data source, its current
 * transaction, and its dequeue position in each queue. Used by one thread at a time.
 */
public final class EngineSession implements QueueSession {
    private final SessionContext context;
    private final TransactionCompletion completion;
    /** The session's connection; replaced (outside an XA branch) when it broke. */
    private StoreConnection connection;
    private final String user;
    /** A second connection for IMMEDIATE work, opened on first use. */
    private StoreConnection autonomous;
    /** A shared store's attempt-ledger records of this session, in auto-commit; opened on first use. */
    private StoreConnection ledgerConnection;
    private SessionTransaction current;
    /** The Xid-bound branch this session works in, between XA start and end. */
    private SessionTransaction xaBranch;
    private final Map<String, Position> positions = new HashMap<>();
    /** Queue names as the caller spells them, resolved once (the hot path parses no names). */
    private final Map<String, QueueRuntime> resolved = new HashMap<>();
    private boolean closed;

    /** Where the session is in a queue, and the correlation it was navigating with. */
    private static final class Position {
        ReadyEntry last;
        String correlation;
    }

    public EngineSession(SessionContext context, StoreConnection connection, String user) {
        this.context = context;
        this.completion = context.completion();
        this.connection = connection;
        this.user = user;
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
        return guarded(() -> enqueueChecked(queue, options, messages));
    }

    private List<MessageId> enqueueChecked(String queue, EnqueueOptions options, List<Message> messages) {
        EnqueueOptions opts = options == null ? EnqueueOptions.create() : options;
        if (messages == null || messages.isEmpty() || messages.stream().anyMatch(java.util.Objects::isNull)) {
            throw new AqException(AqError.INVALID_VALUE, "Give at least one message to enqueue, and no null ones.");
        }
        QueueRuntime q = queueForEnqueue(queue);
        QueueMeta meta = q.meta();
        Transformation transformation = enqueueTransformation(meta, opts.transformation());
        if (transformation != null) {
            // the payloads are transformed first: the queue table's type, the rules and the store see the result
            List<Message> transformed = new ArrayList<>(messages.size());
            for (Message m : messages) {
                transformed.add(Message.of(transformation.apply(m.payload(), m.properties()), m.properties()));
            }
            messages = transformed;
        }
        // validate everything before anything is written
        List<byte[]> payloads = new ArrayList<>(messages.size());
        List<QueueRuntime> exceptionQueues = new ArrayList<>(messages.size());
        List<List<Subscriber>> consumers = new ArrayList<>(messages.size());
        for (Message m : messages) {
            MessageProperties p = m.properties();
            validateProperties(p);
            exceptionQueues.add(p.exceptionQueue() == null ? null : exceptionQueueFor(meta, p.exceptionQueue()));
            payloads.add(encodeWithinLimit(meta, m.payload()));
            consumers.add(Recipients.of(q, m, context.clock().now()));
        }
        if (opts.visibility() == Visibility.IMMEDIATE) {
            SessionTransaction tx = new SessionTransaction(context.ids().nextTransactionId());
            StoreConnection own = autonomous();
            List<MessageId> ids;
            try {
                ids = insert(own, tx, q, messages, payloads, exceptionQueues, consumers);
            } catch (RuntimeException e) {
                abandon(own, tx, e);
                throw e;
            }
            commit(own, tx);
            return ids;
        }
        return insert(connection(), transaction(), q, messages, payloads, exceptionQueues, consumers);
    }

    /**
     * The payload's stored bytes, refused (24097) above the engine's maximum payload size: a payload
     * whose size alone exceeds it is refused before it is encoded, so that a huge one is not copied first.
     */
    private byte[] encodeWithinLimit(QueueMeta meta, Object payload) {
        long max = context.limits().maxPayloadBytes();
        long known = payload instanceof byte[] b ? b.length : payload instanceof CharSequence cs ? cs.length() : -1;
        if (known > max) {
            throw payloadTooLarge(meta, known, max);
        }
        byte[] bytes = PayloadCodec.encode(meta.table(), payload);
        if (bytes != null && bytes.length > max) {
            throw payloadTooLarge(meta, bytes.length, max);
        }
        return bytes;
    }

    private static AqException payloadTooLarge(QueueMeta meta, long size, long max) {
        return new AqException(AqError.INVALID_VALUE, "A payload of " + size + (size == max + 1 ? "" : " or more")
                + " bytes for queue " + meta.qualifiedName() + " exceeds the maximum of " + max + " bytes (the engine's"
                + " maxPayloadBytes). Store large data elsewhere and enqueue a reference to it.");
    }

    /** The enqueue option's transformation, checked against the queue table; null for none. */
    private Transformation enqueueTransformation(QueueMeta meta, String name) {
        if (name == null) {
            return null;
        }
        Transformation t = context.transformations().lookup(name);
        PayloadTypeName queueType = PayloadTypeName.of(meta.table());
        if (t.to().type() != queueType.type()) {
            throw new AqException(AqError.TRANSFORMATION_WRONG_TYPE, "Transformation " + t.qualifiedName() + " gives "
                    + t.to() + " payloads; queue " + meta.qualifiedName() + " holds " + queueType + ".");
        }
        return t;
    }

    /**
     * The transformations a dequeue applies, in order: the consumer's (a subscriber's
     * transformation), then the dequeue option's; each must take what the one before gives.
     */
    private List<Transformation> dequeueTransformations(QueueRuntime q, String consumer, DequeueOptions opts) {
        List<Transformation> chain = new ArrayList<>(2);
        PayloadTypeName type = PayloadTypeName.of(q.meta().table());
        if (consumer != null) {
            for (Subscriber s : q.subscribers()) {
                if (s.key().equals(consumer) && s.transformation() != null) {
                    Transformation t = context.transformations().get(s.transformation());
                    if (t != null) {
                        chain.add(t);
                        type = t.to();
                    }
                    break;
                }
            }
        }
        if (opts.transformation() != null) {
            Transformation t = context.transformations().lookup(opts.transformation());
            if (!t.from().sameAs(type)) {
                throw new AqException(AqError.TRANSFORMATION_WRONG_TYPE, "Transformation " + t.qualifiedName() + " takes "
                        + t.from() + " payloads; what " + (chain.isEmpty() ? "queue " + q.meta().qualifiedName() + " holds"
                        : "consumer " + opts.consumerName() + " receives") + " is " + type + ".");
            }
            chain.add(t);
        }
        return chain;
    }

    private static Message transformed(Message m, List<Transformation> chain) {
        if (chain.isEmpty() || m.payload() == null) {
            return m;
        }
        Object payload = m.payload();
        for (Transformation t : chain) {
            payload = t.apply(payload, m.properties());
        }
        return Message.dequeued(m.id(), m.properties(), payload);
    }

    private List<MessageId> insert(StoreConnection c, SessionTransaction tx, QueueRuntime q, List<Message> messages,
            List<byte[]> payloads, List<QueueRuntime> exceptionQueues, List<List<Subscriber>> consumers) {
        QueueMeta meta = q.meta();
        long now = context.clock().millis();
        LocalDateTime enqTime = utc(now);
        List<Object> rows = new ArrayList<>(messages.size());
        List<SessionTransaction.Enqueued> enqueued = new ArrayList<>(messages.size());
        List<MessageId> ids = new ArrayList<>(messages.size());
        SessionTransaction.GroupHead head = meta.table().transactionalGrouping() ? tx.groupHeads.get(q) : null;
        for (int i = 0; i < messages.size(); i++) {
            MessageProperties p = messages.get(i).properties();
            long seq = context.ids().nextSequence();
            if (meta.table().transactionalGrouping() && head == null) {
                head = new SessionTransaction.GroupHead(seq, now, p.priority(), now + p.delay() * 1000, p.expiration());
                tx.groupHeads.put(q, head);
            }
            // a group's priority, delay and expiration are its head's
            int priority = head != null ? head.priority() : p.priority();
            long readyAt = head != null ? head.readyAt() : now + p.delay() * 1000;
            long expiration = head != null ? head.expiration() : p.expiration();
            MessageId id = MessageId.of(context.ids().nextMessageId());
            MessageEntity m = new MessageEntity();
            m.msgid = id.toString();
            m.queueId = meta.id();
            m.queueTableId = meta.table().id();
            m.correlation = p.correlation();
            m.priority = priority;
            m.expiration = expiration;
            m.enqueueTime = enqTime;
            m.enqueueUser = user;
            m.enqueueTransaction = tx.id;
            m.retryCount = 0;
            QueueRuntime eq = exceptionQueues.get(i);
            if (eq != null) {
                m.exceptionQueueSchema = eq.meta().owner();
                m.exceptionQueue = eq.meta().name();
            }
            Agent sender = p.sender();
            if (sender != null) {
                m.senderName = sender.name();
                m.senderAddress = sender.address();
                m.senderProtocol = sender.protocol();
            }
            m.seq = seq;
            m.groupSeq = head != null ? head.seq() : seq;
            m.orderMs = head != null ? head.orderMs() : now;
            m.payloadBytes(payloads.get(i));
            Long expiresAt;
            if (readyAt > now) {
                m.state = MessageState.WAITING.code();
                m.delay = utc(readyAt);
                m.timeManagerInfo = readyAt;
                enqueued.add(new SessionTransaction.Enqueued(q, m.msgid, null, readyAt));
            } else {
                m.state = MessageState.READY.code();
                expiresAt = expiration >= 0 ? readyAt + expiration * 1000 : null;
                m.timeManagerInfo = expiresAt;
                ReadyEntry entry = new ReadyEntry(m.msgid, priority, m.orderMs, m.groupSeq, seq, m.correlation,
                        expiresAt == null ? Long.MAX_VALUE : expiresAt);
                List<Subscriber> to = consumers.get(i);
                if (to == null) {
                    enqueued.add(new SessionTransaction.Enqueued(q, m.msgid, entry, expiresAt));
                } else {
                    for (Subscriber consumer : to) {
                        if (consumer.local()) {
                            enqueued.add(new SessionTransaction.Enqueued(q, m.msgid, entry.forConsumer(consumer.key(), entry.expiresAt),
                                    expiresAt));
                        }
                    }
                }
            }
            rows.add(m);
            if (consumers.get(i) != null) {
                for (Subscriber consumer : consumers.get(i)) {
                    rows.add(Recipients.pendingPart(m.msgid, meta.id(), consumer));
                }
            }
            ids.add(id);
        }
        work(c, tx, rows.size() > 1, em -> {
            for (Object row : rows) {
                em.persist(row);
            }
            return null;
        });
        tx.touch(q);
        tx.enqueued.addAll(enqueued);
        return ids;
    }

    /** 9999-12-31T23:59:59Z: the latest instant Derby, PostgreSQL and MariaDB all store. */
    private static final long LATEST_INSTANT_MS = 253_402_300_799_000L;

    private void validateProperties(MessageProperties p) {
        if (p.delay() < 0) {
            throw new AqException(AqError.INVALID_DELAY, "Invalid delay " + p.delay()
                    + ": the delay is a number of seconds, 0 (NO_DELAY) or more.");
        }
        if (p.expiration() < MessageProperties.NEVER) {
            throw new AqException(AqError.INVALID_EXPIRATION, "Invalid expiration " + p.expiration()
                    + ": the expiration is a number of seconds, 0 or more, or NEVER (-1).");
        }
        // every store keeps instants up to the end of the year 9999: beyond it, arithmetic or a column would overflow
        long latest = (LATEST_INSTANT_MS - context.clock().millis()) / 1000;
        if (p.delay() > latest) {
            throw new AqException(AqError.INVALID_DELAY, "Invalid delay " + p.delay() + ": the message would become"
                    + " ready after the year 9999; the longest delay now is " + latest + " seconds.");
        }
        if (p.expiration() > latest - p.delay()) {
            throw new AqException(AqError.INVALID_EXPIRATION, "Invalid expiration " + p.expiration() + ": the message"
                    + " would expire after the year 9999; use NEVER (-1) for a message that never expires.");
        }
        io.aqueduct.api.StorableText.check(p.correlation(), "A correlation identifier");
        if (p.correlation() != null && p.correlation().getBytes(StandardCharsets.UTF_8).length > 128) {
            throw new AqException(AqError.INVALID_VALUE, "The correlation identifier has more than 128 bytes.");
        }
    }

    private QueueRuntime exceptionQueueFor(QueueMeta meta, String name) {
        QualifiedName qn = QualifiedName.forLookup(name, context.defaultSchema(), "exception queue");
        QueueRuntime eq = context.catalog().queue(qn.toString());
        if (eq == null) {
            throw new AqException(AqError.QUEUE_NOT_FOUND, "The exception queue " + qn + " does not exist.");
        }
        if (!eq.meta().isException() || eq.meta().table().id() != meta.table().id()) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + qn + " cannot be the exception queue of a message of "
                    + meta.qualifiedName() + ": it must be an EXCEPTION queue of queue table " + meta.table().qualifiedName() + ".");
        }
        return eq;
    }

    private QueueRuntime queueForEnqueue(String queue) {
        QueueRuntime q = resolve(queue);
        QueueMeta meta = q.meta();
        if (meta.isException()) {
            throw new AqException(AqError.ENQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                    + " is an exception queue: applications cannot enqueue into it, only dequeue from it.");
        }
        if (!meta.enqueueEnabled()) {
            throw new AqException(AqError.ENQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                    + " is disabled for enqueue: start it with startQueue(name, true, ...).");
        }
        return q;
    }

    private QueueRuntime resolve(String queue) {
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
        return guarded(() -> dequeueChecked(queue, options));
    }

    private Message dequeueChecked(String queue, DequeueOptions options) {
        DequeueOptions opts = options == null ? DequeueOptions.create() : options;
        QueueRuntime q = queueForDequeue(queue, opts);
        if (opts.visibility() == Visibility.IMMEDIATE) {
            SessionTransaction tx = new SessionTransaction(context.ids().nextTransactionId());
            StoreConnection own = autonomous();
            Message m;
            try {
                m = dequeueOne(own, tx, q, opts, opts.navigation());
            } catch (RuntimeException e) {
                // an IMMEDIATE dequeue that failed consumed nothing: no attempt to count
                tx.held.removeIf(h -> {
                    h.queue().release(h.entry(), tx);
                    return true;
                });
                abandon(own, tx, e);
                throw e;
            }
            commit(own, tx);
            return m;
        }
        return dequeueOne(connection(), transaction(), q, opts, opts.navigation());
    }

    @Override
    public List<Message> dequeueArray(String queue, DequeueOptions options, int max) {
        checkOpen();
        return guarded(() -> dequeueArrayChecked(queue, options, max));
    }

    private List<Message> dequeueArrayChecked(String queue, DequeueOptions options, int max) {
        if (max < 1) {
            throw new AqException(AqError.INVALID_VALUE, "An array dequeue takes at least 1 message; got " + max + ".");
        }
        DequeueOptions opts = options == null ? DequeueOptions.create() : options;
        if (opts.visibility() == Visibility.IMMEDIATE) {
            List<Message> out = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                try {
                    out.add(dequeue(queue, i == 0 ? opts : next(opts)));
                } catch (AqException e) {
                    if (!out.isEmpty() || e.errorCode() == AqError.NO_MESSAGE) {
                        break;
                    }
                    throw e;
                }
            }
            return out;
        }
        QueueRuntime q = queueForDequeue(queue, opts);
        StoreConnection c = connection();
        SessionTransaction tx = transaction();
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            try {
                out.add(dequeueOne(c, tx, q, i == 0 ? opts : next(opts), i == 0 ? opts.navigation() : Navigation.NEXT_MESSAGE));
            } catch (AqException e) {
                if (e.errorCode() == AqError.NO_MESSAGE || (e.errorCode() == AqError.END_OF_GROUP && !out.isEmpty())) {
                    break;
                }
                throw e;
            }
            if (opts.messageId() != null) {
                break;
            }
        }
        return out;
    }

    private static DequeueOptions next(DequeueOptions first) {
        return first.copy().waitSeconds(DequeueOptions.NO_WAIT)
                .navigation(first.navigation() == Navigation.FIRST_MESSAGE ? Navigation.NEXT_MESSAGE : first.navigation());
    }

    private QueueRuntime queueForDequeue(String queue, DequeueOptions opts) {
        if (opts.waitSeconds() < DequeueOptions.FOREVER) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid wait " + opts.waitSeconds()
                    + ": use FOREVER (-1), NO_WAIT (0) or a number of seconds.");
        }
        io.aqueduct.api.StorableText.check(opts.consumerName(), "A consumer name");
        io.aqueduct.api.StorableText.check(opts.correlation(), "A correlation identifier");
        if (opts.correlation() != null && opts.correlation().getBytes(StandardCharsets.UTF_8).length > 128) {
            throw new AqException(AqError.INVALID_VALUE, "The correlation identifier has more than 128 bytes.");
        }
        QueueRuntime q = resolve(queue);
        QueueMeta meta = q.meta();
        if (meta.table().multipleConsumers() && !meta.isException() && opts.consumerName() == null) {
            throw new AqException(AqError.CONSUMER_NAME_REQUIRED, "Queue " + meta.qualifiedName()
                    + " is a multi-consumer queue: give the consumer name to dequeue as.");
        }
        if (!meta.table().multipleConsumers() && opts.consumerName() != null) {
            throw new AqException(AqError.INVALID_VALUE, "Queue " + meta.qualifiedName()
                    + " is a single-consumer queue: dequeue without a consumer name.");
        }
        if (opts.condition() != null) {
            Expression.parse(opts.condition()); // a malformed condition is refused before anything happens
        }
        if (!meta.dequeueEnabled()) {
            throw dequeueDisabled(meta);
        }
        return q;
    }

    private static AqException dequeueDisabled(QueueMeta meta) {
        return new AqException(AqError.DEQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                + " is disabled for dequeue: start it with startQueue(name, ..., true).");
    }

    private Message dequeueOne(StoreConnection c, SessionTransaction tx, QueueRuntime q, DequeueOptions opts, Navigation navigation) {
        String consumer = q.meta().table().multipleConsumers() && !q.meta().isException() && opts.consumerName() != null
                ? Subscriber.localKey(opts.consumerName()) : null;
        List<Transformation> chain = dequeueTransformations(q, consumer, opts);
        Position pos = positions.computeIfAbsent(q.meta().id() + "/" + consumer, id -> new Position());
        if (navigation != Navigation.FIRST_MESSAGE && pos.last != null && !Objects.equals(pos.correlation, opts.correlation())) {
            throw new AqException(AqError.CORRELATION_CHANGED, "Cannot change the correlation from '" + pos.correlation
                    + "' to '" + opts.correlation() + "' without FIRST_MESSAGE navigation.");
        }
        String msgid = opts.messageId() == null ? null : opts.messageId().toString();
        Predicate<String> correlation = opts.correlation() == null ? null : CorrelationPattern.compile(opts.correlation());
        Predicate<ReadyEntry> condition = condition(c, q, opts.condition());
        long waitMillis = opts.waitSeconds() == DequeueOptions.FOREVER ? Long.MAX_VALUE : opts.waitSeconds() * 1000;
        long deadline = waitMillis == Long.MAX_VALUE ? Long.MAX_VALUE : context.clock().millis() + waitMillis;
        Navigation nav = navigation;
        while (true) {
            if (context.engineClosed().getAsBoolean()) {
                throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine was closed during the dequeue from "
                        + q.meta().qualifiedName() + ".");
            }
            if (q.dropped()) {
                throw new AqException(AqError.QUEUE_DOES_NOT_EXIST, "The queue " + q.meta().qualifiedName() + " was dropped.");
            }
            if (!q.meta().dequeueEnabled()) {
                throw dequeueDisabled(q.meta());
            }
            long version = q.version();
            QueueRuntime.Pick pick = q.pick(new QueueRuntime.Request(tx, consumer, opts.mode(), nav, pos.last, msgid,
                    correlation, condition, context.clock().millis(), c));
            if (pick instanceof QueueRuntime.Nothing && msgid == null && pos.last != null
                    && nav != Navigation.FIRST_MESSAGE && opts.waitSeconds() != DequeueOptions.NO_WAIT) {
                // the end of the queue with a wait: the position goes back to the start
                nav = Navigation.FIRST_MESSAGE;
                pick = q.pick(new QueueRuntime.Request(tx, consumer, opts.mode(), nav, null, null, correlation, condition,
                        context.clock().millis(), c));
            }
            if (pick instanceof QueueRuntime.Found found) {
                Message m = materialize(c, tx, q, found.entry(), opts.mode(), chain);
                if (m == null) {
                    continue; // another node consumed it meanwhile; the index knows now
                }
                if (opts.mode() == DequeueMode.REMOVE || opts.mode() == DequeueMode.REMOVE_NODATA) {
                    recordAttempt(c, tx, q, found.entry());
                }
                pos.last = found.entry();
                pos.correlation = opts.correlation();
                return m;
            }
            if (pick instanceof QueueRuntime.EndOfGroup) {
                throw new AqException(AqError.END_OF_GROUP, "All messages of the current transaction group in "
                        + q.meta().qualifiedName() + " have been fetched: use NEXT_TRANSACTION for the next group.");
            }
            if (pick instanceof QueueRuntime.Nothing && msgid != null && opts.mode() == DequeueMode.BROWSE) {
                Message retained = browseRetained(c, q, msgid);
                if (retained != null) {
                    return transformed(retained, chain); // a processed message kept by retention can be browsed by its id
                }
            }
            if (pick instanceof QueueRuntime.Nothing && msgid != null && !exists(c, q, msgid)) {
                throw new AqException(AqError.MESSAGE_NOT_FOUND, "No message with id " + msgid + " in queue "
                        + q.meta().qualifiedName() + ".");
            }
            long remaining = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - context.clock().millis();
            if (remaining <= 0) {
                throw new AqException(AqError.NO_MESSAGE, (opts.waitSeconds() == DequeueOptions.NO_WAIT
                        ? "No message to dequeue from " : "No message arrived in time in ") + q.meta().qualifiedName() + ".");
            }
            if (pos.last != null && nav == Navigation.FIRST_MESSAGE && navigation != Navigation.FIRST_MESSAGE) {
                pos.last = null; // wrapped: wait at the start of the queue
            }
            try {
                q.awaitChange(version, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AqException(AqError.NO_MESSAGE, "The dequeue from " + q.meta().qualifiedName() + " was interrupted.");
            }
        }
    }

    /**
     * Puts a REMOVE attempt on record before the caller has the message, so that it is counted even
     * if this JVM dies: the attempt ledger (shared stores) or the attempt journal (Derby). When that
     * fails, the message is consumed in the transaction but the caller will never have it: the
     * transaction must not commit, so it is rolled back (an XA branch is doomed) and the caller told.
     */
    private void recordAttempt(StoreConnection c, SessionTransaction tx, QueueRuntime q, ReadyEntry entry) {
        try {
            AttemptLedger ledger = context.attemptLedger();
            if (ledger != null) {
                if (ledgerConnection == null) {
                    ledgerConnection = ledger.openConnection();
                }
                tx.attempts.add(ledger.begin(ledgerConnection, q.meta().id(), entry));
            }
            AttemptJournal journal = context.attemptJournal();
            if (journal != null) {
                tx.journalSlots.add(journal.attempt(tx.key, q.meta().id(), entry.msgid, entry.consumer));
            }
        } catch (RuntimeException e) {
            tx.held.removeIf(h -> h.entry() == entry);
            q.release(entry, tx); // not the caller's: no attempt of theirs to count
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true;
                throw e;
            }
            if (tx == current) {
                current = null;
            }
            abandon(c, tx, e);
            throw new AqException(e instanceof AqException aq ? aq.errorCode() : AqError.STORE_FAILURE,
                    "The dequeue from " + q.meta().qualifiedName() + " could not put its attempt on record, so the"
                    + " session's transaction was rolled back (what it had dequeued is back in its queue): " + e.getMessage(), e);
        }
    }

    /**
     * AQ's LISTEN: waits until one of the agents has a message and returns the first such agent in
     * the order given (not fair: an agent early in the list can starve later ones). An agent names
     * the queue in its address and, on a multi-consumer queue, the consumer in its name.
     *
     * @throws AqException 25254 when {@code waitSeconds} pass without a message
     */
    @Override
    public Agent listen(List<Agent> agents, long waitSeconds) {
        checkOpen();
        return guarded(() -> listenChecked(agents, waitSeconds));
    }

    private Agent listenChecked(List<Agent> agents, long waitSeconds) {
        if (agents == null || agents.isEmpty() || agents.stream().anyMatch(java.util.Objects::isNull)) {
            throw new AqException(AqError.INVALID_VALUE, "LISTEN needs at least one agent, and no null ones.");
        }
        if (waitSeconds < DequeueOptions.FOREVER) {
            throw new AqException(AqError.INVALID_VALUE, "Invalid wait " + waitSeconds
                    + ": use FOREVER (-1), NO_WAIT (0) or a number of seconds.");
        }
        List<QueueRuntime> queues = new ArrayList<>(agents.size());
        List<String> consumers = new ArrayList<>(agents.size());
        for (Agent a : agents) {
            if (a.address() == null) {
                throw new AqException(AqError.INVALID_VALUE, "A LISTEN agent names its queue in its address; agent "
                        + a.name() + " has none.");
            }
            QueueRuntime q = resolve(a.address());
            boolean multi = q.meta().table().multipleConsumers() && !q.meta().isException();
            if (multi && a.name() == null) {
                throw new AqException(AqError.CONSUMER_NAME_REQUIRED, "Queue " + q.meta().qualifiedName()
                        + " is a multi-consumer queue: the LISTEN agent must name the consumer.");
            }
            if (!multi && a.name() != null) {
                throw new AqException(AqError.INVALID_VALUE, "Queue " + q.meta().qualifiedName()
                        + " is a single-consumer queue: its LISTEN agent has no name.");
            }
            queues.add(q);
            consumers.add(multi ? Subscriber.localKey(a.name()) : null);
        }
        io.aqueduct.engine.queue.Listeners listeners = context.catalog().listeners();
        long deadline = waitSeconds == DequeueOptions.FOREVER ? Long.MAX_VALUE : context.clock().millis() + waitSeconds * 1000;
        listeners.enter();
        try {
            while (true) {
                long seen = listeners.version();
                for (int i = 0; i < agents.size(); i++) {
                    QueueRuntime q = queues.get(i);
                    if (!q.dropped() && q.meta().dequeueEnabled()
                            && q.hasAvailable(consumers.get(i), null, context.clock().millis(), this::autonomous)) {
                        return agents.get(i);
                    }
                }
                if (context.engineClosed().getAsBoolean()) {
                    throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine was closed during LISTEN.");
                }
                long remaining = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - context.clock().millis();
                if (remaining <= 0) {
                    throw new AqException(AqError.LISTEN_TIMEOUT, "No message arrived for any of the " + agents.size()
                            + " agents within the LISTEN wait.");
                }
                try {
                    // a shared store: also look again on our own now and then (a dead node's locks go silently)
                    listeners.await(seen, queues.get(0).recheckWithin(remaining));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AqException(AqError.LISTEN_TIMEOUT, "LISTEN was interrupted.");
                }
            }
        } finally {
            listeners.leave();
        }
    }

    /**
     * A dequeue condition as a test of ready entries: the message is read (once per dequeue call)
     * and the condition evaluated on it in Java; the condition text never reaches SQL.
     */
    private Predicate<ReadyEntry> condition(StoreConnection c, QueueRuntime q, String text) {
        if (text == null) {
            return null;
        }
        Expression expression = Expression.parse(text);
        QueueMeta meta = q.meta();
        Map<String, Boolean> seen = new HashMap<>();
        return e -> seen.computeIfAbsent(e.msgid, id -> c.work(em -> {
            MessageEntity m = em.find(MessageEntity.class, id);
            if (m == null) {
                return false;
            }
            MessageView view = MessageSnapshot.builder().priority(m.priority).correlation(m.correlation)
                    .enqueueTime(m.enqueueTime.toInstant(ZoneOffset.UTC)).delay(delaySeconds(m)).expiration(m.expiration)
                    .retryCount(m.retryCount).senderName(m.senderName).messageId(id.trim())
                    .payload(PayloadView.lazy(meta.table().payloadType(), () -> PayloadCodec.decode(meta.table(), m.payloadBytes(), context.limits().deserializationFilter())))
                    .build();
            return expression.test(view);
        }, false));
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
    public boolean awaitAvailable(String queue, String consumerName, String correlation, long waitMillis,
            java.util.function.BooleanSupplier cancelled) {
        checkOpen();
        return guarded(() -> awaitAvailableChecked(queue, consumerName, correlation, waitMillis, cancelled));
    }

    private boolean awaitAvailableChecked(String queue, String consumerName, String correlation, long waitMillis,
            java.util.function.BooleanSupplier cancelled) {
        QueueRuntime q = resolve(queue);
        String consumer = consumerName == null || !q.meta().table().multipleConsumers() || q.meta().isException()
                ? null : Subscriber.localKey(consumerName);
        Predicate<String> match = correlation == null ? null : CorrelationPattern.compile(correlation);
        long deadline = waitMillis == Long.MAX_VALUE ? Long.MAX_VALUE : context.clock().millis() + waitMillis;
        while (!q.dropped() && !context.engineClosed().getAsBoolean() && !cancelled.getAsBoolean()) {
            long version = q.version();
            if (q.meta().dequeueEnabled() && q.hasAvailable(consumer, match, context.clock().millis(), this::autonomous)) {
                return true;
            }
            long remaining = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - context.clock().millis();
            if (remaining <= 0) {
                return false;
            }
            try {
                q.awaitChange(version, remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Reads (and, for REMOVE, consumes) the claimed message; null when it is no longer there. */
    private Message materialize(StoreConnection c, SessionTransaction tx, QueueRuntime q, ReadyEntry e, DequeueMode mode,
            List<Transformation> chain) {
        AqException[] failed = new AqException[1]; // a failed transformation: nothing consumed, the message released
        QueueMeta meta = q.meta();
        boolean consume = mode == DequeueMode.REMOVE || mode == DequeueMode.REMOVE_NODATA;
        long now = context.clock().millis();
        Long retentionDue = null;
        if (consume && !meta.isException() && meta.retentionSeconds() != 0) {
            retentionDue = meta.retentionSeconds() < 0 ? null : now + meta.retentionSeconds() * 1000;
        }
        boolean retain = consume && !meta.isException() && meta.retentionSeconds() != 0;
        Long purgeAt = retentionDue;
        Message message;
        try {
            message = work(c, tx, false, em -> {
                MessageEntity m = em.find(MessageEntity.class, e.msgid);
                if (m == null || m.queueId != meta.id() || m.state != meta.availableState()) {
                    return null;
                }
                if (e.consumer != null) {
                    return consumerPart(em, tx, meta, m, e, mode, now, chain, failed);
                }
                Message out = toMessage(meta, m, m.retryCount, mode != DequeueMode.REMOVE_NODATA);
                try {
                    out = transformed(out, chain);
                } catch (AqException ex) {
                    failed[0] = ex;
                    return null;
                }
                if (consume) {
                    int changed;
                    if (retain) {
                        changed = em.createNamedQuery(MessageEntity.RETAIN)
                                .setParameter("processed", MessageState.PROCESSED.code()).setParameter("t", utc(now))
                                .setParameter("u", user).setParameter("tid", tx.id).setParameter("purge", purgeAt)
                                .setParameter("id", e.msgid).setParameter("state", meta.availableState()).executeUpdate();
                    } else {
                        changed = em.createNamedQuery(MessageEntity.CONSUME)
                                .setParameter("id", e.msgid).setParameter("state", meta.availableState()).executeUpdate();
                        if (changed == 1 && meta.table().multipleConsumers()) {
                            // out of a multi-consumer table's exception queue: its consumers' history goes with it
                            em.createQuery("DELETE FROM ConsumerStateEntity c WHERE c.msgid = :id").setParameter("id", e.msgid)
                                    .executeUpdate();
                        }
                    }
                    if (changed == 0) {
                        return null;
                    }
                }
                return out;
            });
        } catch (RuntimeException ex) {
            if (mode != DequeueMode.BROWSE) {
                q.release(e, tx);
            }
            throw ex;
        }
        if (failed[0] != null) {
            if (mode != DequeueMode.BROWSE) {
                q.release(e, tx);
            }
            throw failed[0];
        }
        if (message == null) {
            q.remove(e);
            return null;
        }
        if (mode != DequeueMode.BROWSE) {
            tx.touch(q);
            if (consume) {
                tx.held.removeIf(h -> h.entry() == e); // a message this transaction had LOCKED is now removed
            }
            tx.held.add(new SessionTransaction.Held(q, e, consume, e.consumer == null ? retentionDue : null));
        }
        return message;
    }

    /**
     * One consumer's part of a message of a multi-consumer queue: its attempts are its own, and
     * REMOVE marks its part PROCESSED (with its dequeue history); the message itself is done when
     * no consumer has it pending (the time manager sees to that after commit).
     */
    private Message consumerPart(jakarta.persistence.EntityManager em, SessionTransaction tx, QueueMeta meta, MessageEntity m,
            ReadyEntry e, DequeueMode mode, long now, List<Transformation> chain, AqException[] failed) {
        ConsumerStateEntity part = em.find(ConsumerStateEntity.class, ConsumerStateEntity.id(e.msgid, e.consumer));
        if (part == null || part.state != ConsumerStates.READY) {
            return null;
        }
        Message out = toMessage(meta, m, part.retryCount, mode != DequeueMode.REMOVE_NODATA);
        try {
            out = transformed(out, chain);
        } catch (AqException ex) {
            failed[0] = ex;
            return null;
        }
        if (mode == DequeueMode.REMOVE || mode == DequeueMode.REMOVE_NODATA) {
            int changed = em.createNamedQuery(ConsumerStateEntity.CONSUME)
                    .setParameter("processed", ConsumerStates.PROCESSED).setParameter("t", utc(now))
                    .setParameter("u", user).setParameter("tid", tx.id).setParameter("id", part.id)
                    .setParameter("ready", ConsumerStates.READY).executeUpdate();
            if (changed == 0) {
                return null;
            }
        }
        return out;
    }

    /** A unit of work; one that fails inside an XA branch (no savepoint to undo it) dooms the branch. */
    private static <T> T work(StoreConnection c, SessionTransaction tx, boolean atomic,
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

    private static long delaySeconds(MessageEntity m) {
        if (m.delay == null) {
            return 0;
        }
        long delayMs = m.delay.toInstant(ZoneOffset.UTC).toEpochMilli() - m.enqueueTime.toInstant(ZoneOffset.UTC).toEpochMilli();
        return Math.max(0, delayMs / 1000);
    }

    private Message toMessage(QueueMeta meta, MessageEntity m, int attempts, boolean withPayload) {
        MessageProperties p = MessageProperties.create().priority(m.priority).correlation(m.correlation)
                .expiration(m.expiration);
        p.delay(delaySeconds(m));
        if (m.exceptionQueue != null) {
            p.exceptionQueue(m.exceptionQueueSchema + "." + m.exceptionQueue);
        }
        if (m.senderName != null || m.senderAddress != null) {
            p.sender(new Agent(m.senderName, m.senderAddress, m.senderProtocol == null ? 0 : m.senderProtocol));
        }
        p.recorded(attempts, m.enqueueTime.toInstant(ZoneOffset.UTC), MessageState.ofCode(m.state),
                m.originalMsgid == null ? null : MessageId.parse(m.originalMsgid.trim()));
        Object payload = withPayload ? PayloadCodec.decode(meta.table(), m.payloadBytes(), context.limits().deserializationFilter()) : null;
        return Message.dequeued(MessageId.parse(m.msgid.trim()), p, payload);
    }

    private Message browseRetained(StoreConnection c, QueueRuntime q, String msgid) {
        QueueMeta meta = q.meta();
        return c.work(em -> {
            MessageEntity m = em.find(MessageEntity.class, msgid);
            return m != null && m.queueId == meta.id() && m.state == MessageState.PROCESSED.code() ? toMessage(meta, m, m.retryCount, true) : null;
        });
    }

    private boolean exists(StoreConnection c, QueueRuntime q, String msgid) {
        return c.work(em -> !em.createQuery("SELECT m.msgid FROM MessageEntity m WHERE m.msgid = :id AND m.queueId = :q")
                .setParameter("id", msgid).setParameter("q", q.meta().id()).setMaxResults(1).getResultList().isEmpty());
    }

    // ------------------------------------------------------------------ transactions

    private SessionTransaction transaction() {
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
    private void commit(StoreConnection c, SessionTransaction tx) {
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
    private void abandon(StoreConnection c, SessionTransaction tx, RuntimeException failure) {
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
        }
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
    private StoreConnection connection() {
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

    /** The database's XAResource for this session's connection, wrapped with the engine's hooks. */
    public XAResource xaResource() {
        checkOpen();
        return new AqXaResource(this, connection().xaResource());
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
    public long queueVersion(String queue) {
        return resolve(queue).version();
    }

    /**
     * Waits until the queue changes after {@code seen} (a message committed, released, expired...),
     * or {@code millis} pass: a delivery whose condition matched nothing waits here instead of polling.
     */
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
    public void wake(String queue) {
        context.catalog().queues().stream().filter(r -> r.meta().qualifiedName().equals(
                QualifiedName.forLookup(queue, context.defaultSchema(), "queue").toString())).forEach(QueueRuntime::wakeAll);
    }

    /** Does the named queue exist? */
    public boolean queueExists(String queue) {
        return context.catalog().queue(QualifiedName.forLookup(queue, context.defaultSchema(), "queue").toString()) != null;
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
        return context.admin();
    }

    private StoreConnection autonomous() {
        if (autonomous != null && autonomous.broken()) {
            autonomous.closeQuietly();
            autonomous = null;
        }
        if (autonomous == null) {
            autonomous = context.store().open();
        }
        return autonomous;
    }

    private void checkOpen() {
        if (closed) {
            throw new AqException(AqError.SESSION_STATE, "The queue session is closed.");
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

    private static LocalDateTime utc(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }
}
