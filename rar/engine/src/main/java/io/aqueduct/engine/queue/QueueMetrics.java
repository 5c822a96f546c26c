package io.aqueduct.engine.queue;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one queue's committed transactions did on this engine since it started (docs/metrics.md):
 * counted after each commit or rollback, in memory, never written.
 */
public final class QueueMetrics {
    private final LongAdder enqueued = new LongAdder();
    private final LongAdder dequeued = new LongAdder();
    private final LongAdder failedAttempts = new LongAdder();
    private final LongAdder expirations = new LongAdder();
    private final LongAdder movedToExceptionQueue = new LongAdder();
    private final LongAdder latencyCount = new LongAdder();
    private final LongAdder latencyTotalMillis = new LongAdder();
    private final LongAccumulator latencyMaxMillis = new LongAccumulator(Math::max, 0);

    public void enqueued(int messages) {
        enqueued.add(messages);
    }

    /** A committed REMOVE; {@code latencyMillis} from the message's enqueue, negative when not known. */
    public void dequeued(long latencyMillis) {
        dequeued.increment();
        if (latencyMillis >= 0) {
            latencyCount.increment();
            latencyTotalMillis.add(latencyMillis);
            latencyMaxMillis.accumulate(latencyMillis);
        }
    }

    public void failedAttempts(int attempts) {
        failedAttempts.add(attempts);
    }

    /** A message moved to its exception queue: at its expiration, or past max_retries. */
    public void movedToExceptionQueue(boolean expired) {
        movedToExceptionQueue.increment();
        if (expired) {
            expirations.increment();
        }
    }

    public long expirations() {
        return expirations.sum();
    }

    public long movedToExceptionQueue() {
        return movedToExceptionQueue.sum();
    }

    public long enqueued() {
        return enqueued.sum();
    }

    public long dequeued() {
        return dequeued.sum();
    }

    public long failedAttempts() {
        return failedAttempts.sum();
    }

    public long latencyCount() {
        return latencyCount.sum();
    }

    public long latencyTotalMillis() {
        return latencyTotalMillis.sum();
    }

    public long latencyMaxMillis() {
        return latencyMaxMillis.get();
    }
}
