package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.EnqueueOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Propagation within one store (reference 000, "Propagation Overview" and the remote consumer
 * rules): a schedule with a null destination moves the messages of remote subscribers whose
 * address is a queue of the same store; the source part becomes PROCESSED.
 */
class PropagationTest extends MultiConsumerFixture {
    private static final String OE_Q = "OE_BOOKEDORDERS_QUE";
    private static final String WS_Q = "WS_BOOKEDORDERS_QUE";
    private static final String ES_Q = "ES_BOOKEDORDERS_QUE";

    /** The test runs the propagation job itself, at the times it chooses. */
    @Override
    protected boolean backgroundLoops() {
        return false;
    }

    @BeforeEach
    void queues() {
        multiConsumerQueue(OE_Q, "OE_ORDERS_MQTAB", PayloadType.TEXT, SortOrder.PRIORITY_ENQ_TIME, QueueProperties.create());
        startedQueue(WS_Q, "WS_ORDERS_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        multiConsumerQueue(ES_Q, "ES_ORDERS_MQTAB", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(OE_Q, new Agent("West_Shipping", WS_Q, 0), "corrid = 'WEST'");
        admin.addSubscriber(OE_Q, new Agent("East_Shipping", ES_Q, 0), "corrid = 'EAST'");
        admin.addSubscriber(ES_Q, Agent.named("East_Shipping"), null);
    }

    @Test
    void aScheduleMovesRemoteSubscribersMessagesToTheirQueuesInTheSourceOrder() {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        QueueSession s = session();
        MessageId low = s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("west-low", MessageProperties.create().correlation("WEST").priority(5)));
        s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("west-high", MessageProperties.create().correlation("WEST").priority(1)));
        s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("east", MessageProperties.create().correlation("EAST")
                .expiration(3600).userProperty("region", "EASTERN")));
        s.commit();
        clock.advance(Duration.ofMinutes(15));

        engine.propagator().runDue();

        assertThat(drain(s, WS_Q, FIRST_NO_WAIT)).containsExactly("west-high", "west-low");
        Message east = s.dequeue(ES_Q, as("East_Shipping"));
        assertThat(east.text()).isEqualTo("east");
        assertThat(east.properties().expiration()).isEqualTo(2700); // 1 h less the 15 min spent in the source
        assertThat(east.properties().userProperties()).containsEntry("region", "EASTERN");
        s.commit();
        PropagationSchedule schedule = admin.propagationSchedule(OE_Q, null);
        assertThat(schedule.destination()).isEqualTo(PropagationSchedule.LOCAL);
        assertThat(schedule.totalNumber()).isEqualTo(3);
        assertThat(schedule.failures()).isZero();
        assertThat(schedule.processName()).isNotNull();
        assertThat(low).isNotNull();
    }

    @Test
    void theOriginalMsgidAtTheDestinationIsTheSourceMsgid() throws Exception {
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        QueueSession s = session();
        MessageId id = s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("w", MessageProperties.create().correlation("WEST")));
        s.commit();
        engine.propagator().runDue();
        Message m = s.dequeue(WS_Q, FIRST_NO_WAIT.copy().mode(io.aqueduct.api.DequeueMode.BROWSE));
        assertThat(m.properties().originalMessageId()).isEqualTo(id);
        assertThat(m.id()).isNotEqualTo(id);
        // the AQ$ views chain the two: MSGID at the source, ORIGINAL_MSGID at the destination
        assertThat(viewColumn("WS_ORDERS_QTAB", m.id(), "ORIGINAL_MSGID")).isEqualTo(id.toString());
        assertThat(viewColumn("OE_ORDERS_MQTAB", id, "MSG_STATE")).isEqualTo("PROCESSED");
        s.commit();
    }

    @Test
    void badInputIsRefusedAndChangesNothing() {
        expectError(AqError.QUEUE_NOT_FOUND, () -> admin.schedulePropagation("NO_SUCH_Q", null, null, null, null, 0));
        expectError(AqError.NOT_MULTI_CONSUMER, () -> admin.schedulePropagation(WS_Q, null, null, null, null, 0));
        expectError(AqError.INVALID_VALUE, () -> admin.schedulePropagation("AQ$_OE_ORDERS_MQTAB_E", null, null, null, null, 0));
        expectError(AqError.INVALID_NAME, () -> admin.schedulePropagation(OE_Q, "not a link", null, null, null, 0));
        expectError(AqError.DATABASE_LINK_NOT_FOUND, () -> admin.schedulePropagation(OE_Q, "NOWHERE", null, null, null, 0));
        expectError(AqError.INVALID_VALUE, () -> admin.schedulePropagation(OE_Q, null, null, null, null, -1));
        expectError(AqError.INVALID_VALUE, () -> admin.schedulePropagation(OE_Q, null, null, -5L, null, 0));
        expectError(AqError.INVALID_EXPRESSION, () -> admin.schedulePropagation(OE_Q, null, null, 60L, "SYSDATE +", 0));
        expectError(AqError.INVALID_VALUE, () -> admin.schedulePropagation(OE_Q, null, null, 60L, "SYSDATE - 1", 0));
        expectError(AqError.SCHEDULE_NOT_FOUND, () -> admin.unschedulePropagation(OE_Q, null));
        assertThat(admin.propagationSchedules()).isEmpty();
        admin.schedulePropagation(OE_Q, null, Instant.parse("2030-01-01T00:00:00Z"), 300L, "SYSDATE + 900/86400", 25);
        expectError(AqError.SCHEDULE_EXISTS, () -> admin.schedulePropagation(OE_Q, PropagationSchedule.LOCAL, null, null, null, 0));
        expectError(AqError.SCHEDULE_ALREADY_ENABLED, () -> admin.enablePropagationSchedule(OE_Q, null));
        admin.disablePropagationSchedule(OE_Q, null);
        expectError(AqError.SCHEDULE_ALREADY_DISABLED, () -> admin.disablePropagationSchedule(OE_Q, null));
        List<PropagationSchedule> all = admin.propagationSchedules();
        assertThat(all).hasSize(1);
        assertThat(all.get(0).windowSeconds()).isEqualTo(300L);
        assertThat(all.get(0).nextTime()).isEqualTo("SYSDATE + 900/86400");
        assertThat(all.get(0).latencySeconds()).isEqualTo(25);
        assertThat(all.get(0).disabled()).isTrue();
    }

    @Test
    void aDatabaseLinkReachesAnotherStoreAndDeliversEachMessageOnce() {
        String other = databaseName + "_ts";
        try (AqueductEngine overseas = AqueductEngine.builder().clock(clock).user("TS").timeManager(false)
                .derbyInMemory(other).start()) {
            overseas.admin().createQueueTable("TS_ORDERS_MQTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                    .multipleConsumers(true));
            overseas.admin().createQueue("TS_BOOKEDORDERS_QUE", "TS_ORDERS_MQTAB", QueueProperties.create());
            overseas.admin().startQueue("TS_BOOKEDORDERS_QUE", true, true);
            overseas.admin().addSubscriber("TS_BOOKEDORDERS_QUE", Agent.named("Overseas_Shipping"), null);
            admin.createDatabaseLink("overseas", "jdbc:derby:memory:" + other, null, null);
            admin.addSubscriber(OE_Q, new Agent("Overseas_Shipping", "TS_BOOKEDORDERS_QUE@OVERSEAS", 0), "corrid = 'INTL'");
            admin.schedulePropagation(OE_Q, "OVERSEAS", null, null, null, 0);
            QueueSession s = session();
            for (int i = 0; i < 5; i++) {
                s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("intl-" + i, MessageProperties.create().correlation("INTL")));
            }
            s.commit();

            engine.propagator().runDue();
            engine.propagator().runDue();

            try (QueueSession ts = overseas.openSession()) {
                assertThat(drain(ts, "TS_BOOKEDORDERS_QUE", as("Overseas_Shipping")))
                        .containsExactly("intl-0", "intl-1", "intl-2", "intl-3", "intl-4");
            }
            PropagationSchedule schedule = admin.propagationSchedule(OE_Q, "overseas");
            assertThat(schedule.totalNumber()).isEqualTo(5);
            assertThat(admin.databaseLinks()).extracting(l -> l.name()).containsExactly("OVERSEAS");
            expectError(AqError.INVALID_VALUE, () -> admin.dropDatabaseLink("OVERSEAS"));
        }
    }

    @Test
    void databaseLinksAreCheckedBeforeAnythingIsWritten() {
        expectError(AqError.INVALID_NAME, () -> admin.createDatabaseLink("1abc", "jdbc:postgresql://h/db", "u", "p"));
        expectError(AqError.INVALID_NAME, () -> admin.createDatabaseLink("x'; DROP TABLE AQ_DBLINK --", "jdbc:derby:x", null, null));
        expectError(AqError.NAME_TOO_LONG, () -> admin.createDatabaseLink("L" + "x".repeat(128), "jdbc:derby:x", null, null));
        expectError(AqError.INVALID_VALUE, () -> admin.createDatabaseLink("SHIPPING", " ", null, null));
        expectError(AqError.INVALID_VALUE, () -> admin.createDatabaseLink("SHIPPING", "jdbc:" + "x".repeat(1100), null, null));
        expectError(AqError.INVALID_VALUE, () -> admin.createDatabaseLink("SHIPPING", "jdbc:derby:a\u0000b", null, null));
        assertThat(admin.databaseLinks()).isEmpty();
        admin.createDatabaseLink("shipping.example.com", "jdbc:postgresql://127.0.0.1:1/none", "ship", "secret");
        expectError(AqError.DATABASE_LINK_EXISTS, () -> admin.createDatabaseLink("SHIPPING.EXAMPLE.COM", "jdbc:derby:y", null, null));
        assertThat(admin.databaseLinks()).singleElement().satisfies(l -> {
            assertThat(l.name()).isEqualTo("SHIPPING.EXAMPLE.COM");
            assertThat(l.user()).isEqualTo("ship");
            assertThat(l.toString()).doesNotContain("secret");
        });
        expectError(AqError.DATABASE_LINK_NOT_FOUND, () -> admin.dropDatabaseLink("NOWHERE"));
        admin.dropDatabaseLink("shipping.example.com");
        assertThat(admin.databaseLinks()).isEmpty();
    }

    @Test
    void aLinkWhoseStoreCannotBeReachedIsAFailureThatBacksOff() {
        admin.createDatabaseLink("DOWN", "jdbc:postgresql://127.0.0.1:1/none", "nobody", null);
        admin.addSubscriber(OE_Q, new Agent(null, "TS_Q@DOWN", 0), "corrid = 'INTL'");
        admin.schedulePropagation(OE_Q, "DOWN", null, null, null, 0);
        QueueSession s = session();
        s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("intl", MessageProperties.create().correlation("INTL")));
        s.commit();
        engine.propagator().runDue();
        PropagationSchedule schedule = admin.propagationSchedule(OE_Q, "DOWN");
        assertThat(schedule.failures()).isEqualTo(1);
        assertThat(schedule.lastErrorMessage()).contains("12541").contains("DOWN");
        assertThat(schedule.nextRun()).isEqualTo(clock.now().plusSeconds(30));
    }

    @Test
    void anExceptionQueueNameIsKeptWhereItNamesAnExceptionQueueOfTheDestinationTable() {
        admin.createQueue("WS_EXCP", "WS_ORDERS_QTAB", QueueProperties.create().queueType(io.aqueduct.api.QueueType.EXCEPTION));
        admin.createQueue("OE_EXCP", "OE_ORDERS_MQTAB", QueueProperties.create().queueType(io.aqueduct.api.QueueType.EXCEPTION));
        admin.schedulePropagation(OE_Q, null, null, null, null, 0);
        QueueSession s = session();
        s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("w", MessageProperties.create().correlation("WEST")
                .exceptionQueue("OE_EXCP")));
        s.commit();
        engine.propagator().runDue();
        Message m = s.dequeue(WS_Q, FIRST_NO_WAIT);
        assertThat(m.properties().exceptionQueue()).as("OE_EXCP is not an exception queue of WS_ORDERS_QTAB: the default applies")
                .isNull();
        s.commit();
    }

    @Test
    void anAlteredDatabaseLinkReachesItsNewStoreFromTheNextBatchOn() {
        String first = databaseName + "_ts1";
        String second = databaseName + "_ts2";
        try (AqueductEngine ts1 = overseasStore(first); AqueductEngine ts2 = overseasStore(second)) {
            admin.createDatabaseLink("overseas", "jdbc:derby:memory:" + first, null, null);
            admin.addSubscriber(OE_Q, new Agent("Overseas_Shipping", "TS_BOOKEDORDERS_QUE@OVERSEAS", 0), "corrid = 'INTL'");
            admin.schedulePropagation(OE_Q, "OVERSEAS", null, null, null, 0);
            QueueSession s = session();
            s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("before", MessageProperties.create().correlation("INTL")));
            s.commit();
            engine.propagator().runDue();

            assertThat(admin.alterDatabaseLink("OVERSEAS", "jdbc:derby:memory:" + first, null, null))
                    .as("the same settings: nothing to change").isFalse();
            assertThat(admin.alterDatabaseLink("Overseas", " jdbc:derby:memory:" + second + " ", "TS", "secret")).isTrue();
            assertThat(admin.databaseLinks()).singleElement().satisfies(l -> {
                assertThat(l.url()).isEqualTo("jdbc:derby:memory:" + second);
                assertThat(l.user()).isEqualTo("TS");
            });
            s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("after", MessageProperties.create().correlation("INTL")));
            s.commit();
            engine.propagator().runDue();

            try (QueueSession one = ts1.openSession(); QueueSession two = ts2.openSession()) {
                assertThat(drain(one, "TS_BOOKEDORDERS_QUE", as("Overseas_Shipping"))).containsExactly("before");
                assertThat(drain(two, "TS_BOOKEDORDERS_QUE", as("Overseas_Shipping"))).containsExactly("after");
            }
            assertThat(admin.propagationSchedule(OE_Q, "OVERSEAS").failures()).isZero();
            expectError(AqError.DATABASE_LINK_NOT_FOUND, () -> admin.alterDatabaseLink("NOWHERE", "jdbc:derby:memory:x", null, null));
            expectError(AqError.INVALID_VALUE, () -> admin.alterDatabaseLink("OVERSEAS", " ", null, null));
        }
    }

    private AqueductEngine overseasStore(String name) {
        AqueductEngine e = AqueductEngine.builder().clock(clock).user("TS").timeManager(false).derbyInMemory(name).start();
        e.admin().createQueueTable("TS_ORDERS_MQTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .multipleConsumers(true));
        e.admin().createQueue("TS_BOOKEDORDERS_QUE", "TS_ORDERS_MQTAB", QueueProperties.create());
        e.admin().startQueue("TS_BOOKEDORDERS_QUE", true, true);
        e.admin().addSubscriber("TS_BOOKEDORDERS_QUE", Agent.named("Overseas_Shipping"), null);
        return e;
    }

    @Test
    void aRemoteSubscribersAddressMustNameAQueuePropagationCanReach() {
        QueueSession s = session();
        for (String bad : List.of("not a queue!", "SQ@", "@LINK", "A.B.C", "Q@1LINK", "9Q")) {
            expectError(AqError.INVALID_NAME, () -> admin.addSubscriber(OE_Q, new Agent("R", bad, 0), null));
            expectError(AqError.INVALID_NAME, () -> s.enqueue(OE_Q, EnqueueOptions.create(), Message.of("x",
                    MessageProperties.create().recipients(List.of(new Agent("R", bad, 0))))));
        }
        admin.addSubscriber(OE_Q, new Agent("R", "ws.ws_bookedorders_que@shipping.example.com", 0), null);
        admin.addSubscriber(OE_Q, new Agent("R", "http://example.com/aq", 1), null); // another protocol: not propagation's
        assertThat(admin.subscribers(OE_Q)).hasSize(4);
    }
}
