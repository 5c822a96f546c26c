package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import io.aqueduct.bench.Bench;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.Payloads;
import io.aqueduct.engine.AqueductEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code aqueduct-depth/<store>/depth=<d>} ({@code bench/run depth}): the commit-each dequeue rate
 * of one consumer with d = 1,000 and d = 1,000,000 messages queued, and their ratio
 * ({@code BENCH ratio/<store>/depth deq=<1M/1k>}). The queue is filled through the engine's API
 * ({@code enqueueArray}, {@code bench.depthFillBatch} messages per commit, timed: {@code fill_s}),
 * then the consumer dequeues in chunks of {@code bench.depthChunk} (500) messages, each dequeue
 * committed, for one phase (after up to 50 untimed ones); between two chunks the queue is topped up to d again
 * (untimed), so the depth stays between d - chunk and d. Every dequeued message must be one that
 * was enqueued (phantom=0) and come out once (dup=0); the million left behind are not drained
 * (lost= cannot be told without another hour of dequeues).
 * Opt-in: not part of a run without a filter (filling a million 1 KiB messages takes minutes per store).
 */
public final class DepthBench implements Bench.Extra {
    static final List<String> STORES = List.of("derby", "postgres", "mariadb");
    static final String QUEUE_TABLE = "BENCH_DEPTH_QT";
    static final String QUEUE = "BENCH_DEPTH_Q";

    private final long[] depths = parseDepths(System.getProperty("bench.depths", "1000,1000000"));
    private final int fillBatch = Integer.getInteger("bench.depthFillBatch", 500);
    private final int chunk = Integer.getInteger("bench.depthChunk", 500);
    /** A pause between filling and dequeuing: lets the store write out what the fill left before the clock runs. */
    private final int settleSeconds = Integer.getInteger("bench.depthSettleSeconds", 60);
    private boolean incorrect;

