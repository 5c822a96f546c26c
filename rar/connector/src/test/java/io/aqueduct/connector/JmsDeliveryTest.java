package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.connector.TransactedEndpoints.Delivery;
import io.aqueduct.connector.TransactedEndpoints.Outcome;
import io.aqueduct.connector.jms.JmsActivationSpec;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MessageListener MDBs through the adapter, the container faked: what the standard activation
 * properties select, delivery in the container's transaction with AQ's retries (JMSRedelivered,
 * JMSXDeliveryCount, the exception queue), durable and non-durable topic subscriptions, and the
 * activation configs that fail the deployment, naming the property.
 */
class JmsDeliveryTest {
    static final String QUEUE = "JT_Q";
    static final String TOPIC = "JT_T";
    static final String EXCEPTION_QUEUE = "AQ$_JT_QTAB_E";
    static final String NATIVE_QUEUE = "JT_NATIVE_Q";
    static final int MAX_RETRIES = 2;
    static final String DEFINITIONS = "table JT_QTAB payload=RAW sort=priority,enq_time;"
            + " queue " + QUEUE + " table=JT_QTAB max_retries=" + MAX_RETRIES + " retry_delay=0;"
            + " queue " + EXCEPTION_QUEUE + " table=JT_QTAB;"
            + " table JT_MQTAB payload=RAW sort=priority,enq_time multiple_consumers=true;"
            + " queue " + TOPIC + " table=JT_MQTAB;"
            + " subscriber " + TOPIC + " name=AUDIT;"
            + " table JT_NQTAB payload=TEXT; queue " + NATIVE_QUEUE + " table=JT_NQTAB";
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path store;
    private RunningAdapter ra;
    private Connection client;

    @BeforeEach
    void startAdapter() throws Exception {
        ra = RunningAdapter.onDerby(store, DEFINITIONS);
        client = new AqueductConnectionFactory(ra.adapter.engine()).createConnection();
    }

    @AfterEach
    void stopAdapter() throws JMSException {
        client.close();
        ra.close();
        assertThat(ra.workManager.releaseAll()).as("threads of the adapter's work still running after stop()").isEmpty();
        assertThat(ra.workManager.failures()).as("what the adapter's work threw to the WorkManager").isEmpty();
    }

    // ------------------------------------------------------------------ queues

