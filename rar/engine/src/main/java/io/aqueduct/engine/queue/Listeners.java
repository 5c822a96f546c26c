package io.aqueduct.engine.queue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where LISTEN waits: one condition for all queues, signalled when any queue changes. Queues
 * signal it only while someone listens; a listener never holds this lock while it looks at a
 * queue, so the two locks are never taken in opposite orders.
 */
public final class Listeners {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicLong version = new AtomicLong();
    private final AtomicInteger waiting = new AtomicInteger();

    /** Called by a queue (under its own lock) whenever it changes. */
    void changed() {
        version.incrementAndGet();
        if (waiting.get() > 0) {
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    public long version() {
        return version.get();
    }

    /** Registers a listener before it looks at the queues, so that no change is missed. */
    public void enter() {
        waiting.incrementAndGet();
    }

    public void leave() {
        waiting.decrementAndGet();
    }

    /** Waits until some queue changed since {@code seen}, or {@code millis} pass. */
    public void await(long seen, long millis) throws InterruptedException {
        lock.lock();
        try {
            if (version.get() != seen || millis <= 0) {
                return;
            }
            if (millis == Long.MAX_VALUE) {
                changed.await();
            } else {
                changed.await(millis, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every listener (the clock jumped, the engine closes). */
    public void wakeAll() {
        version.incrementAndGet();
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
