package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.connector.TransactedEndpoints.Delivery;
import io.aqueduct.connector.TransactedEndpoints.Outcome;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Message delivery to an MDB, the container faked: the adapter on embedded Derby, its queues
 * declared in its {@code queueDefinitions}, an activation delivering inside the container's XA
 * transactions. Every message arrives once; a delivery the bean fails is a failed attempt, retried
 * with attempts() + 1, and past max_retries the message is in the exception queue.
 */
class DeliveryTest {
    static final String QUEUE = "DT_Q";
    static final String EXCEPTION_QUEUE = "AQ$_DT_QTAB_E";
    static final int MAX_RETRIES = 2;
    /** What an administrator would configure: the table, the queue, the exception queue started for dequeue. */
    static final String DEFINITIONS = "table DT_QTAB payload=TEXT comment=\"connector tests; delivery\";"
            + " queue " + QUEUE + " table=DT_QTAB max_retries=" + MAX_RETRIES + " retry_delay=0;"
            + " queue " + EXCEPTION_QUEUE + " table=DT_QTAB";
    private static final Duration PATIENCE = Duration.ofSeconds(30);

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

    @Test
    void the_queues_the_adapter_was_configured_with_exist_and_are_started() throws ResourceException {
        var admin = ra.adapter.engine().admin();
        assertThat(admin.queue(QUEUE).maxRetries()).isEqualTo(MAX_RETRIES);
        assertThat(admin.queue(QUEUE).enqueueEnabled()).isTrue();
        assertThat(admin.queue(QUEUE).dequeueEnabled()).isTrue();
        assertThat(admin.queue(EXCEPTION_QUEUE).dequeueEnabled()).isTrue();
        assertThat(admin.queueTable("DT_QTAB").comment()).isEqualTo("connector tests; delivery");
    }

    @Test
    void an_activation_with_two_sessions_delivers_every_message_exactly_once() throws ResourceException {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> { });
        List<String> texts = IntStream.range(0, 100).mapToObj(i -> "order " + i).toList();

        List<MessageId> ids = ra.enqueue(QUEUE, texts);

        await().atMost(PATIENCE).until(() -> mdb.committed().size() >= texts.size());
        assertThat(mdb.committedCounts()).as("committed deliveries by text")
                .isEqualTo(texts.stream().collect(Collectors.toMap(t -> t, t -> 1L)));
        assertThat(mdb.deliveries()).as("every delivery committed the first time").allSatisfy(d -> {
            assertThat(d.outcome()).isEqualTo(Outcome.COMMITTED);
            assertThat(d.attempts()).isZero();
        });
        assertThat(mdb.committed().stream().map(Delivery::id)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(ra.browse(QUEUE)).as("the queue after delivery").isEmpty();
        assertThat(mdb.containerErrors()).isEmpty();
        System.out.println("[DeliveryTest] 100 messages by session thread: " + mdb.deliveries().stream()
                .collect(Collectors.groupingBy(Delivery::thread, Collectors.counting())));
    }

