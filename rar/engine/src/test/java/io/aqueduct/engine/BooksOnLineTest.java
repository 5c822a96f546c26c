package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The BooksOnLine sample of reference 000 (and its JMS variant in 002), one case per test: shipping
 * priorities, deferred billing, back orders that expire, and booked orders retried every 12 hours.
 */
class BooksOnLineTest extends EngineFixture {
    private static final long HOUR = 3600;
    private static final long DAY = 24 * HOUR;

    @Test
    void booked_orders_are_shipped_FedEx_first_then_priority_air_then_regular_ground() {
        // "Priority and Ordering of Messages": sort_list => 'priority,enq_time'
        startedQueue("WS_BOOKEDORDERS_QUE", "WS_ORDERS_PR_MQTAB",
                QueueTableProperties.create().payloadType(PayloadType.TEXT).sortOrder(SortOrder.PRIORITY_ENQ_TIME),
                QueueProperties.create());
        QueueSession oe = session();
        String[][] orders = {{"ground-1", "3"}, {"fedex-1", "1"}, {"air-1", "2"}, {"ground-2", "3"}, {"fedex-2", "1"},
            {"air-2", "2"}};
        for (String[] order : orders) {
            oe.enqueue("WS_BOOKEDORDERS_QUE", Message.of(order[0],
                    MessageProperties.create().priority(Integer.parseInt(order[1]))));
            oe.commit();
            clock.advanceSeconds(1); // distinct enqueue times
        }

        QueueSession shipping = session();
        List<String> shipped = new ArrayList<>();
        for (int i = 0; i < orders.length; i++) {
            Message m = shipping.dequeue("WS_BOOKEDORDERS_QUE", NO_WAIT);
            shipped.add(m.text());
            shipping.commit();
        }
        assertThat(shipped).containsExactly("fedex-1", "fedex-2", "air-1", "air-2", "ground-1", "ground-2");
        assertNoMessage(shipping, "WS_BOOKEDORDERS_QUE");
    }

    @Test
    void a_corporate_order_deferred_for_billing_is_not_available_before_15_days() throws Exception {
        // "Time Specification: Delay": msgprop.delay := 15*60*60*24
        startedQueue("DEFERBILLING_QUE", "CBADM_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        QueueSession billing = session();
        MessageId id = billing.enqueue("DEFERBILLING_QUE", Message.of("order 4711 for ACME Corp",
                MessageProperties.create().delay(15 * DAY)));
        billing.commit();
        assertThat(viewRow("CBADM_QT", id).get("MSG_STATE")).isEqualTo("WAITING");

        clock.advanceSeconds(14 * DAY + 23 * HOUR);
        engine.timeManager().runDue();
        assertThat(viewRow("CBADM_QT", id).get("MSG_STATE")).isEqualTo("WAITING");
        assertNoMessage(billing, "DEFERBILLING_QUE");

        clock.advanceSeconds(HOUR);
        engine.timeManager().runDue();
        Message m = billing.dequeue("DEFERBILLING_QUE", FIRST_NO_WAIT);
        billing.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order 4711 for ACME Corp");
    }

    @Test
    void a_back_order_not_shipped_within_7_days_expires_into_the_back_order_exception_queue() throws Exception {
        // "Time Specification: Expiration" (msgprop.expiration := 7*60*60*24) with the exception queue of
        // 002's create_excp_que / requeue_back_order
        startedQueue("WS_BACKORDERS_QUE", "WS_BACKORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        admin.createQueue("WS_BACK_ORDERS_EXCP_QUE", "WS_BACKORDERS_QT",
                QueueProperties.create().queueType(QueueType.EXCEPTION));
        admin.startQueue("WS_BACK_ORDERS_EXCP_QUE", false, true);

        QueueSession shipping = session();
        MessageId id = shipping.enqueue("WS_BACKORDERS_QUE", Message.of("back order 42",
                MessageProperties.create().expiration(7 * DAY).exceptionQueue("WS_BACK_ORDERS_EXCP_QUE")));
        shipping.commit();

        // the back order application looks at it once a day without filling it
        for (int day = 1; day <= 6; day++) {
            clock.advanceSeconds(DAY);
            engine.timeManager().runDue();
            Message look = shipping.dequeue("WS_BACKORDERS_QUE", FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE));
            assertThat(look.id()).isEqualTo(id);
        }
        clock.advanceSeconds(23 * HOUR);
        engine.timeManager().runDue();
        assertThat(viewRow("WS_BACKORDERS_QT", id).get("MSG_STATE")).isEqualTo("READY");

        clock.advanceSeconds(HOUR + 1); // seven days have passed
        engine.timeManager().runDue();
        assertNoMessage(shipping, "WS_BACKORDERS_QUE");
        Map<String, Object> row = viewRow("WS_BACKORDERS_QT", id);
        assertThat(row.get("QUEUE")).isEqualTo("WS_BACK_ORDERS_EXCP_QUE");
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");

        // get_expired_order: the special processing takes it from the exception queue
        Message expired = shipping.dequeue("WS_BACK_ORDERS_EXCP_QUE", NO_WAIT);
        shipping.commit();
        assertThat(expired.id()).isEqualTo(id);
        assertThat(expired.text()).isEqualTo("back order 42");
        assertThat(expired.properties().state()).isEqualTo(MessageState.EXPIRED);
    }

