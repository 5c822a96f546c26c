package io.aqueduct.engine.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The common half of {@link NodeSignals}: a sender loop that coalesces the queues changed since
 * its last send into one message (many commits, one round trip), and a receiver loop that
 * reconnects after a failure and then wakes every queue, since it may have missed signals.
 * Subclasses say how a batch is sent and how signals are received.
 */
abstract class CoalescingSignals implements NodeSignals {
    private static final Logger LOG = Logger.getLogger(CoalescingSignals.class.getName());
    private static final long RECONNECT_PAUSE_MS = 1000;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition pendingChanged = lock.newCondition();
    private final Set<Long> pending = new LinkedHashSet<>();
    private volatile boolean running;
    /** The sender's and the receiver's threads while their loops run. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Thread> loops = new java.util.concurrent.atomic.AtomicReferenceArray<>(2);
    private volatile boolean started;
    private final CountDownLatch ended = new CountDownLatch(2);

    /** A connection of the store's own, outside any XA transaction, in auto-commit. */
    protected abstract Connection connect() throws SQLException;

    /** Sends one batch of changed queue ids on the sender's connection. */
    protected abstract void send(Connection c, Set<Long> queueIds) throws SQLException;

    /** Prepares a receiving connection (LISTEN); called after each (re)connect. */
    protected abstract void subscribe(Connection c) throws SQLException;

    /** Waits up to about {@code millis} for signals and hands each queue id to {@code receiver}. */
    protected abstract void receive(Connection c, long millis, LongConsumer receiver) throws SQLException;

    @Override
    public void start(LongConsumer receiver, Background background) {
        running = true;
        started = true;
        background.start("aqueduct-signals-send", loop(0, this::sendLoop));
        background.start("aqueduct-signals-receive", loop(1, () -> receiveLoop(receiver)));
    }

    /** A loop task that records its thread (close interrupts a blocked wait) and says when it ended. */
    private Runnable loop(int index, Runnable body) {
        return () -> {
            loops.set(index, Thread.currentThread());
            try {
                while (running) {
                    try {
                        body.run(); // returns when the signals close
                    } catch (RuntimeException | Error e) {
                        // supervised: log, pause, start the loop again (waiters look every second meanwhile)
                        LOG.log(Level.SEVERE, "Aqueduct's cross-node signal loop failed; it starts again in 1 s", e);
                        pause();
                    }
                }
            } finally {
                loops.set(index, null);
                Thread.interrupted(); // a pool thread (WorkManager) goes back without close's interrupt
                ended.countDown();
            }
        };
    }

    @Override
    public void publish(long queueId) {
        lock.lock();
        try {
            if (pending.add(queueId)) {
                pendingChanged.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    private void sendLoop() {
        Connection c = null;
        while (running) {
            Set<Long> batch;
            lock.lock();
            try {
                while (running && pending.isEmpty()) {
                    pendingChanged.await();
                }
                batch = new LinkedHashSet<>(pending);
                pending.clear();
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            if (!running) {
                break;
            }
            try {
                if (c == null) {
                    c = connect();
                }
                send(c, batch);
            } catch (SQLException e) {
                // the others will look again on their own shortly; a lost wake-up costs latency only
                LOG.log(Level.FINE, "Aqueduct could not signal the other nodes; it reconnects", e);
                c = closeQuietly(c);
                pause();
            }
        }
        closeQuietly(c);
    }

    private void receiveLoop(LongConsumer receiver) {
        Connection c = null;
        boolean reconnected = false;
        while (running) {
            try {
                if (c == null) {
                    c = connect();
                    subscribe(c);
                    if (reconnected) {
                        receiver.accept(ALL); // signals may have been sent while we were away
                    }
                }
                receive(c, 250, receiver);
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    break;
                }
                LOG.log(Level.FINE, "Aqueduct lost its signal connection; it reconnects", e);
                c = closeQuietly(c);
                reconnected = true;
                pause();
            }
        }
        closeQuietly(c);
    }

    private void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(RECONNECT_PAUSE_MS); // real time: a connection is down, not a queue's clock
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private static Connection closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // it is being abandoned
            }
        }
        return null;
    }

    @Override
    public void close() {
        running = false;
        lock.lock();
        try {
            pendingChanged.signalAll();
        } finally {
            lock.unlock();
        }
        if (!started) {
            return;
        }
        for (int i = 0; i < loops.length(); i++) {
            Thread t = loops.get(i);
            if (t != null) {
                t.interrupt();
            }
        }
        try {
            ended.await(4, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
