package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.DerbyDialect;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import io.aqueduct.engine.store.MariaDbDialect;
import io.aqueduct.engine.store.PostgresDialect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's dialect is chosen from what the database says it is, and its schema is created from
 * an empty database idempotently, also by nodes starting at the same moment.
 */
class StoreSchemaTest {

    @Test
    void the_dialect_is_chosen_from_the_database_behind_the_url(@TempDir Path dir) {
        assertThat(Dialects.forJdbc(new JdbcSettings("jdbc:derby:" + dir.resolve("db") + ";create=true", null, null)))
                .isInstanceOf(DerbyDialect.class);
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "a PostgreSQL or MariaDB server is configured");
        TestStore.CURRENT.assumeConfigured();
        assertThat(Dialects.forJdbc(TestStore.CURRENT.settings())).isInstanceOf(
                TestStore.CURRENT.kind == TestStore.Kind.POSTGRES ? PostgresDialect.class : MariaDbDialect.class);
    }

    @Test
    void a_url_that_is_not_jdbc_or_a_server_that_is_not_there_is_refused_with_a_clear_message() {
        assertThatThrownBy(() -> Dialects.forJdbc(new JdbcSettings("postgres://localhost/db", null, null)))
                .isInstanceOfSatisfying(AqException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                    assertThat(e.getMessage()).contains("JDBC URL");
                });
        assertThatThrownBy(() -> Dialects.forJdbc(new JdbcSettings("jdbc:postgresql://127.0.0.1:1/nothing", "nobody", null)))
                .isInstanceOfSatisfying(AqException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                    assertThat(e.getMessage()).contains("Cannot connect to the Aqueduct store at jdbc:postgresql://127.0.0.1:1/nothing");
                });
    }

    @Test
    void nodes_starting_together_on_an_empty_database_create_one_schema_and_share_its_queues() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.emptyStore();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<AqueductEngine> engines = new ArrayList<>();
        try {
            List<Future<AqueductEngine>> starting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                starting.add(pool.submit((Callable<AqueductEngine>) MultiNodeTest::engine));
            }
            for (Future<AqueductEngine> f : starting) {
                engines.add(f.get());
            }
            engines.get(0).admin().createQueueTable("SHARED_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engines.get(0).admin().createQueue("SHARED_Q", "SHARED_QT", QueueProperties.create());
            engines.get(0).admin().startQueue("SHARED_Q", true, true);
            try (QueueSession s = engines.get(1).openSession()) {
                s.enqueue("SHARED_Q", null, Message.of("made on node 0, enqueued on node 1"));
                s.commit();
            }
            try (QueueSession s = engines.get(2).openSession()) {
                assertThat(s.dequeue("SHARED_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                        .isEqualTo("made on node 0, enqueued on node 1");
                s.commit();
            }
        } finally {
            engines.forEach(AqueductEngine::close);
            pool.shutdownNow();
        }
        // a later start finds everything in place
        try (AqueductEngine again = MultiNodeTest.engine()) {
            assertThat(again.admin().queue("SHARED_Q").name()).isEqualTo("SHARED_Q");
        }
    }
}
