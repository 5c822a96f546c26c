package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SystemPrivilege;
import java.util.List;
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

    /**
     * Both nodes grant the same privileges and create the same agents at the same moment: each may
     * read "not there" before the other's insert commits and then meet the other's row as a primary
     * key. A grant is then the grant that is there (both succeed), a second agent AQ's 24089.
     */
    @Test
    void the_same_grant_or_agent_created_on_both_nodes_at_once_is_one_grant_or_agent_exists() throws Exception {
        first.admin().createQueueTable("GRANTS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        first.admin().createQueue("GRANTS_Q", "GRANTS_QT", QueueProperties.create());
        java.util.concurrent.ExecutorService both = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 25; i++) {
                String grantee = "GRANTEE" + i;
                String agent = "AGENT" + i;
                java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
                List<java.util.concurrent.Future<Integer>> outcomes = new java.util.ArrayList<>();
                for (AqueductEngine node : List.of(first, second)) {
                    outcomes.add(both.submit(() -> {
                        together.await();
                        node.admin().grantQueuePrivilege(QueuePrivilege.ENQUEUE, "GRANTS_Q", grantee, false);
                        node.admin().grantSystemPrivilege(SystemPrivilege.DEQUEUE_ANY, grantee, false);
                        node.admin().enableDbAccess(agentOf(node, agent), grantee);
                        return 0;
                    }));
                }
                for (java.util.concurrent.Future<Integer> o : outcomes) {
                    assertThat(o.get()).isZero();
                }
                assertThat(first.admin().queuePrivileges()).filteredOn(p -> p.grantee().equals(grantee)).hasSize(1);
                assertThat(second.admin().systemPrivileges()).filteredOn(p -> p.grantee().equals(grantee)).hasSize(1);
                assertThat(first.admin().aqAgents()).filteredOn(a -> a.name().equals(agent)).singleElement()
                        .satisfies(a -> assertThat(a.dbUsers()).containsExactly(grantee));
            }
        } finally {
            both.shutdownNow();
        }
    }

    /** Creates the agent on {@code node}; the node that comes second (by the database) gets 24089 and uses the other's. */
    private static String agentOf(AqueductEngine node, String agent) {
        try {
            node.admin().createAqAgent(agent, true, false);
        } catch (AqException e) {
            assertThat(e.errorCode()).isEqualTo(AqError.AGENT_EXISTS);
        }
        return agent;
    }

    private static int errorOf(Runnable create) {
        return catchThrowableOfType(create::run, AqException.class).errorCode();
    }
}
