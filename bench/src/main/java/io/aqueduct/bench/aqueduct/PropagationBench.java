package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.bench.Bench;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.Payloads;
import io.aqueduct.engine.AqueductEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * AQ propagation against the loop anyone would write instead: {@code aqueduct-propagation/<store>/<case>}
 * (a schedule with latency 0 moves a remote subscriber's messages) beside {@code plain-move/<store>/<case>}
 * (one thread dequeues a message, enqueues it into the destination queue and commits, one transaction
 * per message), on the same stores in the same run. Cases:
 *
 * <ul>
 * <li>{@code in-store}: source and destination queue in one store (derby, postgres, mariadb); the
 * schedule's destination is AQ$_LOCAL, the subscriber's address {@code BENCH_PROP_DST_Q}.
 * <li>{@code to-derby}, {@code to-postgres}: from a Derby store to a second store (another Derby
 * directory, or the benchmark's schema on PostgreSQL), reached through a database link; the address
 * is {@code BENCH_PROP_DST_Q@BENCH_DST}. The destination engine is open in this JVM (the link uses
 * it), so its consumer is here too. plain-move commits the destination's transaction, then the
 * source's (one per message on each store; a crash between the two would deliver twice, which
 * propagation's receipts prevent).
 * <li>{@code to-derby-http}: as {@code to-derby}, but the link's URL is an HTTP servlet on the loopback
 * interface (propagation over HTTP): a JDK HTTP server in this JVM does what aqueduct.war's servlet
 * does with a batch ({@code receivePropagation} in a session of the destination engine, commit,
 * answer), so the figure is the HTTP path's cost (requests, encoding, one transaction per request)
 * without a servlet container's. plain-move is the same in-JVM loop as for {@code to-derby}.
 * </ul>
 *
 * Every run has a fresh store (or the emptied benchmark place on a server) with a multi-consumer
 * RAW source queue and a single-consumer RAW destination queue, 1 KiB payloads whose first 8 bytes
 * are a unique counter. Phases, on one setup: an untimed warm-up of {@code bench.propagation.warmup}
 * messages; then <b>throughput</b>: {@code bench.propagation.messages} messages enqueued while the
 * schedule is disabled (or the mover stopped), then enabled / started: {@code msgs_per_s} = those
 * messages / the time from that moment until a consumer at the destination (array dequeue of 100,
 * one commit each) has the last one; then <b>lag</b>: a producer enqueues
 * {@code bench.propagation.lagMessages} messages, one commit each, paced at
 * {@code bench.propagation.rate} per second, and a consumer blocked at the destination dequeues
 * each (one commit each): lag = from the producer's {@code commit()} returning to the consumer's
 * {@code dequeue()} returning with the message (System.nanoTime, one JVM; it can be slightly
 * negative when the message is dequeued before the producer's commit call has returned). Every
 * message must arrive exactly once (lost=0 dup=0).
 *
 * <pre>
 * BENCH aqueduct-propagation/&lt;store&gt;/&lt;case&gt; msgs_per_s=.. lag_p50_ms=.. lag_p99_ms=.. lag_max_ms=.. n=.. lag_n=.. lost=0 dup=0 ...
 * BENCH plain-move/&lt;store&gt;/&lt;case&gt; msgs_per_s=.. lag_p50_ms=.. lag_p99_ms=.. ...
 * BENCH ratio-propagation/&lt;store&gt;/&lt;case&gt; msgs=&lt;propagation/plain&gt; lag_p50=&lt;propagation/plain&gt; lag_p99=.. vs=plain-move/&lt;store&gt;/&lt;case&gt;
 * </pre>
 */
public final class PropagationBench implements Bench.Extra {
    static final String PROPAGATION = "aqueduct-propagation";
    static final String PLAIN = "plain-move";
    static final String SRC_QT = "BENCH_PROP_SRC_QT";
    static final String SRC_Q = "BENCH_PROP_SRC_Q";
    static final String DST_QT = "BENCH_PROP_DST_QT";
    static final String DST_Q = "BENCH_PROP_DST_Q";
    static final String LINK = "BENCH_DST";
    /** The remote subscriber (propagation) and the local one the plain loop dequeues as. */
    static final String SINK = "SINK";
    static final String MOVER = "MOVER";
    static final int BATCH = 100;
    /** A phase fails when nothing arrives at the destination for this long. */
    static final long STALL_NANOS = 30_000_000_000L;

    /** A case: its source store, its name, and the destination store (null: the source store). */
    record Case(String source, String name, String destination) {
        boolean overHttp() {
            return name.endsWith("-http");
        }

        String key(String system) {
            return system + "/" + source + "/" + name;
        }
    }

    static final List<Case> CASES = List.of(new Case("derby", "in-store", null), new Case("derby", "to-derby", "derby"),
            new Case("derby", "to-derby-http", "derby"), new Case("derby", "to-postgres", "postgres"),
            new Case("postgres", "in-store", null),
            new Case("mariadb", "in-store", null));

    private final int messages = Integer.getInteger("bench.propagation.messages", 2000);
    private final int lagMessages = Integer.getInteger("bench.propagation.lagMessages", 250);
    private final double rate = Double.parseDouble(System.getProperty("bench.propagation.rate", "50"));
    private final int warmupMessages = Integer.getInteger("bench.propagation.warmup", 200);
    private final int rounds = Integer.getInteger("bench.propagation.rounds", 1);
    private boolean incorrect;

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (Case c : CASES) {
            out.add(c.key(PROPAGATION));
            out.add(c.key(PLAIN));
        }
        return out;
    }

    @Override
    public boolean incorrect() {
        return incorrect;
    }

    /** One run of one system on one case. */
    static final class Result {
        boolean failed;
        long n;
        double secs;
        double[] lagsMs = new double[0];
        long lost;
        long dup;

        double rate() {
            return secs > 0 ? n / secs : 0;
        }
    }

    @Override
    public boolean run(List<String> chosen, Path base, double phaseSeconds, int ignoredRounds) throws Exception {
        boolean ok = true;
        for (Case c : CASES) {
            List<String> systems = new ArrayList<>();
            for (String system : List.of(PROPAGATION, PLAIN)) {
                if (chosen.contains(c.key(system))) {
                    systems.add(system);
                }
            }
            if (systems.isEmpty()) {
                continue;
            }
            if (!BenchStore.named(c.source()).available()
                    || c.destination() != null && !BenchStore.named(c.destination()).available()) {
                continue; // BENCH-SKIP printed
            }
            Map<String, List<Result>> results = new LinkedHashMap<>();
            for (int round = 0; round < rounds; round++) {
                List<String> order = new ArrayList<>(systems);
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order); // A B, B A, ...: a drifting disk hits both alike
                }
                for (String system : order) {
                    Result r = runOne(system, c, round, base);
                    ok &= !r.failed;
                    results.computeIfAbsent(system, k -> new ArrayList<>()).add(r);
                }
            }
            report(c, results);
        }
        return ok;
    }

    private Result runOne(String system, Case c, int round, Path base) {
        String key = c.key(system);
        Result r = new Result();
        Path dir = null;
        AqueductEngine source = null;
        AqueductEngine destination = null;
        Mover mover = null;
        com.sun.net.httpserver.HttpServer servlet = null;
        try {
            double fsync = Bench.fsyncRate(base);
            dir = Files.createDirectory(base.resolve(system + "-" + c.source() + "-" + c.name() + "-r" + (round + 1)));
            long s0 = System.nanoTime();
            BenchStore from = BenchStore.named(c.source());
            BenchStore to = c.destination() == null ? null : BenchStore.named(c.destination());
            if (from.shared()) {
                SharedStores.empty(from);
            }
            source = SharedStores.engine(from, dir.resolve("src"));
            createQueue(source, SRC_QT, SRC_Q, true);
            if (to != null) {
                if (to.shared()) {
                    SharedStores.empty(to);
                }
                destination = SharedStores.engine(to, dir.resolve("dst"));
            }
            AqueductEngine dst = destination == null ? source : destination;
            createQueue(dst, DST_QT, DST_Q, false);
            Switch onOff;
            if (system.equals(PROPAGATION)) {
                String httpUrl = null;
                if (c.overHttp()) {
                    servlet = servlet(dst);
                    httpUrl = "http://127.0.0.1:" + servlet.getAddress().getPort() + "/aqueduct/aqserv/servlet";
                }
                onOff = propagation(source, to, dir.resolve("dst").resolve("db"), httpUrl);
            } else {
                source.admin().addSubscriber(SRC_Q, Agent.named(MOVER), null);
                mover = new Mover(source, dst);
                onOff = mover;
            }
            double setup = (System.nanoTime() - s0) / 1e9;

            long next = 1;
            Phase warm = throughput(source, dst, onOff, next, warmupMessages);
            next += warmupMessages;
            Phase tp = throughput(source, dst, onOff, next, messages);
            next += messages;
            onOff.on();
            Phase lag = lag(source, dst, next, lagMessages);
            onOff.off();
            r.n = messages;
            r.secs = tp.seconds;
            r.lagsMs = lag.lagsMs;
            r.lost = warm.lost + tp.lost + lag.lost;
            r.dup = warm.dup + tp.dup + lag.dup;
            if (r.lost > 0 || r.dup > 0) {
                incorrect = true;
            }
            if (mover != null && mover.failure.get() != null) {
                throw new IllegalStateException("the mover failed", mover.failure.get());
            }
            System.out.printf(Locale.ROOT, "# run %s round=%d msgs_per_s=%.0f %s n=%d lag_n=%d lost=%d dup=%d warmup_s=%.1f"
                    + " setup_s=%.1f fsync_per_s=%.0f fsync_after=%.0f%n", key, round + 1, r.rate(), lags(r.lagsMs), r.n,
                    r.lagsMs.length, r.lost, r.dup, warm.seconds, setup, fsync, Bench.fsyncRate(base));
        } catch (Throwable e) {
            r.failed = true;
            System.out.println("# run " + key + " round=" + (round + 1) + " FAILED: " + e);
            e.printStackTrace(System.out);
        } finally {
            if (mover != null) {
                mover.close();
            }
            closeQuietly(key, source); // first: its link does not own the destination engine
            if (servlet != null) {
                servlet.stop(0);
            }
            closeQuietly(key, destination);
            if (dir != null && !Boolean.getBoolean("bench.keep")) {
                Bench.deleteTree(dir);
            }
            System.out.flush();
        }
        return r;
    }

    /**
     * What aqueduct.war's servlet does with a propagation request, on the loopback interface: the request in one
     * session of {@code destination} (as its engine user), committed before the answer; a refusal as the servlet sends it.
     */
    private static com.sun.net.httpserver.HttpServer servlet(AqueductEngine destination) throws java.io.IOException {
        // as a servlet container does (Grizzly sets TCP_NODELAY): else the JDK server's answer waits on the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/aqueduct/aqserv/servlet", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            byte[] answer;
            int status = 200;
            try (io.aqueduct.api.QueueSession session = destination.openSession()) {
                try {
                    answer = session.receivePropagation(body);
                    session.commit();
                    exchange.getResponseHeaders().add("Content-Type", "application/vnd.aqueduct.propagation");
                } catch (io.aqueduct.api.AqException e) {
                    session.rollback();
                    answer = String.valueOf(e.getMessage()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("X-Aqueduct-Error", String.valueOf(e.errorCode()));
                    status = 409;
                }
            }
            exchange.sendResponseHeaders(status, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static void closeQuietly(String key, AqueductEngine engine) {
        if (engine != null) {
            try {
                engine.close();
            } catch (RuntimeException e) {
                System.out.println("# " + key + ": close failed: " + e);
            }
        }
    }

    static void createQueue(AqueductEngine engine, String queueTable, String queue, boolean multipleConsumers) {
        QueueAdmin admin = engine.admin();
        admin.createQueueTable(queueTable, QueueTableProperties.create().payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.ENQ_TIME).multipleConsumers(multipleConsumers));
        admin.createQueue(queue, queueTable, QueueProperties.create());
        admin.startQueue(queue, true, true);
    }

    /** What moves the messages: switched off while a phase's messages are enqueued, on to move them. */
    interface Switch {
        void on();

        void off();
    }

    /**
     * The remote subscriber and the schedule (latency 0), and the database link for another store,
     * whose engine is open in this JVM (the link finds it). Returned switched off.
     */
    private static Switch propagation(AqueductEngine source, BenchStore to, Path derbyDirectory, String httpUrl) {
        QueueAdmin admin = source.admin();
        String address = DST_Q;
        if (to != null) {
            if (httpUrl != null) {
                admin.createDatabaseLink(LINK, httpUrl, "bench", "bench");
            } else if (to.shared()) {
                admin.createDatabaseLink(LINK, to.url, to.user, to.password);
            } else {
                admin.createDatabaseLink(LINK, derbyDirectory.toString(), null, null);
            }
            address = DST_Q + "@" + LINK;
        }
        admin.addSubscriber(SRC_Q, new Agent(SINK, address, 0), null);
        String destination = to == null ? null : LINK;
        admin.schedulePropagation(SRC_Q, destination, null, null, null, 0);
        admin.disablePropagationSchedule(SRC_Q, destination);
        return new Switch() {
            boolean enabled;

            @Override
            public void on() {
                if (!enabled) {
                    admin.enablePropagationSchedule(SRC_Q, destination);
                    enabled = true;
                }
            }

            @Override
            public void off() {
                if (enabled) {
                    admin.disablePropagationSchedule(SRC_Q, destination);
                    enabled = false;
                }
                PropagationSchedule s = admin.propagationSchedule(SRC_Q, destination);
                if (s.failures() > 0 || s.lastErrorMessage() != null) {
                    throw new IllegalStateException("the schedule failed: " + s.lastErrorMessage());
                }
            }
        };
    }

    /**
     * The plain loop: one thread, one transaction per message — dequeue (REMOVE, as consumer MOVER,
     * waiting up to 1 s), enqueue into the destination queue, commit (another store: its commit first,
     * then the source's).
     */
    static final class Mover implements Switch, AutoCloseable {
        private final QueueSession src;
        private final QueueSession dst;
        private final boolean sameStore;
        private final AtomicBoolean running = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;

        Mover(AqueductEngine source, AqueductEngine destination) {
            this.src = source.openSession();
            this.sameStore = source == destination;
            this.dst = sameStore ? src : destination.openSession();
        }

        @Override
        public void on() {
            if (thread != null) {
                return;
            }
            running.set(true);
            thread = new Thread(this::loop, "plain-move");
            thread.start();
        }

        @Override
        public void off() {
            if (thread == null) {
                return;
            }
            running.set(false);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
            if (failure.get() != null) {
                throw new IllegalStateException("the mover failed", failure.get());
            }
        }

        private void loop() {
            DequeueOptions take = DequeueOptions.create().consumerName(MOVER).waitSeconds(1);
            EnqueueOptions put = EnqueueOptions.create();
            while (running.get()) {
                try {
                    Message m;
                    try {
                        m = src.dequeue(SRC_Q, take);
                    } catch (AqException e) {
                        if (e.errorCode() == AqError.NO_MESSAGE) {
                            continue;
                        }
                        throw e;
                    }
                    dst.enqueue(DST_Q, put, Message.of(m.payload()));
                    if (!sameStore) {
                        dst.commit();
                    }
                    src.commit();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    rollbackQuietly(src);
                    if (!sameStore) {
                        rollbackQuietly(dst);
                    }
                    return;
                }
            }
        }

        @Override
        public void close() {
            try {
                off();
            } catch (RuntimeException ignored) {
                // reported by runOne
            }
            src.close();
            if (!sameStore) {
                dst.close();
            }
        }
    }

    private static void rollbackQuietly(QueueSession s) {
        try {
            s.rollback();
        } catch (RuntimeException ignored) {
            // the original failure is what matters
        }
    }

    /** What a phase measured. */
    static final class Phase {
        double seconds;
        double[] lagsMs = new double[0];
        long lost;
        long dup;
    }

    /**
     * Enqueues {@code count} messages (ids from {@code first}, 100 per commit) with the mover off, then
     * switches it on and times until a consumer at the destination has them all (array dequeue of 100,
     * one commit each); switches it off again.
     */
    private static Phase throughput(AqueductEngine source, AqueductEngine destination, Switch onOff, long first, int count)
            throws Exception {
        Phase p = new Phase();
        onOff.off();
        try (QueueSession s = source.openSession()) {
            EnqueueOptions options = EnqueueOptions.create();
            for (int i = 0; i < count; i += BATCH) {
                List<Message> batch = new ArrayList<>(BATCH);
                for (int k = i; k < Math.min(count, i + BATCH); k++) {
                    batch.add(Message.of(Payloads.of(first + k)));
                }
                s.enqueueArray(SRC_Q, options, batch);
                s.commit();
            }
        }
        BitSet seen = new BitSet();
        long dup = 0;
        try (QueueSession c = destination.openSession()) {
            DequeueOptions wait = DequeueOptions.create().waitSeconds(1);
            long t0 = System.nanoTime();
            onOff.on();
            long got = 0;
            long lastProgress = t0;
            long last = t0;
            while (got < count) {
                List<Message> ms = c.dequeueArray(DST_Q, wait, BATCH);
                long now = System.nanoTime();
                if (ms.isEmpty()) {
                    if (now - lastProgress > STALL_NANOS) {
                        break;
                    }
                    continue;
                }
                c.commit();
                for (Message m : ms) {
                    dup += mark(seen, Payloads.id((byte[]) m.payload()) - first);
                    got++;
                }
                lastProgress = now;
                last = now;
            }
            p.seconds = (last - t0) / 1e9;
            onOff.off();
        }
        p.dup = dup;
        p.lost = count - seen.get(0, count).cardinality();
        if (p.lost > 0) {
            System.out.println("# " + p.lost + " of " + count + " messages did not arrive within "
                    + STALL_NANOS / 1_000_000_000L + " s of the last one");
        }
        return p;
    }

    /**
     * With the mover on: a producer enqueues {@code count} messages (ids from {@code first}), one
     * commit each, paced at {@code rate} per second; a consumer blocked at the destination takes each
     * (one commit each). Lag per message: from the producer's commit returning to the consumer's
     * dequeue returning.
     */
    private Phase lag(AqueductEngine source, AqueductEngine destination, long first, int count) throws Exception {
        Phase p = new Phase();
        long[] committedAt = new long[count];
        long[] arrivedAt = new long[count];
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try (QueueSession s = source.openSession()) {
                EnqueueOptions options = EnqueueOptions.create();
                long gap = (long) (1e9 / rate);
                long start = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    long due = start + i * gap;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    s.enqueue(SRC_Q, options, Message.of(Payloads.of(first + i)));
                    s.commit();
                    committedAt[i] = System.nanoTime();
                }
            } catch (Throwable e) {
                fatal.compareAndSet(null, e);
            }
        }, "lag-producer");
        BitSet seen = new BitSet();
        long dup = 0;
        try (QueueSession c = destination.openSession()) {
            DequeueOptions wait = DequeueOptions.create().waitSeconds(1);
            producer.start();
            long got = 0;
            long lastProgress = System.nanoTime();
            while (got < count && fatal.get() == null) {
                Message m;
                try {
                    m = c.dequeue(DST_Q, wait);
                } catch (AqException e) {
                    if (e.errorCode() != AqError.NO_MESSAGE) {
                        throw e;
                    }
                    if (System.nanoTime() - lastProgress > STALL_NANOS) {
                        break;
                    }
                    continue;
                }
                long now = System.nanoTime();
                c.commit();
                long id = Payloads.id((byte[]) m.payload()) - first;
                if (id >= 0 && id < count && !seen.get((int) id)) {
                    arrivedAt[(int) id] = now;
                }
                dup += mark(seen, id);
                got++;
                lastProgress = now;
            }
        }
        producer.join();
        if (fatal.get() != null) {
            throw new IllegalStateException("the producer failed", fatal.get());
        }
        double[] lags = new double[seen.cardinality()];
        int n = 0;
        for (int i = seen.nextSetBit(0); i >= 0 && i < count; i = seen.nextSetBit(i + 1)) {
            lags[n++] = (arrivedAt[i] - committedAt[i]) / 1e6;
        }
        p.lagsMs = Arrays.copyOf(lags, n);
        p.dup = dup;
        p.lost = count - n;
        return p;
    }

    private static long mark(BitSet seen, long id) {
        if (id < 0 || id > Integer.MAX_VALUE) {
            throw new IllegalStateException("payload counter out of range: " + id);
        }
        if (seen.get((int) id)) {
            return 1;
        }
        seen.set((int) id);
        return 0;
    }

    // ---------------------------------------------------------------- reporting

    private void report(Case c, Map<String, List<Result>> results) {
        Map<String, double[]> totals = new LinkedHashMap<>(); // {msgs_per_s, lag p50, lag p99}
        for (Map.Entry<String, List<Result>> e : results.entrySet()) {
            List<Result> all = e.getValue();
            List<Result> ok = all.stream().filter(r -> !r.failed).toList();
            long n = ok.stream().mapToLong(r -> r.n).sum();
            double secs = ok.stream().mapToDouble(r -> r.secs).sum();
            double[] lags = ok.stream().flatMapToDouble(r -> Arrays.stream(r.lagsMs)).sorted().toArray();
            double perSecond = secs > 0 ? n / secs : 0;
            StringBuilder line = new StringBuilder("BENCH ").append(c.key(e.getKey())).append(' ');
            if (ok.isEmpty()) {
                line.append("msgs_per_s=n/a lag_p50_ms=n/a lag_p99_ms=n/a");
            } else {
                totals.put(e.getKey(), new double[] {perSecond, percentile(lags, 50), percentile(lags, 99)});
                line.append(String.format(Locale.ROOT, "msgs_per_s=%.0f ", perSecond)).append(lags(lags));
            }
            line.append(" n=").append(n).append(" lag_n=").append(lags.length)
                    .append(" lost=").append(ok.stream().mapToLong(r -> r.lost).sum())
                    .append(" dup=").append(ok.stream().mapToLong(r -> r.dup).sum());
            if (ok.size() < all.size()) {
                line.append(" failed=").append(all.size() - ok.size());
            }
            line.append(String.format(Locale.ROOT, " lag_rate_per_s=%.0f", rate))
                    .append(" rounds=").append(ok.size())
                    .append(" msgs_rounds=").append(all.stream().map(r -> r.failed ? "failed" : String.format(Locale.ROOT, "%.0f",
                            r.rate())).collect(Collectors.joining(",")));
            System.out.println(line);
        }
        double[] prop = totals.get(PROPAGATION);
        double[] plain = totals.get(PLAIN);
        if (prop != null && plain != null) {
            StringBuilder line = new StringBuilder("BENCH ratio-propagation/" + c.source() + "/" + c.name()
                    + " msgs=" + ratio(prop[0], plain[0]) + " lag_p50=" + ratio(prop[1], plain[1]) + " lag_p99="
                    + ratio(prop[2], plain[2]) + " vs=" + c.key(PLAIN));
            List<Result> a = results.get(PROPAGATION);
            List<Result> b = results.get(PLAIN);
            StringBuilder perRound = new StringBuilder();
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                boolean ok = !a.get(i).failed && !b.get(i).failed;
                perRound.append(i == 0 ? "" : ",").append(ok ? ratio(a.get(i).rate(), b.get(i).rate()) : "n/a");
            }
            line.append(" msgs_rounds=").append(perRound);
            System.out.println(line);
        }
        System.out.flush();
    }

    private static String lags(double[] lagsMs) {
        double[] sorted = lagsMs.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "lag_p50_ms=%.1f lag_p99_ms=%.1f lag_max_ms=%.1f", percentile(sorted, 50),
                percentile(sorted, 99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
    }

    /** Nearest-rank percentile of sorted values (NaN when there are none). */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    private static String ratio(double a, double b) {
        return b > 0 && !Double.isNaN(a) && !Double.isNaN(b) ? String.format(Locale.ROOT, "%.2f", a / b) : "n/a";
    }
}
