package io.aqueduct.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Datagrams between nodes: delivered to the node they name, anything else ignored; a restarted receiver is found again. */
class DirectSignalsTest {
    private final List<DirectSignals> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(DirectSignals::close);
    }

    private DirectSignals node(NodeIdentity id, List<Long> received) {
        DirectSignals s = new DirectSignals(id, DirectSignals.Config.parse("127.0.0.1"), null);
        opened.add(s);
        assertThat(s.start(received::add, Background.daemonThreads())).isTrue();
        return s;
    }

    private static DirectSignals.Peer peer(NodeIdentity id, DirectSignals s) {
        return new DirectSignals.Peer(id.value(), s.address());
    }

    @Test
    void a_published_queue_id_reaches_the_peer_and_garbage_is_ignored() throws Exception {
        NodeIdentity a = NodeIdentity.random();
        NodeIdentity b = NodeIdentity.random();
        List<Long> atA = new CopyOnWriteArrayList<>();
        List<Long> atB = new CopyOnWriteArrayList<>();
        DirectSignals sa = node(a, atA);
        DirectSignals sb = node(b, atB);
        sa.peers(List.of(peer(b, sb)));

        try (DatagramChannel foreign = DatagramChannel.open()) {
            Random random = new Random(15);
            byte[] noise = new byte[300];
            random.nextBytes(noise);
            for (ByteBuffer garbage : List.of(ByteBuffer.wrap(noise), ByteBuffer.allocate(0), ByteBuffer.wrap(new byte[] {'A', 'Q'}),
                    datagram(DirectSignals.MAGIC, NodeIdentity.random().value(), a.value(), 1, 9L), // meant for another node
                    datagram(DirectSignals.MAGIC, b.value(), a.value(), 3, 9L), // count beyond the datagram
                    datagram(DirectSignals.MAGIC, b.value(), a.value(), 1, -5L), // not a queue id
                    datagram(DirectSignals.MAGIC, b.value(), b.value(), 1, 9L), // its own
                    datagram(0x12345678, b.value(), a.value(), 1, 9L))) {
                foreign.send(garbage, sb.address());
            }
        }
        sa.publish(42);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(atB).contains(42L));
        assertThat(atB).as("only the well-formed datagram meant for b").containsOnly(42L);
        assertThat(atA).isEmpty();
    }

    @Test
    void a_receiver_that_restarts_is_reached_at_its_new_address() {
        NodeIdentity a = NodeIdentity.random();
        List<Long> atB = new CopyOnWriteArrayList<>();
        DirectSignals sa = node(a, new CopyOnWriteArrayList<>());
        NodeIdentity b = NodeIdentity.random();
        DirectSignals sb = node(b, atB);
        sa.peers(List.of(peer(b, sb)));
        sa.publish(1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(atB).contains(1L));
        sb.close();
        sa.publish(2); // to a closed socket: dropped, no failure

        NodeIdentity b2 = NodeIdentity.random(); // a restarted node has a new identity and port
        List<Long> atB2 = new CopyOnWriteArrayList<>();
        DirectSignals sb2 = node(b2, atB2);
        sa.peers(List.of(peer(b2, sb2))); // what the registry says after it re-registered
        sa.publish(3);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(atB2).contains(3L));
        assertThat(atB2).doesNotContain(2L);
    }

    @Test
    void an_unreachable_peer_costs_nothing_and_the_others_are_still_signalled() {
        NodeIdentity a = NodeIdentity.random();
        NodeIdentity b = NodeIdentity.random();
        List<Long> atB = new CopyOnWriteArrayList<>();
        DirectSignals sa = node(a, new CopyOnWriteArrayList<>());
        DirectSignals sb = node(b, atB);
        sa.peers(List.of(new DirectSignals.Peer(7, new InetSocketAddress("192.0.2.1", 9)), peer(b, sb)));
        sa.publish(5);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(atB).contains(5L));
    }

    @Test
    void signal_addresses_are_parsed_and_malformed_ones_refused() {
        assertThat(DirectSignals.Config.parse(null)).isEqualTo(DirectSignals.Config.DEFAULT);
        assertThat(DirectSignals.Config.parse(" ")).isEqualTo(DirectSignals.Config.DEFAULT);
        assertThat(DirectSignals.Config.parse("off").off()).isTrue();
        assertThat(DirectSignals.Config.parse("10.1.2.3")).isEqualTo(new DirectSignals.Config("10.1.2.3", 0, false));
        assertThat(DirectSignals.Config.parse("node1.example.com:7400"))
                .isEqualTo(new DirectSignals.Config("node1.example.com", 7400, false));
        assertThat(DirectSignals.Config.parse(":7400")).isEqualTo(new DirectSignals.Config(null, 7400, false));
        assertThat(DirectSignals.Config.parse("[::1]:7400")).isEqualTo(new DirectSignals.Config("::1", 7400, false));
        for (String bad : List.of("host:99999", "host:port", ":0", "a b", "host/path", "user@host:1", ":")) {
            assertThatThrownBy(() -> DirectSignals.Config.parse(bad)).as(bad).isInstanceOf(AqException.class)
                    .hasMessageContaining("signal address");
        }
    }

    @Test
    void the_database_host_is_read_from_the_jdbc_url() {
        assertThat(DirectSignals.hostOf("jdbc:postgresql://db.example.com:5432/test?x=1")).isEqualTo("db.example.com");
        assertThat(DirectSignals.hostOf("jdbc:mariadb://127.0.0.1/aq")).isEqualTo("127.0.0.1");
        assertThat(DirectSignals.hostOf("jdbc:postgresql://[::1]:5432/t")).isEqualTo("::1");
        assertThat(DirectSignals.hostOf("jdbc:postgresql:test")).isNull();
    }

    private static ByteBuffer datagram(int magic, long to, long from, int count, long... ids) {
        ByteBuffer b = ByteBuffer.allocate(DirectSignals.HEADER + 8 * ids.length);
        b.putInt(magic).putLong(to).putLong(from).putShort((short) count);
        for (long id : ids) {
            b.putLong(id);
        }
        return b.flip();
    }
}
