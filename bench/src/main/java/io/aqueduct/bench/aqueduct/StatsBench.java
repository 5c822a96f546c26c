package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueStatistics;
import io.aqueduct.bench.Bench;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.Payloads;
import io.aqueduct.engine.AqueductEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code aqueduct-stats/<store>/depth=<d>} ({@code bench/run stats}): the time of one statistics poll
 * ({@code QueueAdmin.queueStatistics()}, V$AQ's figures for every queue) with d = 1,000 and d = 1,000,000
 * messages queued (bench.statsDepths), median and p90 of bench.statsPolls (20) polls after 3 untimed ones,
 * and their ratio ({@code BENCH ratio/<store>/stats poll=<1M/1k>}): flat is 1. The queue is filled through
 * the API ({@code enqueueArray}, 1,000 small messages per commit); every poll must say READY = d
 * (wrong=1 otherwise). Opt-in: filling a million messages takes minutes per store.
 */
public final class StatsBench implements Bench.Extra {
    static final List<String> STORES = List.of("derby", "postgres", "mariadb");
    static final String QUEUE_TABLE = "BENCH_STATS_QT";
    static final String QUEUE = "BENCH_STATS_Q";

    private final long[] depths = Arrays.stream(System.getProperty("bench.statsDepths", "1000,1000000").split(","))
            .map(String::trim).filter(x -> !x.isEmpty()).mapToLong(Long::parseLong).toArray();
    private final int polls = Integer.getInteger("bench.statsPolls", 20);
    private final int fillBatch = 1000;
    private boolean incorrect;

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (String s : STORES) {
            for (long d : depths) {
                out.add("aqueduct-stats/" + s + "/depth=" + d);
            }
        }
        return out;
    }

    @Override
    public String optInWord() {
        return "stats";
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
            Map<Long, Double> medians = new LinkedHashMap<>();
            for (long d : depths) {
                String key = "aqueduct-stats/" + name + "/depth=" + d;
                if (!chosen.contains(key)) {
                    continue;
                }
                if (!store.available()) {
                    break; // BENCH-SKIP printed
                }
                double median = one(store, key, d, base);
                if (median < 0) {
                    ok = false;
                } else {
                    medians.put(d, median);
                }
            }
            if (medians.size() >= 2) {
                long lo = medians.keySet().stream().min(Long::compare).orElseThrow();
                long hi = medians.keySet().stream().max(Long::compare).orElseThrow();
                System.out.printf(Locale.ROOT, "BENCH ratio/%s/stats poll=%.3f vs=depth=%d/depth=%d%n", name,
                        medians.get(hi) / medians.get(lo), hi, lo);
            }
        }
        return ok;
    }

    /** One depth on a fresh store: the median poll in ms, or -1 when it failed. */
    private double one(BenchStore store, String key, long depth, Path base) {
        Path dir = base.resolve("stats-" + store.name + "-" + depth);
        AqueductEngine engine = null;
        try {
            Files.createDirectories(dir);
            if (store.shared()) {
                SharedStores.empty(store);
            }
            engine = SharedStores.engine(store, dir);
            NodesBench.createQueue(engine, QUEUE_TABLE, QUEUE);
            long f0 = System.nanoTime();
            try (QueueSession p = engine.openSession()) {
                fill(p, depth);
            }
            double fillS = (System.nanoTime() - f0) / 1e9;
            System.out.printf(Locale.ROOT, "# run %s fill n=%d fill_s=%.1f%n", key, depth, fillS);
            System.out.flush();
            double[] ms = new double[polls];
            boolean wrong = false;
            for (int i = -3; i < polls; i++) {
                long t0 = System.nanoTime();
                List<QueueStatistics> stats = engine.admin().queueStatistics();
                double took = (System.nanoTime() - t0) / 1e6;
                long ready = stats.stream().filter(s -> s.name().equals(QUEUE)).mapToLong(QueueStatistics::ready).sum();
                wrong |= ready != depth;
                if (i >= 0) {
                    ms[i] = took;
                }
            }
            Arrays.sort(ms);
            double median = ms[polls / 2];
            double p90 = ms[Math.min(polls - 1, (int) Math.ceil(polls * 0.9) - 1)];
            if (wrong) {
                incorrect = true;
            }
            System.out.printf(Locale.ROOT, "BENCH %s poll_ms=%.2f p90_ms=%.2f polls=%d wrong=%d fill_s=%.1f%n", key, median, p90,
                    polls, wrong ? 1 : 0, fillS);
            System.out.flush();
            return median;
        } catch (Throwable e) {
            System.out.println("# run " + key + " FAILED: " + e);
            e.printStackTrace(System.out);
            System.out.println("BENCH " + key + " poll_ms=n/a failed=1");
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

    private void fill(QueueSession s, long n) {
        EnqueueOptions options = EnqueueOptions.create();
        List<Message> batch = new ArrayList<>(fillBatch);
        long next = 0;
        while (next < n) {
            batch.clear();
            int k = (int) Math.min(fillBatch, n - next);
            for (int i = 0; i < k; i++) {
                batch.add(Message.of(Payloads.of(++next)));
            }
            s.enqueueArray(QUEUE, options, batch);
            s.commit();
        }
    }
}
