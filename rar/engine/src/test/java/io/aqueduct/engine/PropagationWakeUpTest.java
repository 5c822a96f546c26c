package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reference 000, "Blocking dequeue": an application can wait on a remote queue, and the propagator
 * wakes it when it has propagated a message there. With latency 0 the engine's own propagation
 * loop moves a message as soon as the enqueue commits, without anyone driving it.
 */
class PropagationWakeUpTest extends MultiConsumerFixture {

    @Test
    void aDequeuerBlockedOnTheDestinationIsWokenByPropagation() throws Exception {
        multiConsumerQueue("OE_Q", "OE_MQTAB", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        startedQueue("WS_Q", "WS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.addSubscriber("OE_Q", new Agent(null, "WS_Q", 0), null);
        admin.schedulePropagation("OE_Q", null, null, null, null, 0);
        FutureTask<Message> waiting = blockedDequeue("WS_Q", DequeueOptions.create().waitSeconds(DequeueOptions.FOREVER));

        QueueSession s = session();
        s.enqueue("OE_Q", EnqueueOptions.create(), Message.of("booked"));
        s.commit();

        assertThat(waiting.get(30, TimeUnit.SECONDS).text()).isEqualTo("booked");
    }

    @Test
    void aDelayedMessageIsPropagatedWhenItsEnqueueCommitsAndWaitsTheRestAtTheDestination() {
        multiConsumerQueue("OE_Q", "OE_MQTAB", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        startedQueue("WS_Q", "WS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.addSubscriber("OE_Q", new Agent(null, "WS_Q", 0), null);
        admin.schedulePropagation("OE_Q", null, null, null, null, 0);
        QueueSession s = session();
        s.enqueue("OE_Q", EnqueueOptions.create(), Message.of("deferred billing",
                io.aqueduct.api.MessageProperties.create().delay(15 * 86_400)));
        s.commit();

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> admin.propagationSchedule("OE_Q", null).totalNumber() == 1);
        assertNoMessage(s, "WS_Q");
        clock.advance(java.time.Duration.ofDays(15));
        // the time manager makes it READY a moment after the clock moves: until then a dequeue finds nothing (25228)
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .ignoreExceptionsMatching(e -> e instanceof io.aqueduct.api.AqException aq && aq.errorCode() == 25228)
                .untilAsserted(() ->
                assertThat(s.dequeue("WS_Q", FIRST_NO_WAIT).text()).isEqualTo("deferred billing"));
        s.commit();
    }
}
