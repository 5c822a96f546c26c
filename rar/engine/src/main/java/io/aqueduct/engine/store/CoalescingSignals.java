package io.aqueduct.engine.store;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
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
 *
 * <p>Beside it, when given, {@link DirectSignals}: datagrams from node to node, sent from the
 * committing thread. The receiver loop keeps the registry of their addresses ({@code AQ_NODE_SIGNAL}:
 * this node's row refreshed, the live nodes' rows read, every {@value #REGISTRY_MS} ms) and learns
 * from {@code AQ_NODE} (the attempt ledger's heartbeats) whether any other node lives at all: a node
 * alone sends no database signal (nobody to wake).
 */
abstract class CoalescingSignals implements NodeSignals {
    private static final Logger LOG = Logger.getLogger(CoalescingSignals.class.getName());
    private static final long RECONNECT_PAUSE_MS = 1000;
    /** How often the registry is refreshed and read (real time). */
    static final long REGISTRY_MS = 1000;
    /** A registered address whose SEEN has not changed for this long (as observed here) is a gone node's. */
    static final long REGISTRY_LIVE_MS = 5000;
    /** A gone node's row is deleted after this long. */
    static final long REGISTRY_FORGET_MS = 60_000;
    /** A heartbeat in AQ_NODE this much older than the newest is a gone node's (AttemptLedger.NODE_TIMEOUT_MS). */
    static final long HEARTBEAT_LIVE_MS = 5000;
    /**
     * While every other live node gets this node's datagrams, the database's signal is only their
     * fallback (a datagram lost): it is sent at most this often, not once per commit (each one a
     * round trip, and on a busy node as many as its commits).
     */
    static final long FALLBACK_MS = 100;

    /** The registry of direct signal addresses: volatile, one row per node, SEEN in wall-clock ms. */
    static final String REGISTRY_COLUMNS = "AQ_NODE_SIGNAL (NODE_ID VARCHAR(40) NOT NULL PRIMARY KEY, HOST VARCHAR(64) NOT NULL,"
            + " PORT INT NOT NULL, SEEN BIGINT NOT NULL)";

    private final NodeIdentity node;
    private final DirectSignals direct;
    /** Whether another node may be listening (until the registry says otherwise: yes). */
    private volatile boolean othersLive = true;
    /** Whether every other live node has a direct signal address (the database's signal then is only the fallback). */
    private volatile boolean allDirect;
    private long registryReadAt;
    /** Per other node's registry row: its last SEEN and when (System.nanoTime) that value was first read here. */
    private final java.util.Map<String, long[]> observed = new java.util.HashMap<>();
    private boolean registryTable;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition pendingChanged = lock.newCondition();
    private final Set<Long> pending = new LinkedHashSet<>();
    private volatile boolean running;
    /** The sender's and the receiver's threads while their loops run. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Thread> loops = new java.util.concurrent.atomic.AtomicReferenceArray<>(2);
    private volatile boolean started;
    private volatile boolean directFailed;
    private final CountDownLatch ended = new CountDownLatch(2);

    /** Database signals only (tests). */
    protected CoalescingSignals() {
        this(null, null);
    }

    /** {@code direct}: datagrams beside the database's signal, or null; {@code node} names this node in the registry. */
    protected CoalescingSignals(NodeIdentity node, DirectSignals direct) {
        this.node = node;
        this.direct = direct;
    }

    /** The CREATE of the registry table (volatile: its rows need not outlive the server). */
    protected String createRegistryTable() {
        return null;
    }

    /** The upsert of this node's row: node id, host, port, now (wall clock ms). */
    protected String registerSql() {
        return null;
    }

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
        if (direct != null && !direct.start(receiver, background)) {
            directFailed = true;
        }
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
        if (direct != null) {
            direct.publish(queueId); // first: the fast way, from this thread
        }
        if (!othersLive) {
            return; // nobody to wake
        }
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
        long sentAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(FALLBACK_MS);
        while (running) {
            Set<Long> batch;
            lock.lock();
            try {
                while (running && pending.isEmpty()) {
                    pendingChanged.await();
                }
                // real time: the pace of a fallback, not a queue's clock
                long wait;
                while (running && allDirect() && (wait = sentAt + TimeUnit.MILLISECONDS.toNanos(FALLBACK_MS) - System.nanoTime()) > 0) {
                    pendingChanged.awaitNanos(wait); // more changes join this batch meanwhile
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
                sentAt = System.nanoTime();
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
                    registryTable = false;
                    subscribe(c);
                    if (reconnected) {
                        receiver.accept(ALL); // signals may have been sent while we were away
                    }
                }
                receive(c, 250, receiver);
                long now = System.nanoTime();
                if (node != null && now - registryReadAt >= TimeUnit.MILLISECONDS.toNanos(REGISTRY_MS)) {
                    registryReadAt = now;
                    maintainRegistry(c);
                }
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

    /**
     * Registers this node's signal address (again: a server restart empties the volatile table) and
     * reads the live nodes' ones; learns whether other nodes live, and whether all of them listen.
     */
    private void maintainRegistry(Connection c) throws SQLException {
        long wall = System.currentTimeMillis(); // the registry's own liveness: real time, not the queues' clock
        String me = node.tag();
        InetSocketAddress mine = direct == null ? null : direct.address();
        List<DirectSignals.Peer> live = new ArrayList<>();
        Set<String> directNodes = new HashSet<>();
        if (createRegistryTable() != null) {
            if (!registryTable) {
                try (Statement s = c.createStatement()) {
                    s.execute(createRegistryTable()); // a store created before direct signals lacks it
                } catch (SQLException e) {
                    // two nodes creating it at once (PostgreSQL's catalog race): the next round finds it
                    LOG.log(Level.FINE, "Aqueduct could not create AQ_NODE_SIGNAL; it tries again", e);
                    return;
                }
                registryTable = true;
            }
            if (mine != null) {
                try (PreparedStatement ps = c.prepareStatement(registerSql())) {
                    ps.setString(1, me);
                    ps.setString(2, mine.getAddress().getHostAddress());
                    ps.setInt(3, mine.getPort());
                    ps.setLong(4, wall);
                    ps.executeUpdate();
                }
            }
            // a row is live while its SEEN keeps changing, as observed here: no node's clock is compared
            // with another's (a node whose clock is off by minutes is still signalled)
            long nowNanos = System.nanoTime();
            Set<String> present = new HashSet<>();
            List<Object[]> gone = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT NODE_ID, HOST, PORT, SEEN FROM AQ_NODE_SIGNAL WHERE NODE_ID <> ?")) {
                ps.setString(1, me);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String id = rs.getString(1);
                        long seen = rs.getLong(4);
                        present.add(id);
                        long[] o = observed.get(id);
                        if (o == null || o[0] != seen) {
                            observed.put(id, o = new long[] {seen, nowNanos});
                        }
                        long quiet = TimeUnit.NANOSECONDS.toMillis(nowNanos - o[1]);
                        if (quiet > REGISTRY_FORGET_MS) {
                            gone.add(new Object[] {id, seen});
                            continue;
                        }
                        DirectSignals.Peer p = quiet <= REGISTRY_LIVE_MS ? peer(id, rs.getString(2), rs.getInt(3)) : null;
                        if (p != null) {
                            live.add(p);
                            directNodes.add(id);
                        }
                    }
                }
            }
            observed.keySet().retainAll(present);
            for (Object[] g : gone) {
                // only if it did not come back meanwhile
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM AQ_NODE_SIGNAL WHERE NODE_ID = ? AND SEEN = ?")) {
                    ps.setString(1, (String) g[0]);
                    ps.setLong(2, (Long) g[1]);
                    ps.executeUpdate();
                }
            }
        }
        Set<String> ledgerNodes = new HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT NODE_ID, HEARTBEAT FROM AQ_NODE")) {
            List<String> ids = new ArrayList<>();
            List<Long> beats = new ArrayList<>();
            long newest = Long.MIN_VALUE;
            while (rs.next()) {
                ids.add(rs.getString(1));
                beats.add(rs.getLong(2));
                newest = Math.max(newest, rs.getLong(2));
            }
            // heartbeats are in each node's engine clock: judged against the newest (this node's own, when it
            // beats), so that rows of nodes that died long ago do not count
            for (int i = 0; i < ids.size(); i++) {
                if (!ids.get(i).equals(me) && beats.get(i) >= newest - HEARTBEAT_LIVE_MS) {
                    ledgerNodes.add(ids.get(i));
                }
            }
        }
        if (direct != null) {
            direct.peers(live);
        }
        othersLive = !live.isEmpty() || !ledgerNodes.isEmpty();
        allDirect = direct != null && !directFailed && directNodes.containsAll(ledgerNodes);
    }

    private static DirectSignals.Peer peer(String nodeTag, String host, int port) {
        try {
            return new DirectSignals.Peer(Long.parseUnsignedLong(nodeTag, 16), new InetSocketAddress(
                    java.net.InetAddress.getByName(host), port)); // a literal address: no lookup
        } catch (RuntimeException | java.net.UnknownHostException e) {
            return null; // not a row this version wrote
        }
    }

    /** Whether every other live node listens for direct signals (then the database's signal is only the fallback). */
    protected boolean allDirect() {
        return allDirect;
    }

    /** The direct signals beside this one, or null. */
    protected DirectSignals direct() {
        return direct;
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
        if (direct != null) {
            direct.close();
        }
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
