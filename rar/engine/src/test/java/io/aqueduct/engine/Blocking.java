package io.aqueduct.engine;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/** Telling whether a thread running a dequeue is parked in the dequeue's wait. */
final class Blocking {
    private Blocking() {
    }

    /** Whether the thread waits on a condition (a dequeue waiting for a message). */
    static boolean parkedOnCondition(Thread t) {
        Thread.State state = t.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) && Arrays.stream(t.getStackTrace())
                .anyMatch(f -> f.getClassName().contains("ConditionObject") && f.getMethodName().startsWith("await"));
    }

    /** Spins until the thread waits on a condition (a dequeue waiting for a message), at most 10 s. */
    static void awaitBlocked(Thread t, FutureTask<?> task) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (task.isDone()) {
                return; // the caller's assertions tell what it returned
            }
            if (parkedOnCondition(t)) {
                return;
            }
            Thread.onSpinWait();
        }
        fail("The dequeuer did not start waiting within 10 s");
    }
}
