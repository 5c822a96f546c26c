package io.aqueduct.jms.client;

import io.aqueduct.engine.time.ManualClock;
import io.aqueduct.jms.destination.AqueductQueue;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delivery delay and time to live are JMS milliseconds; AQ's delay and expiration are whole
 * seconds, so the provider rounds them up: a 1 ms delivery delay holds a message back for 1 s, a
 * 1 ms time to live lets it live 1 s. An expired message is not received: the engine's time
 * manager moves it to the exception queue. The engine runs on a manual clock here; receives wait
 * in real time.
 */
class DeliveryDelayAndTimeToLiveTest {
    private final ManualClock clock = new ManualClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    private JmsStore store;
    private Connection connection;
    private Session session;
    private Queue orders;
    private MessageProducer producer;
    private MessageConsumer consumer;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open(clock);
        orders = store.queue("ORDERS");
        connection = store.factory().createConnection();
        connection.start();
        session = connection.createSession();
        producer = session.createProducer(orders);
        consumer = session.createConsumer(orders);
    }

    @AfterEach
    void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private String text(jakarta.jms.Message m) throws Exception {
        assertThat(m).isNotNull();
        return ((TextMessage) m).getText();
    }

    private MessageConsumer exceptionQueueConsumer() throws Exception {
        store.admin().startQueue("AQ$_ORDERS_T_E", false, true);
        return session.createConsumer(new AqueductQueue("AQ$_ORDERS_T_E"));
    }

    // ------------------------------------------------------------------ delivery delay

    @Test
    void a_delivery_delay_of_1_ms_holds_the_message_back_for_a_whole_second() throws Exception {
        producer.setDeliveryDelay(1);
        TextMessage sent = session.createTextMessage("late");
        producer.send(sent);
        assertThat(sent.getJMSDeliveryTime() - sent.getJMSTimestamp()).as("the header says 1 ms").isEqualTo(1);

        assertThat(consumer.receiveNoWait()).isNull();
        clock.advance(Duration.ofMillis(999));
        assertThat(consumer.receive(300)).isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(text(consumer.receive(5_000))).isEqualTo("late");
    }

    @Test
    void a_delivery_delay_is_rounded_up_to_whole_seconds() throws Exception {
        producer.setDeliveryDelay(1_500);
        producer.send(session.createTextMessage("later"));

        clock.advanceSeconds(1);
        assertThat(consumer.receive(300)).isNull();
        clock.advanceSeconds(1);
        assertThat(text(consumer.receive(5_000))).isEqualTo("later");
    }

    @Test
    void a_delayed_message_does_not_hold_back_the_ones_behind_it() throws Exception {
        producer.setDeliveryDelay(60_000);
        producer.send(session.createTextMessage("in a minute"));
        producer.setDeliveryDelay(0);
        producer.send(session.createTextMessage("now"));

        assertThat(text(consumer.receive(5_000))).isEqualTo("now");
        assertThat(consumer.receiveNoWait()).isNull();
        clock.advanceSeconds(60);
        assertThat(text(consumer.receive(5_000))).isEqualTo("in a minute");
    }

    // ------------------------------------------------------------------ time to live

    @Test
    void an_expired_message_is_not_received_and_moves_to_the_exception_queue() throws Exception {
        producer.send(session.createTextMessage("short-lived"), jakarta.jms.DeliveryMode.PERSISTENT, 4, 10_000);
        producer.send(session.createTextMessage("forever"));

        clock.advanceSeconds(11);

        assertThat(text(consumer.receive(5_000))).isEqualTo("forever");
        assertThat(consumer.receive(300)).isNull();
        jakarta.jms.Message expired = exceptionQueueConsumer().receive(5_000);
        assertThat(text(expired)).isEqualTo("short-lived");
        assertThat(expired.getJMSExpiration()).isPositive();
    }

    @Test
    void a_message_is_received_until_its_time_to_live_ends() throws Exception {
        producer.setTimeToLive(10_000);
        producer.send(session.createTextMessage("fresh"));

        clock.advanceSeconds(9);
        assertThat(text(consumer.receive(5_000))).isEqualTo("fresh");
    }

    @Test
    void a_time_to_live_of_1_ms_lets_the_message_live_a_whole_second() throws Exception {
        producer.setTimeToLive(1);
        producer.send(session.createTextMessage("one"));
        producer.send(session.createTextMessage("two"));

        // JMSExpiration (send time + 1 ms) passes at once; AQ expires the message after 1 s
        clock.advance(Duration.ofMillis(999));
        assertThat(text(consumer.receive(5_000))).isEqualTo("one");
        clock.advance(Duration.ofMillis(1_001));
        assertThat(consumer.receive(300)).isNull();
        assertThat(text(exceptionQueueConsumer().receive(5_000))).isEqualTo("two");
    }

    @Test
    void the_time_to_live_counts_from_the_send_also_for_a_delayed_message() throws Exception {
        producer.setDeliveryDelay(2_000);
        producer.setTimeToLive(3_000);
        producer.send(session.createTextMessage("first"));
        producer.send(session.createTextMessage("second"));

        clock.advance(Duration.ofMillis(2_500));
        assertThat(text(consumer.receive(5_000))).isEqualTo("first");
        clock.advance(Duration.ofMillis(1_000)); // 3.5 s after the send
        assertThat(consumer.receive(300)).isNull();
        assertThat(text(exceptionQueueConsumer().receive(5_000))).isEqualTo("second");
    }
}
