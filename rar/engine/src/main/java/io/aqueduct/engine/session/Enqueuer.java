package io.aqueduct.engine.session;

import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Visibility;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.payload.UserPropertiesCodec;
import io.aqueduct.engine.transform.PayloadTypeName;
import io.aqueduct.engine.transform.Transformation;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.MessageRows;
import io.aqueduct.engine.store.StoreConnection;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session's enqueue: checks everything first (queue, options, properties, recipients, payload size
 * and type, transformation), then writes the messages in the session's transaction or, for
 * IMMEDIATE visibility, in one of their own.
 */
final class Enqueuer {
    private final EngineSession session;
    private final SessionContext context;

    Enqueuer(EngineSession session) {
        this.session = session;
        this.context = session.context;
    }

    List<MessageId> enqueue(String queue, EnqueueOptions options, List<Message> messages) {
        EnqueueOptions opts = options == null ? EnqueueOptions.create() : options;
        if (messages == null || messages.isEmpty() || messages.stream().anyMatch(java.util.Objects::isNull)) {
            throw new AqException(AqError.INVALID_VALUE, "Give at least one message to enqueue, and no null ones.");
        }
        if (opts.deliveryMode() == DeliveryMode.PERSISTENT_OR_BUFFERED) {
            throw new AqException(AqError.INVALID_VALUE, "An enqueue's delivery mode is PERSISTENT or BUFFERED;"
                    + " PERSISTENT_OR_BUFFERED is for dequeues.");
        }
        QueueRuntime q = queueForEnqueue(queue);
        QueueMeta meta = q.meta();
        boolean buffered = opts.deliveryMode() == DeliveryMode.BUFFERED;
        if (buffered) {
            checkBuffered(meta, opts, messages);
        }
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
        List<byte[]> userProperties = new ArrayList<>(messages.size());
        List<List<Subscriber>> consumers = new ArrayList<>(messages.size());
        for (Message m : messages) {
            MessageProperties p = m.properties();
            validateProperties(p);
            userProperties.add(UserPropertiesCodec.encode(p.userProperties()));
            exceptionQueues.add(p.exceptionQueue() == null ? null : exceptionQueueFor(meta, p.exceptionQueue()));
            payloads.add(encodeWithinLimit(meta, m.payload()));
            consumers.add(Recipients.of(q, m, context.clock().now()));
            session.checkRecipientAddresses(meta, p.recipients());
        }
        if (buffered) {
            return enqueueBuffered(q, messages, payloads, userProperties, consumers, null);
        }
        if (opts.visibility() == Visibility.IMMEDIATE) {
            SessionTransaction tx = new SessionTransaction(context.ids().nextTransactionId());
            StoreConnection own = session.autonomous();
            List<MessageId> ids;
            try {
                ids = insert(own, tx, q, messages, payloads, userProperties, exceptionQueues, consumers, null, null);
            } catch (RuntimeException e) {
                session.abandon(own, tx, e);
                throw e;
            }
            session.commit(own, tx);
            return ids;
        }
        return insert(session.connection(), session.transaction(), q, messages, payloads, userProperties, exceptionQueues,
                consumers, null, null);
    }

    /**
     * What AQ refuses for a buffered enqueue, before anything else is looked at: ON_COMMIT visibility (a
     * buffered message is part of no transaction), a queue table with transactional grouping (25292),
     * several messages at once (AQ has no array enqueue of buffered messages) and an exception queue
     * (an expired buffered message is discarded, never moved).
     */
    private static void checkBuffered(QueueMeta meta, EnqueueOptions opts, List<Message> messages) {
        if (opts.visibility() != Visibility.IMMEDIATE) {
            throw new AqException(AqError.INVALID_VALUE, "A BUFFERED enqueue into " + meta.qualifiedName() + " needs"
                    + " visibility IMMEDIATE: a buffered message is part of no transaction and is visible at once.");
        }
        if (meta.table().transactionalGrouping()) {
            throw new AqException(AqError.BUFFERED_NOT_SUPPORTED, "Queue " + meta.qualifiedName() + " cannot hold buffered"
                    + " messages: its queue table " + meta.table().qualifiedName() + " groups messages by transaction, and a"
                    + " buffered message has none. Enqueue PERSISTENT messages there.");
        }
        if (messages.size() > 1) {
            throw new AqException(AqError.INVALID_VALUE, "A BUFFERED enqueue takes one message at a time (AQ has no array"
                    + " enqueue of buffered messages); got " + messages.size() + ".");
        }
        for (Message m : messages) {
            if (m.properties().exceptionQueue() != null) {
                throw new AqException(AqError.INVALID_VALUE, "A buffered message has no exception queue (it is discarded"
                        + " when it expires); leave the exception queue of the message for " + meta.qualifiedName() + " unset.");
            }
        }
    }

