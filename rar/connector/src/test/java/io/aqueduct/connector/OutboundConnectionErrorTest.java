package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import io.aqueduct.engine.PrivateServers;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ManagedConnection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An application's queue session (a handle on a pooled managed connection) whose store connection
 * the database killed: the next call fails with AQ 3113, the container's pool hears
 * connectionErrorOccurred once (so it destroys the connection instead of pooling it again), and a
 * fresh managed connection works. On a private PostgreSQL server.
 */
class OutboundConnectionErrorTest {
    private static final String QUEUE = "OUT_Q";
    private static final String DEFINITIONS = "table OUT_QTAB payload=TEXT; queue " + QUEUE + " table=OUT_QTAB";

    private static PrivateServers.Postgres server;
    private RunningAdapter ra;
    private AqManagedConnectionFactory mcf;
    private final List<ManagedConnection> opened = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startPrivateServer() throws Exception {
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "PostgreSQL is not installed (/usr/lib/postgresql)");
        server = PrivateServers.postgres();
    }

    @AfterAll
    static void removePrivateServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void startAdapter() throws Exception {
        server.start();
        server.freshDatabase();
        ra = RunningAdapter.onStore(server.jdbcUrl(), server.user(), server.password(), DEFINITIONS);
        mcf = new AqManagedConnectionFactory();
        mcf.setResourceAdapter(ra.adapter);
    }

    @AfterEach
    void stopAdapter() {
        for (ManagedConnection mc : opened) {
            try {
                mc.destroy();
            } catch (Exception ignored) {
                // the pool's destroy of a connection already gone
            }
        }
        if (ra != null) {
            ra.close();
        }
    }

    /** The container's pool: what it hears from a managed connection. */
    static final class PoolListener implements ConnectionEventListener {
        final List<ConnectionEvent> errors = new CopyOnWriteArrayList<>();
        final List<ConnectionEvent> closed = new CopyOnWriteArrayList<>();

        @Override
        public void connectionClosed(ConnectionEvent event) {
            closed.add(event);
        }

        @Override
        public void connectionErrorOccurred(ConnectionEvent event) {
            errors.add(event);
        }

        @Override
        public void localTransactionStarted(ConnectionEvent event) {
        }

        @Override
        public void localTransactionCommitted(ConnectionEvent event) {
        }

        @Override
        public void localTransactionRolledback(ConnectionEvent event) {
        }
    }

    private ManagedConnection managedConnection() throws Exception {
        ManagedConnection mc = mcf.createManagedConnection(null, null);
        opened.add(mc);
        return mc;
    }

    @Test
    void a_killed_store_connection_fails_the_next_call_with_3113_and_the_pool_hears_of_it_once() throws Exception {
        ManagedConnection mc = managedConnection();
        PoolListener pool = new PoolListener();
        mc.addConnectionEventListener(pool);
        QueueSession handle = (QueueSession) mc.getConnection(null, null);
        handle.enqueue(QUEUE, Message.of("before the kill"));
        handle.commit(); // a bean outside a container transaction: the session's own

        int killed = server.terminateOtherConnections();

        assertThat(killed).isGreaterThanOrEqualTo(1);
        assertThatThrownBy(() -> handle.enqueue(QUEUE, Message.of("after the kill")))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.STORE_UNAVAILABLE));
        assertThat(pool.errors).as("connectionErrorOccurred events").hasSize(1);
        ConnectionEvent event = pool.errors.get(0);
        assertThat(event.getSource()).isSameAs(mc);
        assertThat(event.getConnectionHandle()).isSameAs(handle);
        assertThat(event.getException()).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.STORE_UNAVAILABLE));
        assertThat(mcf.matchManagedConnections(Set.of(mc), null, null)).as("the pool must not hand it out again").isNull();

        // the pool destroys the broken connection and makes a new one: it works
        mc.destroy();
        ManagedConnection fresh = managedConnection();
        QueueSession again = (QueueSession) fresh.getConnection(null, null);
        again.enqueue(QUEUE, Message.of("on a fresh connection"));
        again.commit();
        again.close();
        assertThat(ra.browse(QUEUE)).extracting(Message::text).containsExactly("before the kill", "on a fresh connection");
        assertThat(pool.errors).as("connectionErrorOccurred events in all").hasSize(1);
    }

    @Test
    void while_the_store_is_down_every_call_fails_with_3113_and_the_pool_hears_of_it_once() throws Exception {
        ManagedConnection mc = managedConnection();
        PoolListener pool = new PoolListener();
        mc.addConnectionEventListener(pool);
        QueueSession handle = (QueueSession) mc.getConnection(null, null);
        handle.enqueue(QUEUE, Message.of("before the outage"));
        handle.commit();

        server.stop();
        try {
            for (int i = 0; i < 3; i++) { // an application that retries through the handle it holds
                assertThatThrownBy(() -> handle.enqueue(QUEUE, Message.of("during the outage")))
                        .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.STORE_UNAVAILABLE));
            }
        } finally {
            server.start();
        }

        assertThat(pool.errors).as("connectionErrorOccurred events").hasSize(1);
        assertThat(pool.errors.get(0).getConnectionHandle()).isSameAs(handle);
        mc.destroy();
        ManagedConnection fresh = managedConnection();
        QueueSession again = (QueueSession) fresh.getConnection(null, null);
        again.enqueue(QUEUE, Message.of("after the outage"));
        again.commit();
        again.close();
        assertThat(ra.browse(QUEUE)).extracting(Message::text).containsExactly("before the outage", "after the outage");
    }

    @Test
    void a_connection_killed_in_the_middle_of_a_container_transaction_fails_the_next_enqueue_with_3113_and_the_pool_hears_of_it_once()
            throws Exception {
        ManagedConnection mc = managedConnection();
        PoolListener pool = new PoolListener();
        mc.addConnectionEventListener(pool);
        XAResource xa = mc.getXAResource();
        QueueSession handle = (QueueSession) mc.getConnection(null, null);
        TestXid xid = TestXid.next();
        xa.start(xid, XAResource.TMNOFLAGS); // the container enlists the connection in its transaction
        handle.enqueue(QUEUE, Message.of("lost with the transaction"));

        server.terminateOtherConnections();

        assertThatThrownBy(() -> handle.enqueue(QUEUE, Message.of("after the kill")))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.STORE_UNAVAILABLE));
        assertThat(pool.errors).as("connectionErrorOccurred events").hasSize(1);
        assertThat(pool.errors.get(0).getConnectionHandle()).isSameAs(handle);
        // the transaction manager rolls the transaction back: answered normally, the database rolled the
        // branch back when its connection went
        xa.end(xid, XAResource.TMFAIL);
        xa.rollback(xid);
        mc.destroy();

        ManagedConnection fresh = managedConnection();
        XAResource xa2 = fresh.getXAResource();
        QueueSession again = (QueueSession) fresh.getConnection(null, null);
        TestXid next = TestXid.next();
        xa2.start(next, XAResource.TMNOFLAGS);
        again.enqueue(QUEUE, Message.of("on a fresh connection"));
        xa2.end(next, XAResource.TMSUCCESS);
        xa2.commit(next, true);
        assertThat(ra.browse(QUEUE)).extracting(Message::text).containsExactly("on a fresh connection");
        assertThat(pool.errors).as("connectionErrorOccurred events in all").hasSize(1);
    }

    @Test
    void a_connection_killed_between_container_transactions_is_reported_to_the_pool_when_the_next_one_cannot_begin()
            throws Exception {
        ManagedConnection mc = managedConnection();
        PoolListener pool = new PoolListener();
        mc.addConnectionEventListener(pool);
        XAResource xa = mc.getXAResource();
        QueueSession handle = (QueueSession) mc.getConnection(null, null);
        TestXid first = TestXid.next();
        xa.start(first, XAResource.TMNOFLAGS);
        handle.enqueue(QUEUE, Message.of("before the kill"));
        xa.end(first, XAResource.TMSUCCESS);
        xa.commit(first, true);

        server.terminateOtherConnections();

        // the container enlists the pooled connection in its next transaction: the database's XAResource fails
        assertThatThrownBy(() -> xa.start(TestXid.next(), XAResource.TMNOFLAGS)).isInstanceOf(javax.transaction.xa.XAException.class);
        // without an event the pool keeps the managed connection and hands it out again, to fail the same way
        assertThat(pool.errors).as("connectionErrorOccurred events").hasSize(1);
        assertThat(mcf.matchManagedConnections(Set.of(mc), null, null)).isNull();
    }

    @Test
    void a_jms_session_whose_store_connection_was_killed_fails_its_send_and_the_pool_replaces_the_connection() throws Exception {
        io.aqueduct.connector.jms.JmsManagedConnectionFactory jms = new io.aqueduct.connector.jms.JmsManagedConnectionFactory();
        jms.setResourceAdapter(ra.adapter);
        PoolListener pool = new PoolListener();
        List<ManagedConnection> made = new CopyOnWriteArrayList<>();
        // the container's pool, reduced to what matters here: a matching usable connection, else a new one
        jakarta.resource.spi.ConnectionManager cm = (factory, info) -> {
            ManagedConnection mc = jms.matchManagedConnections(Set.copyOf(made), null, info);
            if (mc == null) {
                mc = factory.createManagedConnection(null, info);
                mc.addConnectionEventListener(pool);
                made.add(mc);
                opened.add(mc);
            }
            return mc.getConnection(null, info);
        };
        jakarta.jms.ConnectionFactory cf = (jakarta.jms.ConnectionFactory) jms.createConnectionFactory(cm);
        try (jakarta.jms.JMSContext ctx = cf.createContext()) {
            ctx.createProducer().send(ctx.createQueue(QUEUE), "before the kill");
        }

        server.terminateOtherConnections();

        try (jakarta.jms.JMSContext ctx = cf.createContext()) {
            assertThatThrownBy(() -> ctx.createProducer().send(ctx.createQueue(QUEUE), "after the kill"))
                    .isInstanceOf(jakarta.jms.JMSRuntimeException.class).hasMessageContaining("AQ-03113");
        }
        assertThat(pool.errors).as("connectionErrorOccurred events").hasSize(1);
        try (jakarta.jms.JMSContext ctx = cf.createContext()) {
            ctx.createProducer().send(ctx.createQueue(QUEUE), "on a fresh connection");
        }
        assertThat(made).as("managed connections: the broken one was not handed out again").hasSize(2);
        assertThat(ra.browse(QUEUE)).extracting(Message::text).containsExactly("before the kill", "on a fresh connection");
    }
}
