package io.aqueduct.engine.store;

import java.util.concurrent.Executor;

/**
 * Where the engine's long-running loops run (the time manager, the propagation loop, the notification
 * loop and its up to four delivery workers, the cross-node signal sender and receivers, the attempt ledger: up to eleven):
 * decided once, by the engine, for all of them. In the resource
 * adapter, tasks of the container's WorkManager; for the engine alone, daemon threads named after
 * their loop. Each loop supervises itself (catches, logs, backs off, resumes) and ends when its
 * part closes.
 */
@FunctionalInterface
public interface Background {
    /** Starts {@code loop}; {@code name} names its thread where the engine owns the thread. */
    void start(String name, Runnable loop);

    /** Daemon threads of their own, one per loop, named after it: the engine alone (Java SE). */
    static Background daemonThreads() {
        return (name, loop) -> {
            Thread t = new Thread(loop, name);
            t.setDaemon(true);
            t.start();
        };
    }

    /** Tasks of {@code executor} (the resource adapter's WorkManager), one per loop, for the engine's lifetime. */
    static Background of(Executor executor) {
        return (name, loop) -> executor.execute(loop);
    }
}
