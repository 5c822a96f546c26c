package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.XaTransactionTest.TestXid;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL server left at its default {@code max_prepared_transactions = 0} (a private one of
 * the test's own): the engine says at start that XA will fail and what to set, and a branch's
 * prepare fails with an XAException naming the setting rather than PostgreSQL's bare "prepared
 * transactions are disabled". Local transactions work as ever. Runs in the PostgreSQL pass only.
 */
class PreparedTransactionsDisabledTest {
    private static PrivateServer server;

    @BeforeAll
    static void startServerWithoutPreparedTransactions() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.kind == TestStore.Kind.POSTGRES, "the PostgreSQL pass");
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "a private PostgreSQL server (none installed)");
        server = PrivateServer.postgres("max_prepared_transactions = 0");
    }

    @AfterAll
    static void removeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void the_engine_warns_at_start_and_a_prepare_names_the_setting() throws Exception {
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Logger log = Logger.getLogger(AqueductEngine.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try (AqueductEngine engine = AqueductEngine.builder()
                .dialect(Dialects.forJdbc(new JdbcSettings(server.jdbcUrl(), server.user(), server.password())))
                .user("TESTER").timeManager(false).start()) {
            assertThat(warnings).extracting(LogRecord::getMessage)
                    .anySatisfy(m -> assertThat(m).contains("max_prepared_transactions is 0")
                            .contains("ALTER SYSTEM SET max_prepared_transactions"));

            engine.admin().createQueueTable("QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("Q", "QT", QueueProperties.create());
            engine.admin().startQueue("Q", true, true);

            try (EngineSession s = engine.openSession("TESTER")) {
                XAResource xa = s.xaResource();
                Xid xid = TestXid.next();
                xa.start(xid, XAResource.TMNOFLAGS);
                s.enqueue("Q", Message.of("never prepared"));
                xa.end(xid, XAResource.TMSUCCESS);

                XAException refused = catchThrowableOfType(() -> xa.prepare(xid), XAException.class);
                assertThat(refused).hasMessageContaining("max_prepared_transactions")
                        .hasMessageContaining("restart PostgreSQL");
                try {
                    xa.rollback(xid);
                } catch (XAException alreadyGone) {
                    // PostgreSQL may have ended the branch with the failed prepare
                }
            }
            try (QueueSession local = engine.openSession()) {
                local.enqueue("Q", Message.of("local transactions need no prepare"));
                local.commit();
                assertThat(local.dequeue("Q", DequeueOptions.create().waitSeconds(0)).text())
                        .as("the refused branch enqueued nothing: the first message is the local one")
                        .isEqualTo("local transactions need no prepare");
                local.commit();
                assertThat(catchThrowableOfType(() -> local.dequeue("Q", DequeueOptions.create().waitSeconds(0)),
                        AqException.class).errorCode()).isEqualTo(AqError.NO_MESSAGE);
            }
        } finally {
            log.removeHandler(handler);
        }
    }
}
