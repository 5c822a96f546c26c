package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.engine.payload.DeserializationFilter;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.payload.UserPropertiesCodec;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.RemoteAddress;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.PropagatedMessage;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.NodeIdentity;
import io.aqueduct.engine.store.ScheduleEntity;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.transform.Transformation;
import io.aqueduct.engine.transform.TransformationCatalog;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One batch of a schedule: the parts of its source queue's messages that remote consumers with its
 * destination still have to receive, taken in the queue's order (a transaction group whole),
 * turned into the messages the destination queues receive, delivered, and marked PROCESSED in the
 * source (UNDELIVERABLE where the destination refused a message).
 *
 * <p>Exactly once. Within one store the batch is one transaction. To another store it is two: the
 * source's transaction takes the parts (and locks the schedule's row), then the destination's
 * transaction enqueues the messages together with a receipt per message and commits, then the
 * source commits. A crash between the two commits leaves the parts READY in the source; the next
 * batch finds the receipts at the destination and delivers those messages no second time.
 * Receipts are removed once the source has committed.
 */
final class ScheduleRun implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ScheduleRun.class.getName());
    /** Parts per batch (a transaction group is never split, so a batch may hold more). */
    static final int BATCH = 100;
    /** Receipts this old are removed whatever their source says (a crash's leftovers whose message is gone). */
    private static final long RECEIPT_MAX_AGE_MS = 7L * 86_400_000;
    /** Receipts a sweep looks at per round. */
    private static final int SWEEP_PAGE = 1000;

    private final Catalog catalog;
    private final AqClock clock;
    private final Function<String, EngineSession> localSessions;
    private final DatabaseLinks links;
    private final TransformationCatalog transformations;
    private final DeserializationFilter filter;
    private final Set<String> inDoubt;
    private final String user;
    private final String sessionId;
    private EngineSession local;
    private final Map<String, LinkSession> remote = new HashMap<>();
    /** The store each remote session is on (a link altered since: another store). */
    private final Map<String, LinkedStore> remoteStores = new HashMap<>();
    /** Links whose leftover receipts (of a crash between the two commits) are still to be swept. */
    private final Set<String> sweepDue = new HashSet<>();
    private final Set<String> swept = new HashSet<>();
    /** Whether the last batch's page of parts was full (before it was cut back to whole messages or groups). */
    private boolean pageFull;
    /** Batches run by this node: each takes its parts under a transaction id of its own. */
    private long batches;

    ScheduleRun(Catalog catalog, AqClock clock, NodeIdentity node, Function<String, EngineSession> localSessions,
            DatabaseLinks links, TransformationCatalog transformations, DeserializationFilter filter, Set<String> inDoubt,
            String user) {
        this.catalog = catalog;
        this.clock = clock;
        this.localSessions = localSessions;
        this.links = links;
        this.transformations = transformations;
        this.filter = filter;
        this.inDoubt = inDoubt;
        this.user = user;
        this.sessionId = "propagator-" + node.tag();
    }

    String sessionId() {
        return sessionId;
    }

    /** What a batch did: whether more may wait, and the last message the destination refused (null: none). */
    record Outcome(int taken, boolean more, String applicationError) {
    }

    /** The schedule's row is gone or held by another node: this batch was rolled back. */
    static final class ScheduleLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ScheduleLost() {
            super(null, null, false, false);
        }
    }

    /** One part to move: a remote consumer's share of a message. */
    private record Part(String id, String msgid, String name, String address, String consumer, long groupSeq) {
    }

    /** One message for a destination queue, and the parts it serves. */
    private static final class Outgoing {
        final String queue;
        final String variant;
        final MessageEntity source;
        final List<Part> parts = new ArrayList<>();
        final List<Agent> recipients = new ArrayList<>();
        final String transformation;
        boolean startsGroup;
        PropagatedMessage message;

        Outgoing(String queue, String variant, MessageEntity source, String transformation) {
            this.queue = queue;
            this.variant = variant;
            this.source = source;
            this.transformation = transformation;
        }
    }

    Outcome batch(ScheduleEntity schedule, QueueRuntime q, long now) {
        QueueMeta meta = q.meta();
        if (!meta.dequeueEnabled()) {
            throw new AqException(AqError.DEQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                    + " is disabled for dequeue: propagation takes its messages once it is started for dequeue.");
        }
        boolean toLink = !PropagationSchedule.LOCAL.equals(schedule.destination);
        EngineSession src = localSession();
        LinkSession dst = null;
        List<String> receipts = List.of();
        try {
            // the schedule's row, locked for this batch: no other node, and no administrator's unschedule, gets between
            List<Part> parts = src.inTransaction(em -> {
                ScheduleEntity row = em.find(ScheduleEntity.class, new ScheduleEntity.Key(schedule.queueId, schedule.destination),
                        LockModeType.PESSIMISTIC_WRITE);
                if (row == null || row.isDisabled() || !sessionOwner(row)) {
                    throw new ScheduleLost();
                }
                return take(em, schedule, meta, now);
            });
            if (parts.isEmpty()) {
                src.commit();
                if (toLink) {
                    sweepIfDue(schedule, meta);
                }
                return new Outcome(0, false, null);
            }
            boolean more = pageFull; // a page cut back to a whole message or group still says more may wait
            Map<String, MessageEntity> messages = src.inTransaction(em -> load(em, parts));
            List<Part> undeliverable = new ArrayList<>();
            String[] lastError = new String[1];
            List<Outgoing> outgoing = build(meta, parts, messages, now, undeliverable, lastError);
            if (toLink) {
                dst = remoteSession(schedule.destination);
                receipts = deliver(src, dst, receiptSource(meta, schedule.destination), meta.table().transactionalGrouping(),
                        outgoing, undeliverable, lastError);
            } else {
                deliver(src, null, null, meta.table().transactionalGrouping(), outgoing, undeliverable, lastError);
            }
            long bytes = 0;
            int moved = 0;
            Set<String> msgids = new java.util.LinkedHashSet<>();
            for (Outgoing o : outgoing) {
                if (o.message != null) {
                    moved++;
                    byte[] b = o.source.payloadBytes();
                    bytes += b == null ? 0 : b.length;
                }
            }
            for (Part p : parts) {
                msgids.add(p.msgid);
            }
            long movedFinal = moved;
            long bytesFinal = bytes;
            long elapsed = Math.max(0, clock.millis() - now);
            src.inTransaction(em -> {
                for (Part p : undeliverable) {
                    em.createQuery("UPDATE ConsumerStateEntity c SET c.state = :undeliverable WHERE c.id = :id")
                            .setParameter("undeliverable", ConsumerStates.UNDELIVERABLE).setParameter("id", p.id).executeUpdate();
                }
                ScheduleEntity row = em.find(ScheduleEntity.class, new ScheduleEntity.Key(schedule.queueId, schedule.destination));
                if (row == null || !sessionOwner(row)) {
                    throw new ScheduleLost();
                }
                if (movedFinal > 0) {
                    if (row.windowNumber == 0) {
                        row.windows++;
                    }
                    row.windowNumber += movedFinal;
                    row.windowBytes += bytesFinal;
                    row.maxNumber = Math.max(row.maxNumber, row.windowNumber);
                    row.maxBytes = Math.max(row.maxBytes, row.windowBytes);
                    row.totalNumber += movedFinal;
                    row.totalBytes += bytesFinal;
                    row.totalTimeMs += elapsed;
                    row.lastRunMs = now;
                }
                if (row.failures > 0) {
                    row.failures = 0; // a success ends a stretch of failures
                    row.nextRunMs = null;
                    row.lastErrorMessage = null;
                }
                if (row.leaseUntil != null) {
                    row.leaseUntil = Math.max(row.leaseUntil, now + Propagator.LEASE_MS);
                }
                return null;
            });
            src.partsTaken(msgids);
            src.commit();
            if (toLink && !receipts.isEmpty()) {
                forgetReceipts(dst, receipts, schedule.destination);
            }
            return new Outcome(parts.size(), more, lastError[0]);
        } catch (RuntimeException e) {
            rollbackQuietly(src, e);
            if (toLink && !(e instanceof ScheduleLost)) {
                sweepDue.add(schedule.destination);
            }
            if (!(e instanceof ScheduleLost) && src.connectionBroken()) {
                closeLocal();
            }
            throw e;
        }
    }

    /**
     * One batch of this engine's buffered messages for the schedule's destination: the parts of remote
     * consumers (in memory, never in the store) taken in the queue's order, delivered BUFFERED (with a
     * receipt each in the destination's memory, so that a retry after a lost answer delivers nothing twice),
     * then removed from memory. A failure leaves every part in memory for the next try (the schedule backs
     * off); a message a destination refuses for good is dropped (a buffered message has no UNDELIVERABLE
     * state to keep), logged and shown as the schedule's last error. On a shared store every node runs this
     * for its own memory, whichever node holds the schedule for the persistent messages.
     */
    Outcome bufferedBatch(ScheduleEntity schedule, QueueRuntime q, long now) {
        EngineSession src = localSession();
        try {
            Outcome o = bufferedBatch(src, schedule, q, now);
            src.commit(); // what the destination lookups read here (a same-store destination) ends
            return o;
        } catch (RuntimeException e) {
            rollbackQuietly(src, e);
            if (src.connectionBroken()) {
                closeLocal();
            }
            throw e;
        }
    }

    private Outcome bufferedBatch(EngineSession src, ScheduleEntity schedule, QueueRuntime q, long now) {
        QueueMeta meta = q.meta();
        if (!meta.dequeueEnabled()) {
            throw new AqException(AqError.DEQUEUE_DISABLED, "Queue " + meta.qualifiedName()
                    + " is disabled for dequeue: propagation takes its messages once it is started for dequeue.");
        }
        String destination = schedule.destination;
        boolean toLink = !PropagationSchedule.LOCAL.equals(destination);
        io.aqueduct.engine.buffered.BufferedMessages memory = src.bufferedMessages();
        List<io.aqueduct.engine.buffered.BufferedMessages.Outbound> parts = memory.toPropagate(q, agent -> {
            RemoteAddress a = RemoteAddress.of(agent);
            return a != null && a.destination().equals(destination);
        }, BATCH);
        if (parts.isEmpty()) {
            return new Outcome(0, false, null);
        }
        Map<String, Subscriber> subscribers = new HashMap<>();
        for (Subscriber s : q.subscribers()) {
            subscribers.put(s.key(), s);
        }
        String[] lastError = new String[1];
        Map<String, Outgoing> byKey = new LinkedHashMap<>();
        Map<String, io.aqueduct.engine.buffered.BufferedMessages.Outbound> sources = new HashMap<>();
        for (var b : parts) {
            Part p = new Part(b.consumerKey(), b.msgid(), b.agent().name(), b.agent().address(), b.consumerKey(), 0);
            RemoteAddress address = RemoteAddress.of(b.agent());
            String queue = address.queue().indexOf('.') < 0 && address.link() == null ? meta.owner() + "." + address.queue()
                    : address.queue();
            Subscriber s = subscribers.get(b.consumerKey());
            String transformation = s == null ? null : s.transformation();
            String variant = p.name == null ? "S|" + transformation : "N|" + transformation;
            String key = p.msgid + "|" + queue.toUpperCase(java.util.Locale.ROOT) + "|" + variant;
            Outgoing o = byKey.get(key);
            if (o == null) {
                o = new Outgoing(queue, variant, null, transformation);
                byKey.put(key, o);
                sources.put(key, b);
            }
            o.parts.add(p);
            if (p.name != null) {
                o.recipients.add(new Agent(p.name, null, 0));
            }
        }
        // opened before the messages are built: a link that cannot be reached blocks the way, it refuses no message
        LinkSession dst = toLink ? remoteSession(destination) : new StoreLinkSession(src, clock);
        boolean overHttp = dst instanceof HttpLinkedStore.Session;
        List<Outgoing> outgoing = new ArrayList<>();
        List<LinkSession.Arrival> arrivals = new ArrayList<>();
        for (Map.Entry<String, Outgoing> e : byKey.entrySet()) {
            Outgoing o = e.getValue();
            var b = sources.get(e.getKey());
            try {
                Message m = bufferedMessage(meta, o, b, now);
                if (overHttp && !PropagationWire.travels(m.payload())) {
                    throw new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "A serialized Java object (an OBJECT payload) is"
                            + " not propagated over HTTP: transform it to RAW, TEXT, JSON or XML for this subscriber.");
                }
                o.message = new PropagatedMessage(m, b.msgid(), true);
                outgoing.add(o);
                arrivals.add(new LinkSession.Arrival(bufferedReceiptId(o, b.msgid()), o.queue, o.message, null));
            } catch (AqException refused) {
                o.parts.forEach(p -> dropBuffered(p, refused, lastError));
            }
        }
        // thrown (the way is blocked): everything stays in memory, and what arrived before has its receipt there
        List<LinkSession.Arrived> results = arrivals.isEmpty() ? List.of() : dst.deliverBuffered(arrivals);
        long moved = 0;
        long bytes = 0;
        List<String> receipts = new ArrayList<>();
        for (int i = 0; i < outgoing.size(); i++) {
            Outgoing o = outgoing.get(i);
            LinkSession.Arrived a = results.get(i);
            receipts.add(arrivals.get(i).receiptId());
            if (a.delivered()) {
                moved++;
                byte[] payload = sources.get(o.parts.get(0).msgid + "|" + o.queue.toUpperCase(java.util.Locale.ROOT) + "|"
                        + o.variant).payload();
                bytes += payload == null ? 0 : payload.length;
            } else {
                o.parts.forEach(p -> dropBuffered(p, a.refused(), lastError));
            }
        }
        memory.propagated(q, parts); // delivered or refused for good: nothing more to do with them
        try {
            dst.forgetBuffered(receipts);
        } catch (RuntimeException e) {
            // the receipts age out at the destination; a later batch sends other ids
            LOG.log(Level.FINE, "Aqueduct propagation could not remove its buffered receipts at " + destination, e);
        }
        long movedFinal = moved;
        long bytesFinal = bytes;
        long elapsed = Math.max(0, clock.millis() - now);
        if (moved > 0) {
            try {
                src.inTransaction(em -> {
                    ScheduleEntity row = em.find(ScheduleEntity.class, new ScheduleEntity.Key(schedule.queueId, destination),
                            LockModeType.PESSIMISTIC_WRITE);
                    if (row != null) {
                        if (row.windowNumber == 0) {
                            row.windows++;
                        }
                        row.windowNumber += movedFinal;
                        row.windowBytes += bytesFinal;
                        row.maxNumber = Math.max(row.maxNumber, row.windowNumber);
                        row.maxBytes = Math.max(row.maxBytes, row.windowBytes);
                        row.totalNumber += movedFinal;
                        row.totalBytes += bytesFinal;
                        row.totalTimeMs += elapsed;
                        row.lastRunMs = now;
                    }
                    return null;
                });
                src.commit();
            } catch (RuntimeException e) {
                // the messages are delivered and gone from memory: only the figures are missing
                rollbackQuietly(src, e);
                if (src.connectionBroken()) {
                    closeLocal();
                }
                LOG.log(Level.WARNING, "Aqueduct propagation delivered " + moved + " buffered messages of "
                        + meta.qualifiedName() + " to " + destination + " but could not count them in the schedule", e);
            }
        }
        return new Outcome(parts.size(), parts.size() >= BATCH, lastError[0]);
    }

    /** A buffered message as the destination receives it: delay and expiration less the time spent, transformed. */
    private Message bufferedMessage(QueueMeta meta, Outgoing o, io.aqueduct.engine.buffered.BufferedMessages.Outbound b,
            long now) {
        MessageProperties source = b.properties();
        MessageProperties p = MessageProperties.create().priority(source.priority()).correlation(source.correlation())
                .sender(source.sender());
        if (b.readyAt() > now) {
            p.delay(Math.max(0, Math.floorDiv(b.readyAt() - now + 999, 1000))); // the delay left
            p.expiration(source.expiration()); // counted from when it becomes ready, at the destination
        } else if (b.expiresAt() != Long.MAX_VALUE) {
            p.expiration(Math.max(0, Math.floorDiv(b.expiresAt() - now + 999, 1000))); // the time left before it expires
        }
        source.userProperties().forEach(p::userProperty);
        if (!o.recipients.isEmpty()) {
            p.recipients(o.recipients);
        }
        Object payload = PayloadCodec.decode(meta.table(), b.payload(), filter);
        return Message.of(transformed(o, payload, p), p);
    }

    /** The payload as the subscriber's transformation makes it (none: as it is). */
    private Object transformed(Outgoing o, Object payload, MessageProperties p) {
        if (o.transformation == null) {
            return payload;
        }
        Transformation t = transformations.get(o.transformation);
        if (t == null) {
            throw new AqException(AqError.TRANSFORMATION_NOT_FOUND, "The transformation " + o.transformation
                    + " of the subscriber does not exist any more.");
        }
        return t.apply(payload, p);
    }

    private static String bufferedReceiptId(Outgoing o, String msgid) {
        String what = o.queue.toUpperCase(java.util.Locale.ROOT) + "|" + o.variant + "|"
                + String.join(",", new TreeSet<>(o.recipients.stream().map(a -> a.name().toUpperCase(java.util.Locale.ROOT)).toList()));
        return "B" + msgid + "/" + digest(what);
    }

    /** Is the schedule's row held by this node (always so on a store of one JVM, where no lease is kept)? */
    private boolean sessionOwner(ScheduleEntity row) {
        return sessionId.equals(row.sessionId);
    }

    /** Takes the batch's parts (PROCESSED in this transaction): the queue's order, a transaction group whole. */
    @SuppressWarnings("unchecked")
    private List<Part> take(EntityManager em, ScheduleEntity schedule, QueueMeta meta, long now) {
        io.aqueduct.engine.store.Dialect dialect = catalogDialect();
        List<Object[]> rows = em.createNativeQuery(dialect.sql("propagation.batch." + meta.table().sortOrder().name(), BATCH))
                .setParameter(1, schedule.queueId).setParameter(2, schedule.destination).setParameter(3, ConsumerStates.READY)
                .setParameter(4, MessageState.READY.code()).setParameter(5, MessageState.WAITING.code()).getResultList();
        List<Part> parts = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            parts.add(part(r));
        }
        pageFull = parts.size() >= BATCH;
        if (meta.table().transactionalGrouping() && parts.size() >= BATCH) {
            long lastGroup = parts.get(parts.size() - 1).groupSeq;
            if (parts.get(0).groupSeq == lastGroup) {
                // one group fills the batch: the whole group goes
                List<Object[]> group = em.createNativeQuery(dialect.sql("propagation.group"))
                        .setParameter(1, schedule.queueId).setParameter(2, schedule.destination)
                        .setParameter(3, ConsumerStates.READY).setParameter(4, lastGroup)
                        .setParameter(5, MessageState.READY.code()).setParameter(6, MessageState.WAITING.code()).getResultList();
                parts.clear();
                for (Object[] r : group) {
                    parts.add(part(r));
                }
            } else {
                parts.removeIf(p -> p.groupSeq == lastGroup); // the last group may go on beyond the page: next batch
            }
        }
        if (!meta.table().transactionalGrouping() && parts.size() >= BATCH) {
            // the last message's parts may go on beyond the page: they go together in the next batch, so that what a
            // retry after a lost answer takes is the same set (the receipt ids name the recipients delivered together)
            String lastMessage = parts.get(parts.size() - 1).msgid;
            if (!parts.get(0).msgid.equals(lastMessage)) {
                parts.removeIf(p -> p.msgid.equals(lastMessage));
            }
        }
        parts.removeIf(p -> !inDoubt.isEmpty() && inDoubt.contains(p.msgid)); // an in-doubt branch holds it: its outcome first
        if (parts.isEmpty()) {
            return parts;
        }
        LocalDateTime at = LocalDateTime.ofEpochSecond(Math.floorDiv(now, 1000), (int) Math.floorMod(now, 1000) * 1_000_000,
                ZoneOffset.UTC);
        String tid = sessionId + "." + (++batches);
        if (!catalogDialect().shared()) {
            // Derby: one update by key per part (no round trips to save), so that it waits on no row but its own
            List<Part> taken = new ArrayList<>(parts.size());
            for (Part p : parts) {
                if (em.createNamedQuery(io.aqueduct.engine.store.ConsumerStateEntity.CONSUME)
                        .setParameter("processed", ConsumerStates.PROCESSED).setParameter("t", at).setParameter("u", user)
                        .setParameter("tid", tid).setParameter("id", p.id).setParameter("ready", ConsumerStates.READY)
                        .executeUpdate() == 1) {
                    taken.add(p); // else it expired or went a moment ago
                }
            }
            return taken;
        }
        // one statement per 500 parts; the batch's own transaction id tells which it took when not all were READY
        List<String> ids = parts.stream().map(Part::id).toList();
        int changed = 0;
        for (int i = 0; i < ids.size(); i += 500) {
            changed += em.createQuery("UPDATE ConsumerStateEntity c SET c.state = :processed, c.dequeueTime = :t,"
                    + " c.dequeueUser = :u, c.dequeueTransaction = :tid WHERE c.id IN :ids AND c.state = :ready")
                    .setParameter("processed", ConsumerStates.PROCESSED).setParameter("t", at).setParameter("u", user)
                    .setParameter("tid", tid).setParameter("ids", ids.subList(i, Math.min(ids.size(), i + 500)))
                    .setParameter("ready", ConsumerStates.READY).executeUpdate();
        }
        if (changed == parts.size()) {
            return parts;
        }
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < ids.size(); i += 500) {
            for (Object id : em.createQuery("SELECT c.id FROM ConsumerStateEntity c WHERE c.id IN :ids AND c.dequeueTransaction = :tid")
                    .setParameter("ids", ids.subList(i, Math.min(ids.size(), i + 500))).setParameter("tid", tid).getResultList()) {
                taken.add(((String) id).trim());
            }
        }
        return parts.stream().filter(p -> taken.contains(p.id)).toList(); // the others expired or went a moment ago
    }

    private static Part part(Object[] r) {
        return new Part(((String) r[0]).trim(), ((String) r[1]).trim(), (String) r[2], (String) r[3], (String) r[5],
                ((Number) r[6]).longValue());
    }

    private Map<String, MessageEntity> load(EntityManager em, List<Part> parts) {
        Set<String> ids = new java.util.LinkedHashSet<>();
        parts.forEach(p -> ids.add(p.msgid));
        Map<String, MessageEntity> out = new HashMap<>();
        if (!catalogDialect().shared()) {
            // Derby: by key, one by one (an IN list may scan, and wait on rows other transactions are writing)
            for (String id : ids) {
                MessageEntity m = em.find(MessageEntity.class, id);
                if (m != null) {
                    out.put(id, m);
                }
            }
            return out;
        }
        List<String> all = new ArrayList<>(ids);
        for (int i = 0; i < all.size(); i += 500) {
            for (MessageEntity m : em.createQuery("SELECT m FROM MessageEntity m WHERE m.msgid IN :ids", MessageEntity.class)
                    .setParameter("ids", all.subList(i, Math.min(all.size(), i + 500))).getResultList()) {
                out.put(m.msgid.trim(), m);
            }
        }
        return out;
    }

    /**
     * The messages the destination queues receive: one per source message, destination queue and
     * kind of consumer (the destination's subscribers, or named consumers with the same transformation).
     */
    private List<Outgoing> build(QueueMeta meta, List<Part> parts, Map<String, MessageEntity> messages, long now,
            List<Part> undeliverable, String[] lastError) {
        Map<String, Outgoing> byKey = new LinkedHashMap<>();
        Map<String, Subscriber> subscribers = new HashMap<>();
        QueueRuntime q = catalog.queue(meta.id());
        if (q != null) {
            for (Subscriber s : q.subscribers()) {
                subscribers.put(s.key(), s);
            }
        }
        Map<String, Long> lastGroup = new HashMap<>();
        for (Part p : parts) {
            MessageEntity m = messages.get(p.msgid);
            if (m == null) {
                continue; // gone a moment ago (its part is PROCESSED with the batch: nothing left to deliver)
            }
            RemoteAddress address;
            try {
                address = RemoteAddress.parse(p.address);
            } catch (AqException e) {
                refuse(p, e, undeliverable, lastError);
                continue;
            }
            String queue = address.queue().indexOf('.') < 0 && address.link() == null ? meta.owner() + "." + address.queue()
                    : address.queue();
            Subscriber s = subscribers.get(p.consumer);
            String transformation = s == null ? null : s.transformation();
            String variant = p.name == null ? "S|" + transformation : "N|" + transformation;
            String key = p.msgid + "|" + queue.toUpperCase(java.util.Locale.ROOT) + "|" + variant;
            Outgoing o = byKey.get(key);
            if (o == null) {
                o = new Outgoing(queue, variant, m, transformation);
                // a source group stays one group in each destination queue (where that queue's table groups)
                Long before = lastGroup.put(queue.toUpperCase(java.util.Locale.ROOT), m.groupSeq);
                o.startsGroup = !meta.table().transactionalGrouping() || before == null || before != m.groupSeq;
                byKey.put(key, o);
            }
            o.parts.add(p);
            if (p.name != null) {
                o.recipients.add(new Agent(p.name, null, 0));
            }
        }
        List<Outgoing> out = new ArrayList<>();
        for (Outgoing o : byKey.values()) {
            try {
                o.message = new PropagatedMessage(message(meta, o, now), o.source.msgid.trim(), o.startsGroup);
                out.add(o);
            } catch (AqException e) {
                o.parts.forEach(p -> refuse(p, e, undeliverable, lastError));
            }
        }
        return out;
    }

    /** The source message as the destination receives it: delay and expiration less the time spent, transformed. */
    private Message message(QueueMeta meta, Outgoing o, long now) {
        MessageEntity m = o.source;
        MessageProperties p = MessageProperties.create().priority(m.priority).correlation(m.correlation);
        Long due = m.timeManagerInfo;
        if (m.state == MessageState.WAITING.code() && due != null) {
            p.delay(Math.max(0, Math.floorDiv(due - now + 999, 1000))); // the delay left
            p.expiration(m.expiration); // counted from when it becomes ready, at the destination
        } else if (m.expiration >= 0 && due != null) {
            p.expiration(Math.max(0, Math.floorDiv(due - now + 999, 1000))); // the time left before it expires
        } else {
            p.expiration(m.expiration);
        }
        if (m.exceptionQueue != null) {
            p.exceptionQueue(m.exceptionQueueSchema + "." + m.exceptionQueue);
        }
        if (m.senderName != null || m.senderAddress != null) {
            p.sender(new Agent(m.senderName, m.senderAddress, m.senderProtocol == null ? 0 : m.senderProtocol));
        }
        UserPropertiesCodec.decode(m.userProperties, m.msgid.trim()).forEach(p::userProperty);
        if (!o.recipients.isEmpty()) {
            p.recipients(o.recipients);
        }
        Object payload = PayloadCodec.decode(meta.table(), m.payloadBytes(), filter);
        return Message.of(transformed(o, payload, p), p);
    }

    /**
     * Delivers the messages: into this store's queues in the session's transaction ({@code link} null),
     * or into a linked store's with a receipt each, committed there. What a destination refuses makes
     * its parts UNDELIVERABLE. Returns the receipts to remove once the source has committed.
     * {@code grouped}: the source table groups by transaction (a batch is cut into requests only between groups).
     */
    private List<String> deliver(EngineSession src, LinkSession link, String receiptSource, boolean grouped,
            List<Outgoing> outgoing, List<Part> undeliverable, String[] lastError) {
        List<LinkSession.Arrival> arrivals = new ArrayList<>(outgoing.size());
        List<Outgoing> sent = new ArrayList<>(outgoing.size());
        for (Outgoing o : outgoing) {
            if (link instanceof HttpLinkedStore.Session && !PropagationWire.travels(o.message.message().payload())) {
                o.message = null;
                AqException refused = new AqException(AqError.PAYLOAD_TYPE_MISMATCH, "A serialized Java object (an"
                        + " OBJECT payload) is not propagated over HTTP: transform it to RAW, TEXT, JSON or XML for this"
                        + " subscriber.");
                o.parts.forEach(p -> refuse(p, refused, undeliverable, lastError));
                continue;
            }
            String group = grouped && o.source.groupSeq != 0 ? "G" + o.source.groupSeq : o.source.msgid.trim();
            arrivals.add(new LinkSession.Arrival(link == null ? null : receiptId(o), o.queue, o.message, group));
            sent.add(o);
        }
        if (arrivals.isEmpty()) {
            return List.of();
        }
        List<LinkSession.Arrived> results = link == null ? PropagationInbox.receive(src, clock, null, arrivals)
                : link.deliver(receiptSource, arrivals);
        List<String> receipts = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            Outgoing o = sent.get(i);
            LinkSession.Arrived a = results.get(i);
            if (!a.delivered()) {
                o.message = null;
                o.parts.forEach(p -> refuse(p, a.refused(), undeliverable, lastError));
            } else if (link != null) {
                receipts.add(arrivals.get(i).receiptId());
            }
        }
        return receipts;
    }

    private static String receiptId(Outgoing o) {
        String what = o.queue.toUpperCase(java.util.Locale.ROOT) + "|" + o.variant + "|"
                + String.join(",", new TreeSet<>(o.recipients.stream().map(a -> a.name().toUpperCase(java.util.Locale.ROOT)).toList()));
        return o.source.msgid.trim() + "/" + digest(what);
    }

    private static String receiptSource(QueueMeta source, String link) {
        String s = source.qualifiedName() + "@" + link;
        return s.length() <= 180 ? s : s.substring(0, 180); // room for the receiving user's prefix over HTTP
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)), 0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** After the source committed: its receipts have done their work. A failure leaves them to the sweep. */
    private void forgetReceipts(LinkSession dst, List<String> receipts, String link) {
        try {
            dst.forget(receipts);
        } catch (RuntimeException e) {
            sweepDue.add(link);
            LOG.log(Level.FINE, "Aqueduct propagation could not remove its receipts at " + link + " (swept later)", e);
        }
    }

    /**
     * Receipts a crash left at the destination (between its commit and the source's): removed when
     * the source's part is no longer READY (the batch was recorded, or undone and redone), or when
     * they are older than a week. Once per link per start, and after a failure.
     */
    private void sweepIfDue(ScheduleEntity schedule, QueueMeta source) {
        String link = schedule.destination;
        if (swept.contains(link) && !sweepDue.contains(link)) {
            return;
        }
        LinkSession dst = remoteSession(link);
        EngineSession src = localSession();
        try {
            String from = receiptSource(source, link);
            String after = "";
            while (true) {
                List<LinkSession.Receipt> page = dst.receipts(from, after, SWEEP_PAGE);
                List<String> stale = new ArrayList<>();
                long now = clock.millis();
                for (LinkSession.Receipt r : page) {
                    int slash = r.id().indexOf('/');
                    String msgid = slash < 0 ? r.id() : r.id().substring(0, slash);
                    // only on evidence: its parts for this link are here and none is READY (another source that names
                    // its queue and link alike must not lose its receipts), or it is older than a week
                    List<Integer> states = src.inTransaction(em -> em.createQuery("SELECT c.state FROM ConsumerStateEntity c"
                            + " WHERE c.msgid = :m AND c.destination = :d", Integer.class).setParameter("m", msgid)
                            .setParameter("d", link).getResultList());
                    boolean done = !states.isEmpty() && states.stream().noneMatch(st -> st == ConsumerStates.READY);
                    if (done || now - r.createdMs() > RECEIPT_MAX_AGE_MS) {
                        stale.add(r.id());
                    }
                }
                src.commit();
                if (!stale.isEmpty()) {
                    dst.forget(stale);
                }
                if (page.size() < SWEEP_PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).id();
            }
            swept.add(link);
            sweepDue.remove(link);
        } catch (RuntimeException e) {
            rollbackQuietly(src, e);
            throw e;
        }
    }

    /** A buffered message refused for good: it has no state to keep it in, so it is dropped, with a warning. */
    private void dropBuffered(Part p, AqException e, String[] lastError) {
        lastError[0] = describe(e);
        LOG.warning("Aqueduct propagation could not deliver buffered message " + p.msgid + " to " + p.address
                + " (consumer " + p.name + "): " + lastError[0] + " It is dropped for that consumer (a buffered message"
                + " is not kept as UNDELIVERABLE).");
    }

    private void refuse(Part p, AqException e, List<Part> undeliverable, String[] lastError) {
        undeliverable.add(p);
        lastError[0] = describe(e);
        LOG.warning("Aqueduct propagation could not deliver message " + p.msgid + " to " + p.address + " (consumer "
                + p.name + "): " + lastError[0] + " It is UNDELIVERABLE for that consumer.");
    }

    /** Errors of the message or its destination queue, not of the way there: no retry makes them pass. */
    static boolean isApplicationError(AqException e) {
        int code = e.errorCode();
        return code == AqError.QUEUE_DOES_NOT_EXIST || code == AqError.QUEUE_NOT_FOUND || code == AqError.INVALID_NAME
                || code == AqError.NAME_TOO_LONG;
    }

    /** A failure as the schedule's LAST_ERROR_MSG shows it: its AQ number and its message. */
    static String describe(Throwable e) {
        if (e instanceof AqException aq) {
            String m = String.valueOf(aq.getMessage());
            return m.startsWith("AQ-") ? m : String.format("AQ-%05d: %s", aq.errorCode(), m);
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private io.aqueduct.engine.store.Dialect catalogDialect() {
        return localSession().dialect();
    }

    private EngineSession localSession() {
        if (local == null || local.isClosed()) {
            local = localSessions.apply(user);
        }
        return local;
    }

    private void closeLocal() {
        if (local != null) {
            try {
                local.close();
            } catch (RuntimeException ignored) {
                // a broken connection: nothing to keep
            }
            local = null;
        }
    }

    private LinkSession remoteSession(String link) {
        LinkedStore store = links.store(link); // another one when the link was altered
        LinkSession s = remote.get(link);
        if (s != null && (s.isClosed() || remoteStores.get(link) != store)) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // its store is closed already
            }
            s = null;
        }
        if (s == null) {
            s = store.openSession(user);
            remote.put(link, s);
            remoteStores.put(link, store);
        }
        return s;
    }

    /** A batch to {@code link} failed: its session and store are opened anew next time (the store may have restarted). */
    void failed(String link) {
        if (PropagationSchedule.LOCAL.equals(link)) {
            return;
        }
        LinkSession s = remote.remove(link);
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // already broken
            }
        }
        links.forget(link);
    }

    private static void rollbackQuietly(EngineSession s, RuntimeException failure) {
        try {
            if (!s.isClosed()) {
                s.rollback();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        closeLocal();
        for (String link : List.copyOf(remote.keySet())) {
            LinkSession s = remote.remove(link);
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // closing anyway
            }
        }
    }
}