    private static long[] parseDepths(String s) {
        return java.util.Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).mapToLong(Long::parseLong).toArray();
    }

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (String s : STORES) {
            for (long d : depths) {
                out.add("aqueduct-depth/" + s + "/depth=" + d);
            }
        }
        return out;
    }

    @Override
    public String optInWord() {
        return "depth";
    }

    @Override
    public boolean incorrect() {
        return incorrect;
    }

    @Override
    public boolean run(List<String> chosen, Path base, double phaseSeconds, int rounds) throws Exception {
        boolean ok = true;
        for (String name : STORES) {
            BenchStore store = BenchStore.named(name);
            Map<Long, Double> rates = new LinkedHashMap<>();
            for (long d : depths) {
                String key = "aqueduct-depth/" + name + "/depth=" + d;
                if (!chosen.contains(key)) {
                    continue;
                }
                if (!store.available()) {
                    break; // BENCH-SKIP printed
                }
                double rate = one(store, key, d, base, phaseSeconds);
                if (rate < 0) {
                    ok = false;
                } else {
                    rates.put(d, rate);
                }
            }
            if (rates.size() >= 2) {
                long lo = rates.keySet().stream().min(Long::compare).orElseThrow();
                long hi = rates.keySet().stream().max(Long::compare).orElseThrow();
                System.out.printf(Locale.ROOT, "BENCH ratio/%s/depth deq=%.3f vs=depth=%d/depth=%d%n", name,
                        rates.get(hi) / rates.get(lo), hi, lo);
            }
        }
        return ok;
    }

    /** One depth on a fresh store; the dequeue rate, or -1 when it failed. */
    private double one(BenchStore store, String key, long depth, Path base, double phaseSeconds) {
        Path dir = base.resolve("depth-" + store.name + "-" + depth);
        AqueductEngine engine = null;
        long s0 = System.nanoTime();
        try {
            Files.createDirectories(dir);
            if (store.shared()) {
                SharedStores.empty(store);
            }
            engine = SharedStores.engine(store, dir);
            NodesBench.createQueue(engine, QUEUE_TABLE, QUEUE);
            double setup = (System.nanoTime() - s0) / 1e9;
            long[] next = {0};
            BitSet seen = new BitSet();
            long dup = 0;
            long phantom = 0;
            long deqN = 0;
            long deqNanos = 0;
            long topUps = 0;
            try (QueueSession p = engine.openSession(); QueueSession c = engine.openSession()) {
                long f0 = System.nanoTime();
                fill(p, next, depth);
                double fillS = (System.nanoTime() - f0) / 1e9;
                System.out.printf(Locale.ROOT, "# run %s fill n=%d fill_s=%.1f fill_per_s=%.0f batch=%d%n", key, depth, fillS,
                        depth / fillS, fillBatch);
                System.out.flush();
                if (settleSeconds > 0) {
                    Thread.sleep(settleSeconds * 1000L);
                }
                long queued = depth;
                DequeueOptions noWait = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);
                long phaseNanos = (long) (phaseSeconds * 1e9);
                // an untimed part first (up to 50 dequeues or one phase): the consumer's path and the store's caches
                // warm at this depth; a chunk ends early when the phase is over (a slow store must not take hours)
                for (boolean warm = true; warm || deqNanos < phaseNanos; warm = false) {
                    if (queued < depth) {
                        fill(p, next, depth - queued);
                        topUps += depth - queued;
                        queued = depth;
                    }
                    int want = (int) Math.min(warm ? 50 : chunk, queued);
                    long t0 = System.nanoTime();
                    for (int i = 0; i < want && (warm || deqNanos + System.nanoTime() - t0 < phaseNanos)
                            && (!warm || System.nanoTime() - t0 < phaseNanos); i++) {
                        Message m;
                        try {
                            m = c.dequeue(QUEUE, noWait);
                        } catch (AqException e) {
                            if (e.errorCode() == AqError.NO_MESSAGE) {
                                throw new IllegalStateException("queue empty with " + queued + " messages expected in it");
                            }
                            throw e;
                        }
                        c.commit();
                        queued--;
                        long id = Payloads.id((byte[]) m.payload());
                        if (id < 1 || id > next[0]) {
                            phantom++;
                        } else if (seen.get((int) id)) {
                            dup++;
                        } else {
                            seen.set((int) id);
                        }
                        if (!warm) {
                            deqN++;
                        }
                    }
                    if (!warm) {
                        deqNanos += System.nanoTime() - t0;
                    }
                }
            }
            double secs = deqNanos / 1e9;
            double rate = deqN / secs;
            if (dup > 0 || phantom > 0) {
                incorrect = true;
            }
            System.out.printf(Locale.ROOT, "BENCH %s deq_per_s=%.1f deq_n=%d deq_s=%.1f dup=%d phantom=%d fill_n=%d"
                    + " topped_up=%d chunk=%d setup_s=%.1f%n", key, rate, deqN, secs, dup, phantom, depth, topUps, chunk, setup);
            System.out.flush();
            return rate;
        } catch (Throwable e) {
            System.out.println("# run " + key + " FAILED: " + e);
            e.printStackTrace(System.out);
            System.out.println("BENCH " + key + " deq_per_s=n/a failed=1");
            return -1;
        } finally {
            if (engine != null) {
                try {
                    engine.close();
                } catch (RuntimeException e) {
                    System.out.println("# " + key + ": close failed: " + e);
                }
            }
            if (!Boolean.getBoolean("bench.keep")) {
                Bench.deleteTree(dir);
            }
        }
    }

    /** Enqueues n more messages (ids next+1 ...), {@code fillBatch} per enqueueArray and commit. */
    private void fill(QueueSession s, long[] next, long n) {
        EnqueueOptions options = EnqueueOptions.create();
        long left = n;
        List<Message> batch = new ArrayList<>(fillBatch);
        while (left > 0) {
            batch.clear();
            int k = (int) Math.min(fillBatch, left);
            for (int i = 0; i < k; i++) {
                batch.add(Message.of(Payloads.of(++next[0])));
            }
            s.enqueueArray(QUEUE, options, batch);
            s.commit();
            left -= k;
        }
    }
}
