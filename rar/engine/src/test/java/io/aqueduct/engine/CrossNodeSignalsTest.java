package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.engine.store.Background;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.DirectSignals;
import io.aqueduct.engine.store.NodeIdentity;
import io.aqueduct.engine.store.NodeSignals;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cross-node signals on a shared store: each node registers the address of its signal socket in
 * {@code AQ_NODE_SIGNAL} (again after its row is lost), a datagram to it wakes it, and when the
 * datagrams cannot arrive (a peer advertising an address nobody reaches) the database's signal
 * still wakes it. Several "nodes" here are signal endpoints of their own identity in one JVM.
 */
class CrossNodeSignalsTest {
    private AqueductEngine engine;
    private Dialect dialect;
    private final List<NodeSignals> opened = new ArrayList<>();

    @BeforeEach
    void store() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "cross-node signals are of shared stores");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.emptyStore();
        dialect = Dialects.forJdbc(TestStore.CURRENT.settings());
        engine = AqueductEngine.builder().dialect(dialect).defaultSchema("APP").signalAddress("off").start(); // the schema
    }

    @AfterEach
    void close() {
        opened.forEach(NodeSignals::close);
        if (engine != null) {
            engine.close();
        }
    }

    private NodeSignals node(NodeIdentity id, String address, List<Long> received) {
        NodeSignals s = dialect.signals(id, DirectSignals.Config.parse(address));
        opened.add(s);
        s.start(received::add, Background.daemonThreads());
        return s;
    }

    private Connection connect() throws Exception {
        var settings = TestStore.CURRENT.settings();
        return DriverManager.getConnection(settings.url(), settings.user(), settings.password());
    }

    /** The address a node registered, or null. */
    private InetSocketAddress registered(NodeIdentity id) throws Exception {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT HOST, PORT FROM AQ_NODE_SIGNAL WHERE NODE_ID = ?")) {
            ps.setString(1, id.tag());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new InetSocketAddress(rs.getString(1), rs.getInt(2)) : null;
            }
        }
    }

    @Test
    void a_node_registers_its_address_again_after_its_row_is_lost_and_a_datagram_to_it_wakes_its_queue() throws Exception {
        NodeIdentity b = NodeIdentity.random();
        List<Long> atB = new CopyOnWriteArrayList<>();
        node(b, "127.0.0.1", atB);
        await().atMost(Duration.ofSeconds(20)).until(() -> registered(b) != null);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM AQ_NODE_SIGNAL"); // as a server restart empties the volatile table
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> registered(b) != null);
        InetSocketAddress address = registered(b);
        assertThat(address.getAddress().isLoopbackAddress()).isTrue();

        try (DatagramChannel ch = DatagramChannel.open()) {
            ch.send(ByteBuffer.wrap("not a signal".getBytes()), address); // ignored
            ByteBuffer d = ByteBuffer.allocate(4 + 8 + 8 + 2 + 8);
            d.putInt(0x41515331).putLong(b.value()).putLong(12345).putShort((short) 1).putLong(77).flip();
            ch.send(d, address);
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(atB).contains(77L));
    }

    @Test
    void a_node_whose_datagrams_cannot_arrive_is_still_woken_through_the_database() throws Exception {
        NodeIdentity a = NodeIdentity.random();
        NodeIdentity b = NodeIdentity.random();
        List<Long> atB = new CopyOnWriteArrayList<>();
        NodeSignals sa = node(a, "127.0.0.1", new CopyOnWriteArrayList<>());
        node(b, "192.0.2.1", atB); // TEST-NET-1: an address no datagram reaches (a firewall, a wrong signalAddress)
        await().atMost(Duration.ofSeconds(20)).until(() -> registered(a) != null && registered(b) != null);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            sa.publish(31);
            assertThat(atB).contains(31L);
        });
    }

    @Test
    void a_node_that_restarts_is_signalled_at_its_new_address() throws Exception {
        NodeIdentity a = NodeIdentity.random();
        NodeSignals sa = node(a, "127.0.0.1", new CopyOnWriteArrayList<>());
        NodeIdentity b = NodeIdentity.random();
        List<Long> atB = new CopyOnWriteArrayList<>();
        NodeSignals sb = node(b, "127.0.0.1", atB);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            sa.publish(5);
            assertThat(atB).contains(5L);
        });
        sb.close();
        NodeIdentity b2 = NodeIdentity.random();
        List<Long> atB2 = new CopyOnWriteArrayList<>();
        node(b2, "127.0.0.1", atB2);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            sa.publish(6);
            assertThat(atB2).contains(6L);
        });
    }
}
