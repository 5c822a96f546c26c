package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.propagation.Propagator;
import io.aqueduct.engine.transformation.FailingTransformer;
import io.aqueduct.engine.transformation.ShoutingText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A schedule's timing on the controllable clock (reference 000, "Propagation Scheduling",
 * "Enhanced Propagation Scheduling Capabilities", "Exception Handling During Propagation"): its
 * windows, its latency, the backoff of 30 s, 60 s, 120 s ... after failures, disabling after 16 in
 * a row, and what moves with a message (delay and expiration less the time spent, transformation,
 * transaction groups); application errors make a message UNDELIVERABLE and propagation goes on.
 */
class PropagationScheduleTest extends MultiConsumerFixture {
    private static final String OE_Q = "OE_BOOKEDORDERS_QUE";
    private static final String WS_Q = "WS_BOOKEDORDERS_QUE";
    private static final String WEST = "West_Shipping";

    @Override
    protected boolean backgroundLoops() {
        return false;
    }

    @BeforeEach
    void queues() {
        multiConsumerQueue(OE_Q, "OE_ORDERS_MQTAB", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        startedQueue(WS_Q, "WS_ORDERS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        admin.addSubscriber(OE_Q, new Agent(WEST, WS_Q, 0), null);
    }

    private MessageId book(String text) {
        return book(text, MessageProperties.create());
    }

    private MessageId book(String text, MessageProperties p) {
        QueueSession s = session();
        MessageId id = s.enqueue(OE_Q, EnqueueOptions.create(), Message.of(text, p));
        s.commit();
        return id;
    }

    private List<String> shipped() {
        return drain(session(), WS_Q, FIRST_NO_WAIT);
    }

    private long propagate() {
        return engine.propagator().runDue();
    }

    private PropagationSchedule schedule() {
        return admin.propagationSchedule(OE_Q, null);
    }

    @Test
    void nothingMovesBeforeTheWindowStartsNorAfterTheOnlyWindowEnds() {
        Instant start = clock.now().plus(Duration.ofHours(1));
        admin.schedulePropagation(OE_Q, null, start, 300L, null, 0);
        book("early");
        propagate();
        assertThat(shipped()).isEmpty();
        assertThat(schedule().nextRun()).isEqualTo(start);

        clock.advance(Duration.ofHours(1));
        propagate();
        assertThat(shipped()).containsExactly("early");
        assertThat(schedule().currentStart()).isEqualTo(start);

        clock.advance(Duration.ofSeconds(300)); // the window is over, and no next_time: no other window
        book("late");
        propagate();
        assertThat(shipped()).isEmpty();
        assertThat(schedule().currentStart()).isNull();
        assertThat(schedule().nextRun()).isNull();
    }

    @Test
    void latencyLetsNewMessagesWaitThatLongAtMost() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 10);
        book("one");
        clock.advance(Duration.ofSeconds(9));
        propagate();
        assertThat(shipped()).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        propagate();
        assertThat(shipped()).containsExactly("one");
    }

    @Test
    void aStoppedDestinationFailsWith25207BacksOffAndRecoversWhenStarted() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        admin.stopQueue(WS_Q, true, false, false);
        book("order");
        Instant first = clock.now();
        propagate();
        PropagationSchedule failing = schedule();
        assertThat(failing.failures()).isEqualTo(1);
        assertThat(failing.lastErrorMessage()).contains("25207");
        assertThat(failing.lastErrorTime()).isEqualTo(first);
        assertThat(failing.nextRun()).isEqualTo(first.plusSeconds(30));

