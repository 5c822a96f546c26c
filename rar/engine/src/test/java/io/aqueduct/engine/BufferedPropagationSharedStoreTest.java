package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On a shared store (PostgreSQL, MariaDB) a schedule runs on one node at a time for the persistent
 * messages, but a buffered message lives in the memory of the node that enqueued it: the node that
 * does not hold the schedule propagates its own buffered messages, and counts them in the schedule.
 * Two engines of this JVM on one store, on a manual clock; each runs its propagation job itself.
 */
class BufferedPropagationSharedStoreTest {
    private static final String SCHEMA = "BUFPROP";
    private static final String SRC_Q = SCHEMA + ".SRC_Q";
    private static final String DST_Q = SCHEMA + ".DST_Q";
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    private final ManualClock clock = new ManualClock();
    private AqueductEngine holder;
    private AqueductEngine other;

    private AqueductEngine node() {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(TestStore.CURRENT.privateStoreSettings(SCHEMA)))
                .defaultSchema(SCHEMA).user("NODE").clock(clock).timeManager(false).start();
    }

    @BeforeEach
    void twoNodes() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.privateStore(SCHEMA);
        holder = node();
        var admin = holder.admin();
        admin.createQueueTable("SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.createQueue(SRC_Q, "SRC_QT", QueueProperties.create());
        admin.startQueue(SRC_Q, true, true);
        admin.createQueueTable("DST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue(DST_Q, "DST_QT", QueueProperties.create());
        admin.startQueue(DST_Q, true, true);
        admin.addSubscriber(SRC_Q, new Agent(null, DST_Q, 0), null);
        admin.schedulePropagation(SRC_Q, null, null, null, null, 0);
        holder.propagator().runDue(); // the first node takes the schedule
        other = node();
    }

    @AfterEach
    void stop() {
        if (other != null) {
            other.close();
        }
        if (holder != null) {
            holder.close();
        }
    }

    private static List<String> drainBuffered(AqueductEngine e) {
        List<String> out = new ArrayList<>();
        try (QueueSession s = e.openSession()) {
            while (true) {
                try {
                    out.add(s.dequeue(DST_Q, DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
                            .visibility(Visibility.IMMEDIATE).waitSeconds(DequeueOptions.NO_WAIT)).text());
                } catch (AqException x) {
                    assertThat(x.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                    return out;
                }
            }
        }
    }

    @Test
    void each_node_propagates_the_buffered_messages_of_its_own_memory_whichever_node_holds_the_schedule() {
        assertThat(holder.admin().propagationSchedule(SRC_Q, null).processName()).isEqualTo(holder.propagator().nodeName());
        try (QueueSession s = other.openSession()) {
            s.enqueue(SRC_Q, BUFFERED, Message.of("from the other node"));
        }
        try (QueueSession s = holder.openSession()) {
            s.enqueue(SRC_Q, BUFFERED, Message.of("from the holder"));
        }

        other.propagator().runDue();
        holder.propagator().runDue();

        assertThat(drainBuffered(other)).containsExactly("from the other node");
        assertThat(drainBuffered(holder)).containsExactly("from the holder");
        PropagationSchedule s = holder.admin().propagationSchedule(SRC_Q, null);
        assertThat(s.processName()).as("the schedule stayed where it was").isEqualTo(holder.propagator().nodeName());
        assertThat(s.totalNumber()).as("both nodes count in the schedule").isEqualTo(2);
        assertThat(s.failures()).isZero();
    }
}
