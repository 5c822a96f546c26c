package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Visibility;
import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * Each queue is an MBean in the platform MBean server while it exists and its engine is open: V$AQ's
 * figures and what the engine's transactions did to it since start, read as a JMX console reads them.
 */
class QueueMBeansTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private static final String QT = "ORDERS_QT";
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Override
    protected boolean backgroundLoops() {
        return false;
    }

    private ObjectName queueBean(String queue) throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName("io.aqueduct:type=Queue,name=" + ObjectName.quote(queue) + ",*"),
                null);
        // other engines of this JVM (earlier tests) have closed: theirs are gone
        assertThat(names).as("MBeans of %s", queue).hasSize(1);
        return names.iterator().next();
    }

    @Test
    void a_queue_shows_its_depth_and_what_was_enqueued_dequeued_and_rolled_back() throws Exception {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        for (int i = 0; i < 3; i++) {
            s.enqueue(Q, Message.of("order-" + i));
        }
        s.commit();
        s.enqueue(Q, Message.of("rolled back"));
        s.rollback();
        clock.advanceSeconds(5);
        s.dequeue(Q, FIRST_NO_WAIT);
        s.commit();
        s.dequeue(Q, FIRST_NO_WAIT);
        s.rollback(); // a failed attempt

        ObjectName name = queueBean("APP." + Q);
        assertThat(name.getKeyProperty("type")).isEqualTo("Queue");
        assertThat(server.getAttribute(name, "Owner")).isEqualTo("APP");
        assertThat(server.getAttribute(name, "Name")).isEqualTo(Q);
        assertThat(server.getAttribute(name, "QueueId")).isEqualTo(admin.queue(Q).qid());
        assertThat(server.getAttribute(name, "Ready")).isEqualTo(2L);
        assertThat(server.getAttribute(name, "Waiting")).isEqualTo(0L);
        assertThat(server.getAttribute(name, "Expired")).isEqualTo(0L);
        assertThat(server.getAttribute(name, "TotalWaitSeconds")).isEqualTo(10.0);
        assertThat(server.getAttribute(name, "AverageWaitSeconds")).isEqualTo(5.0);
        assertThat(server.getAttribute(name, "OldestReadySeconds")).isEqualTo(5.0);
        assertThat(server.getAttribute(name, "Enqueued")).isEqualTo(3L);
        assertThat(server.getAttribute(name, "Dequeued")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "FailedAttempts")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "DequeueLatencyMaxMillis")).isEqualTo(5000L);
        assertThat(server.getAttribute(name, "DequeueLatencyTotalMillis")).isEqualTo(5000L);
        assertThat(server.getAttribute(name, "DequeueLatencyAverageMillis")).isEqualTo(5000.0);
    }

    @Test
    void buffered_messages_are_shown_apart_from_the_stored_ones_until_dequeued_or_expired() throws Exception {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        EnqueueOptions buffered = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE);
        s.enqueue(Q, Message.of("stored"));
        s.commit();
        s.enqueue(Q, buffered, Message.of("in memory"));
        s.enqueue(Q, buffered, Message.of("short-lived", io.aqueduct.api.MessageProperties.create().expiration(5)));

        ObjectName name = queueBean("APP." + Q);
        assertThat(server.getAttribute(name, "Ready")).as("stored messages only").isEqualTo(1L);
        assertThat(server.getAttribute(name, "BufferedMessages")).isEqualTo(2L);
        assertThat((Long) server.getAttribute(name, "BufferedBytes")).isPositive();
        assertThat(server.getAttribute(name, "BufferedEnqueued")).isEqualTo(2L);

        clock.advanceSeconds(5);
        engine.timeManager().runDue(); // "short-lived" expires: discarded
        s.dequeue(Q, DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED).visibility(Visibility.IMMEDIATE)
                .waitSeconds(DequeueOptions.NO_WAIT));
        assertThat(server.getAttribute(name, "BufferedMessages")).isEqualTo(0L);
        assertThat(server.getAttribute(name, "BufferedBytes")).isEqualTo(0L);
        assertThat(server.getAttribute(name, "BufferedEnqueued")).isEqualTo(2L);
        assertThat(server.getAttribute(name, "BufferedExpired")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "Ready")).isEqualTo(1L);
    }

    @Test
    void messages_moved_to_the_exception_queue_are_counted_at_expiration_and_past_max_retries() throws Exception {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create().maxRetries(0));
        QueueSession s = session();
        s.enqueue(Q, Message.of("fragile"));
        s.enqueue(Q, Message.of("short-lived", io.aqueduct.api.MessageProperties.create().expiration(5)));
        s.commit();
        s.dequeue(Q, FIRST_NO_WAIT); // "fragile"
        s.rollback(); // past max_retries 0: to the exception queue
        clock.advanceSeconds(5);
        engine.timeManager().runDue(); // "short-lived" expires

        ObjectName name = queueBean("APP." + Q);
        assertThat(server.getAttribute(name, "FailedAttempts")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "Expirations")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "MovedToExceptionQueue")).isEqualTo(2L);
        assertThat(server.getAttribute(name, "Ready")).isEqualTo(0L);
        assertThat(server.getAttribute(queueBean("APP.AQ$_" + QT + "_E"), "Expired")).isEqualTo(2L);
    }

    @Test
    void on_a_shared_store_each_node_shows_the_store_figures_and_its_own_counts()
            throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(sharedStore(), "several nodes need a shared store");
        try (AqueductEngine other = AqueductEngine.builder()
                .dialect(io.aqueduct.engine.store.Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP")
                .clock(clock).user("NODE").timeManager(false).start()) {
            startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
            ObjectName pattern = new ObjectName("io.aqueduct:type=Queue,name=" + ObjectName.quote("APP." + Q) + ",*");
            // the other node reads the catalog again on the creator's signal, or when a lookup misses (as this one)
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).ignoreExceptions()
                    .until(() -> other.admin().queue(Q) != null && server.queryNames(pattern, null).size() == 2);
            QueueSession s = session();
            s.enqueue(Q, Message.of("here"));
            s.commit();
            for (ObjectName name : server.queryNames(pattern, null)) {
                assertThat(server.getAttribute(name, "Ready")).as("%s", name).isEqualTo(1L);
            }
            assertThat(server.queryNames(pattern, null)).extracting(n -> {
                try {
                    return server.getAttribute(n, "Enqueued");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).containsExactlyInAnyOrder(1L, 0L);

            admin.stopQueue(Q, true, true, false);
            admin.dropQueue(Q);
            assertThat(server.queryNames(pattern, null)).hasSize(1); // the other node's, until it reads its catalog again
            other.close();
            assertThat(server.queryNames(pattern, null)).isEmpty();
        }
    }

    @Test
    void a_dropped_queue_and_a_closed_engine_leave_no_MBean_behind() throws Exception {
        startedQueue(Q, QT, QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        ObjectName name = queueBean("APP." + Q);
        ObjectName exceptionQueue = queueBean("APP.AQ$_" + QT + "_E");

        admin.stopQueue(Q, true, true, false);
        admin.dropQueue(Q);
        assertThat(server.isRegistered(name)).isFalse();
        assertThat(server.isRegistered(exceptionQueue)).isTrue();

        engine.close();
        assertThat(server.isRegistered(exceptionQueue)).isFalse();
    }
}
