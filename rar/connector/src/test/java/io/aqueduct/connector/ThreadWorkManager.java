package io.aqueduct.connector;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The container's WorkManager, faked: every Work runs on a plain thread of its own. {@code doWork}
 * returns when the work is done, {@code startWork} when it has started, {@code scheduleWork} at
 * once. What a Work throws is kept in {@link #failures()} (a container would log it); {@link #close()}
 * releases what still runs, as a container does when the adapter is undeployed, and reports the
 * threads that would not end.
 */
final class ThreadWorkManager implements WorkManager, AutoCloseable {
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Map<Thread, Work> running = new ConcurrentHashMap<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger submitted = new AtomicInteger();

    /** What Works threw out of {@code run()}. */
    List<Throwable> failures() {
        return failures;
    }

    /** How many Works were given to this WorkManager. */
    int submitted() {
        return submitted.get();
    }

    /** How many Works are still running. */
    int running() {
        return (int) running.keySet().stream().filter(Thread::isAlive).count();
    }

    @Override
    public void doWork(Work work) throws WorkException {
        doWork(work, INDEFINITE, null, null);
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) throws WorkException {
        CountDownLatch started = new CountDownLatch(1);
        Thread t = launch(work, listener, started);
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException("interrupted waiting for " + work, e);
        }
    }

    @Override
    public long startWork(Work work) throws WorkException {
        return startWork(work, INDEFINITE, null, null);
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) throws WorkException {
        long t0 = System.nanoTime();
        CountDownLatch started = new CountDownLatch(1);
        launch(work, listener, started);
        try {
            started.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException("interrupted waiting for " + work + " to start", e);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        scheduleWork(work, INDEFINITE, null, null);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener) throws WorkException {
        launch(work, listener, new CountDownLatch(1));
    }

    private Thread launch(Work work, WorkListener listener, CountDownLatch started) {
        if (work == null) {
            throw new IllegalArgumentException("no work");
        }
        submitted.incrementAndGet();
        if (listener != null) {
            listener.workAccepted(new WorkEvent(this, WorkEvent.WORK_ACCEPTED, work, null));
        }
        Thread t = new Thread(() -> {
            if (listener != null) {
                listener.workStarted(new WorkEvent(this, WorkEvent.WORK_STARTED, work, null));
            }
            started.countDown();
            WorkException failure = null;
            try {
                work.run();
            } catch (Throwable e) {
                failures.add(e);
                failure = new WorkException(e);
            } finally {
                running.remove(Thread.currentThread());
                if (listener != null) {
                    listener.workCompleted(new WorkEvent(this, WorkEvent.WORK_COMPLETED, work, failure));
                }
            }
        }, "test-work-" + THREADS.incrementAndGet());
        t.setDaemon(true); // a worker that never ends must not keep the test JVM alive
        running.put(t, work);
        t.start();
        return t;
    }

    /**
     * Releases every Work still running and waits (10 s at most) for their threads; returns the
     * names of the threads still alive then (empty: every Work ended).
     */
    List<String> releaseAll() {
        running.values().forEach(w -> {
            try {
                w.release();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread t : running.keySet()) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return running.keySet().stream().filter(Thread::isAlive).map(Thread::getName).toList();
    }

    @Override
    public void close() {
        releaseAll();
    }
}
