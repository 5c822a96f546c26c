package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each propagation schedule is an MBean while it exists and its engine is open (also one another node of a
 * shared store created), with DBA_QUEUE_SCHEDULES' statistics.
 */
class PropagationScheduleMBeansTest extends MultiConsumerFixture {
    private static final String OE_Q = "OE_BOOKEDORDERS_QUE";
    private static final String WS_Q = "WS_BOOKEDORDERS_QUE";
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Override
    protected boolean backgroundLoops() {
        return false; // the test runs the propagation job itself
    }

    @BeforeEach
    void queues() {
        multiConsumerQueue(OE_Q, "OE_ORDERS_MQTAB", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        startedQueue(WS_Q, "WS_ORDERS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.addSubscriber(OE_Q, new Agent("West_Shipping", WS_Q, 0), null);
    }

    private Set<ObjectName> scheduleBeans() throws Exception {
        return server.queryNames(new ObjectName("io.aqueduct:type=PropagationSchedule,queue="
                + ObjectName.quote("APP." + OE_Q) + ",*"), null);
    }

    @Test
    void a_schedule_shows_its_statistics_while_it_exists() throws Exception {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        QueueSession s = session();
        s.enqueue(OE_Q, Message.of("order-1", MessageProperties.create()));
        s.enqueue(OE_Q, Message.of("order-22", MessageProperties.create()));
        s.commit();
        engine.propagator().runDue();

        assertThat(scheduleBeans()).hasSize(1);
        ObjectName name = scheduleBeans().iterator().next();
        assertThat(name.getKeyProperty("destination")).isEqualTo(ObjectName.quote("AQ$_LOCAL"));
        assertThat(name.getKeyProperty("node")).isNotBlank();
        assertThat(server.getAttribute(name, "Queue")).isEqualTo("APP." + OE_Q);
        assertThat(server.getAttribute(name, "Destination")).isEqualTo("AQ$_LOCAL");
        assertThat(server.getAttribute(name, "TotalNumber")).isEqualTo(2L);
        assertThat(server.getAttribute(name, "TotalBytes")).isEqualTo(admin.propagationSchedule(OE_Q, null).totalBytes());
        assertThat((Long) server.getAttribute(name, "TotalBytes")).isPositive();
        assertThat(server.getAttribute(name, "Failures")).isEqualTo(0);
        assertThat(server.getAttribute(name, "Disabled")).isEqualTo(false);
        assertThat(server.getAttribute(name, "ProcessName")).isEqualTo(engine.propagator().nodeName());
        assertThat(server.getAttribute(name, "LastErrorMessage")).isNull();

        admin.disablePropagationSchedule(OE_Q, null);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)) // the figures are read at most once a second
                .until(() -> Boolean.TRUE.equals(server.getAttribute(name, "Disabled")));

        admin.unschedulePropagation(OE_Q, null);
        engine.propagator().runDue();
        assertThat(scheduleBeans()).isEmpty();
    }

    @Test
    void a_dropped_queue_and_a_closed_engine_leave_no_schedule_MBean_behind() throws Exception {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        engine.propagator().runDue();
        assertThat(scheduleBeans()).hasSize(1);
        admin.stopQueue(OE_Q, true, true, false);
        admin.dropQueue(OE_Q);
        assertThat(scheduleBeans()).isEmpty();

        admin.createQueue(OE_Q, "OE_ORDERS_MQTAB", QueueProperties.create());
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        engine.propagator().runDue();
        assertThat(scheduleBeans()).hasSize(1);
        engine.close();
        assertThat(scheduleBeans()).isEmpty();
    }

    @Test
    void on_a_shared_store_a_schedule_another_node_created_is_an_MBean_here_too() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(sharedStore(), "several nodes need a shared store");
        try (AqueductEngine other = AqueductEngine.builder()
                .dialect(io.aqueduct.engine.store.Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP")
                .clock(clock).user("NODE").timeManager(false).start()) {
            other.admin().schedulePropagation(OE_Q, null, null, null, null, 0);
            other.propagator().runDue(); // the other node runs it
            engine.propagator().runDue(); // this one sees it
            assertThat(scheduleBeans()).extracting(n -> n.getKeyProperty("node")).hasSize(2).doesNotHaveDuplicates();
            for (ObjectName name : scheduleBeans()) {
                assertThat(server.getAttribute(name, "ProcessName")).as("%s", name).isEqualTo(other.propagator().nodeName());
            }
            other.admin().unschedulePropagation(OE_Q, null);
            engine.propagator().runDue();
            other.propagator().runDue();
            assertThat(scheduleBeans()).isEmpty();
        }
    }
}
