package io.aqueduct.engine.notification;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqNotification;
import io.aqueduct.api.AqNotificationListener;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.engine.payload.DeserializationFilter;
import io.aqueduct.engine.payload.PayloadCodec;
import io.aqueduct.engine.payload.StoredProperties;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.store.Background;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.MessageRows;
import io.aqueduct.engine.store.NotificationEntity;
import io.aqueduct.engine.store.Outage;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.RegistrationEntity;
import io.aqueduct.engine.time.AqClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Plans and delivers notifications. A message that becomes available (an enqueue's commit, the end of
 * its delay, the end of a retry delay or its return after a failed attempt) gives one notification per
 * registration of its queue for a consumer it is for ({@link #plan}): a RELIABLE one is a row written in
 * the same transaction, another is kept in memory once the transaction commits ({@link #committedInMemory})
 * and the ready index shows the message. The time manager plans those of a delay's end ({@link #available}).
 * The loop ({@link #start}) delivers what is due on the engine's background executor, never on the
 * enqueuing thread: a failed delivery is tried again after 1 s, doubling up to {@value #MAX_BACKOFF_MS} ms
 * (a RELIABLE one until it is delivered or its registration ends; another at most
 * {@value #MEMORY_ATTEMPTS} times), and counted with its error in the registration; the registration's
 * other notifications wait for that next try too. A registration whose timeout passes is removed and its
 * target told once more, with NTFN_FLAGS = 1.
 */
public final class Notifier implements io.aqueduct.engine.time.Availability {
    private static final Logger LOG = Logger.getLogger(Notifier.class.getName());
    static final long FIRST_BACKOFF_MS = 1_000;
    static final long MAX_BACKOFF_MS = 300_000;
    /** Tries of a notification kept in memory (not RELIABLE) before it is dropped. */
    static final int MEMORY_ATTEMPTS = 5;
    /** How long a node holds a RELIABLE notification it delivers (longer than any delivery's timeouts). */
    static final long LEASE_MS = 120_000;
    /** On a shared store other nodes write notifications too: look at least this often while any RELIABLE registration exists. */
    static final long SHARED_RECHECK_MS = 1_000;
    private static final int BATCH = 100;
    /**
     * On a shared store the registrations are read again this often (real time) besides the catalog
     * signal: a signal lost while a node was starting or reconnecting costs at most this long.
     */
    static final long RELOAD_NANOS = TimeUnit.SECONDS.toNanos(5);
    private long loadedAtNanos = System.nanoTime();

    /** A notification kept in memory (not RELIABLE). */
    public record Pending(long registrationId, String msgid, String consumer, long dueMs, int attempts) {
    }

    private final OwnTransactions own;
    private final Catalog catalog;
    private final Registrations registrations;
    private final AqClock clock;
    private final DeserializationFilter filter;
    private final Transports transports;
    private final boolean shared;
    private final Map<String, AqNotificationListener> listeners = new ConcurrentHashMap<>();
    private final PriorityQueue<Pending> memory = new PriorityQueue<>((a, b) -> Long.compare(a.dueMs(), b.dueMs()));
    /** At most this many non-RELIABLE notifications wait in memory; more are dropped and counted. */
    static final int MAX_IN_MEMORY = 10_000;
    private final java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong lastDropWarning = new java.util.concurrent.atomic.AtomicLong();
    /**
     * Registrations whose target failed, with when it is tried again (epoch ms): until then their other
     * notifications wait too, so that one failing or slow target costs one try per back-off, not one per
     * notification. Only the loop's thread uses it.
     */
    private final Map<Long, Long> backingOff = new java.util.HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private boolean signalled;
    private volatile boolean running;
    private volatile boolean started;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** One delivery round at a time (the loop, or a test driving it by hand). */
    private final ReentrantLock processing = new ReentrantLock();

    public Notifier(OwnTransactions own, Catalog catalog, Registrations registrations, AqClock clock,
            DeserializationFilter filter, Transports transports) {
        this.own = own;
        this.catalog = catalog;
        this.registrations = registrations;
        this.clock = clock;
        this.filter = filter;
        this.transports = transports;
        this.shared = own.dialect().shared();
    }

    // ------------------------------------------------------------------ planning (the enqueue's side)

    /** Whether a message of queue {@code queueId} may give notifications: the enqueue asks nothing more when not. */
    @Override
    public boolean watched(long queueId) {
        return !registrations.forQueue(queueId).isEmpty();
    }

    /**
     * The notifications of message {@code msgid} of queue {@code queueId}, available to {@code consumer}
     * (a consumer key; null on a single-consumer queue) from {@code dueMs}: RELIABLE ones as rows for
     * the caller's transaction, the others for {@link #committed} after it commits.
     */
    public void plan(long queueId, String msgid, String consumer, long dueMs, List<Object> rows, List<Pending> inMemory) {
        for (Registered r : registrations.forQueue(queueId)) {
            if (!java.util.Objects.equals(r.consumer(), consumer)) {
                continue;
            }
            if (r.reliable()) {
                NotificationEntity n = new NotificationEntity();
                n.id = UUID.randomUUID().toString();
                n.registrationId = r.id();
                n.msgid = msgid;
                n.consumer = consumer;
                n.dueMs = dueMs;
                n.attempts = 0;
                rows.add(n);
            } else {
                inMemory.add(new Pending(r.id(), msgid, consumer, dueMs, 0));
            }
        }
    }

    /** The time manager made a message available (its delay or retry delay ended), in the transaction of {@code rows}. */
    @Override
    @SuppressWarnings("unchecked")
    public void available(long queueId, String msgid, String consumer, long now, List<Object> rows, List<Object> later) {
        plan(queueId, msgid, consumer, now, rows, (List<Pending>) (List<?>) later);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void committed(List<Object> later, boolean wroteRows) {
        committedInMemory((List<Pending>) (List<?>) later, wroteRows);
    }

    /**
     * Messages became available again without a transaction that could write their rows (a failed
     * attempt that could not be counted: they are released as they were): every registration, a
     * RELIABLE one too, is told from memory.
     */
    public void availableAgain(long queueId, String msgid, String consumer) {
        if (!started || !watched(queueId)) {
            return;
        }
        List<Pending> pending = new ArrayList<>();
        long now = clock.millis();
        for (Registered r : registrations.forQueue(queueId)) {
            if (java.util.Objects.equals(r.consumer(), consumer)) {
                pending.add(new Pending(r.id(), msgid, consumer, now, 0));
            }
        }
        committedInMemory(pending, false);
    }

    /**
     * A transaction that planned notifications committed: the in-memory ones are kept, the loop looks.
     * A node that runs no notification loop (the time manager off) keeps none: nobody would deliver
     * them; RELIABLE ones wait in the store for a node that runs one.
     */
    public void committedInMemory(List<Pending> inMemory, boolean wroteRows) {
        if ((inMemory.isEmpty() && !wroteRows) || !started) {
            return;
        }
        int over = 0;
        lock.lock();
        try {
            for (Pending p : inMemory) {
                if (memory.size() < MAX_IN_MEMORY) {
                    memory.add(p);
                } else {
                    over++;
                }
            }
            signalled = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
        if (over > 0) {
            dropped(over);
        }
    }

    /** Notifications kept in memory that were dropped because {@value #MAX_IN_MEMORY} were waiting already. */
    public long droppedNotifications() {
        return dropped.get();
    }

    private void dropped(int count) {
        long total = dropped.addAndGet(count);
        long now = System.nanoTime();
        long last = lastDropWarning.get();
        if ((last == 0 || now - last >= TimeUnit.MINUTES.toNanos(1)) && lastDropWarning.compareAndSet(last, now)) {
            LOG.warning("Aqueduct dropped " + count + " notification(s) (" + total + " since the start): " + MAX_IN_MEMORY
                    + " non-RELIABLE notifications wait already, their targets are slow or failing. Use qos RELIABLE for"
                    + " notifications that must not be lost.");
        }
    }

    // ------------------------------------------------------------------ in-JVM listeners

    public void bind(String name, AqNotificationListener listener) {
        if (name == null || name.isEmpty() || listener == null) {
            throw new AqException(AqError.INVALID_VALUE, "Bind a notification listener with a name and a listener, not null.");
        }
        Registrations.checkedUrl("java:" + name);
        listeners.put(name, listener);
        wake(); // what waited for this name can go now
    }

    public void unbind(String name) {
        if (name != null) {
            listeners.remove(name);
        }
    }

    // ------------------------------------------------------------------ the loop

    /** Runs the delivery loop where the engine runs its loops. */
    public void start(Background background) {
        running = true;
        started = true;
        background.start("aqueduct-notifications", () -> {
            try {
                loop();
            } finally {
                stopped.countDown();
            }
        });
    }

    /** Look again now (a clock jump, the registrations changed on another node). */
    public void wake() {
        lock.lock();
        try {
            signalled = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        Outage outage = new Outage(LOG, "The Aqueduct notification loop");
        while (running) {
            long next;
            try {
                next = runDue();
                outage.succeeded();
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                next = clock.millis() + outage.failed(e);
            }
            lock.lock();
            try {
                long wait = next - clock.millis();
                if (!signalled && running && wait > 0) {
                    wakeUp.await(Math.min(wait, SHARED_RECHECK_MS * 10), TimeUnit.MILLISECONDS);
                }
                signalled = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * One round: ends the registrations whose timeout passed, delivers the due notifications; returns
     * when the next is due (epoch ms).
     */
    public long runDue() {
        processing.lock();
        try {
            long now = clock.millis();
            long next = Long.MAX_VALUE;
            if (shared) {
                if (System.nanoTime() - loadedAtNanos >= RELOAD_NANOS) {
                    registrations.load();
                    loadedAtNanos = System.nanoTime();
                }
                next = now + SHARED_RECHECK_MS * 5;
            }
            backingOff.keySet().removeIf(id -> registrations.byId(id) == null);
            for (Registered r : registrations.all()) {
                if (r.expiresMs() != null) {
                    if (r.expiresMs() <= now) {
                        if (registrations.removeTimedOut(r.id())) {
                            deliverTimeout(r);
                        }
                    } else {
                        next = Math.min(next, r.expiresMs());
                    }
                }
            }
            next = Math.min(next, deliverFromMemory(now));
            if (registrations.anyReliable()) { // rows exist only for RELIABLE registrations
                next = Math.min(next, deliverFromStore(now));
            }
            return next;
        } finally {
            processing.unlock();
        }
    }

    private long deliverFromMemory(long now) {
        List<Pending> due = new ArrayList<>();
        lock.lock();
        try {
            while (!memory.isEmpty() && memory.peek().dueMs() <= now) {
                due.add(memory.poll());
            }
        } finally {
            lock.unlock();
        }
        List<Pending> later = new ArrayList<>();
        int tried = 0;
        try {
            for (; tried < due.size(); tried++) {
                Pending p = due.get(tried);
                Registered r = registrations.byId(p.registrationId());
                if (r == null) {
                    continue; // unregistered since
                }
                Long until = backingOff.get(r.id());
                if (until != null && until > now) {
                    later.add(new Pending(p.registrationId(), p.msgid(), p.consumer(), until, p.attempts()));
                    continue; // its target failed a moment ago: this one waits for the next try
                }
                String error = deliver(r, p.msgid(), p.consumer());
                if (error == null) {
                    backingOff.remove(r.id());
                    countDelivered(r);
                } else {
                    long again = clock.millis() + backoff(p.attempts() + 1);
                    backingOff.put(r.id(), again);
                    if (p.attempts() + 1 < MEMORY_ATTEMPTS) {
                        later.add(new Pending(p.registrationId(), p.msgid(), p.consumer(), again, p.attempts() + 1));
                    }
                }
            }
        } finally {
            // what was polled but not tried (a failure ended the round) is not lost
            later.addAll(due.subList(Math.min(tried + 1, due.size()), due.size()));
            lock.lock();
            try {
                memory.addAll(later);
            } finally {
                lock.unlock();
            }
        }
        lock.lock();
        try {
            return memory.isEmpty() ? Long.MAX_VALUE : memory.peek().dueMs();
        } finally {
            lock.unlock();
        }
    }

    private long deliverFromStore(long now) {
        // the RELIABLE registrations this node can deliver: a java: one only where its listener is bound
        List<Long> here = new ArrayList<>();
        for (Registered r : registrations.all()) {
            if (r.reliable() && (r.javaName() == null || listeners.containsKey(r.javaName()))) {
                here.add(r.id());
            }
        }
        if (here.isEmpty()) {
            return shared ? now + SHARED_RECHECK_MS : Long.MAX_VALUE;
        }
        List<NotificationEntity> due = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.DUE, NotificationEntity.class)
                .setParameter("now", now).setParameter("regs", here).setMaxResults(BATCH).getResultList()));
        long waitingFor = Long.MAX_VALUE;
        for (NotificationEntity n : due) {
            Registered r = registrations.byId(n.registrationId);
            if (r == null) {
                continue; // a registration another node made that this one has not read yet, or one ending now
            }
            Long until = backingOff.get(r.id());
            if (until != null && until > now) {
                waitingFor = Math.min(waitingFor, until);
                continue; // its target failed a moment ago: tried again at its next try, not once per notification
            }
            String javaName = r.javaName();
            if (javaName != null && !listeners.containsKey(javaName)) {
                continue; // a node that has the name bound delivers it
            }
            long claimedAt = clock.millis();
            int claimed = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.CLAIM)
                    .setParameter("until", claimedAt + LEASE_MS).setParameter("id", n.id).setParameter("now", claimedAt)
                    .executeUpdate()));
            if (claimed == 0) {
                continue; // another node delivers it
            }
            String error = deliver(r, n.msgid, n.consumer);
            if (error == null) {
                backingOff.remove(r.id());
                // done before it is counted: a count that fails must not leave the row to be delivered again
                own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.DONE).setParameter("id", n.id).executeUpdate()));
                countDelivered(r);
            } else {
                long again = clock.millis() + backoff(n.attempts + 1);
                backingOff.put(r.id(), again);
                own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.RETRY).setParameter("due", again)
                        .setParameter("id", n.id).executeUpdate()));
            }
        }
        if (due.size() == BATCH && waitingFor == Long.MAX_VALUE) {
            return now; // more are due
        }
        Object min = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.NEXT_DUE).setParameter("regs", here)
                .getSingleResult()));
        long next = min == null ? Long.MAX_VALUE : ((Number) min).longValue();
        if (next <= clock.millis()) {
            // what is due now is held by another node, or waits for its registration's next try
            next = Math.min(clock.millis() + SHARED_RECHECK_MS, waitingFor);
        }
        if (shared) {
            next = Math.min(next, now + SHARED_RECHECK_MS); // another node may have written some
        }
        return next;
    }

    static long backoff(int attempts) {
        long ms = FIRST_BACKOFF_MS;
        for (int i = 1; i < attempts && ms < MAX_BACKOFF_MS; i++) {
            ms *= 2;
        }
        return Math.min(ms, MAX_BACKOFF_MS);
    }

    /**
     * Delivers one notification of registration {@code r}; null when it was delivered (or its message is
     * gone: nobody could dequeue it), else the error, counted in the registration.
     */
    private String deliver(Registered r, String msgid, String consumer) {
        AqNotification n;
        try {
            n = describe(r, msgid, consumer);
        } catch (RuntimeException e) {
            return failed(r, e);
        }
        if (n == null) {
            return null;
        }
        return send(r, n);
    }

    private String send(Registered r, AqNotification n) {
        try {
            String javaName = r.javaName();
            if (javaName != null) {
                AqNotificationListener l = listeners.get(javaName);
                if (l == null) {
                    throw new IllegalStateException("No notification listener is bound as java:" + javaName
                            + " in this JVM (bind it with bindNotificationListener).");
                }
                l.onNotification(n);
            } else {
                transports.send(r.url(), n, r.qos().contains(NotificationQos.JSON));
            }
        } catch (Exception | LinkageError e) {
            return failed(r, e);
        }
        return null;
    }

    /** Counts a delivered notification in its registration; best effort: the delivery happened whatever the count does. */
    private void countDelivered(Registered r) {
        try {
            own.run(c -> c.work(em -> em.createNamedQuery(RegistrationEntity.DELIVERED).setParameter("n", 1L)
                    .setParameter("id", r.id()).executeUpdate()));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Aqueduct could not count a delivered notification of " + r.name(), e);
        }
    }

    private String failed(Registered r, Throwable e) {
        String text = e.getClass().getSimpleName() + ": " + e.getMessage();
        if (text.length() > 4000) {
            text = text.substring(0, 4000);
        }
        LOG.log(Level.FINE, "Aqueduct could not deliver a notification of " + r.name() + " to " + r.url(), e);
        String message = text;
        long now = clock.millis();
        try {
            own.run(c -> c.work(em -> em.createNamedQuery(RegistrationEntity.FAILED).setParameter("t", now)
                    .setParameter("msg", message).setParameter("id", r.id()).executeUpdate()));
        } catch (RuntimeException counting) {
            LOG.log(Level.FINE, "Aqueduct could not count a failed notification", counting);
        }
        return text;
    }

    /** The last notification of a registration removed at its timeout (NTFN_FLAGS = 1); not tried again. */
    private void deliverTimeout(Registered r) {
        AqNotification n = new AqNotification(r.queueName(), r.consumer(), null, null, r.context(), null, AqNotification.TIMED_OUT);
        String javaName = r.javaName();
        try {
            if (javaName != null) {
                AqNotificationListener l = listeners.get(javaName);
                if (l != null) {
                    l.onNotification(n);
                }
            } else {
                transports.send(r.url(), n, r.qos().contains(NotificationQos.JSON));
            }
        } catch (Exception | LinkageError e) {
            LOG.log(Level.FINE, "Aqueduct could not tell " + r.url() + " that its registration on " + r.name() + " timed out", e);
        }
    }

    /** AQ$_DESCRIPTOR of message {@code msgid} as it is now; null when the message is gone. */
    private AqNotification describe(Registered r, String msgid, String consumer) {
        MessageEntity[] found = new MessageEntity[1];
        own.run(c -> {
            c.jdbc(jdbc -> found[0] = MessageRows.find(jdbc, c.dialect(), msgid));
            return null;
        });
        MessageEntity m = found[0];
        if (m == null) {
            return null;
        }
        MessageProperties p = StoredProperties.of(m, m.retryCount);
        if (consumer != null) {
            p.recipients(List.of(Agent.named(consumer)));
        }
        Object payload = null;
        if (r.qos().contains(NotificationQos.PAYLOAD)) {
            QueueRuntime q = catalog.queue(m.queueId);
            if (q != null) {
                payload = PayloadCodec.decode(q.meta().table(), m.payloadBytes(), filter);
            }
        }
        return new AqNotification(r.queueName(), consumer, MessageId.parse(m.msgid.trim()), p, r.context(), payload, 0);
    }

    public void close() {
        running = false;
        wake();
        if (started) {
            try {
                stopped.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
