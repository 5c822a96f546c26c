package io.aqueduct.engine.session;

import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.payload.UserPropertiesCodec;
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
import io.aqueduct.engine.store.MessageRows;
import io.aqueduct.engine.store.StoreConnection;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A session's dequeue: the modes (BROWSE, LOCKED, REMOVE, REMOVE_NODATA), navigation, the dequeue
 * conditions, array dequeues, and reading a claimed message back from the store (payload decoded,
 * dequeue transformations applied); a REMOVE records its attempt before the caller has the message.
 */
final class Dequeuer {
    private final EngineSession session;
    private final SessionContext context;

    Dequeuer(EngineSession session) {
        this.session = session;
        this.context = session.context;
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

    Message dequeue(String queue, DequeueOptions options) {
        DequeueOptions opts = options == null ? DequeueOptions.create() : options;
        QueueRuntime q = queueForDequeue(queue, opts);
        if (opts.deliveryMode() == DeliveryMode.BUFFERED) {
            return dequeueOne(null, null, q, opts, opts.navigation()); // in memory: no connection, no transaction
        }
        if (opts.visibility() == Visibility.IMMEDIATE) {
            SessionTransaction tx = new SessionTransaction(context.ids().nextTransactionId());
            StoreConnection own = session.autonomous();
            Message m;
            try {
                m = dequeueOne(own, tx, q, opts, opts.navigation());
            } catch (RuntimeException e) {
                // an IMMEDIATE dequeue that failed consumed nothing: no attempt to count
                tx.held.removeIf(h -> {
                    h.queue().release(h.entry(), tx);
                    return true;
                });
                session.abandon(own, tx, e);
                throw e;
            }
            session.commit(own, tx);
            return m;
        }
        return dequeueOne(session.connection(), session.transaction(), q, opts, opts.navigation());
    }

    List<Message> dequeueArray(String queue, DequeueOptions options, int max) {
        if (max < 1) {
            throw new AqException(AqError.INVALID_VALUE, "An array dequeue takes at least 1 message; got " + max + ".");
        }
        DequeueOptions opts = options == null ? DequeueOptions.create() : options;
        if (opts.deliveryMode() != DeliveryMode.PERSISTENT) {
            if (max > 1) {
                throw new AqException(AqError.INVALID_VALUE, "An array dequeue of buffered messages takes 1 message at a"
                        + " time, as in AQ; got " + max + ". Dequeue them one by one, or dequeue PERSISTENT messages.");
            }
            try {
                return List.of(dequeue(queue, opts));
            } catch (AqException e) {
                if (e.errorCode() == AqError.NO_MESSAGE) {
                    return List.of(); // an array dequeue that finds nothing returns none, as for persistent messages
                }
                throw e;
            }
        }
        if (opts.visibility() == Visibility.IMMEDIATE) {
            List<Message> out = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                try {
                    out.add(session.dequeue(queue, i == 0 ? opts : next(opts)));
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
        StoreConnection c = session.connection();
        SessionTransaction tx = session.transaction();
        List<Message> out = new ArrayList<>();
        for (int i = 0; out.size() < max; i++) {
            try {
                // a take consumes many at once; otherwise one by one
                out.addAll(dequeueSome(c, tx, q, i == 0 ? opts : next(opts), i == 0 ? opts.navigation() : Navigation.NEXT_MESSAGE,
                        max - out.size()));
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
        QueueRuntime q = session.resolve(queue, QueuePrivilege.DEQUEUE);
        QueueMeta meta = q.meta();
        if (opts.deliveryMode() != DeliveryMode.PERSISTENT) {
            checkBuffered(meta, opts);
        }
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
        if (opts.selector() != null) {
            Expression.parseSelector(opts.selector()); // as is a malformed selector
        }
        if (!meta.dequeueEnabled() && context.catalog().refresh()) {
            meta = q.meta(); // another node may have started it a moment ago
        }
        if (!meta.dequeueEnabled()) {
            throw dequeueDisabled(meta);
        }
        return q;
    }

    /**
     * What AQ refuses for a dequeue of buffered messages: LOCKED mode (a buffered message is part of no
     * transaction that could hold it); for BUFFERED alone also ON_COMMIT visibility and a queue table with
     * transactional grouping, which holds no buffered messages (25292).
     */
    private static void checkBuffered(QueueMeta meta, DequeueOptions opts) {
        if (opts.mode() == DequeueMode.LOCKED) {
            throw new AqException(AqError.INVALID_VALUE, "A dequeue of " + opts.deliveryMode() + " messages from "
                    + meta.qualifiedName() + " cannot be LOCKED: a buffered message is part of no transaction that could"
                    + " hold it. Use BROWSE, REMOVE or REMOVE_NODATA.");
        }
        if (opts.deliveryMode() == DeliveryMode.BUFFERED && opts.visibility() != Visibility.IMMEDIATE) {
            throw new AqException(AqError.INVALID_VALUE, "A BUFFERED dequeue from " + meta.qualifiedName() + " needs"
                    + " visibility IMMEDIATE: a buffered message leaves its queue at once, in no transaction.");
        }
        if (opts.deliveryMode() == DeliveryMode.BUFFERED && meta.table().transactionalGrouping()) {
            throw new AqException(AqError.BUFFERED_NOT_SUPPORTED, "Queue " + meta.qualifiedName() + " holds no buffered"
                    + " messages: its queue table " + meta.table().qualifiedName() + " groups messages by transaction.");
        }
    }

    private static AqException dequeueDisabled(QueueMeta meta) {
        return new AqException(AqError.DEQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                + " is disabled for dequeue: start it with startQueue(name, ..., true).");
    }

    private Message dequeueOne(StoreConnection c, SessionTransaction tx, QueueRuntime q, DequeueOptions opts, Navigation navigation) {
        return dequeueSome(c, tx, q, opts, navigation, 1).get(0);
    }

    /** One message, or up to {@code max} when the dequeue is a take; never none (waits, or throws "no message"). */
    private List<Message> dequeueSome(StoreConnection c, SessionTransaction tx, QueueRuntime q, DequeueOptions opts,
            Navigation navigation, int max) {
        String consumer = q.meta().table().multipleConsumers() && !q.meta().isException() && opts.consumerName() != null
                ? Subscriber.localKey(opts.consumerName()) : null;
        List<Transformation> chain = dequeueTransformations(q, consumer, opts);
        EngineSession.Position pos = session.positions.computeIfAbsent(q.meta().id() + "/" + consumer, id -> new EngineSession.Position());
        if (navigation != Navigation.FIRST_MESSAGE && pos.last != null && !Objects.equals(pos.correlation, opts.correlation())) {
            throw new AqException(AqError.CORRELATION_CHANGED, "Cannot change the correlation from '" + pos.correlation
                    + "' to '" + opts.correlation() + "' without FIRST_MESSAGE navigation.");
        }
        String msgid = opts.messageId() == null ? null : opts.messageId().toString();
        Predicate<String> correlation = opts.correlation() == null ? null : CorrelationPattern.compile(opts.correlation());
        Predicate<ReadyEntry> condition = condition(c, q, opts.condition(), opts.selector());
        long deadline = EngineSession.deadline(context.clock().millis(), EngineSession.waitMillis(opts.waitSeconds()));
        Navigation nav = navigation;
        // buffered messages keep a position of their own (a browse walks them apart from the persistent ones)
        EngineSession.Position bufferedPos = opts.deliveryMode() == DeliveryMode.PERSISTENT ? null
                : session.positions.computeIfAbsent(q.meta().id() + "/" + consumer + "/buffered", id -> new EngineSession.Position());
        Predicate<MessageView> bufferedCondition = opts.deliveryMode() == DeliveryMode.PERSISTENT ? null
                : viewCondition(opts.condition(), opts.selector());
        while (true) {
            if (context.engineClosed().getAsBoolean()) {
                throw new AqException(AqError.SESSION_STATE, "The Aqueduct engine was session.closed during the dequeue from "
                        + q.meta().qualifiedName() + ".");
            }
            if (q.dropped()) {
                throw new AqException(AqError.QUEUE_DOES_NOT_EXIST, "The queue " + q.meta().qualifiedName() + " was dropped.");
            }
            if (!q.meta().dequeueEnabled()) {
                throw dequeueDisabled(q.meta());
            }
            long version = q.version();
            if (opts.deliveryMode() != DeliveryMode.PERSISTENT) {
                Message b = buffered(c, tx, q, consumer, opts, nav, pos, bufferedPos, msgid, correlation, bufferedCondition,
                        condition, chain);
                if (b == null && opts.deliveryMode() == DeliveryMode.BUFFERED && bufferedPos.last != null
                        && nav != Navigation.FIRST_MESSAGE && opts.waitSeconds() != DequeueOptions.NO_WAIT) {
                    nav = Navigation.FIRST_MESSAGE; // the end of the queue with a wait: back to the start
                    b = buffered(c, tx, q, consumer, opts, nav, pos, bufferedPos, msgid, correlation, bufferedCondition,
                            condition, chain);
                }
                if (b != null) {
                    return List.of(b);
                }
                if (opts.deliveryMode() == DeliveryMode.BUFFERED) {
                    if (msgid != null && !context.buffered().holds(q, consumer, msgid)) {
                        throw new AqException(AqError.MESSAGE_NOT_FOUND, "No buffered message with id " + msgid + " in queue "
                                + q.meta().qualifiedName() + (consumer == null ? "" : " for " + opts.consumerName()) + ".");
                    }
                    awaitMore(q, opts, navigation, nav, bufferedPos, deadline, version);
                    continue;
                }
            }
            if (takes(q, consumer, opts, msgid, correlation, condition, chain, nav)) {
                List<Message> got = take(c, tx, q, opts, nav, pos, max);
                if (got.isEmpty() && pos.last != null && nav != Navigation.FIRST_MESSAGE
                        && opts.waitSeconds() != DequeueOptions.NO_WAIT) {
                    nav = Navigation.FIRST_MESSAGE; // the end of the queue with a wait: back to the start
                    got = take(c, tx, q, opts, nav, pos, max);
                }
                if (!got.isEmpty()) {
                    return got;
                }
                awaitMore(q, opts, navigation, nav, pos, deadline, version);
                continue;
            }
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
                Message m = materialize(c, tx, q, found.entry(), found.row(), opts.mode(), chain);
                if (m == null) {
                    continue; // another node consumed it meanwhile; the index knows now
                }
                if (opts.mode() == DequeueMode.REMOVE || opts.mode() == DequeueMode.REMOVE_NODATA) {
                    recordAttempt(c, tx, q, found.entry());
                }
                pos.last = found.entry();
                pos.correlation = opts.correlation();
                return List.of(m);
            }
            if (pick instanceof QueueRuntime.EndOfGroup) {
                throw new AqException(AqError.END_OF_GROUP, "All messages of the current transaction group in "
                        + q.meta().qualifiedName() + " have been fetched: use NEXT_TRANSACTION for the next group.");
            }
            if (pick instanceof QueueRuntime.Nothing && msgid != null && opts.mode() == DequeueMode.BROWSE) {
                Message retained = browseRetained(c, q, msgid);
                if (retained != null) {
                    return List.of(transformed(retained, chain)); // a processed message kept by retention can be browsed by its id
                }
            }
            if (pick instanceof QueueRuntime.Nothing && msgid != null && !exists(c, q, msgid)) {
                throw new AqException(AqError.MESSAGE_NOT_FOUND, "No message with id " + msgid + " in queue "
                        + q.meta().qualifiedName() + ".");
            }
            awaitMore(q, opts, navigation, nav, pos, deadline, version);
        }
    }

    /**
     * The buffered message this dequeue gets, or null. BUFFERED: the first one the options select.
     * PERSISTENT_OR_BUFFERED: that one only if it comes before the first persistent message the options
     * select (looked at without claiming it) in the queue's order; else null, and the persistent path goes on.
     */
    private Message buffered(StoreConnection c, SessionTransaction tx, QueueRuntime q, String consumer, DequeueOptions opts,
            Navigation nav, EngineSession.Position pos, EngineSession.Position bufferedPos, String msgid,
            Predicate<String> correlation, Predicate<MessageView> bufferedCondition, Predicate<ReadyEntry> condition,
            List<Transformation> chain) {
        io.aqueduct.engine.buffered.BufferedMessages buffered = context.buffered();
        io.aqueduct.engine.buffered.BufferedMessages.Request r = new io.aqueduct.engine.buffered.BufferedMessages.Request(
                consumer, opts.mode(), nav == Navigation.FIRST_MESSAGE || msgid != null ? null : bufferedPos.last, msgid, correlation,
                bufferedCondition, m -> transformed(m, chain));
        if (opts.deliveryMode() == DeliveryMode.PERSISTENT_OR_BUFFERED) {
            ReadyEntry head = buffered.peek(q, r);
            if (head == null) {
                return null;
            }
            QueueRuntime.Pick persistent = q.pick(new QueueRuntime.Request(tx, consumer, DequeueMode.BROWSE, nav, pos.last,
                    msgid, correlation, condition, context.clock().millis(), c));
            if (persistent instanceof QueueRuntime.Found f
                    && ReadyEntry.order(q.meta().table().sortOrder()).compare(f.entry(), head) < 0) {
                return null;
            }
        }
        io.aqueduct.engine.buffered.BufferedMessages.Taken taken = buffered.dequeue(q, r);
        if (taken == null) {
            return null;
        }
        bufferedPos.last = taken.entry();
        bufferedPos.correlation = opts.correlation();
        return taken.message();
    }

    /** A dequeue condition and / or JMS selector as a test of a message's view (buffered messages). */
    private static Predicate<MessageView> viewCondition(String text, String selectorText) {
        boolean noSelector = selectorText == null || selectorText.isBlank();
        if (text == null && noSelector) {
            return null;
        }
        Expression aqCondition = text == null ? null : Expression.parse(text);
        Expression selector = noSelector ? null : Expression.parseSelector(selectorText);
        return view -> (aqCondition == null || aqCondition.test(view)) && (selector == null || selector.test(view));
    }

    /**
     * Nothing to dequeue now: waits for a change of the queue (at most until the deadline), or throws
     * "no message" once the deadline has passed.
     */
    private void awaitMore(QueueRuntime q, DequeueOptions opts, Navigation navigation, Navigation nav,
            EngineSession.Position pos, long deadline, long version) {
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

    /**
     * May this dequeue be a take ({@link QueueRuntime#take}): a plain REMOVE of the head of a
     * single-consumer queue of a shared store, nothing to choose by, undo or keep? Object payloads
     * are read the long way: their decoding can fail, and a take has consumed before it decodes.
     */
    private static boolean takes(QueueRuntime q, String consumer, DequeueOptions opts, String msgid,
            Predicate<String> correlation, Predicate<ReadyEntry> condition, List<Transformation> chain, Navigation nav) {
        QueueMeta meta = q.meta();
        return q.takes() && consumer == null && !meta.table().multipleConsumers()
                && (opts.mode() == DequeueMode.REMOVE || opts.mode() == DequeueMode.REMOVE_NODATA)
                && msgid == null && correlation == null && condition == null && chain.isEmpty()
                && !meta.table().transactionalGrouping() && nav != Navigation.NEXT_TRANSACTION
                && (meta.isException() || meta.retentionSeconds() == 0)
                && meta.table().payloadType() != io.aqueduct.api.PayloadType.OBJECT;
    }

    /**
     * A take of up to {@code max} messages in the transaction: consumed in the store, held by the
     * transaction, their attempts on record (one write for all), the session's position moved to the last.
     */
    private List<Message> take(StoreConnection c, SessionTransaction tx, QueueRuntime q, DequeueOptions opts,
            Navigation nav, EngineSession.Position pos, int max) {
        List<QueueRuntime.Taken> taken;
        try {
            taken = q.take(c, nav == Navigation.FIRST_MESSAGE ? null : pos.last, context.clock().millis(), max, pos.cursor);
        } catch (RuntimeException e) {
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true; // no savepoint in a branch: what the statement did cannot be undone alone
            }
            throw e;
        }
        if (taken.isEmpty()) {
            return List.of();
        }
        tx.touch(q);
        List<ReadyEntry> entries = new ArrayList<>(taken.size());
        for (QueueRuntime.Taken t : taken) {
            entries.add(t.entry());
            tx.held.add(new SessionTransaction.Held(q, t.entry(), true, null));
        }
        recordAttempts(c, tx, q, entries);
        List<Message> out = new ArrayList<>(taken.size());
        for (QueueRuntime.Taken t : taken) {
            out.add(toMessage(q.meta(), t.row(), t.row().retryCount, opts.mode() != DequeueMode.REMOVE_NODATA));
        }
        pos.last = entries.get(entries.size() - 1);
        pos.correlation = opts.correlation();
        return out;
    }

    /**
     * Puts a REMOVE attempt on record before the caller has the message, so that it is counted even
     * if this JVM dies: the attempt ledger (shared stores) or the attempt journal (Derby). When that
     * fails, the message is consumed in the transaction but the caller will never have it: the
     * transaction must not commit, so it is rolled back (an XA branch is doomed) and the caller told.
     */
    private void recordAttempt(StoreConnection c, SessionTransaction tx, QueueRuntime q, ReadyEntry entry) {
        recordAttempts(c, tx, q, List.of(entry));
    }

    private void recordAttempts(StoreConnection c, SessionTransaction tx, QueueRuntime q, List<ReadyEntry> entries) {
        try {
            AttemptLedger ledger = context.attemptLedger();
            if (ledger != null) {
                if (session.ledgerConnection == null) {
                    session.ledgerConnection = ledger.openConnection();
                }
                // the keys are the transaction's even when the write fails: it may have reached the
                // server, and a record nobody takes out would hide its message while this node lives
                // (if it did not, the late delete may take out a next attempt's record under the same
                // key: a lesser harm, that attempt's message may come back before it is counted)
                ledger.begin(session.ledgerConnection, q.meta().id(), entries, tx.attempts);
            }
            AttemptJournal journal = context.attemptJournal();
            if (journal != null) {
                for (ReadyEntry entry : entries) {
                    tx.journalSlots.add(journal.attempt(tx.key, q.meta().id(), entry.msgid, entry.consumer));
                }
            }
        } catch (RuntimeException e) {
            tx.held.removeIf(h -> entries.contains(h.entry()));
            entries.forEach(entry -> q.release(entry, tx)); // not the caller's: no attempt of theirs to count
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true;
                throw e;
            }
            if (tx == session.current) {
                session.current = null;
            }
            session.abandon(c, tx, e);
            throw new AqException(e instanceof AqException aq ? aq.errorCode() : AqError.STORE_FAILURE,
                    "The dequeue from " + q.meta().qualifiedName() + " could not put its attempt on record, so the"
                    + " session's transaction was rolled back (what it had dequeued is back in its queue): " + e.getMessage(), e);
        }
    }

    /**
     * A dequeue condition and / or JMS selector as a test of ready entries: the message is read
     * (once per dequeue call) and both evaluated on it in Java; neither text ever reaches SQL.
     */
    private Predicate<ReadyEntry> condition(StoreConnection c, QueueRuntime q, String text, String selectorText) {
        boolean noSelector = selectorText == null || selectorText.isBlank();
        if (text == null && noSelector) {
            return null;
        }
        Expression aqCondition = text == null ? null : Expression.parse(text);
        Expression selector = noSelector ? null : Expression.parseSelector(selectorText);
        QueueMeta meta = q.meta();
        Map<String, Boolean> seen = new HashMap<>();
        return e -> seen.computeIfAbsent(e.msgid, id -> c.work(em -> {
            MessageEntity m = em.find(MessageEntity.class, id);
            if (m == null) {
                return false;
            }
            MessageView view = MessageSnapshot.builder().priority(m.priority).correlation(m.correlation)
                    .enqueueTime(m.enqueueTime.toInstant(ZoneOffset.UTC)).delay(delaySeconds(m)).expiration(m.expiration)
                    .retryCount(m.retryCount).senderName(m.senderName).messageId(id.trim()).sysdate(context.clock().now())
                    .userProperties(UserPropertiesCodec.decode(m.userProperties, id.trim()))
                    .payload(PayloadView.lazy(meta.table().payloadType(), () -> PayloadCodec.decode(meta.table(), m.payloadBytes(), context.limits().deserializationFilter())))
                    .build();
            return (aqCondition == null || aqCondition.test(view)) && (selector == null || selector.test(view));
        }, false));
    }

    /** Reads (and, for REMOVE, consumes) the claimed message; null when it is no longer there. */
    private Message materialize(StoreConnection c, SessionTransaction tx, QueueRuntime q, ReadyEntry e, MessageEntity claimed,
            DequeueMode mode, List<Transformation> chain) {
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
            message = e.consumer == null && !retain && !(consume && meta.table().multipleConsumers())
                    ? plainRead(c, tx, meta, e, claimed, mode, chain, failed) : EngineSession.work(c, tx, false, em -> {
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
                                .setParameter("processed", MessageState.PROCESSED.code()).setParameter("t", EngineSession.utc(now))
                                .setParameter("u", session.user).setParameter("tid", tx.id).setParameter("purge", purgeAt)
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
     * Reads (and, for REMOVE, consumes) a message of no consumer in plain JDBC: the common case of
     * {@link #materialize}, without a unit of work around a find and a delete. {@code claimed}: the
     * row as the claim read it (null: read it here).
     */
    private Message plainRead(StoreConnection c, SessionTransaction tx, QueueMeta meta, ReadyEntry e, MessageEntity claimed,
            DequeueMode mode, List<Transformation> chain, AqException[] failed) {
        boolean consume = mode == DequeueMode.REMOVE || mode == DequeueMode.REMOVE_NODATA;
        Message[] out = new Message[1];
        try {
            c.jdbc(jdbc -> {
                // the claim read it under its lock; otherwise read it now
                MessageEntity m = claimed != null ? claimed : MessageRows.find(jdbc, c.dialect(), e.msgid);
                if (m == null || m.queueId != meta.id() || m.state != meta.availableState()) {
                    return;
                }
                Message read = toMessage(meta, m, m.retryCount, mode != DequeueMode.REMOVE_NODATA);
                try {
                    read = transformed(read, chain);
                } catch (AqException ex) {
                    failed[0] = ex;
                    return;
                }
                if (consume && MessageRows.consume(jdbc, c.dialect(), e.msgid, meta.availableState()) == 0) {
                    return;
                }
                out[0] = read;
            });
        } catch (RuntimeException ex) {
            if (c.inGlobalTransaction()) {
                tx.rollbackOnly = true; // as a failed unit of work in a branch (EngineSession.work)
            }
            throw ex;
        }
        return out[0];
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
                    .setParameter("processed", ConsumerStates.PROCESSED).setParameter("t", EngineSession.utc(now))
                    .setParameter("u", session.user).setParameter("tid", tx.id).setParameter("id", part.id)
                    .setParameter("ready", ConsumerStates.READY).executeUpdate();
            if (changed == 0) {
                return null;
            }
        }
        return out;
    }

    private static long delaySeconds(MessageEntity m) {
        return io.aqueduct.engine.payload.StoredProperties.delaySeconds(m);
    }

    private Message toMessage(QueueMeta meta, MessageEntity m, int attempts, boolean withPayload) {
        MessageProperties p = io.aqueduct.engine.payload.StoredProperties.of(m, attempts);
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
}
