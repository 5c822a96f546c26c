package io.aqueduct.engine;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JVMs the propagation fault tests kill. It prints what it does, one line at a time:
 *
 * <pre>
 * crash SRC_DIR DESTINATION FAULT   ({@link PropagationCrashTest}) opens the Derby store in SRC_DIR, whose
 *                                    schedule propagates to DESTINATION through a database link (the store
 *                                    is opened by the link, in this JVM); enqueues the messages not yet
 *                                    enqueued, in commits of {@value PropagationCrashTest#PER_COMMIT}:
 *     STARTED                        the engine is open (its propagation loop runs)
 *     AT n                           the destination queue holds n messages now (whenever that changes)
 *     ENQUEUED b                     the commit of batch b is done
 *     ENQUEUED ALL                   every message is enqueued; it goes on propagating until stdin ends
 *     HANGING point                  FAULT (point:n) was reached the nth time: it waits there to be killed
 *     CLOSED                         stdin ended and the engine is closed
 * node                              ({@link PropagationTakeoverTest}) an engine on the shared store,
 *                                    propagating, until killed or stdin ends:
 *     NODE tag                       the engine is open; its node tag (a schedule's processName)
 * </pre>
 */
public final class PropagationNode {
    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    /** The fault point this JVM hangs at ("between", "forget"), null: none. */
    private static volatile String faultPoint;
    private static volatile int faultAt;
    private static final AtomicInteger FAULT_SEEN = new AtomicInteger();
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    private PropagationNode() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "crash" -> crash(Path.of(args[1]), args[2], args[3]);
            case "node" -> node();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void crash(Path source, String destination, String fault) throws Exception {
        if (!fault.equals("none")) {
            faultPoint = fault.substring(0, fault.indexOf(':'));
            faultAt = Integer.parseInt(fault.substring(fault.indexOf(':') + 1));
        }
        ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "destination-monitor");
            t.setDaemon(true);
            return t;
        });
        try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(source).user("NODE").start()) {
            OUT.println("STARTED");
            Connection dst = PropagationCrashTest.destinationConnection(destination);
            int[] last = {-1};
            monitor.scheduleWithFixedDelay(() -> {
                try {
                    int n = PropagationCrashTest.delivered(dst);
                    if (n != last[0]) {
                        last[0] = n;
                        OUT.println("AT " + n);
                    }
                } catch (java.sql.SQLException e) {
                    OUT.println("MONITOR " + e); // the test fails on what it does not expect
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            try (QueueSession s = engine.openSession()) {
                for (int b = committedBatches(s); b < PropagationCrashTest.BATCHES; b++) {
                    List<Message> batch = new ArrayList<>();
                    for (int i = 0; i < PropagationCrashTest.PER_COMMIT; i++) {
                        batch.add(Message.of("m-" + (b * PropagationCrashTest.PER_COMMIT + i)));
                    }
                    s.enqueueArray(PropagationCrashTest.SRC_Q, EnqueueOptions.create(), batch);
                    // which batches committed, in the same transaction: a node started after a kill goes on from there
                    s.enqueue(PropagationCrashTest.PROGRESS_Q, Message.of("batch-" + b));
                    s.commit();
                    OUT.println("ENQUEUED " + b);
                }
            }
            OUT.println("ENQUEUED ALL");
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            monitor.shutdown(); // not shutdownNow: Derby closes the connection of a statement that is interrupted
            monitor.awaitTermination(10, TimeUnit.SECONDS);
            dst.close();
        }
        OUT.println("CLOSED");
    }

    /** The batches whose commit happened: their markers in PROGRESS_Q (never dequeued), browsed. */
    private static int committedBatches(QueueSession s) {
        DequeueOptions first = DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                .waitSeconds(DequeueOptions.NO_WAIT);
        DequeueOptions next = first.copy().navigation(Navigation.NEXT_MESSAGE);
        int n = 0;
        for (DequeueOptions o = first;; o = next) {
            try {
                s.dequeue(PropagationCrashTest.PROGRESS_Q, o);
                n++;
            } catch (AqException e) {
                if (e.errorCode() != AqError.NO_MESSAGE) {
                    throw e;
                }
                s.rollback();
                return n;
            }
        }
    }

    /**
     * Called by the Derby triggers {@link PropagationCrashTest} puts on the stores (a Java procedure,
     * in the thread of the statement that fired it): at the configured point's nth time in a
     * propagation batch it says HANGING and waits, inside the statement's transaction, to be killed.
     * "between": the source's last transaction of a batch updates the schedule's row, after the
     * destination committed. "forget": the destination deletes the batch's receipts, after the source
     * committed.
     */
    public static void fault(String point) throws InterruptedException {
        if (!point.equals(faultPoint) || !inPropagationBatch(point)) {
            return;
        }
        if (FAULT_SEEN.incrementAndGet() == faultAt) {
            OUT.println("HANGING " + point);
            NEVER.await();
        }
    }

    private static boolean inPropagationBatch(String point) {
        String method = point.equals("between") ? "batch" : "forgetReceipts";
        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
            if (e.getClassName().equals("io.aqueduct.engine.propagation.ScheduleRun") && e.getMethodName().equals(method)) {
                return true;
            }
        }
        return false;
    }

    private static void node() throws Exception {
        try (AqueductEngine engine = PropagationTakeoverTest.engine(true)) {
            OUT.println("NODE " + engine.propagator().nodeName());
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
