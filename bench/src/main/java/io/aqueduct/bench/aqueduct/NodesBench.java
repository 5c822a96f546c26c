package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.bench.Bench;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.Payloads;
import io.aqueduct.engine.AqueductEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Several engines on one shared store (PostgreSQL, MariaDB): node A is this JVM, node B a second
 * JVM started with the same class path ({@link #main}). Scenarios, per server store:
 *
 * <ul>
 * <li>{@code aqueduct/<store>/2nodes/2p2c}: the commit-each 2p2c case split over two nodes, one
 * producer and one consumer on each, one queue; for one phase (bench.seconds), then an untimed
 * drain on node A; every committed message must be dequeued exactly once over both nodes
 * (payload ids: odd from A, even from B).
 * <li>{@code aqueduct/<store>/wake/1node}: a consumer blocked in {@code dequeue(waitSeconds)}, a
 * producer in the same engine enqueues one message and commits; {@code wake} = from the commit's
 * return to the blocked dequeue's return (System.nanoTime, one JVM).
 * <li>{@code aqueduct/<store>/wake/2nodes}: the same with the consumer on node B: the wake-up has
 * to cross JVMs through the store (PostgreSQL NOTIFY, MariaDB the 50 ms poll of AQ_SIGNAL); times
 * are the wall clock of the one machine both JVMs run on (microseconds).
 * </ul>
 */
public final class NodesBench implements Bench.Extra {
    static final List<String> STORES = List.of("postgres", "mariadb");
    static final String QUEUE_TABLE = "BENCH_NODES_QT";
    static final String QUEUE = "BENCH_NODES_Q";
    static final String WAKE_QUEUE_TABLE = "BENCH_WAKE_QT";
    static final String WAKE_QUEUE = "BENCH_WAKE_Q";
    /** Payload id that ends a wake-up consumer. */
    static final long STOP = Long.MAX_VALUE;
    /** Protocol lines of node B start with this; anything else it prints is passed through as a comment. */
    static final String TAG = "@@";
    /** How long a send may wait for its wake-up before the case fails (the engine did not wake the consumer). */
    static final long WAKE_TIMEOUT_S = 30;

    private final double drainSeconds = Double.parseDouble(System.getProperty("bench.drainSeconds", "20"));
    private final int maxMessages = Integer.getInteger("bench.maxMessages", 200_000);
    private final int wakeCount = Integer.getInteger("bench.wakeCount", 200);
    private final int wakeWarmup = Integer.getInteger("bench.wakeWarmup", 20);
    /** Pause between two wake-up sends: uniform in [min, min + spread] ms (spread ≥ MariaDB's poll period, so sends land anywhere in it). */
    private final int gapMinMs = Integer.getInteger("bench.wakeGapMinMs", 10);
    private final int gapSpreadMs = Integer.getInteger("bench.wakeGapSpreadMs", 50);
    private boolean incorrect;

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (String s : STORES) {
            out.add("aqueduct/" + s + "/2nodes/2p2c");
            out.add("aqueduct/" + s + "/wake/1node");
            out.add("aqueduct/" + s + "/wake/2nodes");
        }
        return out;
    }

    @Override
    public boolean incorrect() {
        return incorrect;
    }

    @Override
    public boolean run(List<String> chosen, Path base, double phaseSeconds, int rounds) throws Exception {
        boolean ok = true;
        for (String name : STORES) {
            List<String> mine = chosen.stream().filter(k -> k.startsWith("aqueduct/" + name + "/")).toList();
            if (mine.isEmpty()) {
                continue;
            }
            BenchStore store = BenchStore.named(name);
            if (!store.available()) {
                continue; // BENCH-SKIP printed
            }
            String prefix = "aqueduct/" + name + "/";
            if (mine.contains(prefix + "2nodes/2p2c")) {
                ok &= twoNodes(store, phaseSeconds, Bench.serverRounds(rounds));
            }
            if (mine.contains(prefix + "wake/1node")) {
                ok &= wake(store, false);
            }
            if (mine.contains(prefix + "wake/2nodes")) {
                ok &= wake(store, true);
            }
        }
        return ok;
    }

    // ---------------------------------------------------------------- 2 nodes, 2p2c

    /** What one node did in a 2nodes round. */
    static final class NodeResult {
        final List<Long> committed = new ArrayList<>();
        final List<Long> uncertain = new ArrayList<>();
        final List<Long> dequeued = new ArrayList<>();
        long producerNanos;
        long lastDequeueNanos;
        final AtomicLong errors = new AtomicLong();
    }

    private boolean twoNodes(BenchStore store, double phaseSeconds, int rounds) {
        String key = "aqueduct/" + store.name + "/2nodes/2p2c";
        long committed = 0;
        long dequeued = 0;
        double enqSecs = 0;
        double deqSecs = 0;
        long lost = 0;
        long dup = 0;
        long left = 0;
        long phantom = 0;
        long errors = 0;
        long deqA = 0;
        long deqB = 0;
        int good = 0;
        boolean ok = true;
        List<String> enqRounds = new ArrayList<>();
        List<String> deqRounds = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            long s0 = System.nanoTime();
            AqueductEngine engine = null;
            Node b = null;
            try {
                SharedStores.empty(store);
                engine = SharedStores.engine(store, null);
                createQueue(engine, QUEUE_TABLE, QUEUE);
                b = Node.start(store, "move", String.valueOf(phaseSeconds), String.valueOf(drainSeconds),
                        String.valueOf(maxMessages / 2));
                b.await("READY", 180);
                double setup = (System.nanoTime() - s0) / 1e9;
                Node child = b;
                NodeResult a = move(engine, phaseSeconds, drainSeconds, maxMessages / 2, 1, () -> {
                    child.send("GO");
                    return null;
                });
                NodeResult r = b.moveResult((long) (phaseSeconds + 2 * drainSeconds + 120));
                b.awaitExit(60);
                b = null;

                // what the timed consumers left (nothing, unless they gave up): drained untimed on node A
                List<Long> leftover = new ArrayList<>();
                boolean drained = drain(engine, QUEUE, leftover);

                BitSet committedIds = ids(a.committed, r.committed);
                BitSet unsure = ids(a.uncertain, r.uncertain);
                BitSet all = new BitSet();
                long d = 0;
                for (List<Long> l : List.of(a.dequeued, r.dequeued, leftover)) {
                    for (long id : l) {
                        d += mark(all, id);
                    }
                }
                BitSet lostIds = (BitSet) committedIds.clone();
                lostIds.andNot(all);
                BitSet phantomIds = (BitSet) all.clone();
                phantomIds.andNot(committedIds);
                phantomIds.andNot(unsure);
                long n = committedIds.cardinality();
                long deqN = a.dequeued.size() + r.dequeued.size();
                double es = Math.max(a.producerNanos, r.producerNanos) / 1e9;
                double ds = Math.max(a.lastDequeueNanos, r.lastDequeueNanos) / 1e9;
                long roundLost = drained ? lostIds.cardinality() : 0;
                long err = a.errors.get() + r.errors.get();
                if ((drained && lostIds.cardinality() > 0) || d > 0 || phantomIds.cardinality() > 0) {
                    incorrect = true;
                }
                committed += n;
                dequeued += deqN;
                enqSecs += es;
                deqSecs += ds;
                lost += roundLost;
                dup += d;
                left += leftover.size();
                phantom += phantomIds.cardinality();
                errors += err;
                deqA += a.dequeued.size();
                deqB += r.dequeued.size();
                good++;
                enqRounds.add(String.format(Locale.ROOT, "%.0f", es > 0 ? n / es : 0));
                deqRounds.add(String.format(Locale.ROOT, "%.0f", ds > 0 ? deqN / ds : 0));
                System.out.printf(Locale.ROOT, "# run %s round=%d enq_per_s=%.0f deq_per_s=%.0f enq_n=%d deq_n=%d %s dup=%d left=%d%s%s"
                        + " enq_a=%d enq_b=%d deq_a=%d deq_b=%d deq_window_s=%.1f setup_s=%.1f%n", key, round,
                        es > 0 ? n / es : 0, ds > 0 ? deqN / ds : 0, n, deqN,
                        drained ? "lost=" + lostIds.cardinality() : "undrained=1", d, leftover.size(),
                        phantomIds.cardinality() > 0 ? " phantom=" + phantomIds.cardinality() : "",
                        err > 0 ? " errors=" + err : "", a.committed.size(), r.committed.size(), a.dequeued.size(),
                        r.dequeued.size(), ds, setup);
                if (drained && lostIds.cardinality() > 0) {
                    System.out.println("# " + key + " round=" + round + ": lost ids (first 20) " + first(lostIds, 20));
                }
                if (!drained) {
                    System.out.println("# " + key + " round=" + round + ": the queue was not empty after the untimed drain");
                    ok = false;
                }
            } catch (Throwable e) {
                ok = false;
                enqRounds.add("failed");
                deqRounds.add("failed");
                System.out.println("# run " + key + " round=" + round + " FAILED: " + e);
                e.printStackTrace(System.out);
            } finally {
                if (b != null) {
                    b.kill();
                }
                if (engine != null) {
                    try {
                        engine.close();
                    } catch (Throwable e) {
                        System.out.println("# " + key + ": close failed: " + e);
                    }
                }
                System.out.flush();
            }
        }
        double enq = enqSecs > 0 ? committed / enqSecs : 0;
        double deq = deqSecs > 0 ? dequeued / deqSecs : 0;
        StringBuilder line = new StringBuilder("BENCH ").append(key).append(' ')
                .append(good == 0 ? "enq_per_s=n/a deq_per_s=n/a" : String.format(Locale.ROOT, "enq_per_s=%.0f deq_per_s=%.0f", enq, deq))
                .append(" enq_n=").append(committed).append(" deq_n=").append(dequeued)
                .append(" lost=").append(lost).append(" dup=").append(dup).append(" left=").append(left);
        if (phantom > 0) {
            line.append(" phantom=").append(phantom);
        }
        if (errors > 0) {
            line.append(" errors=").append(errors);
        }
        if (good < rounds) {
            line.append(" failed=").append(rounds - good);
        }
        line.append(" deq_a=").append(deqA).append(" deq_b=").append(deqB);
        double[] oneNode = Bench.totals("aqueduct/" + store.name + "/commit-each/2p2c");
        if (oneNode != null && good > 0) {
            line.append(String.format(Locale.ROOT, " vs_1node_enq=%.2f vs_1node_deq=%.2f", oneNode[0] > 0 ? enq / oneNode[0] : 0,
                    oneNode[1] > 0 ? deq / oneNode[1] : 0));
        }
        line.append(" rounds=").append(good).append(" enq_rounds=").append(String.join(",", enqRounds))
                .append(" deq_rounds=").append(String.join(",", deqRounds));
        System.out.println(line);
        System.out.flush();
        return ok;
    }

    static void createQueue(AqueductEngine engine, String queueTable, String queue) {
        QueueAdmin admin = engine.admin();
        admin.createQueueTable(queueTable, QueueTableProperties.create().payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue(queue, queueTable, QueueProperties.create());
        admin.startQueue(queue, true, true);
    }

    /**
     * One node's part of 2nodes/2p2c: a producer thread (ids {@code 2k + parity}, one commit each,
     * until the phase ends) and a consumer thread (dequeue waiting up to 1 s, commit each; stops once
     * this node's producer is done and a dequeue came back empty, or phase + drain after the start).
     * {@code go} is called when both sessions are open; the clock starts when it returns.
     */
    static NodeResult move(AqueductEngine engine, double phaseSeconds, double drainSeconds, long maxPerNode, int parity,
            Callable<Void> go) throws Exception {
        NodeResult r = new NodeResult();
        long phaseNanos = (long) (phaseSeconds * 1e9);
        long drainNanos = (long) (drainSeconds * 1e9);
        CountDownLatch ready = new CountDownLatch(2);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        long[] t0 = new long[1];
        Thread producer = new Thread(() -> {
            boolean counted = false;
            try (QueueSession s = engine.openSession()) {
                counted = true;
                ready.countDown();
                start.await();
                EnqueueOptions options = EnqueueOptions.create();
                long end = t0[0] + phaseNanos;
                for (long k = 0; System.nanoTime() < end && k < maxPerNode; k++) {
                    long id = 2 * k + parity;
                    try {
                        s.enqueue(QUEUE, options, Message.of(Payloads.of(id)));
                        s.commit();
                        r.committed.add(id);
                    } catch (RuntimeException e) {
                        rollbackQuietly(s);
                        r.uncertain.add(id); // a failed commit may or may not have happened
                        if (error(r, "producer", e) > 50) {
                            break;
                        }
                    }
                }
            } catch (Throwable e) {
                fatal.compareAndSet(null, e);
            } finally {
                r.producerNanos = System.nanoTime() - t0[0];
                producing.set(false);
                if (!counted) {
                    ready.countDown();
                }
            }
        }, "node-producer");
        Thread consumer = new Thread(() -> {
            boolean counted = false;
            try (QueueSession s = engine.openSession()) {
                counted = true;
                ready.countDown();
                start.await();
                DequeueOptions wait = DequeueOptions.create().waitSeconds(1);
                long hardEnd = t0[0] + phaseNanos + drainNanos;
                while (System.nanoTime() < hardEnd) {
                    boolean producerDone = !producing.get();
                    try {
                        Message m = s.dequeue(QUEUE, wait);
                        s.commit();
                        r.dequeued.add(Payloads.id((byte[]) m.payload()));
                        r.lastDequeueNanos = System.nanoTime() - t0[0];
                    } catch (AqException e) {
                        if (e.errorCode() == AqError.NO_MESSAGE) {
                            if (producerDone) {
                                break;
                            }
                            continue;
                        }
                        rollbackQuietly(s);
                        if (error(r, "consumer", e) > 50) {
                            break;
                        }
                    } catch (RuntimeException e) {
                        rollbackQuietly(s);
                        if (error(r, "consumer", e) > 50) {
                            break;
                        }
                    }
                }
            } catch (Throwable e) {
                fatal.compareAndSet(null, e);
            } finally {
                if (!counted) {
                    ready.countDown();
                }
            }
        }, "node-consumer");
        producer.start();
        consumer.start();
        ready.await();
        if (fatal.get() == null) {
            go.call();
        }
        t0[0] = System.nanoTime();
        start.countDown();
        producer.join();
        consumer.join();
        if (fatal.get() != null) {
            throw new IllegalStateException("a worker failed", fatal.get());
        }
        return r;
    }

    private static long error(NodeResult r, String who, RuntimeException e) {
        long n = r.errors.incrementAndGet();
        if (n == 1) {
            System.out.println("# " + who + " error (first): " + e);
            e.printStackTrace(System.out);
        }
        return n;
    }

    /** Empties {@code queue} (batches of 100, no wait), untimed; false if it was still not empty after bench.drainSeconds. */
    private boolean drain(AqueductEngine engine, String queue, List<Long> out) {
        DequeueOptions noWait = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);
        long end = System.nanoTime() + (long) (drainSeconds * 1e9);
        try (QueueSession s = engine.openSession()) {
            while (System.nanoTime() < end) {
                List<Message> got = s.dequeueArray(queue, noWait, 100);
                if (got.isEmpty()) {
                    return true;
                }
                s.commit();
                for (Message m : got) {
                    out.add(Payloads.id((byte[]) m.payload()));
                }
            }
        }
        return false;
    }

    @SafeVarargs
    private static BitSet ids(List<Long>... lists) {
        BitSet b = new BitSet();
        for (List<Long> l : lists) {
            for (long id : l) {
                b.set(checked(id));
            }
        }
        return b;
    }

    private static int checked(long id) {
        if (id < 1 || id > Integer.MAX_VALUE) {
            throw new IllegalStateException("payload counter out of range: " + id);
        }
        return (int) id;
    }

    private static long mark(BitSet seen, long id) {
        int i = checked(id);
        if (seen.get(i)) {
            return 1;
        }
        seen.set(i);
        return 0;
    }

    private static String first(BitSet b, int n) {
        return b.stream().limit(n).mapToObj(String::valueOf).collect(Collectors.joining(","));
    }

    private static void rollbackQuietly(QueueSession s) {
        try {
            s.rollback();
        } catch (RuntimeException ignored) {
            // the original failure is what matters
        }
    }

    // ---------------------------------------------------------------- wake-up latency

    private boolean wake(BenchStore store, boolean twoNodes) {
        String key = "aqueduct/" + store.name + "/wake/" + (twoNodes ? "2nodes" : "1node");
        AqueductEngine engine = null;
        Node b = null;
        Thread localConsumer = null;
        Random random = new Random(7);
        long s0 = System.nanoTime();
        try {
            SharedStores.empty(store);
            engine = SharedStores.engine(store, null);
            createQueue(engine, WAKE_QUEUE_TABLE, WAKE_QUEUE);
            // the receiver's answers: {payload id, receive time}; micros of the wall clock (2 nodes) or nanoTime (1 node)
            BlockingQueue<long[]> received = new LinkedBlockingQueue<>();
            AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
            if (twoNodes) {
                b = Node.start(store, "wake");
                b.await("READY", 180);
            } else {
                AqueductEngine e = engine;
                CountDownLatch open = new CountDownLatch(1);
                localConsumer = new Thread(() -> {
                    try (QueueSession s = e.openSession()) {
                        open.countDown();
                        receiveLoop(s, (id, t) -> received.add(new long[] {id, t}), false);
                    } catch (Throwable x) {
                        consumerFailure.set(x);
                        received.add(new long[] {-1, 0});
                    } finally {
                        open.countDown();
                    }
                }, "wake-consumer");
                localConsumer.start();
                open.await();
            }
            double setup = (System.nanoTime() - s0) / 1e9;
            Thread.sleep(300); // the consumer is blocked in its dequeue
            int total = wakeWarmup + wakeCount;
            double[] wakeMs = new double[wakeCount];
            double[] e2eMs = new double[wakeCount];
            double[] commitMs = new double[wakeCount];
            try (QueueSession s = engine.openSession()) {
                EnqueueOptions options = EnqueueOptions.create();
                for (int i = 1; i <= total; i++) {
                    long before = twoNodes ? wallMicros() : System.nanoTime();
                    s.enqueue(WAKE_QUEUE, options, Message.of(Payloads.of(i)));
                    s.commit();
                    long committed = twoNodes ? wallMicros() : System.nanoTime();
                    long[] got = twoNodes ? b.wakeLine(WAKE_TIMEOUT_S) : received.poll(WAKE_TIMEOUT_S, TimeUnit.SECONDS);
                    if (got == null) {
                        throw new IllegalStateException("message " + i + " of " + total + ", committed on node A, was not dequeued by the"
                                + " consumer blocked on " + (twoNodes ? "node B" : "the same node") + " within " + WAKE_TIMEOUT_S + " s");
                    }
                    if (got[0] == -1) {
                        throw new IllegalStateException("the blocked consumer failed", consumerFailure.get());
                    }
                    if (got[0] != i) {
                        throw new IllegalStateException("the blocked consumer got message " + got[0] + ", expected " + i);
                    }
                    double unit = twoNodes ? 1e3 : 1e6; // micros or nanos per ms
                    if (i > wakeWarmup) {
                        int k = i - wakeWarmup - 1;
                        wakeMs[k] = (got[1] - committed) / unit;
                        e2eMs[k] = (got[1] - before) / unit;
                        commitMs[k] = (committed - before) / unit;
                    }
                    Thread.sleep(gapMinMs + random.nextInt(gapSpreadMs + 1));
                }
                s.enqueue(WAKE_QUEUE, options, Message.of(Payloads.of(STOP)));
                s.commit();
            }
            if (twoNodes) {
                b.await("DONE", 60);
                b.awaitExit(60);
                b = null;
            } else {
                localConsumer.join(TimeUnit.SECONDS.toMillis(WAKE_TIMEOUT_S));
                if (localConsumer.isAlive()) {
                    throw new IllegalStateException("the wake-up consumer did not end after the STOP message");
                }
            }
            Arrays.sort(wakeMs);
            Arrays.sort(e2eMs);
            Arrays.sort(commitMs);
            System.out.printf(Locale.ROOT, "BENCH %s wake_p50_ms=%.2f wake_p99_ms=%.2f wake_max_ms=%.2f e2e_p50_ms=%.2f e2e_p99_ms=%.2f"
                    + " commit_p50_ms=%.2f n=%d gap_ms=%d-%d setup_s=%.1f%n", key, pct(wakeMs, 0.50), pct(wakeMs, 0.99),
                    wakeMs[wakeMs.length - 1], pct(e2eMs, 0.50), pct(e2eMs, 0.99), pct(commitMs, 0.50), wakeCount, gapMinMs,
                    gapMinMs + gapSpreadMs, setup);
            return true;
        } catch (Throwable e) {
            System.out.println("# run " + key + " FAILED: " + e);
            e.printStackTrace(System.out);
            System.out.println("BENCH " + key + " wake_p50_ms=n/a wake_p99_ms=n/a n=0 failed=1");
            return false;
        } finally {
            if (b != null) {
                b.kill();
            }
            if (localConsumer != null && localConsumer.isAlive()) {
                localConsumer.interrupt();
            }
            if (engine != null) {
                try {
                    engine.close();
                } catch (Throwable e) {
                    System.out.println("# " + key + ": close failed: " + e);
                }
            }
            System.out.flush();
        }
    }

    interface Receiver {
        void received(long id, long time);
    }

    /**
     * A blocked consumer: dequeue waiting (up to 120 s), note the time it returned, commit, report;
     * until the STOP message. {@code wall}: microseconds of the wall clock, else System.nanoTime.
     */
    static void receiveLoop(QueueSession s, Receiver receiver, boolean wall) {
        DequeueOptions wait = DequeueOptions.create().waitSeconds(120);
        while (true) {
            Message m = s.dequeue(WAKE_QUEUE, wait); // NO_MESSAGE after 120 s: an error here
            long t = wall ? wallMicros() : System.nanoTime();
            s.commit();
            long id = Payloads.id((byte[]) m.payload());
            if (id == STOP) {
                return;
            }
            receiver.received(id, t);
        }
    }

    /** Microseconds since the epoch (the JDK's wall clock has microsecond resolution on Linux). */
    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** Nearest-rank percentile of sorted values. */
    static double pct(double[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    // ---------------------------------------------------------------- node B

    /** Node B: a second JVM on the same class path; talks over its stdin / stdout ({@value #TAG} lines). */
    static final class Node {
        private final Process process;
        private final Writer stdin;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private static final String EXIT = "\u0000EXIT";

        private Node(Process process) {
            this.process = process;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null;) {
                        if (line.startsWith(TAG)) {
                            lines.add(line.substring(TAG.length()));
                        } else {
                            System.out.println("# node-b: " + line); // its errors, stack traces
                        }
                    }
                } catch (IOException ignored) {
                    // killed
                }
                lines.add(EXIT);
            }, "node-b-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Node start(BenchStore store, String... args) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xms64m");
            command.add("-Xmx512m");
            System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("bench.") || n.startsWith("aqueduct."))
                    .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(NodesBench.class.getName());
            command.add(store.name);
            command.addAll(List.of(args));
            return new Node(new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        void send(String line) throws IOException {
            stdin.write(line + "\n");
            stdin.flush();
        }

        /** The next protocol line, or null after {@code seconds}; fails if node B exited. */
        String next(long seconds) throws InterruptedException {
            String line = lines.poll(seconds, TimeUnit.SECONDS);
            if (EXIT.equals(line)) {
                lines.add(EXIT);
                throw new IllegalStateException("node B exited (code " + exitCode() + ") before it was done; its output is above");
            }
            return line;
        }

        void await(String word, long seconds) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toSeconds(end - System.nanoTime());
                String line = next(Math.max(1, left));
                if (line == null) {
                    throw new IllegalStateException("node B did not say " + word + " within " + seconds + " s");
                }
                if (line.equals(word)) {
                    return;
                }
                System.out.println("# node-b (unexpected): " + line);
            }
        }

        /** {id, wall micros} of the next message node B received, or null after {@code seconds}. */
        long[] wakeLine(long seconds) throws InterruptedException {
            String line = next(seconds);
            if (line == null) {
                return null;
            }
            String[] f = line.split(" ");
            if (f.length != 3 || !f[0].equals("W")) {
                throw new IllegalStateException("node B said '" + line + "', expected W <id> <micros>");
            }
            return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
        }

        NodeResult moveResult(long seconds) throws InterruptedException {
            NodeResult r = new NodeResult();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                String line = next(Math.max(1, TimeUnit.NANOSECONDS.toSeconds(end - System.nanoTime())));
                if (line == null) {
                    throw new IllegalStateException("node B gave no result within " + seconds + " s");
                }
                if (line.equals("END")) {
                    return r;
                }
                String[] f = line.split(" ", 2);
                switch (f[0]) {
                    case "E" -> parse(f[1], r.committed);
                    case "U" -> parse(f[1], r.uncertain);
                    case "D" -> parse(f[1], r.dequeued);
                    case "T" -> {
                        String[] t = f[1].split(" ");
                        r.producerNanos = Long.parseLong(t[0]);
                        r.lastDequeueNanos = Long.parseLong(t[1]);
                        r.errors.set(Long.parseLong(t[2]));
                    }
                    default -> System.out.println("# node-b (unexpected): " + line);
                }
            }
        }

        private static void parse(String csv, List<Long> into) {
            for (String s : csv.split(",")) {
                if (!s.isEmpty()) {
                    into.add(Long.parseLong(s));
                }
            }
        }

        void awaitExit(long seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                kill();
                throw new IllegalStateException("node B did not exit within " + seconds + " s after it was done");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("node B exited with " + process.exitValue() + "; its output is above");
            }
        }

        String exitCode() {
            try {
                process.waitFor(5, TimeUnit.SECONDS);
                return process.isAlive() ? "still running" : String.valueOf(process.exitValue());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "?";
            }
        }

        void kill() {
            if (process.isAlive()) {
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Node B's entry point: {@code NodesBench <store> move <phaseSeconds> <drainSeconds> <maxMessages>}
     * or {@code NodesBench <store> wake}. Starts its own engine on the store (the queue exists already),
     * says {@code @@READY}, and reports on stdout in {@code @@} lines.
     */
    public static void main(String[] args) throws Exception {
        PrintStream out = System.out; // println is atomic per line: the engine's own output cannot split a protocol line
        BenchStore store = BenchStore.named(args[0]);
        String mode = args[1];
        int code = 0;
        try (AqueductEngine engine = SharedStores.engine(store, null)) {
            if (mode.equals("move")) {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                NodeResult r = move(engine, Double.parseDouble(args[2]), Double.parseDouble(args[3]), Long.parseLong(args[4]), 2, () -> {
                    out.println(TAG + "READY");
                    String go = in.readLine();
                    if (!"GO".equals(go)) {
                        throw new IllegalStateException("node B expected GO, got " + go);
                    }
                    return null;
                });
                print(out, "E", r.committed);
                print(out, "U", r.uncertain);
                print(out, "D", r.dequeued);
                out.println(TAG + "T " + r.producerNanos + " " + r.lastDequeueNanos + " " + r.errors.get());
                out.println(TAG + "END");
            } else if (mode.equals("wake")) {
                try (QueueSession s = engine.openSession()) {
                    out.println(TAG + "READY");
                    receiveLoop(s, (id, t) -> out.println(TAG + "W " + id + " " + t), true);
                }
            } else {
                throw new IllegalArgumentException("mode " + mode);
            }
        } catch (Throwable e) {
            e.printStackTrace(out);
            code = 1;
        }
        out.println(TAG + "DONE");
        out.flush();
        System.exit(code);
    }

    private static void print(PrintStream out, String tag, List<Long> ids) {
        for (int i = 0; i < ids.size(); i += 1000) {
            out.println(TAG + tag + " " + ids.subList(i, Math.min(ids.size(), i + 1000)).stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
        }
    }
}
