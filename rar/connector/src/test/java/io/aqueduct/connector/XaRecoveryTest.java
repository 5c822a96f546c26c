package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import io.aqueduct.engine.PrivateServers;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ManagedConnection;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction manager's recovery through the adapter ({@code getXAResources}): a branch left
 * prepared by a container transaction (a dequeue in it, never committed) is listed by
 * {@code recover()}, still listed by a new adapter after the store restarted, and rolling it back
 * through that adapter's resource makes the message available again, one attempt counted.
 */
class XaRecoveryTest {
    private static final String QUEUE = "REC_Q";
    private static final String DEFINITIONS = "table REC_QTAB payload=TEXT; queue " + QUEUE + " table=REC_QTAB max_retries=5";
    private static final DequeueOptions REMOVE_NO_WAIT = DequeueOptions.create().mode(DequeueMode.REMOVE)
            .navigation(Navigation.FIRST_MESSAGE).waitSeconds(DequeueOptions.NO_WAIT);

    private static PrivateServers.Postgres server;

    @TempDir
    Path derby;

    @AfterAll
    static void removePrivateServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void on_derby_a_prepared_branch_survives_the_adapter_restart_and_its_rollback_counts_one_attempt() throws Exception {
        Prepared p;
        try (RunningAdapter first = RunningAdapter.onDerby(derby, DEFINITIONS)) {
            p = prepareADequeue(first);
            assertThat(listed(recoveryResource(first), p.xid())).as("recover() lists the prepared branch").isPresent();
            assertThat(first.browse(QUEUE)).as("the message, while its branch is in doubt").isEmpty();
            p.connection().destroy(); // the pool goes with the application; the branch stays prepared in the store
        }

        try (RunningAdapter second = RunningAdapter.onDerby(derby, DEFINITIONS)) {
            rollBackThroughRecoveryAndDequeueAgain(second, p);
        }
    }

    @Test
    void on_postgresql_a_prepared_branch_survives_the_server_restart_and_its_rollback_by_the_same_adapter_counts_one_attempt()
            throws Exception {
        try (RunningAdapter ra = RunningAdapter.onStore(postgres().jdbcUrl(), server.user(), server.password(), DEFINITIONS)) {
            Prepared p = prepareADequeue(ra);
            assertThat(listed(recoveryResource(ra), p.xid())).as("recover() lists the prepared branch").isPresent();
            assertThat(ra.browse(QUEUE)).as("the message, while its branch is in doubt").isEmpty();

            server.stop();
            server.start();
            p.connection().destroy();

            // the adapter kept running: its recovery resource reopens on the restarted store
            rollBackThroughRecoveryAndDequeueAgain(ra, p);
        }
    }

    @Test
    void on_postgresql_a_prepared_branch_survives_the_server_and_adapter_restart_and_its_rollback_counts_one_attempt()
            throws Exception {
        Prepared p;
        try (RunningAdapter first = RunningAdapter.onStore(postgres().jdbcUrl(), server.user(), server.password(), DEFINITIONS)) {
            p = prepareADequeue(first);
            assertThat(listed(recoveryResource(first), p.xid())).as("recover() lists the prepared branch").isPresent();
            server.stop();
            server.start();
            assertThat(listed(recoveryResource(first), p.xid())).as("recover() after the store restarted").isPresent();
            p.connection().destroy();
        }
        try (RunningAdapter second = RunningAdapter.onStore(server.jdbcUrl(), server.user(), server.password(), DEFINITIONS)) {
            rollBackThroughRecoveryAndDequeueAgain(second, p);
        }
    }

    @Test
    void on_postgresql_a_branch_prepared_by_one_adapter_and_rolled_back_through_another_counts_one_attempt() throws Exception {
        try (RunningAdapter first = RunningAdapter.onStore(postgres().jdbcUrl(), server.user(), server.password(), DEFINITIONS);
                RunningAdapter second = RunningAdapter.onStore(server.jdbcUrl(), server.user(), server.password(), DEFINITIONS)) {
            Prepared p = prepareADequeue(first);
            p.connection().destroy();
            // two servers share the store; the transaction manager recovers through the other one (the first keeps running)
            rollBackThroughRecoveryAndDequeueAgain(second, p);
        }
    }

    /** The private server, started on first use, database test emptied. */
    private static PrivateServers.Postgres postgres() throws Exception {
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "PostgreSQL is not installed (/usr/lib/postgresql)");
        if (server == null) {
            server = PrivateServers.postgres();
        }
        server.start();
        server.freshDatabase();
        return server;
    }

    /** A dequeue in a container transaction's branch on a pooled connection, prepared and left so. */
    private record Prepared(Xid xid, MessageId message, ManagedConnection connection) {
    }

    private static Prepared prepareADequeue(RunningAdapter ra) throws Exception {
        MessageId id = ra.enqueue(QUEUE, java.util.List.of("in doubt")).get(0);
        AqManagedConnectionFactory mcf = new AqManagedConnectionFactory();
        mcf.setResourceAdapter(ra.adapter);
        ManagedConnection mc = mcf.createManagedConnection(null, null);
        XAResource xa = mc.getXAResource();
        QueueSession handle = (QueueSession) mc.getConnection(null, null);
        Xid xid = TestXid.next();
        xa.start(xid, XAResource.TMNOFLAGS);
        Message m = handle.dequeue(QUEUE, REMOVE_NO_WAIT);
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(m.id()).isEqualTo(id);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        handle.close();
        return new Prepared(xid, id, mc);
    }

    private static void rollBackThroughRecoveryAndDequeueAgain(RunningAdapter ra, Prepared p) throws Exception {
        XAResource recovery = recoveryResource(ra);
        Xid recovered = listed(recovery, p.xid()).orElseThrow(() -> new AssertionError("the new adapter's recover() does not list "
                + p.xid()));
        assertThat(ra.browse(QUEUE)).as("the message, while its branch is in doubt").isEmpty();

        recovery.rollback(recovered);

        assertThat(listed(recovery, p.xid())).as("recover() after the rollback").isEmpty();
        try (QueueSession s = ra.adapter.engine().openSession()) {
            // on a shared store the message comes back once its attempt is counted (at once by the engine
            // that dequeued it; by another node's time manager once that engine is gone)
            Message again = s.dequeue(QUEUE, DequeueOptions.create().mode(DequeueMode.REMOVE).waitSeconds(20));
            assertThat(again.id()).isEqualTo(p.message());
            assertThat(again.text()).isEqualTo("in doubt");
            assertThat(again.properties().attempts()).as("attempts after the rolled-back delivery").isEqualTo(1);
            s.commit();
        }
    }

    /** What the transaction manager asks the adapter for at its recovery scan. */
    private static XAResource recoveryResource(RunningAdapter ra) throws Exception {
        XAResource[] resources = ra.adapter.getXAResources(new ActivationSpec[] {ra.spec(QUEUE, 1)});
        assertThat(resources).hasSize(1).doesNotContainNull();
        return resources[0];
    }

    private static Optional<Xid> listed(XAResource recovery, Xid xid) throws Exception {
        Xid[] inDoubt = recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
        return Arrays.stream(inDoubt == null ? new Xid[0] : inDoubt).filter(x -> TestXid.same(x, xid)).findFirst();
    }
}
