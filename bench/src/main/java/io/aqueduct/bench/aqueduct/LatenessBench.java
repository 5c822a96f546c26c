package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.bench.Bench;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.Payloads;
import io.aqueduct.engine.AqueductEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code aqueduct-lateness/<store>/delay=1-5s}: how late after its due time a delayed message can
 * be dequeued, with the real clock. One producer enqueues {@code bench.latenessCount} (200)
 * messages, one commit each, {@code bench.latenessGapMs} (25) ms apart, each with a delay drawn
 * uniformly from 1..5 s (whole seconds, AQ's unit); {@code bench.latenessConsumers} (2) consumers
 * are blocked in {@code dequeue(waitSeconds(30))} all along, committing each message. Lateness =
 * the dequeue returning with a message (System.nanoTime) minus its due time, taken as the instant
 * before its {@code enqueue} call + its delay (the engine stamps the enqueue time a little later,
 * so this errs on the late side by the enqueue call's own time). Every message must come out once
 * (dup=0, else exit 3), within {@code bench.latenessDeadlineSeconds} (75) s after the last send (undelivered=0, else
 * the case fails: exit 1).
 */
public final class LatenessBench implements Bench.Extra {
    static final List<String> STORES = List.of("derby", "postgres", "mariadb");
    static final String QUEUE_TABLE = "BENCH_LATE_QT";
    static final String QUEUE = "BENCH_LATE_Q";
    /** Payload id that ends a consumer. */
    static final long STOP = -1;

    private final int count = Integer.getInteger("bench.latenessCount", 200);
    private final int gapMs = Integer.getInteger("bench.latenessGapMs", 25);
    private final int consumers = Integer.getInteger("bench.latenessConsumers", 2);
    private boolean incorrect;

    @Override
    public List<String> scenarios() {
        List<String> out = new ArrayList<>();
        for (String s : STORES) {
            out.add("aqueduct-lateness/" + s + "/delay=1-5s");
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
            String key = "aqueduct-lateness/" + name + "/delay=1-5s";
            if (!chosen.contains(key)) {
                continue;
            }
            BenchStore store = BenchStore.named(name);
            if (!store.available()) {
                continue; // BENCH-SKIP printed
            }
            ok &= one(store, key, base);
        }
        return ok;
    }

    private boolean one(BenchStore store, String key, Path base) {
        Path dir = base.resolve("lateness-" + store.name);
        AqueductEngine engine = null;
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        long s0 = System.nanoTime();
        try {
            Files.createDirectories(dir);
            if (store.shared()) {
                SharedStores.empty(store);
            }
            engine = SharedStores.engine(store, dir);
            NodesBench.createQueue(engine, QUEUE_TABLE, QUEUE);
            double setup = (System.nanoTime() - s0) / 1e9;
            long[] due = new long[count + 1]; // nanoTime due instant by payload id
            // payload id -> nanoTime of the dequeue that returned it (a second one is a duplicate)
            ConcurrentHashMap<Long, Long> got = new ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicLong dup = new java.util.concurrent.atomic.AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch open = new CountDownLatch(consumers);
            AqueductEngine e = engine;
            for (int i = 0; i < consumers; i++) {
                Thread t = new Thread(() -> {
                    DequeueOptions wait = DequeueOptions.create().waitSeconds(30);
                    try (QueueSession s = e.openSession()) {
                        open.countDown();
                        while (!stop.get()) {
                            Message m;
                            try {
                                m = s.dequeue(QUEUE, wait);
                            } catch (AqException x) {
                                if (x.errorCode() == AqError.NO_MESSAGE) {
                                    continue;
                                }
                                throw x;
                            }
                            long now = System.nanoTime();
                            s.commit();
                            long id = Payloads.id((byte[]) m.payload());
                            if (id == STOP) {
                                break;
                            }
                            if (got.putIfAbsent(id, now) != null) {
                                dup.incrementAndGet();
                            }
                        }
                    } catch (Throwable x) {
                        if (!stop.get()) {
                            failure.compareAndSet(null, x);
                        }
                    } finally {
                        open.countDown();
                    }
                }, "lateness-consumer-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            open.await();
            Thread.sleep(300); // the consumers are blocked in their dequeues
            Random random = new Random(11);
            try (QueueSession p = engine.openSession()) {
                EnqueueOptions options = EnqueueOptions.create();
                for (int i = 1; i <= count; i++) {
                    int delay = 1 + random.nextInt(5);
                    long before = System.nanoTime();
                    p.enqueue(QUEUE, options, Message.of(Payloads.of(i), MessageProperties.create().delay(delay)));
                    p.commit();
                    due[i] = before + TimeUnit.SECONDS.toNanos(delay);
                    Thread.sleep(gapMs);
                }
            }
            // long enough for a message held up by a consumer's whole wait (30 s) to show in max_ms, not as missing
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.getInteger("bench.latenessDeadlineSeconds", 75));
            while (got.size() < count && System.nanoTime() < deadline && failure.get() == null) {
                Thread.sleep(50);
            }
            stop.set(true);
            try (QueueSession p = engine.openSession()) {
                for (int i = 0; i < consumers; i++) {
                    p.enqueue(QUEUE, EnqueueOptions.create(), Message.of(Payloads.of(STOP)));
                }
                p.commit();
            }
            for (Thread t : threads) {
                t.join(10_000);
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a consumer failed", failure.get());
            }
            double[] lateMs = new double[got.size()];
            int k = 0;
            long early = 0;
            long phantom = 0;
            for (var en : got.entrySet()) {
                long id = en.getKey();
                if (id < 1 || id > count) {
                    phantom++;
                    continue;
                }
                lateMs[k] = (en.getValue() - due[(int) id]) / 1e6;
                if (lateMs[k] < 0) {
                    early++;
                }
                k++;
            }
            lateMs = Arrays.copyOf(lateMs, k);
            Arrays.sort(lateMs);
            // not dequeued by the deadline: late beyond measure (the case fails), not known to be lost
            long undelivered = count - k;
            if (dup.get() > 0 || phantom > 0) {
                incorrect = true;
            }
            System.out.printf(Locale.ROOT, "BENCH %s p50_ms=%.1f p99_ms=%.1f max_ms=%.1f min_ms=%.1f n=%d undelivered=%d dup=%d%s%s"
                    + " consumers=%d gap_ms=%d setup_s=%.1f%n", key, pct(lateMs, 0.50), pct(lateMs, 0.99),
                    k > 0 ? lateMs[k - 1] : Double.NaN, k > 0 ? lateMs[0] : Double.NaN, k, undelivered, dup.get(),
                    phantom > 0 ? " phantom=" + phantom : "", early > 0 ? " early=" + early : "", consumers, gapMs, setup);
            System.out.flush();
            if (undelivered > 0) {
                System.out.println("# run " + key + " FAILED: " + undelivered + " of " + count
                        + " delayed messages were not dequeued within the deadline (p50 / p99 are of the others)");
            }
            return undelivered == 0;
        } catch (Throwable x) {
            System.out.println("# run " + key + " FAILED: " + x);
            x.printStackTrace(System.out);
            System.out.println("BENCH " + key + " p50_ms=n/a p99_ms=n/a n=0 failed=1");
            return false;
        } finally {
            stop.set(true);
            if (engine != null) {
                try {
                    engine.close(); // ends the consumers' waits
                } catch (RuntimeException x) {
                    System.out.println("# " + key + ": close failed: " + x);
                }
            }
            for (Thread t : threads) {
                try {
                    t.join(5000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
            if (!Boolean.getBoolean("bench.keep")) {
                Bench.deleteTree(dir);
            }
        }
    }

    /** The q-quantile of sorted values (nearest rank). */
    static double pct(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
