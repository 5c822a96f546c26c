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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code aqueduct/derby/wake/1node}: enqueue to a waiting consumer on embedded Derby, the case
 * {@link NodesBench} measures on the servers, with the same procedure and line: a consumer blocked
 * in {@code dequeue(waitSeconds(120))}, a producer thread of the same engine enqueues one message
 * and commits, waits for the consumer to have it, pauses 10–60 ms; {@code bench.wakeWarmup} (20)
 * untimed, then {@code bench.wakeCount} (200) timed. {@code wake} = the producer's {@code commit()}
 * returning to the consumer's {@code dequeue()} returning (System.nanoTime), {@code e2e} = from
 * before the {@code enqueue} call (adds the durable commit).
 */
public class LatencyBench implements Bench.Extra {
    static final String KEY = "aqueduct/derby/wake/1node";
    static final long STOP = -1;

    /** The scenario's key; for buffered messages (BufferedLatencyBench) the enqueue is BUFFERED and the wait too. */
    private final String key;
    private final boolean buffered;

    public LatencyBench() {
        this(KEY, false);
    }

    LatencyBench(String key, boolean buffered) {
        this.key = key;
        this.buffered = buffered;
    }

    private final int wakeCount = Integer.getInteger("bench.wakeCount", 200);
    private final int wakeWarmup = Integer.getInteger("bench.wakeWarmup", 20);
    private final int gapMinMs = Integer.getInteger("bench.wakeGapMinMs", 10);
    private final int gapSpreadMs = Integer.getInteger("bench.wakeGapSpreadMs", 50);

    @Override
    public List<String> scenarios() {
        return List.of(key);
    }

    @Override
    public boolean run(List<String> chosen, Path base, double phaseSeconds, int rounds) throws Exception {
        Path dir = base.resolve("wake-derby");
        AqueductEngine engine = null;
        Thread consumer = null;
        long s0 = System.nanoTime();
        try {
            Files.createDirectories(dir);
            engine = SharedStores.engine(BenchStore.named("derby"), dir);
            NodesBench.createQueue(engine, NodesBench.WAKE_QUEUE_TABLE, NodesBench.WAKE_QUEUE);
            BlockingQueue<long[]> received = new LinkedBlockingQueue<>(); // {payload id, nanoTime}
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch open = new CountDownLatch(1);
            AqueductEngine e = engine;
            consumer = new Thread(() -> {
                DequeueOptions wait = buffered ? DequeueOptions.create().deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED)
                        .visibility(io.aqueduct.api.Visibility.IMMEDIATE).waitSeconds(120)
                        : DequeueOptions.create().waitSeconds(120);
                try (QueueSession s = e.openSession()) {
                    open.countDown();
                    while (true) {
                        Message m;
                        try {
                            m = s.dequeue(NodesBench.WAKE_QUEUE, wait);
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
                            return;
                        }
                        received.add(new long[] {id, now});
                    }
                } catch (Throwable x) {
                    failure.set(x);
                    received.add(new long[] {STOP, 0});
                } finally {
                    open.countDown();
                }
            }, "wake-consumer");
            consumer.start();
            open.await();
            double setup = (System.nanoTime() - s0) / 1e9;
            Thread.sleep(300); // the consumer is blocked in its dequeue
            Random random = new Random(7);
            int total = wakeWarmup + wakeCount;
            double[] wakeMs = new double[wakeCount];
            double[] e2eMs = new double[wakeCount];
            double[] commitMs = new double[wakeCount];
            try (QueueSession s = engine.openSession()) {
                EnqueueOptions options = buffered ? EnqueueOptions.create().deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED)
                        .visibility(io.aqueduct.api.Visibility.IMMEDIATE) : EnqueueOptions.create();
                for (int i = 1; i <= total; i++) {
                    long before = System.nanoTime();
                    s.enqueue(NodesBench.WAKE_QUEUE, options, Message.of(Payloads.of(i)));
                    s.commit();
                    long committed = System.nanoTime();
                    long[] got = received.poll(NodesBench.WAKE_TIMEOUT_S, TimeUnit.SECONDS);
                    if (got == null) {
                        throw new IllegalStateException("message " + i + " was not dequeued by the blocked consumer within "
                                + NodesBench.WAKE_TIMEOUT_S + " s");
                    }
                    if (got[0] == STOP) {
                        throw new IllegalStateException("the blocked consumer failed", failure.get());
                    }
                    if (got[0] != i) {
                        throw new IllegalStateException("the blocked consumer got message " + got[0] + ", expected " + i);
                    }
                    if (i > wakeWarmup) {
                        int k = i - wakeWarmup - 1;
                        wakeMs[k] = (got[1] - committed) / 1e6;
                        e2eMs[k] = (got[1] - before) / 1e6;
                        commitMs[k] = (committed - before) / 1e6;
                    }
                    Thread.sleep(gapMinMs + random.nextInt(gapSpreadMs + 1));
                }
                s.enqueue(NodesBench.WAKE_QUEUE, options, Message.of(Payloads.of(STOP)));
                s.commit();
            }
            consumer.join(TimeUnit.SECONDS.toMillis(NodesBench.WAKE_TIMEOUT_S));
            Arrays.sort(wakeMs);
            Arrays.sort(e2eMs);
            Arrays.sort(commitMs);
            System.out.printf(Locale.ROOT, "BENCH %s wake_p50_ms=%.2f wake_p99_ms=%.2f wake_max_ms=%.2f e2e_p50_ms=%.2f e2e_p99_ms=%.2f"
                    + " commit_p50_ms=%.2f n=%d gap_ms=%d-%d setup_s=%.1f%n", key, LatenessBench.pct(wakeMs, 0.50),
                    LatenessBench.pct(wakeMs, 0.99), wakeMs[wakeMs.length - 1], LatenessBench.pct(e2eMs, 0.50),
                    LatenessBench.pct(e2eMs, 0.99), LatenessBench.pct(commitMs, 0.50), wakeCount, gapMinMs, gapMinMs + gapSpreadMs,
                    setup);
            return true;
        } catch (Throwable x) {
            System.out.println("# run " + key + " FAILED: " + x);
            x.printStackTrace(System.out);
            System.out.println("BENCH " + key + " wake_p50_ms=n/a wake_p99_ms=n/a n=0 failed=1");
            return false;
        } finally {
            if (consumer != null && consumer.isAlive()) {
                consumer.interrupt();
            }
            if (engine != null) {
                try {
                    engine.close();
                } catch (RuntimeException x) {
                    System.out.println("# " + key + ": close failed: " + x);
                }
            }
            if (!Boolean.getBoolean("bench.keep")) {
                Bench.deleteTree(dir);
            }
        }
    }
}
