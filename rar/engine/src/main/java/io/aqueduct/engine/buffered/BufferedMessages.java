package io.aqueduct.engine.buffered;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.engine.expression.MessageSnapshot;
import io.aqueduct.engine.expression.MessageView;
import io.aqueduct.engine.expression.PayloadView;
import io.aqueduct.engine.payload.DeserializationFilter;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.ReadyEntry;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.time.DueWork;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The buffered messages of one engine (AQ's buffered queues): per queue, one lane per consumer (one
 * lane on a single-consumer queue) in the queue table's dequeue order, all under one memory limit.
 * Enqueuers are flow-controlled when the limit is reached: they wait for dequeues to free memory, up
 * to the engine's wait, then get 25307. Nothing here touches the store: a buffered message is part of
 * no transaction and is lost when the engine stops.
 *
 * <p>One lock guards everything: the operations are short and in memory. Waiters are woken through
 * their queue ({@link QueueRuntime#wakeAll}: blocked dequeues and LISTEN), after the lock is let go.
 */
public final class BufferedMessages {
    /** What a message costs beyond its payload and user properties (entry, properties, ids), as counted. */
    static final long MESSAGE_OVERHEAD = 256;
    /** What each consumer's part costs beyond the first. */
    static final long PART_OVERHEAD = 64;

    private final AqClock clock;
    private final DueWork due;
    private final long maxBytes;
    private final long enqueueWaitMillis;
    private final DeserializationFilter filter;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    private final Map<Long, Queue> queues = new HashMap<>();
    /** Delay ends and expirations, earliest first; entries of messages that left meanwhile are passed by. */
    private final PriorityQueue<DueAt> dueAt = new PriorityQueue<>(Comparator.comparingLong(DueAt::at));
    private long usedBytes;
    private boolean closed;

    private record DueAt(long at, long queueId, String msgid) {
    }

    /** One queue's buffered messages. */
    private static final class Queue {
        final QueueRuntime runtime;
        final Comparator<ReadyEntry> order;
        /** By consumer key ("" on a single-consumer queue). */
        final Map<String, TreeSet<ReadyEntry>> lanes = new HashMap<>();
        /** Consumer key to the name a view shows. */
        final Map<String, String> consumerNames = new TreeMap<>();
        final Map<String, BufferedMessage> messages = new HashMap<>();
        /** The lanes of remote consumers (served by propagation, never dequeued here): key to agent. */
        final Map<String, Agent> remote = new HashMap<>();
        long bytes;
        long enqueued;
        long expired;

        Queue(QueueRuntime runtime) {
            this.runtime = runtime;
            this.order = ReadyEntry.order(runtime.meta().table().sortOrder());
        }

        TreeSet<ReadyEntry> lane(String consumer) {
            return lanes.computeIfAbsent(consumer == null ? "" : consumer, k -> new TreeSet<>(order));
        }
    }

    /**
     * @param maxBytes the memory buffered messages may take, as counted (payload, user properties and a fixed
     *        overhead per message and per consumer)
     * @param enqueueWaitMillis how long an enqueue waits for memory (on the engine's clock) before 25307
     */
    public BufferedMessages(AqClock clock, DueWork due, long maxBytes, long enqueueWaitMillis, DeserializationFilter filter) {
        this.clock = clock;
        this.due = due;
        this.maxBytes = maxBytes;
        this.enqueueWaitMillis = enqueueWaitMillis;
        this.filter = filter;
        clock.onAdvance(this::clockAdvanced);
    }

    /**
     * A message to buffer, checked by the enqueuer (payload encoded, consumers chosen). {@code consumers}: the
     * local consumers of a multi-consumer queue's message, null on a single-consumer queue.
     */
    public record Enqueue(ReadyEntry order, byte[] payload, byte[] userProperties, MessageProperties properties,
            long readyAt, List<Subscriber> consumers) {
    }

    /**
     * Buffers the messages for {@code queue} (all or none): waits while the memory is full, at most the
     * engine's wait, then refuses with 25307 and buffers nothing. Waiters of the queue are woken.
     */
    public void enqueue(QueueRuntime queue, List<Enqueue> messages) {
        enqueue(queue, messages, enqueueWaitMillis);
    }

    /**
     * As {@link #enqueue(QueueRuntime, List)}, waiting at most {@code waitMillis} for memory (propagation
     * into this engine waits for none: a full memory blocks the way, and the source tries again later).
     */
    public void enqueue(QueueRuntime queue, List<Enqueue> messages, long waitMillis) {
        long size = 0;
        for (Enqueue e : messages) {
            size += cost(e);
        }
        if (size > maxBytes) {
            throw new AqException(AqError.FLOW_CONTROL, "The buffered message" + (messages.size() == 1 ? "" : "s") + " for "
                    + queue.meta().qualifiedName() + " would take " + size + " bytes, more than the " + maxBytes
                    + " bytes all buffered messages of this engine may take (maxBufferedBytes): enqueue it as PERSISTENT.");
        }
        Instant enqueueTime = clock.now();
        long deadline = clock.millis() + waitMillis;
        lock.lock();
        try {
            while (usedBytes + size > maxBytes || closed) {
                if (closed) {
                    throw closedError();
                }
                long remaining = deadline - clock.millis();
                if (remaining <= 0) {
                    throw new AqException(AqError.FLOW_CONTROL, "Flow control: the buffered messages of this engine take "
                            + usedBytes + " of their " + maxBytes + " bytes (maxBufferedBytes), and no dequeue freed room for "
                            + size + " more bytes for " + queue.meta().qualifiedName() + " within " + waitMillis
                            + " ms" + (waitMillis == enqueueWaitMillis ? " (bufferedEnqueueWaitMillis)" : "")
                            + ". Nothing was enqueued: dequeue, or try again later.");
                }
                try {
                    space.await(remaining, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AqException(AqError.FLOW_CONTROL, "The buffered enqueue into " + queue.meta().qualifiedName()
                            + " was interrupted while waiting for memory; nothing was enqueued.");
                }
            }
            if (queue.dropped()) {
                throw new AqException(AqError.QUEUE_DOES_NOT_EXIST, "The queue " + queue.meta().qualifiedName() + " was dropped.");
            }
            Queue q = queues.computeIfAbsent(queue.meta().id(), id -> new Queue(queue));
            for (Enqueue e : messages) {
                long bytes = cost(e);
                List<String> keys = new ArrayList<>();
                if (e.consumers() == null) {
                    keys.add("");
                } else {
                    for (Subscriber s : e.consumers()) {
                        keys.add(s.key());
                        q.consumerNames.putIfAbsent(s.key(), s.local() ? s.agent().name()
                                : (s.agent().name() == null ? "" : s.agent().name() + " ") + "at " + s.agent().address());
                        if (!s.local()) {
                            q.remote.putIfAbsent(s.key(), s.agent());
                        }
                    }
                }
                BufferedMessage m = new BufferedMessage(e.order(), e.payload(), e.properties(), enqueueTime, e.readyAt(), bytes,
                        keys.size());
                q.messages.put(m.msgid(), m);
                for (String key : keys) {
                    q.lane(key).add(e.order().forConsumer(key.isEmpty() ? null : key, e.order().expiresAt));
                }
                q.bytes += bytes;
                q.enqueued++;
                usedBytes += bytes;
                if (e.readyAt() > enqueueTime.toEpochMilli()) {
                    dueAt.add(new DueAt(e.readyAt(), queue.meta().id(), m.msgid()));
                }
                if (e.order().expiresAt != Long.MAX_VALUE) {
                    dueAt.add(new DueAt(e.order().expiresAt, queue.meta().id(), m.msgid()));
                }
            }
        } finally {
            lock.unlock();
        }
        long next = nextDue();
        if (next != Long.MAX_VALUE) {
            due.schedule(next);
        }
        queue.wakeAll();
    }

    private static long cost(Enqueue e) {
        int consumers = e.consumers() == null ? 1 : e.consumers().size();
        return MESSAGE_OVERHEAD + (consumers - 1) * PART_OVERHEAD + (e.payload() == null ? 0 : e.payload().length)
                + (e.userProperties() == null ? 0 : e.userProperties().length)
                + (e.properties().correlation() == null ? 0 : 2L * e.properties().correlation().length());
    }

    /**
     * What a buffered dequeue asks for. {@code after}: the session's last buffered message here (NEXT_MESSAGE),
     * null from the head; {@code finish}: the dequeue's transformations, applied before anything is removed
     * (a failure leaves the message where it was).
     */
    public record Request(String consumer, DequeueMode mode, ReadyEntry after, String msgid, Predicate<String> correlation,
            Predicate<MessageView> condition, UnaryOperator<Message> finish) {
    }

    /** A dequeued (or browsed) buffered message, with its place in its lane for the session's position. */
    public record Taken(ReadyEntry entry, Message message) {
    }

    /**
     * The first buffered message of the lane that the request selects, removed from the consumer's lane
     * unless the request browses; null when there is none. Expired messages met on the way are discarded.
     */
    public Taken dequeue(QueueRuntime queue, Request r) {
        return walk(queue, r, r.mode() != DequeueMode.BROWSE, true);
    }

    /** The entry the request would get now, nothing removed and nothing read; null when there is none. */
    public ReadyEntry peek(QueueRuntime queue, Request r) {
        Taken t = walk(queue, r, false, false);
        return t == null ? null : t.entry();
    }

    /** Is there a buffered message {@code consumer} could dequeue now (LISTEN, waiting deliveries)? */
    public boolean hasAvailable(QueueRuntime queue, String consumer, Predicate<String> correlation) {
        return peek(queue, new Request(consumer, DequeueMode.BROWSE, null, null, correlation, null, null)) != null;
    }

    /** Is a message of this id buffered for {@code consumer} in the queue (ready or not)? */
    public boolean holds(QueueRuntime queue, String consumer, String msgid) {
        lock.lock();
        try {
            Queue q = queues.get(queue.meta().id());
            if (q == null || !q.messages.containsKey(msgid)) {
                return false;
            }
            TreeSet<ReadyEntry> lane = q.lanes.get(consumer == null ? "" : consumer);
            return lane != null && lane.contains(q.messages.get(msgid).order.forConsumer(consumer, 0));
        } finally {
            lock.unlock();
        }
    }

    private Taken walk(QueueRuntime queue, Request r, boolean remove, boolean read) {
        List<ReadyEntry> expired = new ArrayList<>();
        Taken found = null;
        long now = clock.millis();
        boolean freed = false;
        lock.lock();
        try {
            Queue q = queues.get(queue.meta().id());
            if (q == null) {
                return null;
            }
            TreeSet<ReadyEntry> lane = q.lanes.get(r.consumer() == null ? "" : r.consumer());
            if (lane == null) {
                return null;
            }
            Iterable<ReadyEntry> candidates = r.after() == null ? lane : lane.tailSet(r.after(), false);
            for (ReadyEntry e : candidates) {
                BufferedMessage m = q.messages.get(e.msgid);
                if (e.expiresAt <= now) {
                    expired.add(e);
                    continue;
                }
                if (m.readyAt > now || (r.msgid() != null && !r.msgid().equals(e.msgid))) {
                    continue;
                }
                if (r.correlation() != null && (e.correlation == null || !r.correlation().test(e.correlation))) {
                    continue;
                }
                if (r.condition() != null && !r.condition().test(view(queue.meta(), m, now))) {
                    continue;
                }
                Message out = null;
                if (read) {
                    out = message(queue.meta(), m, r.mode() != DequeueMode.REMOVE_NODATA);
                    if (r.finish() != null && out.payload() != null) {
                        out = r.finish().apply(out); // may fail (25229): nothing is removed then
                    }
                }
                if (remove) {
                    lane.remove(e);
                    freed |= removePart(q, m, false);
                }
                found = new Taken(e, out);
                break;
            }
            for (ReadyEntry e : expired) {
                lane.remove(e);
                BufferedMessage m = q.messages.get(e.msgid);
                if (m != null) {
                    freed |= removePart(q, m, true);
                }
            }
            if (freed) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return found;
    }

    /** One consumer's part is gone; the message leaves memory with its last part. Under the lock. */
    private boolean removePart(Queue q, BufferedMessage m, boolean expired) {
        if (--m.parts > 0) {
            return false;
        }
        q.messages.remove(m.msgid());
        q.bytes -= m.bytes;
        usedBytes -= m.bytes;
        if (expired) {
            q.expired++;
        }
        return true;
    }

    private Message message(QueueMeta meta, BufferedMessage m, boolean withPayload) {
        MessageProperties p = MessageProperties.create().priority(m.properties.priority()).delay(m.properties.delay())
                .expiration(m.properties.expiration()).correlation(m.properties.correlation()).sender(m.properties.sender());
        m.properties.userProperties().forEach(p::userProperty);
        p.recorded(0, m.enqueueTime, MessageState.READY, m.properties.originalMessageId()).recorded(DeliveryMode.BUFFERED);
        Object payload = withPayload ? PayloadCodec.decode(meta.table(), m.payload, filter) : null;
        return Message.dequeued(MessageId.parse(m.msgid()), p, payload);
    }

    private MessageView view(QueueMeta meta, BufferedMessage m, long now) {
        MessageProperties p = m.properties;
        return MessageSnapshot.builder().priority(p.priority()).correlation(p.correlation()).enqueueTime(m.enqueueTime)
                .delay(p.delay()).expiration(p.expiration()).retryCount(0)
                .senderName(p.sender() == null ? null : p.sender().name()).messageId(m.msgid())
                .sysdate(Instant.ofEpochMilli(now)).userProperties(p.userProperties())
                .payload(PayloadView.lazy(meta.table().payloadType(), () -> PayloadCodec.decode(meta.table(), m.payload, filter)))
                .build();
    }

    /**
     * The time manager's part: discards the buffered messages that expired by {@code now} (AQ's
     * exception queues are persistent; a buffered message does not become one), wakes the queues whose
     * delayed messages became ready, forgets the messages of dropped queues; returns the next instant
     * something is due (Long.MAX_VALUE: nothing).
     */
    public long runDue(long now) {
        List<QueueRuntime> wake = new ArrayList<>();
        lock.lock();
        try {
            boolean freed = false;
            for (var it = queues.values().iterator(); it.hasNext();) {
                Queue q = it.next();
                if (q.runtime.dropped()) {
                    usedBytes -= q.bytes;
                    freed |= q.bytes > 0;
                    it.remove();
                }
            }
            while (!dueAt.isEmpty() && dueAt.peek().at() <= now) {
                DueAt d = dueAt.poll();
                Queue q = queues.get(d.queueId());
                BufferedMessage m = q == null ? null : q.messages.get(d.msgid());
                if (m == null) {
                    continue;
                }
                if (m.order.expiresAt <= now) {
                    for (Map.Entry<String, TreeSet<ReadyEntry>> lane : q.lanes.entrySet()) {
                        if (lane.getValue().remove(m.order.forConsumer(lane.getKey().isEmpty() ? null : lane.getKey(), 0))) {
                            freed |= removePart(q, m, true);
                        }
                    }
                } else if (!wake.contains(q.runtime)) {
                    wake.add(q.runtime); // its delay ended
                }
            }
            if (freed) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
        wake.forEach(QueueRuntime::wakeAll);
        return nextDue();
    }

    private long nextDue() {
        lock.lock();
        try {
            return dueAt.isEmpty() ? Long.MAX_VALUE : dueAt.peek().at();
        } finally {
            lock.unlock();
        }
    }

    private static AqException closedError() {
        return new AqException(AqError.SESSION_STATE, "The Aqueduct engine was closed: it holds no buffered messages any more.");
    }

    /**
     * A consumer left the queue (subscriber removed): its copies are dropped, and a message nobody else
     * has still to dequeue leaves memory.
     */
    public void dropConsumer(QueueRuntime queue, String consumerKey) {
        lock.lock();
        try {
            Queue q = queues.get(queue.meta().id());
            TreeSet<ReadyEntry> lane = q == null ? null : q.lanes.remove(consumerKey);
            if (lane == null) {
                return;
            }
            q.consumerNames.remove(consumerKey);
            q.remote.remove(consumerKey);
            boolean freed = false;
            for (ReadyEntry e : lane) {
                BufferedMessage m = q.messages.get(e.msgid);
                if (m != null) {
                    freed |= removePart(q, m, false);
                }
            }
            if (freed) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The engine closes: every buffered message is dropped; enqueuers waiting for memory fail. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            queues.clear();
            receipts.clear();
            dueAt.clear();
            usedBytes = 0;
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The clock jumped: enqueuers waiting for memory look at their deadline again. */
    private void clockAdvanced() {
        lock.lock();
        try {
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * One remote consumer's part of a buffered message, as propagation reads it (nothing removed): the
     * message's properties and stored payload, when it was enqueued, when its delay ends and when it expires
     * (Long.MAX_VALUE: never).
     */
    public record Outbound(String msgid, String consumerKey, Agent agent, MessageProperties properties, byte[] payload,
            long readyAt, long expiresAt, ReadyEntry order) {
    }

    /**
     * The parts of remote consumers whose agent {@code served} accepts (a schedule's destination), in the
     * queue's dequeue order, delayed ones included: at least every part of each message taken, up to about
     * {@code max} parts. Expired parts met are discarded. Nothing is removed: {@link #propagated} does that
     * once the destination has them, so a failed delivery leaves them here for the next try.
     */
    public List<Outbound> toPropagate(QueueRuntime queue, Predicate<Agent> served, int max) {
        long now = clock.millis();
        List<Outbound> out = new ArrayList<>();
        boolean freed = false;
        lock.lock();
        try {
            Queue q = queues.get(queue.meta().id());
            if (q == null || q.remote.isEmpty()) {
                return out;
            }
            TreeSet<BufferedMessage> pending = new TreeSet<>((a, b) -> q.order.compare(a.order, b.order));
            Map<String, List<String>> keysByMsgid = new HashMap<>();
            for (Map.Entry<String, Agent> r : q.remote.entrySet()) {
                TreeSet<ReadyEntry> lane = q.lanes.get(r.getKey());
                if (lane == null || !served.test(r.getValue())) {
                    continue;
                }
                for (var it = lane.iterator(); it.hasNext();) {
                    ReadyEntry e = it.next();
                    BufferedMessage m = q.messages.get(e.msgid);
                    if (m == null) {
                        it.remove();
                        continue;
                    }
                    if (e.expiresAt <= now) {
                        it.remove();
                        freed |= removePart(q, m, true);
                        continue;
                    }
                    pending.add(m);
                    keysByMsgid.computeIfAbsent(m.msgid(), k -> new ArrayList<>()).add(r.getKey());
                }
            }
            for (BufferedMessage m : pending) {
                if (out.size() >= max) {
                    break;
                }
                for (String key : keysByMsgid.get(m.msgid())) {
                    out.add(new Outbound(m.msgid(), key, q.remote.get(key), m.properties, m.payload, m.readyAt,
                            m.order.expiresAt, m.order));
                }
            }
            if (freed) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return out;
    }

    /** These remote consumers' parts are done with (delivered, or refused for good): they leave memory. */
    public void propagated(QueueRuntime queue, List<Outbound> parts) {
        boolean freed = false;
        lock.lock();
        try {
            Queue q = queues.get(queue.meta().id());
            if (q == null) {
                return;
            }
            for (Outbound p : parts) {
                TreeSet<ReadyEntry> lane = q.lanes.get(p.consumerKey());
                BufferedMessage m = q.messages.get(p.msgid());
                if (lane != null && m != null && lane.remove(p.order().forConsumer(p.consumerKey(), 0))) {
                    freed |= removePart(q, m, false);
                }
            }
            if (freed) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Receipts of buffered messages propagated into this engine, kept at most this long (a source retries within it). */
    static final long RECEIPT_MAX_AGE_MS = 7L * 86_400_000;
    /** The most receipts kept: the oldest go first (a source that never came back must not fill the memory). */
    static final int MAX_RECEIPTS = 10_000;
    /** Receipt id to when it was written, oldest first. */
    private final LinkedHashMap<String, Long> receipts = new LinkedHashMap<>();

    /**
     * Was the propagated buffered message of this receipt enqueued here already (by a try whose answer
     * the source did not get)?
     */
    public boolean hasReceipt(String receiptId) {
        lock.lock();
        try {
            return receipts.containsKey(receiptId);
        } finally {
            lock.unlock();
        }
    }

    /** Remembers that the propagated buffered message of this receipt is here, until its source says it knows. */
    public void receipt(String receiptId) {
        long now = clock.millis();
        lock.lock();
        try {
            receipts.put(receiptId, now);
            for (var it = receipts.entrySet().iterator(); it.hasNext();) {
                Map.Entry<String, Long> oldest = it.next();
                if (receipts.size() <= MAX_RECEIPTS && now - oldest.getValue() <= RECEIPT_MAX_AGE_MS) {
                    break;
                }
                it.remove();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The source recorded these deliveries: their receipts have done their work. */
    public void forgetReceipts(List<String> receiptIds) {
        lock.lock();
        try {
            receiptIds.forEach(receipts::remove);
        } finally {
            lock.unlock();
        }
    }

    /** V$BUFFERED_QUEUES: each live queue that holds buffered messages or held some, by queue name. */
    public List<BufferedQueueInfo> view() {
        List<BufferedQueueInfo> out = new ArrayList<>();
        lock.lock();
        try {
            for (Queue q : queues.values()) {
                if (q.runtime.dropped()) {
                    continue;
                }
                QueueMeta meta = q.runtime.meta();
                Map<String, Long> perConsumer = new LinkedHashMap<>();
                q.consumerNames.forEach((key, name) -> {
                    TreeSet<ReadyEntry> lane = q.lanes.get(key);
                    perConsumer.put(name, lane == null ? 0L : (long) lane.size());
                });
                out.add(new BufferedQueueInfo(meta.owner(), meta.name(), meta.id(), q.messages.size(), q.bytes, q.enqueued,
                        q.expired, perConsumer));
            }
        } finally {
            lock.unlock();
        }
        out.sort(Comparator.comparing(BufferedQueueInfo::owner).thenComparing(BufferedQueueInfo::name));
        return out;
    }
}
