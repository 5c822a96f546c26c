package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** AQ's LISTEN (reference 000, "Listen Capability"): which agent has a message, without dequeuing it. */
class ListenTest extends EngineFixture {
    private static final Agent WEST = new Agent(null, "WEST_Q", 0);
    private static final Agent EAST = new Agent(null, "EAST_Q", 0);
    private static final Agent OVERSEAS_SHIPPING = new Agent("Overseas_Shipping", "TS_Q", 0);

    @BeforeEach
    void queues() {
        startedQueue("WEST_Q", "WEST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        startedQueue("EAST_Q", "EAST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.createQueueTable("TS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.createQueue("TS_Q", "TS_QT", QueueProperties.create());
        admin.startQueue("TS_Q", true, true);
        admin.addSubscriber("TS_Q", Agent.named("Overseas_Shipping"), null);
    }

    private void enqueueCommitted(String queue, String text) {
        QueueSession s = session();
        s.enqueue(queue, Message.of(text));
        s.commit();
    }

    @Test
    void listen_returns_the_agent_whose_queue_has_a_message_and_leaves_the_message_there() {
        enqueueCommitted("EAST_Q", "order 1");
        QueueSession s = session();

        assertThat(s.listen(List.of(WEST, EAST), DequeueOptions.NO_WAIT)).isEqualTo(EAST);
        assertThat(s.dequeue("EAST_Q", NO_WAIT).text()).isEqualTo("order 1");
    }

    @Test
    void listen_is_not_fair_the_first_agent_in_the_list_with_a_message_wins() {
        enqueueCommitted("WEST_Q", "w");
        enqueueCommitted("EAST_Q", "e");

        assertThat(session().listen(List.of(EAST, WEST), DequeueOptions.NO_WAIT)).isEqualTo(EAST);
        assertThat(session().listen(List.of(WEST, EAST), DequeueOptions.NO_WAIT)).isEqualTo(WEST);
    }

    @Test
    void listen_with_no_wait_on_empty_queues_reports_25254() {
        expectError(AqError.LISTEN_TIMEOUT, () -> session().listen(List.of(WEST, EAST), DequeueOptions.NO_WAIT));
    }

    @Test
    void listen_times_out_with_25254_when_the_clock_passes_its_wait() throws Exception {
        QueueSession s = session();
        FutureTask<Agent> listening = new FutureTask<>(() -> s.listen(List.of(WEST, EAST), 10));
        Thread t = new Thread(listening, "listener");
        t.setDaemon(true);
        t.start();
        Blocking.awaitBlocked(t, listening);

        clock.advanceSeconds(11);

        expectError(AqError.LISTEN_TIMEOUT, () -> {
            try {
                listening.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void a_blocked_listen_is_woken_by_the_commit_of_an_enqueue_not_before() throws Exception {
        QueueSession s = session();
        FutureTask<Agent> listening = new FutureTask<>(() -> s.listen(List.of(WEST, EAST), DequeueOptions.FOREVER));
        Thread t = new Thread(listening, "listener");
        t.setDaemon(true);
        t.start();
        Blocking.awaitBlocked(t, listening);

        QueueSession producer = session();
        producer.enqueue("WEST_Q", Message.of("late order"));
        Blocking.awaitBlocked(t, listening);
        assertThat(listening.isDone()).as("woken before the commit").isFalse();
        producer.commit();

        assertThat(listening.get(10, TimeUnit.SECONDS)).isEqualTo(WEST);
    }

    @Test
    void listen_on_a_multi_consumer_queue_answers_for_the_named_consumer_only() {
        QueueSession producer = session();
        producer.enqueue("TS_Q", Message.of("for DHL only",
                MessageProperties.create().recipients(List.of(Agent.named("Overseas_DHL")))));
        producer.commit();
        expectError(AqError.LISTEN_TIMEOUT, () -> session().listen(List.of(OVERSEAS_SHIPPING), DequeueOptions.NO_WAIT));

        enqueueCommitted("TS_Q", "for the subscribers");
        assertThat(session().listen(List.of(OVERSEAS_SHIPPING), DequeueOptions.NO_WAIT)).isEqualTo(OVERSEAS_SHIPPING);
    }

    @Test
    void listen_refuses_agents_it_cannot_listen_for() {
        QueueSession s = session();
        expectError(AqError.INVALID_VALUE, () -> s.listen(List.of(), DequeueOptions.NO_WAIT));
        expectError(AqError.INVALID_VALUE, () -> s.listen(List.of(Agent.named("NO_QUEUE")), DequeueOptions.NO_WAIT));
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.listen(List.of(new Agent(null, "NO_SUCH_Q", 0)), DequeueOptions.NO_WAIT));
        expectError(AqError.CONSUMER_NAME_REQUIRED, () -> s.listen(List.of(new Agent(null, "TS_Q", 0)), DequeueOptions.NO_WAIT));
        expectError(AqError.INVALID_VALUE, () -> s.listen(List.of(new Agent("X", "WEST_Q", 0)), DequeueOptions.NO_WAIT));
        expectError(AqError.INVALID_VALUE, () -> s.listen(List.of(WEST), -2));
    }
}
