package io.aqueduct.engine.buffered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DeliveryMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Visibility;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.EngineFixture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The memory bound of buffered messages (maxBufferedBytes): a full engine makes enqueuers wait for
 * dequeues, up to bufferedEnqueueWaitMillis on the engine's clock, then refuses them with 25307 and
 * enqueues nothing.
 */
class BufferedFlowControlTest extends EngineFixture {
    private static final String Q = "TELEMETRY_Q";
    /** Two 1000-byte messages fit (each counts 1000 + 256 bytes), a third does not. */
    private static final long LIMIT = 3000;
    private static final long WAIT_MS = 60_000;
    private static final EnqueueOptions BUFFERED = EnqueueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE);
    private static final DequeueOptions TAKE = DequeueOptions.create().deliveryMode(DeliveryMode.BUFFERED)
            .visibility(Visibility.IMMEDIATE).waitSeconds(DequeueOptions.NO_WAIT);

    @Override
    protected void configure(AqueductEngine.Builder builder) {
        builder.maxBufferedBytes(LIMIT).bufferedEnqueueWaitMillis(WAIT_MS);
    }

    @BeforeEach
    void createQueue() {
        startedQueue(Q, "TELEMETRY_QT", QueueTableProperties.create().payloadType(PayloadType.RAW), QueueProperties.create());
    }

    private static Message reading(int n) {
        byte[] payload = new byte[1000];
        payload[0] = (byte) n;
        return Message.of(payload);
    }

    /** Runs a buffered enqueue in a thread of its own; returns once it waits for memory (or has ended). */
    private FutureTask<MessageId> enqueueInThread(Message m) {
        FutureTask<MessageId> task = new FutureTask<>(() -> {
            try (QueueSession own = engine.openSession()) {
                return own.enqueue(Q, BUFFERED, m);
            }
        });
        Thread t = new Thread(task, "flow-controlled-enqueuer");
        t.setDaemon(true);
        t.start();
        await().atMost(10, TimeUnit.SECONDS).until(() -> t.getState() == Thread.State.TIMED_WAITING || task.isDone());
        return task;
    }

    private long bytesInMemory() {
        return admin.bufferedQueues().stream().mapToLong(b -> b.bytes()).sum();
    }

    @Test
    void a_full_engine_holds_an_enqueuer_back_until_a_dequeue_frees_room() throws Exception {
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, reading(1));
        s.enqueue(Q, BUFFERED, reading(2));
        assertThat(bytesInMemory()).isEqualTo(2 * (1000 + BufferedMessages.MESSAGE_OVERHEAD));

        FutureTask<MessageId> third = enqueueInThread(reading(3));
        assertThat(third.isDone()).as("waits for memory").isFalse();
        assertThat(s.dequeue(Q, TAKE).payload(byte[].class)[0]).isEqualTo((byte) 1);
        third.get(10, TimeUnit.SECONDS);
        assertThat(s.dequeue(Q, TAKE).payload(byte[].class)[0]).isEqualTo((byte) 2);
        assertThat(s.dequeue(Q, TAKE).payload(byte[].class)[0]).isEqualTo((byte) 3);
    }

    @Test
    void an_enqueuer_still_waiting_when_its_wait_ends_gets_25307_and_nothing_is_enqueued() throws Exception {
        QueueSession s = session();
        s.enqueue(Q, BUFFERED, reading(1));
        s.enqueue(Q, BUFFERED, reading(2));
        FutureTask<MessageId> third = enqueueInThread(reading(3));

        clock.advance(java.time.Duration.ofMillis(WAIT_MS));
        AqException refused = (AqException) org.assertj.core.api.Assertions.catchThrowable(() -> third.get(10, TimeUnit.SECONDS))
                .getCause();
        assertThat(refused.errorCode()).isEqualTo(AqError.FLOW_CONTROL);
        assertThat(refused.getMessage()).contains("maxBufferedBytes").contains("Nothing was enqueued");
        assertThat(admin.bufferedQueues().get(0).messages()).isEqualTo(2);
        assertThat(admin.bufferedQueues().get(0).enqueued()).isEqualTo(2);
    }

    @Test
    void a_message_larger_than_the_whole_limit_is_refused_at_once() {
        QueueSession s = session();
        AqException refused = expectError(AqError.FLOW_CONTROL, () -> s.enqueue(Q, BUFFERED, Message.of(new byte[4000])));
        assertThat(refused.getMessage()).contains("enqueue it as PERSISTENT");
        assertThat(admin.bufferedQueues()).isEmpty();
    }
}