    @Test
    void an_order_that_cannot_be_filled_is_retried_every_12_hours_and_after_5_failed_attempts_goes_to_the_exception_queue()
            throws Exception {
        // "Retry with Delay Interval": ALTER_QUEUE(max_retries => 4, retry_delay => 3600*12);
        // 002: "if an order is not filled up in two days, it is moved to an exception queue"
        startedQueue("WS_BOOKED_ORDERS_QUE", "WS_BOOKED_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT),
                QueueProperties.create());
        admin.alterQueue("WS_BOOKED_ORDERS_QUE", 4, 12 * HOUR, null, null);
        QueueSession oe = session();
        MessageId id = oe.enqueue("WS_BOOKED_ORDERS_QUE", Message.of("order for an out-of-stock book"));
        oe.commit();
        Instant firstAttempt = clock.now();

        QueueSession shipping = session();
        for (int attempt = 1; attempt <= 5; attempt++) {
            // process_next_order: FIRST_MESSAGE, the book is not in the inventory, rollback
            Message m = shipping.dequeue("WS_BOOKED_ORDERS_QUE", FIRST_NO_WAIT);
            assertThat(m.id()).isEqualTo(id);
            assertThat(m.properties().attempts()).isEqualTo(attempt - 1);
            shipping.rollback();

            Map<String, Object> row = viewRow("WS_BOOKED_QT", id);
            assertThat(row.get("RETRY_COUNT")).isEqualTo(attempt);
            if (attempt == 5) {
                break;
            }
            assertThat(row.get("MSG_STATE")).isEqualTo("WAITING");
            assertThat(row.get("QUEUE")).isEqualTo("WS_BOOKED_ORDERS_QUE");

            clock.advanceSeconds(12 * HOUR - 60);
            engine.timeManager().runDue();
            assertNoMessage(shipping, "WS_BOOKED_ORDERS_QUE");
            clock.advanceSeconds(60);
            engine.timeManager().runDue();
            assertThat(viewRow("WS_BOOKED_QT", id).get("MSG_STATE")).isEqualTo("READY");
        }
        assertThat(Duration.between(firstAttempt, clock.now())).isEqualTo(Duration.ofDays(2));

        Map<String, Object> row = viewRow("WS_BOOKED_QT", id);
        assertThat(row.get("QUEUE")).isEqualTo("AQ$_WS_BOOKED_QT_E");
        assertThat(row.get("MSG_STATE")).isEqualTo("EXPIRED");
        clock.advanceSeconds(12 * HOUR);
        engine.timeManager().runDue();
        assertNoMessage(shipping, "WS_BOOKED_ORDERS_QUE");

        admin.startQueue("AQ$_WS_BOOKED_QT_E", false, true);
        Message unfilled = shipping.dequeue("AQ$_WS_BOOKED_QT_E", NO_WAIT);
        shipping.commit();
        assertThat(unfilled.id()).isEqualTo(id);
        assertThat(unfilled.properties().attempts()).isEqualTo(5);
    }
}