    @Test
    void two_sessions_deliver_two_messages_at_the_same_time() throws Exception {
        CountDownLatch bothInOnMessage = new CountDownLatch(2);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                bothInOnMessage.countDown();
                bothInOnMessage.await(10, TimeUnit.SECONDS); // one session alone would wait here in vain
            } finally {
                inFlight.decrementAndGet();
            }
        });

        ra.enqueue(QUEUE, List.of("first", "second"));

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 2);
        assertThat(mostInFlight.get()).as("messages in onMessage at the same time").isEqualTo(2);
        assertThat(mdb.deliveries().stream().map(Delivery::thread).distinct()).hasSize(2);
    }

    @Test
    void an_activation_is_an_MBean_counting_its_deliveries_and_failures_until_it_is_deactivated() throws Exception {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            if (m.properties().attempts() == 0 && m.text().equals("throws once")) {
                throw new IllegalStateException("the bean fails the first time");
            }
        });
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        java.util.Set<javax.management.ObjectName> names = server.queryNames(
                new javax.management.ObjectName("io.aqueduct:type=Activation,queue=" + javax.management.ObjectName.quote(QUEUE) + ",*"),
                null);
        assertThat(names).hasSize(1);
        javax.management.ObjectName name = names.iterator().next();

        ra.enqueue(QUEUE, List.of("throws once", "fine"));

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 2);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(server.getAttribute(name, "InFlight")).isEqualTo(0));
        assertThat(server.getAttribute(name, "Queue")).isEqualTo(QUEUE);
        assertThat(server.getAttribute(name, "Sessions")).isEqualTo(2);
        assertThat(server.getAttribute(name, "Deliveries")).isEqualTo(3L);
        assertThat(server.getAttribute(name, "Failures")).isEqualTo(1L);
        assertThat(server.getAttribute(name, "WorkersRunning")).as("both workers in their loop").isEqualTo(2);
        assertThat(server.getAttribute(name, "WorkersFailing")).isEqualTo(0);
        // the queue's MBean saw the same: two dequeues committed, one rolled back
        javax.management.ObjectName queue = server.queryNames(new javax.management.ObjectName(
                "io.aqueduct:type=Queue,name=" + javax.management.ObjectName.quote("APP." + QUEUE) + ",*"), null).iterator().next();
        assertThat(server.getAttribute(queue, "Dequeued")).isEqualTo(2L);
        assertThat(server.getAttribute(queue, "FailedAttempts")).isEqualTo(1L);

        ra.deactivate(mdb);
        assertThat(server.isRegistered(name)).isFalse();
    }

    @Test
    void a_message_whose_delivery_failed_comes_back_with_one_more_attempt() throws ResourceException {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            if (m.properties().attempts() == 0 && m.text().equals("throws once")) {
                throw new IllegalStateException("the bean fails the first time");
            }
            if (m.properties().attempts() == 0 && m.text().equals("rolled back once")) {
                TransactedEndpoints.setRollbackOnly(); // MessageDrivenContext.setRollbackOnly(), no exception
            }
        });

        List<MessageId> ids = ra.enqueue(QUEUE, List.of("throws once", "rolled back once", "fine"));

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 3);
        for (int i = 0; i < 2; i++) {
            String text = List.of("throws once", "rolled back once").get(i);
            List<Delivery> attempts = mdb.deliveriesOf(text);
            assertThat(attempts).as(text).extracting(Delivery::attempts, Delivery::outcome)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, Outcome.ROLLED_BACK),
                            org.assertj.core.groups.Tuple.tuple(1, Outcome.COMMITTED));
            assertThat(attempts).as(text + ": the same message both times").extracting(Delivery::id).containsOnly(ids.get(i));
        }
        assertThat(mdb.deliveriesOf("fine")).extracting(Delivery::attempts, Delivery::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, Outcome.COMMITTED));
        assertThat(ra.browse(QUEUE)).isEmpty();
        assertThat(ra.browse(EXCEPTION_QUEUE)).isEmpty();
    }

    @Test
    void past_max_retries_a_message_the_bean_always_fails_is_moved_to_the_exception_queue() throws ResourceException {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            if (m.text().equals("poison")) {
                throw new IllegalArgumentException("the bean cannot process this message");
            }
        });

        MessageId poison = ra.enqueue(QUEUE, List.of("poison", "fine")).get(0);

        // the third rollback moves it (inside the container's rollback call, which the container records after)
        await().atMost(PATIENCE).until(() -> mdb.deliveriesOf("poison").size() == MAX_RETRIES + 1
                && !ra.browse(EXCEPTION_QUEUE).isEmpty());
        List<Message> failed = ra.browse(EXCEPTION_QUEUE);
        assertThat(failed).extracting(Message::text).containsExactly("poison");
        assertThat(failed.get(0).id()).isEqualTo(poison);
        // max_retries = 2: the first delivery and two retries, each rolled back, each one attempt more
        assertThat(mdb.deliveriesOf("poison")).extracting(Delivery::attempts).containsExactly(0, 1, 2);
        assertThat(mdb.deliveriesOf("poison")).extracting(Delivery::outcome).containsOnly(Outcome.ROLLED_BACK);
        assertThat(failed.get(0).properties().attempts()).as("attempts of the message in the exception queue")
                .isEqualTo(MAX_RETRIES + 1);
        assertThat(mdb.committedCounts()).isEqualTo(Map.of("fine", 1L));
        assertThat(ra.browse(QUEUE)).as("the queue after delivery").isEmpty();
    }

    @Test
    void a_bean_managed_mdb_gets_each_message_in_the_adapters_own_transaction_with_the_same_retry_semantics() throws ResourceException {
        TransactedEndpoints mdb = ra.activate(QUEUE, 1, new TransactedEndpoints(m -> {
            if (m.properties().attempts() == 0 && m.text().equals("throws once")) {
                throw new IllegalStateException("the bean fails the first time");
            }
        }, false));

        ra.enqueue(QUEUE, List.of("throws once", "fine"));

        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 2);
        assertThat(mdb.deliveriesOf("throws once")).extracting(Delivery::attempts, Delivery::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, Outcome.ROLLED_BACK),
                        org.assertj.core.groups.Tuple.tuple(1, Outcome.COMMITTED));
        assertThat(mdb.deliveriesOf("fine")).extracting(Delivery::attempts).containsExactly(0);
        await().atMost(PATIENCE).until(() -> ra.browse(QUEUE).isEmpty()); // the adapter commits after onMessage returns
        assertThat(mdb.containerErrors()).isEmpty();
    }

    @Test
    void stopping_the_adapter_during_a_delivery_lets_it_finish_and_the_message_is_not_delivered_again() throws Exception {
        CountDownLatch inOnMessage = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> {
            inOnMessage.countDown();
            finish.await(30, TimeUnit.SECONDS);
        });
        ra.enqueue(QUEUE, List.of("in hand at stop", "still queued"));
        assertThat(inOnMessage.await(30, TimeUnit.SECONDS)).isTrue();

        Thread undeploy = new Thread(ra::close, "undeploy");
        undeploy.start(); // the container undeploys the adapter while the bean works
        // stop() has begun: it waits for the delivery sessions to leave
        await().atMost(PATIENCE).until(() -> undeploy.getState() == Thread.State.TIMED_WAITING
                && java.util.Arrays.stream(undeploy.getStackTrace()).anyMatch(f -> f.getMethodName().equals("stop")
                        && f.getClassName().endsWith("DeliveryActivation")));
        finish.countDown();
        undeploy.join(TimeUnit.SECONDS.toMillis(40));
        assertThat(undeploy.isAlive()).as("stop() returned").isFalse();

        List<String> handedOut = mdb.deliveries().stream().map(Delivery::text).toList();
        assertThat(mdb.deliveries()).as("deliveries in progress at stop() were finished and committed")
                .allSatisfy(d -> assertThat(d.outcome()).isEqualTo(Outcome.COMMITTED));
        try (RunningAdapter again = RunningAdapter.onDerby(store, DEFINITIONS)) {
            List<String> left = again.browse(QUEUE).stream().map(Message::text).toList();
            assertThat(left).as("what is left after the restart: exactly the messages not delivered")
                    .containsExactlyInAnyOrderElementsOf(java.util.stream.Stream.of("in hand at stop", "still queued")
                            .filter(t -> !handedOut.contains(t)).toList());
        }
    }

    @Test
    void a_worker_keeps_its_endpoint_while_deliveries_go_well_and_takes_a_fresh_one_after_the_bean_failed()
            throws ResourceException {
        AtomicInteger failures = new AtomicInteger();
        TransactedEndpoints mdb = ra.activate(QUEUE, 1, m -> {
            if (m.text().equals("fails once") && failures.getAndIncrement() == 0) {
                throw new IllegalStateException("the bean fails");
            }
        });
        ra.enqueue(QUEUE, IntStream.range(0, 20).mapToObj(i -> "order " + i).toList());
        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 20);
        // one endpoint made for the first delivery, none for the other 19
        assertThat(mdb.endpointsCreated()).isEqualTo(1);
        assertThat(mdb.endpointsReleased()).isZero();

        ra.enqueue(QUEUE, List.of("fails once"));
        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 21);
        // the container may have discarded the failed bean: its endpoint was released, the retry had a new one
        assertThat(mdb.deliveriesOf("fails once")).extracting(Delivery::outcome)
                .containsExactly(Outcome.ROLLED_BACK, Outcome.COMMITTED);
        assertThat(mdb.endpointsCreated()).isEqualTo(2);
        assertThat(mdb.endpointsReleased()).isEqualTo(1);

        ra.deactivate(mdb);
        assertThat(mdb.endpointsReleased()).isEqualTo(mdb.endpointsCreated());
    }

    @Test
    void after_deactivation_nothing_more_is_delivered_and_every_endpoint_is_released() throws ResourceException {
        TransactedEndpoints mdb = ra.activate(QUEUE, 2, m -> { });
        ra.enqueue(QUEUE, List.of("before"));
        await().atMost(PATIENCE).until(() -> mdb.committed().size() == 1);

        ra.deactivate(mdb); // returns once the delivery sessions have left
        ra.enqueue(QUEUE, List.of("after"));

        assertThat(ra.browse(QUEUE)).extracting(Message::text).containsExactly("after");
        assertThat(mdb.committedCounts()).isEqualTo(Map.of("before", 1L));
        assertThat(mdb.endpointsReleased()).isEqualTo(mdb.endpointsCreated());
    }

    @Test
    void an_activation_config_naming_no_queue_or_zero_sessions_is_refused_with_the_reason() throws ResourceException {
        var endpoints = new TransactedEndpoints(m -> { });
        assertThatThrownBy(() -> ra.adapter.endpointActivation(endpoints, ra.spec("NO_SUCH_Q", 1)))
                .isInstanceOf(ResourceException.class)
                .hasMessageContaining("NO_SUCH_Q").hasMessageContaining("names no existing queue");
        assertThatThrownBy(() -> ra.adapter.endpointActivation(endpoints, ra.spec(QUEUE, 0)))
                .isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("maxSessions must be 1 or more");
        assertThat(endpoints.endpointsCreated()).isZero();
    }
}