    @Test
    void a_queue_mdb_receives_each_message_once_as_the_text_message_that_was_sent() throws Exception {
        TransactedEndpoints mdb = activate(spec(s -> s.setDestination(QUEUE)), m -> { });

        send(QUEUE, "one", "two", "three");

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 3);
        assertThat(mdb.committed()).extracting(Delivery::text, Delivery::attempts)
                .containsExactlyInAnyOrder(tuple("one", 0), tuple("two", 0), tuple("three", 0));
        assertThat(ra.browse(QUEUE)).isEmpty();
    }

    @Test
    void a_failed_delivery_comes_back_redelivered_with_a_higher_delivery_count_and_past_max_retries_moves_to_the_exception_queue()
            throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        TransactedEndpoints mdb = activate(spec(s -> s.setDestination(QUEUE)), m -> {
            String text = ((TextMessage) m).getText();
            seen.add(text + "/" + m.getIntProperty("JMSXDeliveryCount") + "/" + m.getJMSRedelivered());
            if (text.equals("poison") || (text.equals("throws once") && !m.getJMSRedelivered())) {
                throw new IllegalStateException("the bean fails");
            }
            if (text.equals("rolled back once") && !m.getJMSRedelivered()) {
                TransactedEndpoints.setRollbackOnly();
            }
        });

        send(QUEUE, "throws once", "rolled back once", "poison");

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 2 && !ra.browse(EXCEPTION_QUEUE).isEmpty());
        assertThat(seen).contains("throws once/1/false", "throws once/2/true", "rolled back once/1/false",
                "rolled back once/2/true", "poison/1/false", "poison/2/true", "poison/3/true");
        assertThat(mdb.deliveriesOf("poison")).extracting(Delivery::outcome).containsOnly(Outcome.ROLLED_BACK).hasSize(MAX_RETRIES + 1);
        assertThat(ra.browse(EXCEPTION_QUEUE)).hasSize(1);
        assertThat(ra.browse(QUEUE)).isEmpty();
    }

    @Test
    void a_bean_managed_mdb_acknowledges_after_on_message_and_a_throw_has_the_message_delivered_again() throws Exception {
        TransactedEndpoints mdb = ra.activate(spec(s -> s.setDestination(QUEUE)), TransactedEndpoints.jms(m -> {
            if (!m.getJMSRedelivered()) {
                throw new IllegalStateException("first time");
            }
        }, false));

        send(QUEUE, "again");

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 1);
        assertThat(mdb.deliveriesOf("again")).extracting(Delivery::attempts, Delivery::outcome)
                .containsExactly(tuple(0, Outcome.ROLLED_BACK), tuple(1, Outcome.COMMITTED));
    }

    @Test
    void a_message_selector_delivers_what_it_selects_and_leaves_the_rest_in_the_queue() throws Exception {
        TransactedEndpoints mdb = activate(spec(s -> {
            s.setDestination(QUEUE);
            s.setDestinationType("jakarta.jms.Queue");
            s.setMessageSelector("region = 'WEST'");
        }), m -> { });

        sendWithRegion(QUEUE, "west 1", "WEST");
        sendWithRegion(QUEUE, "east 1", "EAST");
        sendWithRegion(QUEUE, "west 2", "WEST");

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 2);
        assertThat(mdb.committed()).extracting(Delivery::text).containsExactlyInAnyOrder("west 1", "west 2");
        assertThat(ra.browse(QUEUE)).extracting(Message::id).hasSize(1);
    }

    @Test
    void four_sessions_deliver_every_message_exactly_once() throws Exception {
        TransactedEndpoints mdb = activate(spec(s -> {
            s.setDestination(QUEUE);
            s.setMaxSessions(4);
        }), m -> { });

        String[] texts = IntStream.range(0, 200).mapToObj(i -> "m" + i).toArray(String[]::new);
        send(QUEUE, texts);

        await().atMost(PATIENCE).until(() -> mdb.committed().size() >= 200);
        assertThat(mdb.committedCounts()).hasSize(200);
        assertThat(mdb.duplicates()).isZero();
        assertThat(mdb.committed().stream().map(Delivery::thread).collect(Collectors.toSet())).as("delivery threads").hasSizeGreaterThan(1);
    }

    @Test
    void native_and_jms_listener_mdbs_run_side_by_side() throws Exception {
        TransactedEndpoints jms = activate(spec(s -> s.setDestination(QUEUE)), m -> { });
        TransactedEndpoints aq = ra.activate(NATIVE_QUEUE, 1, m -> { });

        send(QUEUE, "to the jms mdb");
        ra.enqueue(NATIVE_QUEUE, List.of("to the native mdb"));

        await().atMost(PATIENCE).until(() -> jms.committed().size() == 1 && aq.committed().size() == 1);
        assertThat(jms.committed()).extracting(Delivery::text).containsExactly("to the jms mdb");
        assertThat(aq.committed()).extracting(Delivery::text).containsExactly("to the native mdb");
    }

    // ------------------------------------------------------------------ topics

    @Test
    void a_durable_subscription_keeps_what_is_published_while_its_mdb_is_not_deployed() throws Exception {
        Consumer<JmsActivationSpec> durable = s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Durable");
            s.setSubscriptionName("billing");
            s.setClientId("booksonline");
        };
        TransactedEndpoints first = activate(spec(durable), m -> { });
        send(TOPIC, "while deployed");
        await().atMost(PATIENCE).until(() -> first.committed().size() == 1);
        ra.deactivate(first);

        send(TOPIC, "while undeployed");

        TransactedEndpoints second = activate(spec(durable), m -> { });
        await().atMost(PATIENCE).until(() -> second.committed().size() == 1);
        assertThat(second.committed()).extracting(Delivery::text).containsExactly("while undeployed");
    }

    @Test
    void a_non_durable_subscription_ends_with_its_activation_and_misses_what_is_published_meanwhile() throws Exception {
        TransactedEndpoints first = activate(spec(s -> s.setDestination(TOPIC)), m -> { });
        send(TOPIC, "while deployed");
        await().atMost(PATIENCE).until(() -> first.committed().size() == 1);
        ra.deactivate(first);
        assertThat(subscribers(TOPIC)).as("subscribers after the non-durable MDB went").containsExactly("AUDIT");

        send(TOPIC, "while undeployed");

        TransactedEndpoints second = activate(spec(s -> s.setDestination(TOPIC)), m -> { });
        send(TOPIC, "after");
        await().atMost(PATIENCE).until(() -> second.committed().size() == 1);
        assertThat(second.committed()).extracting(Delivery::text).containsExactly("after");
        // AUDIT, the AQ subscriber, got all three: consumerName reads as it
        TransactedEndpoints audit = activate(spec(s -> {
            s.setDestination(TOPIC);
            s.setConsumerName("AUDIT");
        }), m -> { });
        await().atMost(PATIENCE).until(() -> audit.committed().size() == 3);
    }

    // ------------------------------------------------------------------ bad activation configs

    @Test
    void activation_configs_that_cannot_work_are_refused_naming_the_property() {
        assertRefused(s -> { }, "destinationLookup (a JNDI name) or destination");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setDestinationLookup("jms/Orders");
        }, "not both");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setDestinationType("jakarta.jms.Pipe");
        }, "destinationType 'jakarta.jms.Pipe'");
        assertRefused(s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Durable");
        }, "needs subscriptionName");
        assertRefused(s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Forever");
        }, "subscriptionDurability 'Forever'");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setAcknowledgeMode("Client-acknowledge");
        }, "acknowledgeMode 'Client-acknowledge'");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setMaxSessions(0);
        }, "maxSessions");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setCondition("priority = = 1");
        }, "condition 'priority = = 1' is malformed");
        // against the store
        assertRefused(s -> s.setDestination("NO_SUCH_Q"), "destination 'NO_SUCH_Q' names no existing AQ queue");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setMessageSelector("region = = 'WEST'");
        }, "messageSelector 'region = = 'WEST'' is malformed");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setDestinationType("jakarta.jms.Topic");
        }, "destinationType 'jakarta.jms.Topic' does not match destination 'JT_Q'");
        assertRefused(s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Durable");
            s.setSubscriptionName("billing");
        }, "needs clientId");
        assertRefused(s -> {
            s.setDestination(QUEUE);
            s.setConsumerName("AUDIT");
        }, "consumerName is for a Topic");
        assertThat(subscribers(TOPIC)).as("nothing subscribed by the refused activations").containsExactly("AUDIT");
    }

    @Test
    void an_unshared_durable_subscription_has_one_mdb_at_a_time_and_a_shared_one_splits_the_messages() throws Exception {
        Consumer<JmsActivationSpec> durable = s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Durable");
            s.setSubscriptionName("billing");
            s.setClientId("booksonline");
        };
        TransactedEndpoints first = activate(spec(durable), m -> { });
        assertRefused(durable, "clientId 'booksonline'");
        ra.deactivate(first);
        activate(spec(durable), m -> { });

        Consumer<JmsActivationSpec> shared = s -> {
            s.setDestination(TOPIC);
            s.setSubscriptionDurability("Durable");
            s.setSubscriptionName("shipping");
            s.setShareSubscriptions(true);
        };
        TransactedEndpoints a = activate(spec(shared), m -> { });
        TransactedEndpoints b = activate(spec(shared), m -> { });
        send(TOPIC, IntStream.range(0, 40).mapToObj(i -> "s" + i).toArray(String[]::new));
        await().atMost(PATIENCE).until(() -> a.committed().size() + b.committed().size() == 40);
        assertThat(a.committedCounts().keySet()).as("what the two MDBs of one shared subscription received")
                .doesNotContainAnyElementsOf(b.committedCounts().keySet());
    }

    // ------------------------------------------------------------------ helpers

    private void assertRefused(Consumer<JmsActivationSpec> config, String naming) {
        JmsActivationSpec s = spec(config);
        assertThatThrownBy(() -> activate(s, m -> { })).as(s.toString()).isInstanceOf(ResourceException.class)
                .hasMessageContaining(naming);
    }

    private JmsActivationSpec spec(Consumer<JmsActivationSpec> config) {
        JmsActivationSpec s = new JmsActivationSpec();
        config.accept(s);
        return s;
    }

    private TransactedEndpoints activate(JmsActivationSpec spec, TransactedEndpoints.JmsBean bean) throws ResourceException {
        return ra.activate(spec, TransactedEndpoints.jms(bean, true));
    }

    private void send(String queue, String... texts) throws JMSException {
        try (Session s = client.createSession(true, Session.SESSION_TRANSACTED)) {
            MessageProducer p = s.createProducer(queue.equals(TOPIC) ? s.createTopic(queue) : s.createQueue(queue));
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
            s.commit();
        }
    }

    private void sendWithRegion(String queue, String text, String region) throws JMSException {
        try (Session s = client.createSession()) {
            TextMessage m = s.createTextMessage(text);
            m.setStringProperty("region", region);
            s.createProducer(s.createQueue(queue)).send(m);
        }
    }

    private List<String> subscribers(String queue) {
        try (QueueSession s = ra.adapter.engine().openSession()) {
            return s.admin().subscribers(queue).stream().map(SubscriberInfo::agent).map(Agent::name).toList();
        } catch (ResourceException e) {
            throw new IllegalStateException(e);
        }
    }
}
