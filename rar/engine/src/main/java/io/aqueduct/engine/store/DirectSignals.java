package io.aqueduct.engine.store;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Wake-ups sent straight from node to node, as UDP datagrams, beside the database's signal: a node
 * listens on a socket whose address it registers in the store ({@code AQ_NODE_SIGNAL}); a node that
 * committed a change sends the changed queue ids to every live node's address at once, from the
 * committing thread (no hand-over to another thread, no database round trip). A datagram carries
 * no data the receiver trusts beyond "look again at these queues": one that is lost, malformed or
 * foreign costs latency at most, and the database signal (NOTIFY, or the polled {@code AQ_SIGNAL})
 * remains the fallback.
 *
 * <p>Datagram: magic {@code AQS1}, the recipient's node id, the sender's node id, a count, then that
 * many queue ids (8 bytes each, big-endian). The recipient's id (random, known only to readers of
 * the store) makes a datagram meant for a node that has since gone, and anyone else's, be ignored.
 */
public final class DirectSignals implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DirectSignals.class.getName());
    static final int MAGIC = 0x41515331; // "AQS1"
    /** Header: magic, recipient, sender, count. */
    static final int HEADER = 4 + 8 + 8 + 2;
    /** Queue ids per datagram: the datagram stays within one Ethernet frame (no IP fragmentation). */
    static final int MAX_IDS = 160;

    /** A live node's signal address. */
    public record Peer(long node, InetSocketAddress address) {
    }

    /**
     * Where this node listens: {@code host} to advertise (null: chosen, see {@link #choose}) and the
     * {@code port} (0: an ephemeral one); {@code off}: no direct signals (the database's only).
     */
    public record Config(String host, int port, boolean off) {
        /** The default: an ephemeral port on the address this node reaches the database from. */
        public static final Config DEFAULT = new Config(null, 0, false);
        public static final Config OFF = new Config(null, 0, true);

        /**
         * Parses {@code host}, {@code host:port}, {@code :port}, {@code [ipv6]:port}, {@code off};
         * empty or null is the default.
         *
         * @throws AqException 24097 for anything else
         */
        public static Config parse(String text) {
            if (text == null || text.isBlank()) {
                return DEFAULT;
            }
            String t = text.trim();
            if (t.equalsIgnoreCase("off") || t.equalsIgnoreCase("none")) {
                return OFF;
            }
            try {
                URI u = new URI("aq://" + t);
                String host = u.getHost();
                if (u.getPath() != null && !u.getPath().isEmpty() || u.getQuery() != null || u.getUserInfo() != null
                        || u.getFragment() != null || (host == null && !t.startsWith(":"))) {
                    throw new IllegalArgumentException();
                }
                if (t.startsWith(":")) {
                    host = null;
                    int port = Integer.parseInt(t.substring(1));
                    if (port < 1 || port > 65535) {
                        throw new IllegalArgumentException();
                    }
                    return new Config(null, port, false);
                }
                int port = u.getPort() < 0 ? 0 : u.getPort();
                if (port > 65535) {
                    throw new IllegalArgumentException();
                }
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                return new Config(host, port, false);
            } catch (Exception e) {
                throw new AqException(AqError.INVALID_VALUE, "'" + text + "' is not a signal address: give host, host:port,"
                        + " :port, [IPv6 address]:port or off.");
            }
        }
    }

    private final long self;
    private final Config config;
    private final String storeHost;
    private DatagramChannel receiving;
    private DatagramChannel sending;
    private volatile InetSocketAddress advertised;
    private volatile List<Peer> peers = List.of();
    /** When (System.nanoTime) a datagram last named each queue: tells a database signal that came without one. */
    private final Map<Long, Long> lastReceived = new ConcurrentHashMap<>();
    private final Set<Long> pending = ConcurrentHashMap.newKeySet();
    private final ReentrantLock sendLock = new ReentrantLock();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean running;
    private volatile boolean started;

    /**
     * {@code storeHost}: the database server's host, whose route tells which of this host's addresses
     * the other nodes (which reach the same server) most likely reach too.
     */
    public DirectSignals(NodeIdentity self, Config config, String storeHost) {
        this.self = self.value();
        this.config = config;
        this.storeHost = storeHost;
    }

    /** Opens the socket and starts the receiving loop; returns false (and logs) when no socket could be opened. */
    public boolean start(LongConsumer receiver, Background background) {
        InetAddress host;
        try {
            host = config.host() != null ? InetAddress.getByName(config.host()) : choose(storeHost);
            InetAddress bind = isLocal(host) ? host : null; // an address of a NAT or proxy: listen everywhere
            receiving = DatagramChannel.open();
            receiving.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
            receiving.bind(new InetSocketAddress(bind, config.port()));
            sending = DatagramChannel.open();
            sending.configureBlocking(false); // publish never blocks: a full buffer drops the datagram
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct could not open its signal socket (" + config + "): the other nodes wake"
                    + " this one through the database only", e);
            closeQuietly();
            return false;
        }
        advertised = new InetSocketAddress(host, ((InetSocketAddress) receiving.socket().getLocalSocketAddress()).getPort());
        running = true;
        started = true;
        background.start("aqueduct-signals-direct", () -> {
            try {
                receiveLoop(receiver);
            } finally {
                Thread.interrupted();
                ended.countDown();
            }
        });
        return true;
    }

    /** The address the other nodes send to; null until started (or when no socket could be opened). */
    public InetSocketAddress address() {
        return advertised;
    }

    /** The live other nodes' addresses (the registry's last reading). */
    public void peers(List<Peer> live) {
        this.peers = List.copyOf(live);
    }

    public List<Peer> peers() {
        return peers;
    }

    /** When (System.nanoTime) a datagram last named this queue; 0 if never. */
    long lastReceived(long queueId) {
        Long t = lastReceived.get(queueId);
        return t == null ? 0 : t;
    }

    /**
     * Sends the queue id to every live peer now, from the calling (committing) thread. Callers that
     * find another thread sending leave their id to it: that thread sends again before it returns.
     */
    public void publish(long queueId) {
        if (!running || peers.isEmpty()) {
            return;
        }
        pending.add(queueId);
        do {
            if (!sendLock.tryLock()) {
                return; // the sender looks at pending again after it unlocks
            }
            try {
                List<Long> ids = new ArrayList<>();
                for (var it = pending.iterator(); it.hasNext();) {
                    ids.add(it.next());
                    it.remove();
                }
                if (!ids.isEmpty()) {
                    sendNow(ids);
                }
            } finally {
                sendLock.unlock();
            }
        } while (!pending.isEmpty() && running);
    }

    private void sendNow(List<Long> ids) {
        ByteBuffer b = ByteBuffer.allocate(HEADER + 8 * Math.min(ids.size(), MAX_IDS));
        for (Peer p : peers) {
            for (int from = 0; from < ids.size(); from += MAX_IDS) {
                List<Long> part = ids.subList(from, Math.min(ids.size(), from + MAX_IDS));
                b.clear();
                b.putInt(MAGIC).putLong(p.node()).putLong(self).putShort((short) part.size());
                part.forEach(b::putLong);
                b.flip();
                try {
                    sending.send(b, p.address());
                } catch (IOException | RuntimeException e) {
                    // unreachable peer, closed socket: the database signal wakes it
                    LOG.log(Level.FINEST, "Aqueduct could not send a signal to " + p.address(), e);
                }
            }
        }
    }

    private void receiveLoop(LongConsumer receiver) {
        ByteBuffer b = ByteBuffer.allocate(2048);
        while (running) {
            try {
                b.clear();
                receiving.receive(b);
                b.flip();
                accept(b, receiver);
            } catch (ClosedChannelException e) {
                return; // closed (AsynchronousCloseException too)
            } catch (IOException | RuntimeException | Error e) {
                if (!running) {
                    return;
                }
                // supervised: a receiver that throws (a waiter's wake-up failing) must not end the loop
                LOG.log(Level.WARNING, "Aqueduct's direct signal receiver failed on one datagram; it goes on", e);
                try {
                    TimeUnit.MILLISECONDS.sleep(100);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** Hands the queue ids of a well-formed datagram meant for this node to {@code receiver}; ignores anything else. */
    void accept(ByteBuffer b, LongConsumer receiver) {
        if (b.remaining() < HEADER || b.getInt() != MAGIC || b.getLong() != self) {
            return; // foreign, or meant for a node that had this address before
        }
        long sender = b.getLong();
        int count = Short.toUnsignedInt(b.getShort());
        if (sender == self || count > MAX_IDS || b.remaining() != 8 * count) {
            return;
        }
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = b.getLong();
            if (ids[i] < 0) {
                return; // queue ids and CATALOG (0) only
            }
        }
        long now = System.nanoTime();
        for (long id : ids) {
            lastReceived.put(id, now);
            receiver.accept(id);
        }
    }

    /**
     * The address to advertise by default: the one this host reaches the database server from (the
     * other nodes reach that server too, so most likely this address); when that is a loopback
     * address (the database on this host), a site-local address of an interface that is up, else
     * loopback (a node alone on its host).
     */
    static InetAddress choose(String storeHost) {
        try {
            if (storeHost != null) {
                try (DatagramSocket probe = new DatagramSocket()) {
                    probe.connect(InetAddress.getByName(storeHost), 9); // no packet is sent: it only picks a route
                    InetAddress local = probe.getLocalAddress();
                    if (local != null && !local.isAnyLocalAddress() && !local.isLoopbackAddress()) {
                        return local;
                    }
                }
            }
            InetAddress fallback = null;
            for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!n.isUp() || n.isLoopback() || n.isVirtual()) {
                    continue;
                }
                for (InetAddress a : Collections.list(n.getInetAddresses())) {
                    if (a instanceof Inet4Address && a.isSiteLocalAddress()) {
                        return a;
                    }
                    if (fallback == null && a instanceof Inet4Address && !a.isLinkLocalAddress()) {
                        fallback = a;
                    }
                }
            }
            return fallback != null ? fallback : InetAddress.getLoopbackAddress();
        } catch (IOException e) {
            return InetAddress.getLoopbackAddress();
        }
    }

    /** The server's host in a JDBC URL ({@code jdbc:postgresql://host:port/db}, also the first of several); null if none. */
    static String hostOf(String jdbcUrl) {
        if (jdbcUrl == null) {
            return null;
        }
        int start = jdbcUrl.indexOf("//");
        if (start < 0) {
            return null;
        }
        String rest = jdbcUrl.substring(start + 2);
        int end = 0;
        if (rest.startsWith("[")) {
            end = rest.indexOf(']') + 1;
        } else {
            while (end < rest.length() && ":/,?;".indexOf(rest.charAt(end)) < 0) {
                end++;
            }
        }
        String host = rest.substring(0, Math.max(end, 0));
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host.isEmpty() ? null : host;
    }

    private static boolean isLocal(InetAddress a) {
        try {
            return a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    private void closeQuietly() {
        for (DatagramChannel c : new DatagramChannel[] {receiving, sending}) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // being abandoned
                }
            }
        }
    }

    /** Closes the socket (which ends the receiving loop's wait) and waits for the loop to end. */
    @Override
    public void close() {
        running = false;
        closeQuietly();
        if (started) {
            try {
                ended.await(4, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