        clock.advance(Duration.ofSeconds(29));
        propagate();
        assertThat(schedule().failures()).as("still backing off").isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));
        propagate();
        assertThat(schedule().failures()).isEqualTo(2);
        assertThat(schedule().nextRun()).isEqualTo(clock.now().plusSeconds(60));

        admin.startQueue(WS_Q, true, true);
        clock.advance(Duration.ofSeconds(60));
        propagate();
        assertThat(shipped()).containsExactly("order");
        PropagationSchedule recovered = schedule();
        assertThat(recovered.failures()).as("a success resets the count").isZero();
        assertThat(recovered.lastErrorMessage()).isNull();
        assertThat(recovered.totalNumber()).isEqualTo(1);
    }

    @Test
    void theRetriesDoubleFrom30SecondsAndThe16thFailureDisablesTheSchedule() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        admin.stopQueue(WS_Q, true, false, false);
        book("order");
        List<Long> waits = new ArrayList<>();
        for (int failure = 1; failure <= Propagator.MAX_FAILURES; failure++) {
            long now = clock.millis();
            propagate();
            PropagationSchedule s = schedule();
            assertThat(s.failures()).isEqualTo(failure);
            if (s.nextRun() == null) {
                break;
            }
            long next = s.nextRun().toEpochMilli();
            waits.add((next - now) / 1000);
            clock.advance(Duration.ofMillis(next - now));
        }
        assertThat(waits.subList(0, 4)).containsExactly(30L, 60L, 120L, 240L);
        assertThat(waits).hasSize(Propagator.MAX_FAILURES - 1);
        PropagationSchedule disabled = schedule();
        assertThat(disabled.disabled()).isTrue();
        assertThat(disabled.failures()).isEqualTo(16);

        admin.startQueue(WS_Q, true, true);
        clock.advance(Duration.ofDays(365));
        propagate();
        assertThat(shipped()).as("a disabled schedule moves nothing").isEmpty();
        admin.enablePropagationSchedule(OE_Q, null);
        assertThat(schedule().failures()).isZero();
        propagate();
        assertThat(shipped()).containsExactly("order");
    }

    @Test
    void aRetryBeyondTheWindowWaitsForTheWindowAfterIt() {
        // with no next_time there is no window after: the retry waits forever (nothing planned)
        admin.schedulePropagation(OE_Q, null, null, 45L, null, 0);
        admin.stopQueue(WS_Q, true, false, false);
        book("order");
        propagate();
        assertThat(schedule().nextRun()).as("inside the window").isEqualTo(clock.now().plusSeconds(30));
        clock.advance(Duration.ofSeconds(30));
        propagate();
        assertThat(schedule().nextRun()).as("60 s would be past the 45 s window, and no window follows").isNull();
        assertThat(schedule().failures()).isEqualTo(2);
    }

    @Test
    void delayAndExpirationAreAdjustedForTheTimeSpentInTheSource() throws Exception {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        MessageId id = book("deferred", MessageProperties.create().delay(3600).expiration(600));
        clock.advance(Duration.ofMinutes(15));
        propagate();
        engine.timeManager().runDue();
        assertThat(viewRowOrNull("OE_ORDERS_MQTAB", id)).as("its only consumer has it: done at the source").isNull();
        QueueSession s = session();
        assertNoMessage(s, WS_Q);
        clock.advance(Duration.ofSeconds(2700 - 1));
        engine.timeManager().runDue();
        assertNoMessage(s, WS_Q);
        clock.advance(Duration.ofSeconds(1));
        engine.timeManager().runDue();
        Message m = s.dequeue(WS_Q, FIRST_NO_WAIT);
        assertThat(m.text()).isEqualTo("deferred");
        assertThat(m.properties().expiration()).as("expiration counts from ready, at the destination").isEqualTo(600);
        s.commit();
    }

    @Test
    void priorityCorrelationSenderAndUserPropertiesAreKept() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        MessageId id = book("order", MessageProperties.create().priority(3).correlation("RUSH")
                .sender(new Agent("OE", "OE.OE_NEWORDERS_QUE", 0)).userProperty("orderno", 1004L));
        propagate();
        QueueSession s = session();
        Message m = s.dequeue(WS_Q, FIRST_NO_WAIT);
        assertThat(m.properties().priority()).isEqualTo(3);
        assertThat(m.properties().correlation()).isEqualTo("RUSH");
        assertThat(m.properties().sender()).isEqualTo(new Agent("OE", "OE.OE_NEWORDERS_QUE", 0));
        assertThat(m.properties().userProperties()).containsEntry("orderno", 1004L);
        assertThat(m.properties().originalMessageId()).isEqualTo(id);
        s.commit();
    }

    @Test
    void theSubscribersTransformationIsAppliedBeforeTheMessageMoves() {
        admin.createTransformation("OE2WS", "TEXT", "TEXT", ShoutingText.class.getName());
        admin.alterSubscriber(OE_Q, new Agent(WEST, WS_Q, 0), null, "OE2WS");
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        book("order");
        propagate();
        assertThat(shipped()).containsExactly("ORDER!");
    }

    @Test
    void aMessageTheDestinationRefusesBecomesUndeliverableAndTheOthersMoveOn() throws Exception {
        admin.createTransformation("BROKEN", "TEXT", "TEXT", FailingTransformer.class.getName());
        admin.addSubscriber(OE_Q, new Agent("Nowhere", "NO_SUCH_QUEUE", 0), "corrid = 'LOST'");
        admin.addSubscriber(OE_Q, new Agent("Broken", WS_Q, 0), "corrid = 'BROKEN'", "BROKEN");
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        MessageId lost = book("lost", MessageProperties.create().correlation("LOST"));
        MessageId broken = book("broken", MessageProperties.create().correlation("BROKEN"));
        book("fine");
        propagate();
        assertThat(shipped()).containsExactly("lost", "broken", "fine"); // West_Shipping takes every message
        assertThat(statesByConsumer("OE_ORDERS_MQTAB", lost)).containsEntry("Nowhere", "UNDELIVERABLE")
                .containsEntry(WEST, "PROCESSED");
        assertThat(statesByConsumer("OE_ORDERS_MQTAB", broken)).containsEntry("Broken", "UNDELIVERABLE");
        PropagationSchedule s = schedule();
        assertThat(s.failures()).as("an application error is not a failure of the schedule").isZero();
        assertThat(s.lastErrorMessage()).as("the last refusal: the missing queue").contains("25205");
        assertThat(s.disabled()).isFalse();
    }

    @Test
    void aTransactionGroupStaysOneGroupAtAGroupedDestination() {
        startedQueue("OE_G_Q", "OE_G_MQTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true)
                .messageGrouping(MessageGrouping.TRANSACTIONAL), QueueProperties.create());
        startedQueue("WS_G_Q", "WS_G_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .messageGrouping(MessageGrouping.TRANSACTIONAL), QueueProperties.create());
        admin.addSubscriber("OE_G_Q", new Agent(null, "WS_G_Q", 0), null);
        admin.schedulePropagation("OE_G_Q", null, null, null, null, 0);
        QueueSession s = session();
        for (List<String> group : List.of(List.of("a1", "a2"), List.of("b1", "b2", "b3"))) {
            for (String text : group) {
                s.enqueue("OE_G_Q", EnqueueOptions.create(), Message.of(text));
            }
            s.commit();
        }
        propagate();
        List<List<String>> groups = new ArrayList<>();
        DequeueOptions opts = FIRST_NO_WAIT.copy();
        List<String> current = null;
        while (true) {
            Message m;
            try {
                m = s.dequeue("WS_G_Q", opts);
            } catch (AqException e) {
                if (e.errorCode() == AqError.END_OF_GROUP) {
                    current = null;
                    opts.navigation(Navigation.NEXT_TRANSACTION);
                    continue;
                }
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
                break;
            }
            if (current == null) {
                current = new ArrayList<>();
                groups.add(current);
            }
            current.add(m.text());
            opts.navigation(Navigation.NEXT_MESSAGE);
        }
        s.commit();
        assertThat(groups).containsExactly(List.of("a1", "a2"), List.of("b1", "b2", "b3"));
    }

    @Test
    void droppingTheSourceQueueDropsItsSchedules() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        admin.stopQueue(OE_Q, true, true, true);
        admin.dropQueue(OE_Q);
        assertThat(admin.propagationSchedules()).isEmpty();
    }

    @Test
    void nextTimeStartsEachWindowFromTheEndOfTheOneBefore() {
        Instant start = clock.now();
        // AQ's example: windows of 300 s, the next one 900 s after a window ends
        admin.schedulePropagation(OE_Q, null, start, 300L, "SYSDATE + 900/86400", 0);
        book("first window");
        propagate();
        assertThat(shipped()).containsExactly("first window");

        clock.advance(Duration.ofSeconds(301));
        book("between windows");
        propagate();
        assertThat(shipped()).isEmpty();
        assertThat(schedule().nextRun()).isEqualTo(start.plusSeconds(1200));

        clock.advance(Duration.ofSeconds(1200 - 301));
        propagate();
        assertThat(shipped()).containsExactly("between windows");
        PropagationSchedule s = schedule();
        assertThat(s.currentStart()).isEqualTo(start.plusSeconds(1200));
        assertThat(s.totalNumber()).isEqualTo(2);
        assertThat(s.maxNumber()).isEqualTo(1);
        assertThat(s.averageNumber()).isEqualTo(1.0);
    }

    @Test
    void alterReplacesDurationNextTimeAndLatencyWhileTheScheduleRuns() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        book("before");
        propagate();
        admin.alterPropagationSchedule(OE_Q, null, 60L, "TRUNC(SYSDATE, 'HH') + 1/24", 25);
        PropagationSchedule s = schedule();
        assertThat(s.windowSeconds()).isEqualTo(60L);
        assertThat(s.nextTime()).isEqualTo("TRUNC(SYSDATE, 'HH') + 1/24");
        assertThat(s.latencySeconds()).isEqualTo(25);
        expectError(AqError.INVALID_EXPRESSION, () -> admin.alterPropagationSchedule(OE_Q, null, 60L, "TRUNC(", 0));
        expectError(AqError.INVALID_VALUE, () -> admin.alterPropagationSchedule(OE_Q, null, 60L, "SYSDATE - 1/24", 0));
        assertThat(schedule().nextTime()).as("a refused alter changes nothing").isEqualTo("TRUNC(SYSDATE, 'HH') + 1/24");
        assertThat(shipped()).containsExactly("before");
    }
}
