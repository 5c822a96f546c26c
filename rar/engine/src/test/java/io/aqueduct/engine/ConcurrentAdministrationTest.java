package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two nodes of a shared store create the same objects (servers of a deployment group starting together
 * with the same queue definitions): the second create is AQ's "already exists" error, whether its node has
 * heard of the first one's object yet (its catalog) or meets it only in the database (a unique key), and
 * its catalog then shows the object. Shared stores only.
 */
class ConcurrentAdministrationTest {
    private static final String SCHEMA = "CONCADMIN";
    private AqueductEngine first;
    private AqueductEngine second;

    @BeforeEach
    void twoNodes() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "a shared store");
        JdbcSettings store = TestStore.CURRENT.privateStore(SCHEMA);
        first = node(store);
        second = node(store);
    }

    private static AqueductEngine node(JdbcSettings store) {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(store)).defaultSchema(SCHEMA).timeManager(false).start();
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @Test
    void a_table_queue_or_subscriber_the_other_node_just_created_is_refused_as_existing() {
        for (int i = 0; i < 5; i++) {
            String table = "QT" + i;
            String queue = "Q" + i;
            first.admin().createQueueTable(table, QueueTableProperties.create().payloadType(PayloadType.TEXT)
                    .multipleConsumers(true));
            assertThat(errorOf(() -> second.admin().createQueueTable(table, QueueTableProperties.create()
                    .payloadType(PayloadType.TEXT).multipleConsumers(true)))).isEqualTo(AqError.QUEUE_TABLE_EXISTS);
            assertThat(second.admin().queueTable(table).multipleConsumers()).isTrue();

            first.admin().createQueue(queue, table, QueueProperties.create());
            assertThat(errorOf(() -> second.admin().createQueue(queue, table, QueueProperties.create())))
                    .isEqualTo(AqError.QUEUE_EXISTS);
            assertThat(second.admin().queue(queue).queueTable()).isEqualTo(table);

            first.admin().addSubscriber(queue, new Agent("SHIPPING", null, 0), null, null);
            assertThat(errorOf(() -> second.admin().addSubscriber(queue, new Agent("SHIPPING", null, 0), null, null)))
                    .isEqualTo(AqError.SUBSCRIBER_EXISTS);
            assertThat(second.admin().subscribers(queue)).extracting(s -> s.agent().name()).containsExactly("SHIPPING");
        }
    }

    private static int errorOf(Runnable create) {
        return catchThrowableOfType(create::run, AqException.class).errorCode();
    }
}
