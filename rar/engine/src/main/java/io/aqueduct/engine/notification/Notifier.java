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
 * The loop ({@link #start}) finds what is due and hands it, one job per registration, to up to
 * {@value #WORKERS} workers on the engine's background executor (never the enqueuing thread): different
 * targets are delivered at once, one target's notifications in order, so a slow or hanging target holds
 * back only its own. A failed delivery is tried again after 1 s, doubling up to {@value #MAX_BACKOFF_MS} ms
 * (a RELIABLE one until it is delivered or its registration ends; another at most
 * {@value #MEMORY_ATTEMPTS} times), and counted with its error in the registration; the registration's
 * other notifications wait for that next try too. A java: listener call that outlives the listener
 * timeout is such a failure. A registration whose timeout passes is removed and its target told once
 * more, with NTFN_FLAGS = 1.
 */
public final class Notifier implements io.aqueduct.engine.time.Availability {
    private static final Logger LOG = Logger.getLogger(Notifier.class.getName());
    static final long FIRST_BACKOFF_MS = 1_000;
    /** At most this many notifications are delivered at once, each of another registration. */
    static final int WORKERS = 4;
    /** How long a java: listener may take with one notification by default. */
    public static final java.time.Duration LISTENER_TIMEOUT = java.time.Duration.ofSeconds(30);
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

    /**
     * A notification kept in memory (not RELIABLE, or of a buffered message). {@code notification}: what
     * a buffered message's notification says, described at its enqueue (the message is in no store to
     * read it from later); null for a persistent message, described from the store when it is sent.
     */
    public record Pending(long registrationId, String msgid, String consumer, long dueMs, int attempts,
            AqNotification notification) {
        public Pending(long registrationId, String msgid, String consumer, long dueMs, int attempts) {
            this(registrationId, msgid, consumer, dueMs, attempts, null);
        }

        /** This notification again, due at {@code when} after {@code tries} attempts. */
        Pending again(long when, int tries) {
            return new Pending(registrationId, msgid, consumer, when, tries, notification);
        }
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
     * notification.
     */
    private final Map<Long, Long> backingOff = new ConcurrentHashMap<>();
    /** Registrations with a job at a worker (queued or in progress): at most one job per registration. */
    private final java.util.Set<Long> busy = ConcurrentHashMap.newKeySet();
    /** Jobs of registrations that have one in progress (their timeout notification), run after it. Under {@link #lock}. */
    private final Map<Long, java.util.ArrayDeque<Job>> waitingJobs = new java.util.HashMap<>();
    /** In-memory notifications that fell due while their registration's job was in progress. Under {@link #lock}. */
    private final Map<Long, List<Pending>> parked = new java.util.HashMap<>();
    private int parkedCount;
    /** The jobs no worker has taken yet. */
    private final java.util.concurrent.LinkedBlockingQueue<Job> jobs = new java.util.concurrent.LinkedBlockingQueue<>();
    /** The workers that take jobs (not those given up on in a listener call). Changed under {@link #lock}. */
    private final java.util.Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger idle = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger workerNames = new java.util.concurrent.atomic.AtomicInteger();
    /** How long a java: listener may take with one notification before its attempt counts as failed. */
    private final long listenerTimeoutNanos;
    private volatile Background background;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private final Condition workersGone = lock.newCondition();
    private boolean signalled;
    private volatile boolean running;
    private volatile boolean started;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** One delivery round at a time (the loop, or a test driving it by hand). */
    private final ReentrantLock processing = new ReentrantLock();

    public Notifier(OwnTransactions own, Catalog catalog, Registrations registrations, AqClock clock,
            DeserializationFilter filter, Transports transports, java.time.Duration listenerTimeout) {
        if (listenerTimeout == null || listenerTimeout.isNegative() || listenerTimeout.isZero()) {
            throw new AqException(AqError.INVALID_VALUE, "The notification listener timeout must be positive, not "
                    + listenerTimeout + ".");
        }
        this.listenerTimeoutNanos = listenerTimeout.toNanos();
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

    /**
     * A buffered message was enqueued into queue {@code q} for {@code consumer} (a consumer key; null on a
     * single-consumer queue), available from {@code dueMs}: every registration for it is told from memory,
     * at once (or when its delay ends), RELIABLE ones too (a row in the store would outlive the message,
     * which lives in memory only). The notification is described now: its properties (delivery mode
     * BUFFERED) and, with PAYLOAD, the payload decoded from {@code payload}, the stored form.
     */
    public void bufferedEnqueued(QueueRuntime q, MessageId id, String consumer, long enqueuedMs, long dueMs,
            MessageProperties properties, byte[] payload) {
        if (!started || !watched(q.meta().id())) {
            return;
        }
        List<Pending> pending = new ArrayList<>();
        Object decoded = null;
        boolean isDecoded = false;
        for (Registered r : registrations.forQueue(q.meta().id())) {
            if (!java.util.Objects.equals(r.consumer(), consumer)) {
                continue;
            }
            MessageProperties p = properties.copy().recorded(0, java.time.Instant.ofEpochMilli(enqueuedMs),
                    dueMs > enqueuedMs ? io.aqueduct.api.MessageState.WAITING : io.aqueduct.api.MessageState.READY, null)
                    .recorded(io.aqueduct.api.DeliveryMode.BUFFERED);
            if (consumer != null) {
                p.recipients(List.of(Agent.named(consumer)));
            }
            Object body = null;
            if (r.qos().contains(NotificationQos.PAYLOAD)) {
                if (!isDecoded) {
                    decoded = PayloadCodec.decode(q.meta().table(), payload, filter);
                    isDecoded = true;
                }
                body = decoded;
            }
            pending.add(new Pending(r.id(), id.toString(), consumer, dueMs, 0,
                    new AqNotification(r.queueName(), consumer, id, p, r.context(), body, 0)));
        }
        committedInMemory(pending, false);
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
                if (memory.size() + parkedCount < MAX_IN_MEMORY) {
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

    /** Runs the delivery loop where the engine runs its loops; its workers start there too, when there is work. */
    public void start(Background background) {
        this.background = background;
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
                if (!busy.isEmpty()) {
                    wait = Math.min(wait, watchMs()); // a listener call may outlive its timeout: look at it in time
                }
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

    /** How often the loop looks at listener calls in progress: often enough to end one soon after its timeout. */
    private long watchMs() {
        return Math.max(10, Math.min(TimeUnit.NANOSECONDS.toMillis(listenerTimeoutNanos) / 2, SHARED_RECHECK_MS));
    }

    /**
     * One round: ends the registrations whose timeout passed and the listener calls that outlived theirs,
     * hands the due notifications to the workers (one job per registration); returns when the next is due
     * (epoch ms).
     */
    public long runDue() {
        processing.lock();
        try {
            watchListenerCalls();
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
                            dispatch(new Job(r, null, null, true));
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
        Map<Long, List<Pending>> due = new java.util.LinkedHashMap<>();
        lock.lock();
        try {
            while (!memory.isEmpty() && memory.peek().dueMs() <= now) {
                Pending p = memory.poll();
                Registered r = registrations.byId(p.registrationId());
                if (r == null) {
                    continue; // unregistered since
                }
                if (busy.contains(r.id())) {
                    parked.computeIfAbsent(r.id(), id -> new ArrayList<>()).add(p); // after its job, in order
                    parkedCount++;
                    continue;
                }
                Long until = backingOff.get(r.id());
                if (until != null && until > now) {
                    // its target failed a moment ago: this one waits for the next try (later than now: not taken again here)
                    memory.add(p.again(until, p.attempts()));
                    continue;
                }
                due.computeIfAbsent(r.id(), id -> new ArrayList<>()).add(p);
            }
        } finally {
            lock.unlock();
        }
        for (List<Pending> ofOne : due.values()) {
            Registered r = registrations.byId(ofOne.get(0).registrationId());
            if (r == null) {
                continue;
            }
            dispatch(new Job(r, ofOne, null, false));
        }
        lock.lock();
        try {
            return memory.isEmpty() ? Long.MAX_VALUE : memory.peek().dueMs();
        } finally {
            lock.unlock();
        }
    }

    private long deliverFromStore(long now) {
        // the RELIABLE registrations this node can deliver now: a java: one only where its listener is bound,
        // none whose job is in progress or whose target is backing off
        List<Long> here = new ArrayList<>();
        List<Long> bound = new ArrayList<>();
        long waitingFor = Long.MAX_VALUE;
        for (Registered r : registrations.all()) {
            if (r.reliable() && (r.javaName() == null || listeners.containsKey(r.javaName()))) {
                bound.add(r.id());
                Long until = backingOff.get(r.id());
                if (until != null && until > now) {
                    waitingFor = Math.min(waitingFor, until);
                } else if (!busy.contains(r.id())) {
                    here.add(r.id());
                }
            }
        }
        if (here.isEmpty()) {
            long next = Math.min(waitingFor, shared ? now + SHARED_RECHECK_MS : Long.MAX_VALUE);
            return next; // a job that ends wakes the loop
        }
        List<NotificationEntity> due = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.DUE, NotificationEntity.class)
                .setParameter("now", now).setParameter("regs", here).setMaxResults(BATCH).getResultList()));
        Map<Long, List<NotificationEntity>> byRegistration = new java.util.LinkedHashMap<>();
        for (NotificationEntity n : due) {
            byRegistration.computeIfAbsent(n.registrationId, id -> new ArrayList<>()).add(n);
        }
        for (Map.Entry<Long, List<NotificationEntity>> e : byRegistration.entrySet()) {
            Registered r = registrations.byId(e.getKey());
            if (r == null) {
                continue; // a registration another node made that this one has not read yet, or one ending now
            }
            dispatch(new Job(r, null, e.getValue(), false));
        }
        if (due.size() == BATCH) {
            return now; // more may be due, of registrations without a job yet
        }
        Object min = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.NEXT_DUE).setParameter("regs", bound)
                .getSingleResult()));
        long next = min == null ? Long.MAX_VALUE : ((Number) min).longValue();
        if (next <= clock.millis()) {
            // what is due now is being delivered, held by another node, or waits for its registration's next try
            next = Math.min(clock.millis() + SHARED_RECHECK_MS, waitingFor);
        }
        if (shared) {
            next = Math.min(next, now + SHARED_RECHECK_MS); // another node may have written some
        }
        return next;
    }

    // ------------------------------------------------------------------ the workers

    /**
     * Due notifications of one registration, delivered in order by one worker and stopped at the first
     * failure (the rest wait for the target's next try); or the last notification of a registration that
     * timed out.
     */
    private record Job(Registered r, List<Pending> memory, List<NotificationEntity> rows, boolean timedOut) {
    }

    /** A worker, and the listener call it is in (so that the loop can give up on one that outlives its timeout). */
    private static final class Worker {
        static final int IDLE = 0;
        static final int IN_CALL = 1;
        static final int ABANDONED = 2;
        final java.util.concurrent.atomic.AtomicInteger call = new java.util.concurrent.atomic.AtomicInteger(IDLE);
        volatile Thread thread;
        volatile long callStartedNanos;
        volatile Job job;
        volatile int position;
        volatile String listenerName;
        final Outage outage = new Outage(LOG, "An Aqueduct notification worker");

        boolean abandoned() {
            return call.get() == ABANDONED;
        }
    }

    /** The result of a delivery whose listener call was given up on: the loop counted it failed already. */
    private static final String GIVEN_UP = new String("given up");

    /**
     * Hands a job to the workers; a registration has at most one job at a time, so one target's
     * notifications go in order and a slow target holds only its own.
     */
    private void dispatch(Job job) {
        Background where = background;
        lock.lock();
        try {
            if (!busy.add(job.r().id())) {
                waitingJobs.computeIfAbsent(job.r().id(), id -> new java.util.ArrayDeque<>()).add(job);
                return;
            }
            if (where != null) {
                jobs.add(job);
                startWorkerIfNeeded(where);
                return;
            }
        } finally {
            lock.unlock();
        }
        Worker inline = new Worker(); // no loop started: the caller's thread delivers
        inline.thread = Thread.currentThread();
        perform(job, inline);
    }

    /** One more worker when none is free, up to {@value #WORKERS}. Under {@link #lock}. */
    private void startWorkerIfNeeded(Background where) {
        if (idle.get() >= jobs.size() || workers.size() >= WORKERS || !running) {
            return;
        }
        Worker w = new Worker();
        workers.add(w);
        idle.incrementAndGet(); // counted free until it takes its first job
        where.start("aqueduct-notifications-" + workerNames.incrementAndGet(), () -> work(w));
    }

    private void work(Worker w) {
        w.thread = Thread.currentThread();
        boolean counted = true; // idle
        try {
            while (running && !w.abandoned()) {
                if (!counted) {
                    idle.incrementAndGet();
                    counted = true;
                }
                Job job;
                try {
                    job = jobs.poll(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    if (!running) {
                        return;
                    }
                    continue; // an interrupt meant for a listener call that just ended
                }
                if (job == null) {
                    continue;
                }
                idle.decrementAndGet();
                counted = false;
                perform(job, w);
                Thread.interrupted(); // an interrupt meant for the call it gave up on is not for the next job
            }
        } finally {
            if (counted) {
                idle.decrementAndGet();
            }
            lock.lock();
            try {
                workers.remove(w);
                workersGone.signalAll();
                if (running && !jobs.isEmpty() && background != null) {
                    startWorkerIfNeeded(background); // a worker given up on leaves its jobs to the others
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void perform(Job job, Worker w) {
        Registered r = job.r();
        w.job = job;
        try {
            if (job.timedOut()) {
                deliverTimeout(r, w);
            } else if (job.memory() != null) {
                deliverMemory(job, w);
            } else {
                deliverRows(job, w);
            }
            w.outage.succeeded();
        } catch (RuntimeException e) {
            // the store failed (a claim, a retry count): the rest waits, the registration holds its job a moment
            long pause = w.outage.failed(e);
            try {
                closing.await(pause, TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            w.job = null;
            if (!w.abandoned()) {
                finished(r.id());
            }
        }
    }

    /** Registration {@code id}'s job ended: its next job goes, or what waited for it goes back to the loop. */
    private void finished(long id) {
        lock.lock();
        try {
            java.util.ArrayDeque<Job> next = waitingJobs.get(id);
            Job job = next == null ? null : next.poll();
            if (next != null && next.isEmpty()) {
                waitingJobs.remove(id);
            }
            List<Pending> waited = parked.remove(id);
            if (waited != null) {
                parkedCount -= waited.size();
                memory.addAll(waited);
            }
            if (job != null && background != null) {
                jobs.add(job);
                startWorkerIfNeeded(background);
            } else {
                busy.remove(id);
            }
            signalled = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void deliverMemory(Job job, Worker w) {
        Registered r = job.r();
        List<Pending> items = job.memory();
        List<Pending> later = new ArrayList<>();
        int tried = 0;
        try {
            for (; tried < items.size(); tried++) {
                Pending p = items.get(tried);
                if (registrations.byId(r.id()) == null || !running) {
                    later.clear();
                    tried = items.size();
                    return; // unregistered since (or the engine closes: what is in memory ends with it)
                }
                Long until = backingOff.get(r.id());
                if (until != null && until > clock.millis()) {
                    later.add(p.again(until, p.attempts()));
                    continue; // its target failed a moment ago: this one waits for the next try
                }
                w.position = tried;
                String error = p.notification() != null ? send(r, p.notification(), w) // a buffered message's
                        : deliver(r, p.msgid(), p.consumer(), w);
                if (error == GIVEN_UP) {
                    tried = items.size(); // the loop put this one and the rest back
                    return;
                }
                if (error == null) {
                    backingOff.remove(r.id());
                    countDelivered(r);
                } else {
                    long again = clock.millis() + backoff(p.attempts() + 1);
                    backingOff.put(r.id(), again);
                    if (p.attempts() + 1 < MEMORY_ATTEMPTS) {
                        later.add(p.again(again, p.attempts() + 1));
                    }
                }
            }
        } finally {
            // what was taken but not tried (the store failed while counting) is not lost
            later.addAll(items.subList(Math.min(tried + 1, items.size()), items.size()));
            lock.lock();
            try {
                memory.addAll(later);
            } finally {
                lock.unlock();
            }
        }
    }

    private void deliverRows(Job job, Worker w) {
        Registered r = job.r();
        List<NotificationEntity> rows = job.rows();
        for (int i = 0; i < rows.size() && running; i++) {
            NotificationEntity n = rows.get(i);
            if (registrations.byId(r.id()) == null) {
                return; // unregistered since: its rows went with it
            }
            Long until = backingOff.get(r.id());
            if (until != null && until > clock.millis()) {
                return; // its target failed a moment ago: the rest is tried at its next try, not once per notification
            }
            String javaName = r.javaName();
            if (javaName != null && !listeners.containsKey(javaName)) {
                return; // unbound since: a node that has the name bound delivers it
            }
            long claimedAt = clock.millis();
            int claimed = own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.CLAIM)
                    .setParameter("until", claimedAt + LEASE_MS).setParameter("id", n.id).setParameter("now", claimedAt)
                    .executeUpdate()));
            if (claimed == 0) {
                continue; // another node delivers it
            }
            w.position = i;
            String error = deliver(r, n.msgid, n.consumer, w);
            if (error == GIVEN_UP) {
                return; // the loop counted the attempt and gave the row back
            }
            if (error == null) {
                backingOff.remove(r.id());
                // done before it is counted: a count that fails must not leave the row to be delivered again
                own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.DONE).setParameter("id", n.id).executeUpdate()));
                countDelivered(r);
            } else {
                long again = clock.millis() + backoff(n.attempts + 1);
                backingOff.put(r.id(), again);
                retryRow(n, again);
            }
        }
    }

    private void retryRow(NotificationEntity n, long again) {
        own.run(c -> c.work(em -> em.createNamedQuery(NotificationEntity.RETRY).setParameter("due", again)
                .setParameter("id", n.id).executeUpdate()));
    }

    /**
     * Gives up on the listener calls that outlived {@link #listenerTimeoutNanos}: the attempt counts as
     * failed (the registration's last error says so) and is tried again after its back-off, the worker's
     * thread is interrupted and left to the listener, and another worker takes its place. The
     * registration keeps its job until that call returns: a listener that never returns holds one
     * thread, not one per try.
     */
    private void watchListenerCalls() {
        for (Worker w : workers) {
            if (w.call.get() != Worker.IN_CALL || System.nanoTime() - w.callStartedNanos < listenerTimeoutNanos) {
                continue;
            }
            Job job = w.job;
            int position = w.position;
            if (job == null || !w.call.compareAndSet(Worker.IN_CALL, Worker.ABANDONED)) {
                continue; // it returned meanwhile
            }
            Registered r = job.r();
            lock.lock();
            try {
                workers.remove(w);
                workersGone.signalAll();
            } finally {
                lock.unlock();
            }
            Thread t = w.thread;
            if (t != null) {
                t.interrupt();
            }
            failed(r, new java.util.concurrent.TimeoutException("The notification listener java:" + w.listenerName
                    + " did not return within " + TimeUnit.NANOSECONDS.toMillis(listenerTimeoutNanos) + " ms; Aqueduct gave up"
                    + " on the call and tries again after the back-off, once the listener has returned. A listener must"
                    + " return promptly: hand longer work to an executor of your own."));
            if (job.timedOut()) {
                continue;
            }
            if (job.memory() != null) {
                Pending p = job.memory().get(position);
                long again = clock.millis() + backoff(p.attempts() + 1);
                backingOff.put(r.id(), again);
                List<Pending> back = new ArrayList<>();
                if (p.attempts() + 1 < MEMORY_ATTEMPTS) {
                    back.add(p.again(again, p.attempts() + 1));
                }
                for (Pending rest : job.memory().subList(position + 1, job.memory().size())) {
                    back.add(rest.again(again, rest.attempts()));
                }
                lock.lock();
                try {
                    // due after the back-off; if the call has not returned by then they wait for it (parked)
                    memory.addAll(back);
                } finally {
                    lock.unlock();
                }
            } else {
                NotificationEntity n = job.rows().get(position);
                long again = clock.millis() + backoff(n.attempts + 1);
                backingOff.put(r.id(), again);
                retryRow(n, again);
            }
            lock.lock();
            try {
                if (!jobs.isEmpty() && background != null) {
                    startWorkerIfNeeded(background);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Calls a listener, as a call the loop can give up on; {@link #GIVEN_UP} if it did. */
    private String callListener(Registered r, AqNotificationListener l, AqNotification n, Worker w) {
        String javaName = r.javaName();
        w.listenerName = javaName;
        w.callStartedNanos = System.nanoTime();
        w.call.set(Worker.IN_CALL);
        Throwable thrown = null;
        try {
            l.onNotification(n);
        } catch (Exception | LinkageError e) {
            thrown = e;
        } catch (Error e) {
            returned(r, w);
            throw e;
        }
        if (!returned(r, w)) {
            return GIVEN_UP;
        }
        return thrown == null ? null : failed(r, thrown);
    }

    /** A listener call returned; false when the loop had given up on it (the registration's job ends now). */
    private boolean returned(Registered r, Worker w) {
        if (w.call.compareAndSet(Worker.IN_CALL, Worker.IDLE)) {
            return true;
        }
        finished(r.id());
        return false;
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
    private String deliver(Registered r, String msgid, String consumer, Worker w) {
        AqNotification n;
        try {
            n = describe(r, msgid, consumer);
        } catch (RuntimeException e) {
            return failed(r, e);
        }
        if (n == null) {
            return null;
        }
        return send(r, n, w);
    }

    private String send(Registered r, AqNotification n, Worker w) {
        try {
            String javaName = r.javaName();
            if (javaName != null) {
                AqNotificationListener l = listeners.get(javaName);
                if (l == null) {
                    throw new IllegalStateException("No notification listener is bound as java:" + javaName
                            + " in this JVM (bind it with bindNotificationListener).");
                }
                return callListener(r, l, n, w);
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
    private void deliverTimeout(Registered r, Worker w) {
        AqNotification n = new AqNotification(r.queueName(), r.consumer(), null, null, r.context(), null, AqNotification.TIMED_OUT);
        String javaName = r.javaName();
        try {
            if (javaName != null) {
                AqNotificationListener l = listeners.get(javaName);
                if (l != null) {
                    callListener(r, l, n, w);
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
        closing.countDown();
        wake();
        if (started) {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                stopped.await(10, TimeUnit.SECONDS);
                lock.lock();
                try {
                    // the workers end after their current delivery (at most the HTTP / mail / listener timeouts)
                    while (!workers.isEmpty() && deadline - System.nanoTime() > 0) {
                        workersGone.awaitNanos(deadline - System.nanoTime());
                    }
                } finally {
                    lock.unlock();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
