package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.BufferedQueueInfo;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.Visibility;
import io.aqueduct.connector.TransactedEndpoints.Outcome;
import io.aqueduct.connector.inbound.AqActivationSpec;
import io.aqueduct.connector.jms.JmsActivationSpec;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buffered messages to MDBs, the container faked: the activation's {@code deliveryMode} says which
 * messages a bean gets (native MDBs PERSISTENT by default, as AQ's dequeue; JMS MDBs
 * PERSISTENT_OR_BUFFERED, so NON_PERSISTENT messages arrive). A buffered message is removed at its
 * dequeue, outside the delivery's transaction: when the bean fails on it, it is not delivered again.
 */
class BufferedDeliveryTest {
    static final String QUEUE = "BD_Q";
    static final String JMS_QUEUE = "BD_JQ";
    static final String DEFINITIONS = "table BD_QTAB payload=TEXT sort=priority,enq_time;"
            + " queue " + QUEUE + " table=BD_QTAB max_retries=3 retry_delay=0;"
            + " table BD_JQTAB payload=RAW sort=priority,enq_time; queue " + JMS_QUEUE + " table=BD_JQTAB retry_delay=0";
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);

    @TempDir
    Path store;
    private RunningAdapter ra;

    @BeforeEach
    void startAdapter() throws ResourceException {
        ra = RunningAdapter.onDerby(store, DEFINITIONS);
    }

    @AfterEach
    void stopAdapter() {
        ra.close();
        assertThat(ra.workManager.releaseAll()).as("threads of the adapter's work still running after stop()").isEmpty();
        assertThat(ra.workManager.failures()).as("what the adapter's work threw to the WorkManager").isEmpty();
    }

    private void enqueueBuffered(String queue, String text) throws ResourceException {
        try (QueueSession s = ra.adapter.engine().openSession()) {
            s.enqueue(queue, BUFFERED, Message.of(text));
        }
    }

    private long buffered(String queue) throws ResourceException {
        return ra.adapter.engine().admin().bufferedQueues().stream().filter(b -> b.name().equals(queue))
                .mapToLong(BufferedQueueInfo::messages).sum();
    }

    private TransactedEndpoints activateNative(String deliveryMode, TransactedEndpoints.Bean bean) throws ResourceException {
        TransactedEndpoints endpoints = new TransactedEndpoints(bean);
        AqActivationSpec spec = ra.spec(QUEUE, 1);
        if (deliveryMode != null) {
            spec.setDeliveryMode(deliveryMode);
        }
        spec.validate();
        return ra.activate(spec, endpoints);
    }

    @Test
    void a_native_mdb_gets_persistent_messages_only_unless_its_delivery_mode_says_otherwise() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        TransactedEndpoints mdb = activateNative(null, m -> heard.add(m.text()));
        enqueueBuffered(QUEUE, "in memory");
        ra.enqueue(QUEUE, List.of("stored"));

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 1);
        assertThat(heard).containsExactly("stored");
        assertThat(buffered(QUEUE)).as("left for a consumer of buffered messages").isEqualTo(1);
    }

    @Test
    void a_native_mdb_with_persistent_or_buffered_gets_both_kinds_and_a_buffered_one_at_once() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        TransactedEndpoints mdb = activateNative("persistent_or_buffered",
                m -> heard.add(m.text() + " " + m.properties().deliveryMode()));
        ra.enqueue(QUEUE, List.of("stored"));
        await().atMost(PATIENCE).until(() -> heard.size() == 1);
        enqueueBuffered(QUEUE, "in memory"); // the waiting worker is woken by the buffered enqueue itself

        await().atMost(PATIENCE).until(() -> heard.size() == 2);
        assertThat(heard).containsExactly("stored PERSISTENT", "in memory BUFFERED");
        assertThat(mdb.committed()).hasSize(2);
        assertThat(buffered(QUEUE)).isZero();
    }

    @Test
    void a_buffered_message_the_mdb_fails_on_is_not_delivered_again_while_a_persistent_one_is() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<String> heard = new CopyOnWriteArrayList<>();
        TransactedEndpoints mdb = activateNative("PERSISTENT_OR_BUFFERED", m -> {
            calls.incrementAndGet();
            heard.add(m.text() + "/" + m.properties().attempts());
            if (m.text().startsWith("fails")) {
                throw new IllegalStateException("the bean fails on " + m.text());
            }
        });
        enqueueBuffered(QUEUE, "fails, buffered");
        await().atMost(PATIENCE).until(() -> calls.get() == 1);
        ra.enqueue(QUEUE, List.of("fails, stored"));
        await().atMost(PATIENCE).until(() -> heard.stream().filter(h -> h.startsWith("fails, stored")).count() == 4);
        ra.enqueue(QUEUE, List.of("fine"));
        await().atMost(PATIENCE).until(() -> heard.contains("fine/0"));

        // the persistent one: tried 1 + max_retries times; the buffered one: once, then gone
        assertThat(heard).filteredOn(h -> h.startsWith("fails, buffered")).containsExactly("fails, buffered/0");
        assertThat(heard).filteredOn(h -> h.startsWith("fails, stored"))
                .containsExactly("fails, stored/0", "fails, stored/1", "fails, stored/2", "fails, stored/3");
        assertThat(mdb.deliveriesOf("fails, buffered")).extracting(TransactedEndpoints.Delivery::outcome)
                .containsExactly(Outcome.ROLLED_BACK);
        assertThat(buffered(QUEUE)).isZero();
    }

    @Test
    void a_bean_managed_mdb_that_fails_on_a_buffered_message_does_not_get_it_again() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AqActivationSpec spec = ra.spec(QUEUE, 1);
        spec.setDeliveryMode("BUFFERED");
        ra.activate(spec, new TransactedEndpoints(m -> {
            calls.incrementAndGet();
            if (m.text().equals("fails")) {
                throw new IllegalStateException("the bean fails");
            }
        }, false));
        enqueueBuffered(QUEUE, "fails");
        await().atMost(PATIENCE).until(() -> calls.get() == 1);
        enqueueBuffered(QUEUE, "next");

        await().atMost(PATIENCE).until(() -> calls.get() == 2);
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> calls.get() == 2);
        assertThat(buffered(QUEUE)).isZero();
    }

    @Test
    void a_buffered_mdb_on_a_queue_whose_table_groups_by_transaction_fails_the_deployment() throws Exception {
        try (QueueSession s = ra.adapter.engine().openSession()) {
            s.admin().createQueueTable("BD_GQTAB", io.aqueduct.api.QueueTableProperties.create()
                    .payloadType(io.aqueduct.api.PayloadType.TEXT).messageGrouping(io.aqueduct.api.MessageGrouping.TRANSACTIONAL));
            s.admin().createQueue("BD_GQ", "BD_GQTAB", io.aqueduct.api.QueueProperties.create());
            s.admin().startQueue("BD_GQ", true, true);
        }
        AqActivationSpec spec = ra.spec("BD_GQ", 1);
        spec.setDeliveryMode("BUFFERED");
        assertThatThrownBy(() -> ra.activate(spec, new TransactedEndpoints(m -> { })))
                .isInstanceOf(ResourceException.class).hasMessageContaining("AQ-25292");
    }

    @Test
    void a_buffered_only_native_mdb_leaves_persistent_messages_alone() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        activateNative("BUFFERED", m -> heard.add(m.text()));
        ra.enqueue(QUEUE, List.of("stored"));
        enqueueBuffered(QUEUE, "in memory");

        await().atMost(PATIENCE).until(() -> heard.size() == 1);
        assertThat(heard).containsExactly("in memory");
        assertThat(ra.browse(QUEUE)).hasSize(1);
    }

    @Test
    void a_jms_mdb_gets_non_persistent_messages_by_default() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        JmsActivationSpec spec = new JmsActivationSpec();
        spec.setDestination(JMS_QUEUE);
        spec.validate();
        ra.activate(spec, TransactedEndpoints.jms(m -> heard.add(((TextMessage) m).getText() + " "
                + (m.getJMSDeliveryMode() == jakarta.jms.DeliveryMode.NON_PERSISTENT ? "NON_PERSISTENT" : "PERSISTENT")),
                true));
        try (Connection c = new AqueductConnectionFactory(ra.adapter.engine()).createConnection();
                Session s = c.createSession()) {
            MessageProducer p = s.createProducer(s.createQueue(JMS_QUEUE));
            p.send(s.createTextMessage("fast"), jakarta.jms.DeliveryMode.NON_PERSISTENT, 4, 0);
            p.send(s.createTextMessage("safe"), jakarta.jms.DeliveryMode.PERSISTENT, 4, 0);
        }

        await().atMost(PATIENCE).until(() -> heard.size() == 2);
        assertThat(heard).containsExactlyInAnyOrder("fast NON_PERSISTENT", "safe PERSISTENT");
        assertThat(buffered(JMS_QUEUE)).isZero();
    }

    @Test
    void a_delivery_mode_that_names_none_fails_the_deployment_naming_the_property() {
        AqActivationSpec aq = new AqActivationSpec();
        aq.setQueueName(QUEUE);
        aq.setDeliveryMode("NON_PERSISTENT");
        assertThatThrownBy(aq::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("deliveryMode 'NON_PERSISTENT' is not PERSISTENT, BUFFERED or PERSISTENT_OR_BUFFERED");
        JmsActivationSpec jms = new JmsActivationSpec();
        jms.setDestination(JMS_QUEUE);
        jms.setDeliveryMode("sometimes");
        assertThatThrownBy(jms::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("deliveryMode 'sometimes'");
    }
}