    /**
     * The buffered enqueue, once everything is checked: the messages go into this engine's memory, in no
     * transaction; on a multi-consumer queue each local consumer gets its part, and so does each remote
     * consumer propagation serves (protocol 0, an address of a queue), whose part a schedule moves. A
     * message only consumers no propagation serves would receive is refused (24033): it would only wait in
     * memory. {@code waitMillis}: how long to wait for memory (null: the engine's wait).
     */
    private List<MessageId> enqueueBuffered(QueueRuntime q, List<Message> messages, List<byte[]> payloads,
            List<byte[]> userProperties, List<List<Subscriber>> consumers, Long waitMillis) {
        QueueMeta meta = q.meta();
        List<List<Subscriber>> kept = new ArrayList<>(messages.size());
        boolean propagatable = false;
        for (List<Subscriber> to : consumers) {
            List<Subscriber> here = to == null ? null
                    : to.stream().filter(s -> s.local() || io.aqueduct.engine.queue.RemoteAddress.of(s.agent()) != null).toList();
            if (here != null && here.isEmpty()) {
                throw new AqException(AqError.NO_RECIPIENTS, "A buffered message for " + meta.qualifiedName() + " would"
                        + " only go to remote consumers that no propagation serves (an address of another protocol than 0,"
                        + " or not of a queue): name a local consumer or a queue's address, or enqueue it PERSISTENT.");
            }
            propagatable |= here != null && here.stream().anyMatch(s -> !s.local());
            kept.add(here);
        }
        List<List<Subscriber>> local = kept;
        long now = context.clock().millis();
        List<io.aqueduct.engine.buffered.BufferedMessages.Enqueue> buffered = new ArrayList<>(messages.size());
        List<MessageId> ids = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            MessageProperties p = messages.get(i).properties();
            long seq = context.ids().nextSequence();
            MessageId id = MessageId.of(context.ids().nextMessageId());
            long readyAt = now + p.delay() * 1000;
            long expiresAt = p.expiration() >= 0 ? readyAt + p.expiration() * 1000 : Long.MAX_VALUE;
            ReadyEntry order = new ReadyEntry(id.toString(), p.priority(), now, seq, seq, p.correlation(), expiresAt);
            buffered.add(new io.aqueduct.engine.buffered.BufferedMessages.Enqueue(order, payloads.get(i), userProperties.get(i),
                    p.copy(), readyAt, local.get(i)));
            ids.add(id);
        }
        if (waitMillis == null) {
            context.buffered().enqueue(q, buffered);
        } else {
            context.buffered().enqueue(q, buffered, waitMillis);
        }
        if (propagatable) {
            context.completion().propagatable(meta.id()); // a schedule may move them now (its latency permitting)
        }
        io.aqueduct.engine.notification.Notifier notifier = context.notifier();
        if (notifier.watched(meta.id())) {
            // told at once (or when the delay ends), from memory: there is no commit to wait for
            for (int i = 0; i < buffered.size(); i++) {
                var b = buffered.get(i);
                List<Subscriber> to = local.get(i);
                for (String consumer : to == null ? java.util.Collections.<String>singletonList(null)
                        : to.stream().filter(Subscriber::local).map(Subscriber::key).toList()) {
                    notifier.bufferedEnqueued(q, ids.get(i), consumer, now, b.readyAt(), b.properties(), b.payload());
                }
            }
        }
        return ids;
    }

    /**
     * Propagation's enqueue, in the session's transaction: each message is checked on its own, and
     * one the destination refuses (an application error: the queue does not exist or is an exception
     * queue, a payload of the wrong type, no consumer at the destination, ...) is reported in its
     * {@link PropagatedMessage.Delivery} and nothing of it written, while the others are enqueued.
     * A destination stopped for enqueue (25207) is not the messages' fault: it is thrown, to try again later.
     */
    List<PropagatedMessage.Delivery> enqueuePropagated(String queue, List<PropagatedMessage> messages) {
        List<PropagatedMessage.Delivery> out = new ArrayList<>(messages.size());
        QueueRuntime q;
        try {
            q = session.resolve(queue);
        } catch (AqException e) {
            messages.forEach(m -> out.add(new PropagatedMessage.Delivery(null, e)));
            return out;
        }
        QueueMeta meta = q.meta();
        if (meta.isException()) {
            AqException refused = new AqException(AqError.ENQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                    + " is an exception queue: propagation cannot enqueue into it.");
            messages.forEach(m -> out.add(new PropagatedMessage.Delivery(null, refused)));
            return out;
        }
        // stopped for enqueue: thrown, the schedule tries again. No privilege check: propagation is the engine's
        // own work, on the schedule an administrator or the source queue's owner made
        queueForEnqueue(queue, false);
        List<Message> accepted = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        List<QueueRuntime> exceptionQueues = new ArrayList<>();
        List<byte[]> userProperties = new ArrayList<>();
        List<List<Subscriber>> consumers = new ArrayList<>();
        List<String> originals = new ArrayList<>();
        List<Boolean> groupStarts = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (PropagatedMessage pm : messages) {
            Message m = pm.message();
            try {
                MessageProperties p = m.properties();
                validateProperties(p);
                byte[] props = UserPropertiesCodec.encode(p.userProperties());
                QueueRuntime eq = null;
                if (p.exceptionQueue() != null) {
                    try {
                        eq = exceptionQueueFor(meta, p.exceptionQueue());
                    } catch (AqException notHere) {
                        eq = null; // not an exception queue of this queue table: the default one applies, as in AQ
                    }
                }
                byte[] payload = encodeWithinLimit(meta, m.payload());
                List<Subscriber> to = Recipients.of(q, m, context.clock().now());
                positions.add(out.size());
                out.add(null);
                accepted.add(m);
                payloads.add(payload);
                userProperties.add(props);
                exceptionQueues.add(eq);
                consumers.add(to);
                originals.add(pm.originalMsgid());
                groupStarts.add(pm.startsGroup());
            } catch (AqException refused) {
                out.add(new PropagatedMessage.Delivery(null, refused));
            }
        }
        if (!accepted.isEmpty()) {
            List<MessageId> ids = insert(session.connection(), session.transaction(), q, accepted, payloads, userProperties,
                    exceptionQueues, consumers, originals, groupStarts);
            for (int i = 0; i < ids.size(); i++) {
                out.set(positions.get(i), new PropagatedMessage.Delivery(ids.get(i), null));
            }
        }
        return out;
    }

    /**
     * Propagation's enqueue of a buffered message into a destination queue of this engine: enqueued
     * BUFFERED (visibility IMMEDIATE, in no transaction), with the message's properties and the source
     * msgid as its ORIGINAL_MSGID. What the destination refuses for good (the queue does not exist, is an
     * exception queue or holds no buffered messages, the payload does not suit it, no consumer, ...) is
     * reported; what blocks the way — the queue is stopped for enqueue (25207), this engine's buffered
     * memory is full (25307, no wait: the source keeps the message and tries again later) — is thrown.
     */
    PropagatedMessage.Delivery enqueuePropagatedBuffered(String queue, PropagatedMessage pm) {
        QueueRuntime q;
        try {
            q = session.resolve(queue);
        } catch (AqException e) {
            return new PropagatedMessage.Delivery(null, e);
        }
        QueueMeta meta = q.meta();
        if (meta.isException()) {
            return new PropagatedMessage.Delivery(null, new AqException(AqError.ENQUEUE_DISABLED, "Queue "
                    + meta.qualifiedName() + " is an exception queue: propagation cannot enqueue into it."));
        }
        queueForEnqueue(queue, false); // stopped for enqueue: thrown, the schedule tries again
        Message m = pm.message();
        List<byte[]> payloads = new ArrayList<>(1);
        List<byte[]> userProperties = new ArrayList<>(1);
        List<List<Subscriber>> consumers = new ArrayList<>(1);
        try {
            // a buffered message has no exception queue; its ORIGINAL_MSGID is the source message's
            MessageProperties p = m.properties().copy().exceptionQueue(null).recorded(0, context.clock().now(),
                    MessageState.READY, MessageId.parse(pm.originalMsgid()));
            m = Message.of(m.payload(), p);
            checkBuffered(meta, EnqueueOptions.create().visibility(Visibility.IMMEDIATE), List.of(m));
            validateProperties(p);
            userProperties.add(UserPropertiesCodec.encode(p.userProperties()));
            payloads.add(encodeWithinLimit(meta, m.payload()));
            consumers.add(Recipients.of(q, m, context.clock().now()));
        } catch (AqException refused) {
            return new PropagatedMessage.Delivery(null, refused);
        }
        List<MessageId> ids;
        try {
            ids = enqueueBuffered(q, List.of(m), payloads, userProperties, consumers, 0L);
        } catch (AqException e) {
            if (e.errorCode() == AqError.NO_RECIPIENTS) {
                return new PropagatedMessage.Delivery(null, e);
            }
            throw e; // 25307: memory full here, the message waits at its source
        }
        return new PropagatedMessage.Delivery(ids.get(0), null);
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

    private List<MessageId> insert(StoreConnection c, SessionTransaction tx, QueueRuntime q, List<Message> messages,
            List<byte[]> payloads, List<byte[]> userProperties, List<QueueRuntime> exceptionQueues,
            List<List<Subscriber>> consumers, List<String> originalMsgids, List<Boolean> groupStarts) {
        QueueMeta meta = q.meta();
        long now = context.clock().millis();
        LocalDateTime enqTime = EngineSession.utc(now);
        List<Object> rows = new ArrayList<>(messages.size());
        List<SessionTransaction.Enqueued> enqueued = new ArrayList<>(messages.size());
        List<MessageId> ids = new ArrayList<>(messages.size());
        SessionTransaction.GroupHead head = meta.table().transactionalGrouping() ? tx.groupHeads.get(q) : null;
        io.aqueduct.engine.notification.Notifier notifier = context.notifier();
        boolean watched = notifier.watched(meta.id()); // the only cost of notifications to a queue nobody registered on
        List<io.aqueduct.engine.notification.Notifier.Pending> notifications = watched ? new ArrayList<>() : List.of();
        for (int i = 0; i < messages.size(); i++) {
            MessageProperties p = messages.get(i).properties();
            long seq = context.ids().nextSequence();
            if (groupStarts != null && groupStarts.get(i) && meta.table().transactionalGrouping()) {
                head = null; // a propagated source group stays a group of its own in this transaction
            }
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
            m.enqueueUser = session.user;
            m.enqueueTransaction = tx.id;
            m.retryCount = 0;
            m.originalMsgid = originalMsgids == null ? null : originalMsgids.get(i);
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
            m.userProperties = userProperties.get(i);
            Long expiresAt;
            if (readyAt > now) {
                m.state = MessageState.WAITING.code();
                m.delay = EngineSession.utc(readyAt);
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
            if (watched && readyAt <= now) {
                // one notification per consumer the message is for, once it is available; a delayed one's are
                // planned by the time manager when its delay ends (a registration made meanwhile counts)
                List<Subscriber> to = consumers.get(i);
                if (to == null) {
                    notifier.plan(meta.id(), m.msgid, null, now, rows, notifications);
                } else {
                    for (Subscriber consumer : to) {
                        if (consumer.local()) {
                            notifier.plan(meta.id(), m.msgid, consumer.key(), now, rows, notifications);
                        }
                    }
                }
            }
            if (consumers.get(i) != null) {
                for (Subscriber consumer : consumers.get(i)) {
                    if (!consumer.local()) {
                        // a schedule may have something to move once this commits (a delayed message too:
                        // propagation moves it at once, and the destination waits the rest of its delay)
                        tx.propagatable.add(q);
                    }
                    rows.add(Recipients.pendingPart(m.msgid, meta.id(), consumer));
                }
            }
            ids.add(id);
        }
        if (rows.stream().allMatch(r -> r instanceof MessageEntity)) {
            insertMessages(c, tx, rows);
        } else {
            EngineSession.work(c, tx, rows.size() > 1, em -> {
                for (Object row : rows) {
                    em.persist(row);
                }
                return null;
            });
        }
        tx.touch(q);
        tx.enqueued.addAll(enqueued);
        tx.enqueuedMessages.merge(q, ids.size(), Integer::sum); // inserted: counted if this commits
        if (watched) {
            tx.notifications.addAll(notifications);
            tx.notificationRows |= rows.stream().anyMatch(r -> r instanceof io.aqueduct.engine.store.NotificationEntity);
        }
        return ids;
    }

    /**
     * Messages without consumer parts (a single-consumer queue) go in with plain JDBC. Several rows
     * are all or nothing: a savepoint undoes an insert that failed half-way, where there is one (in
     * an XA branch a failure dooms the branch instead).
     */
    private static void insertMessages(StoreConnection c, SessionTransaction tx, List<Object> rows) {
        List<MessageEntity> messages = new ArrayList<>(rows.size());
        rows.forEach(r -> messages.add((MessageEntity) r));
        boolean atomic = messages.size() > 1 && !c.inGlobalTransaction();
        try {
            c.jdbc(jdbc -> MessageRows.insert(jdbc, c.dialect(), messages, atomic));
        } catch (RuntimeException e) {
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true;
            }
            throw e;
        }
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
        return queueForEnqueue(queue, true);
    }

    private QueueRuntime queueForEnqueue(String queue, boolean checkPrivilege) {
        QueueRuntime q = checkPrivilege ? session.resolve(queue, QueuePrivilege.ENQUEUE) : session.resolve(queue);
        QueueMeta meta = q.meta();
        if (!meta.enqueueEnabled() && context.catalog().refresh()) {
            meta = q.meta(); // another node may have started it a moment ago
        }
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
}
