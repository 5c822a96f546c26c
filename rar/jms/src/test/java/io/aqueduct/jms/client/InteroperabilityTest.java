package io.aqueduct.jms.client;

import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.jms.destination.AqueductQueue;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The JMS provider and the AQ api on the same queues: what one writes the other reads. A TEXT
 * queue holds a TextMessage's text as its payload; a RAW queue not written by JMS gives
 * BytesMessages; headers map both ways (JMS priority p is AQ 9 - p, JMSCorrelationID the
 * correlation, JMSTimestamp the enqueue time) and message properties are AQ user properties,
 * which AQ dequeue conditions and selectors read.
 */
class InteroperabilityTest {
    /** From the head of the queue each time, without waiting. */
    private static final DequeueOptions NO_WAIT = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
            .navigation(Navigation.FIRST_MESSAGE);

    private JmsStore store;
    private Connection connection;
    private Session session;
    private QueueSession aq;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        connection = store.factory().createConnection();
        connection.start();
        session = connection.createSession();
        aq = store.engine.openSession();
    }

    @AfterEach
    void close() throws Exception {
        if (aq != null) {
            aq.close();
        }
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    /** A started single-consumer queue of {@code payload} in a queue table {@code name_T} of its own. */
    private Queue queue(String name, PayloadType payload) throws Exception {
        store.admin().createQueueTable(name + "_T", QueueTableProperties.create().payloadType(payload)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        store.admin().createQueue(name, name + "_T", QueueProperties.create());
        store.admin().startQueue(name, true, true);
        return new AqueductQueue(name);
    }

    // ------------------------------------------------------------------ AQ writes, JMS reads

    @Test
    void text_enqueued_by_the_aq_api_is_received_as_a_TextMessage_with_headers_and_properties_mapped() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        long before = System.currentTimeMillis();
        MessageId id = aq.enqueue("NEWS", Message.of("Dune is back in stock", MessageProperties.create()
                .priority(2).correlation("stock-42").userProperty("region", "WEST").userProperty("copies", 12)
                .userProperty("rush", true).userProperty("price", 9.5d)));
        aq.commit();
        long after = System.currentTimeMillis();

        jakarta.jms.Message m = session.createConsumer(news).receive(5_000);

        assertThat(m).isInstanceOf(TextMessage.class);
        assertThat(((TextMessage) m).getText()).isEqualTo("Dune is back in stock");
        assertThat(m.getJMSMessageID()).isEqualTo("ID:" + id);
        assertThat(m.getJMSPriority()).as("AQ priority 2 is JMS 9 - 2").isEqualTo(7);
        assertThat(m.getJMSCorrelationID()).isEqualTo("stock-42");
        assertThat(m.getJMSTimestamp()).as("the enqueue time").isBetween(before - 1_000, after + 1_000);
        assertThat(m.getJMSDestination()).isEqualTo(news);
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.getStringProperty("region")).isEqualTo("WEST");
        assertThat(m.getObjectProperty("copies")).isEqualTo(12);
        assertThat(m.getBooleanProperty("rush")).isTrue();
        assertThat(m.getDoubleProperty("price")).isEqualTo(9.5d);
        assertThat(Collections.list(m.getPropertyNames())).contains("region", "copies", "rush", "price");
    }

    @Test
    void aq_priorities_outside_0_to_9_are_the_nearest_JMS_priority() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        aq.enqueue("NEWS", Message.of("urgent", MessageProperties.create().priority(-5)));
        aq.enqueue("NEWS", Message.of("whenever", MessageProperties.create().priority(20)));
        aq.commit();

        MessageConsumer consumer = session.createConsumer(news);
        assertThat(consumer.receive(5_000).getJMSPriority()).isEqualTo(9);
        assertThat(consumer.receive(5_000).getJMSPriority()).isEqualTo(0);
    }

    @Test
    void an_aq_user_property_whose_name_is_no_JMS_identifier_is_left_out_of_the_JMS_message() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        aq.enqueue("NEWS", Message.of("x", MessageProperties.create().userProperty("x-trace", "t1")
                .userProperty("region", "EAST")));
        aq.commit();

        jakarta.jms.Message m = session.createConsumer(news).receive(5_000);

        assertThat(Collections.list(m.getPropertyNames())).contains("region").doesNotContain("x-trace");
    }

    @Test
    void raw_bytes_not_written_by_JMS_are_received_as_a_BytesMessage() throws Exception {
        Queue raw = queue("INVOICES", PayloadType.RAW);
        byte[] invoice = {0x25, 0x50, 0x44, 0x46, 0, 1, 2, (byte) 0xFF};
        aq.enqueue("INVOICES", Message.of(invoice, MessageProperties.create().correlation("inv-7").userProperty("pages", 3)));
        aq.commit();

        jakarta.jms.Message m = session.createConsumer(raw).receive(5_000);

        assertThat(m).isInstanceOf(BytesMessage.class);
        BytesMessage b = (BytesMessage) m;
        assertThat(b.getBodyLength()).isEqualTo(invoice.length);
        byte[] read = new byte[invoice.length];
        assertThat(b.readBytes(read)).isEqualTo(invoice.length);
        assertThat(read).isEqualTo(invoice);
        assertThat(b.getJMSCorrelationID()).isEqualTo("inv-7");
        assertThat(b.getIntProperty("pages")).isEqualTo(3);
        assertThat(b.getBody(byte[].class)).isEqualTo(invoice);
    }

    @Test
    void raw_bytes_that_begin_like_the_JMS_encoding_but_are_not_one_cannot_be_received_and_stay_in_the_queue()
            throws Exception {
        Queue raw = queue("INVOICES", PayloadType.RAW);
        byte[] notJms = "AQJM but not a JMS message at all".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        MessageId id = aq.enqueue("INVOICES", Message.of(notJms));
        aq.commit();

        assertThatThrownBy(() -> session.createConsumer(raw).receive(5_000)).isInstanceOf(jakarta.jms.JMSException.class);

        Message still = aq.dequeue("INVOICES", NO_WAIT);
        assertThat(still.id()).isEqualTo(id);
        assertThat(still.properties().attempts()).as("the failed receive was undone: an attempt").isEqualTo(1);
        assertThat((byte[]) still.payload()).isEqualTo(notJms);
    }

    // ------------------------------------------------------------------ JMS writes, AQ reads

    @Test
    void a_TextMessage_sent_to_a_TEXT_queue_is_its_text_with_user_properties_for_the_aq_api() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        TextMessage sent = session.createTextMessage("Emma ships today");
        sent.setStringProperty("region", "WEST");
        sent.setIntProperty("items", 3);
        sent.setJMSCorrelationID("order-9");
        sent.setJMSType("Shipment");
        session.createProducer(news).send(sent, DeliveryMode.PERSISTENT, 7, 0);

        Message m = aq.dequeue("NEWS", NO_WAIT);
        aq.commit();

        assertThat(m.payload()).isEqualTo("Emma ships today");
        assertThat(m.text()).isEqualTo("Emma ships today");
        assertThat("ID:" + m.id()).isEqualTo(sent.getJMSMessageID());
        assertThat(m.properties().priority()).as("JMS 7 is AQ 9 - 7").isEqualTo(2);
        assertThat(m.properties().correlation()).isEqualTo("order-9");
        assertThat(m.properties().userProperty("region")).isEqualTo("WEST");
        assertThat(m.properties().userProperty("items")).isEqualTo(3);
        assertThat(m.properties().userProperty("JMSType")).isEqualTo("Shipment");
        assertThat(m.properties().userProperty("JMSDeliveryMode")).isEqualTo("PERSISTENT");
    }

    @Test
    void an_aq_dequeue_condition_or_selector_reads_the_properties_and_headers_of_JMS_messages() throws Exception {
        Queue orders = queue("ORDERS", PayloadType.RAW);
        MessageProducer producer = session.createProducer(orders);
        String[][] sent = {{"1", "WEST", "2"}, {"2", "EAST", "5"}, {"3", "WEST", "7"}, {"4", "EAST", "1"}};
        for (String[] o : sent) {
            TextMessage m = session.createTextMessage("order " + o[0]);
            m.setIntProperty("orderNo", Integer.parseInt(o[0]));
            m.setStringProperty("region", o[1]);
            m.setIntProperty("items", Integer.parseInt(o[2]));
            m.setJMSCorrelationID("c-" + o[0]);
            producer.send(m, o[0].equals("4") ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT,
                    o[0].equals("2") ? 9 : 4, 0);
        }

        Message west = aq.dequeue("ORDERS", NO_WAIT.copy().condition("region = 'WEST' AND items > 5"));
        assertThat(west.properties().userProperty("orderNo")).isEqualTo(3);
        Message rush = aq.dequeue("ORDERS", NO_WAIT.copy().selector("JMSPriority = 9 AND region = 'EAST'"));
        assertThat(rush.properties().userProperty("orderNo")).isEqualTo(2);
        Message byCorrelation = aq.dequeue("ORDERS", NO_WAIT.copy().selector("JMSCorrelationID = 'c-1'"));
        assertThat(byCorrelation.properties().userProperty("orderNo")).isEqualTo(1);
        // a NON_PERSISTENT send is an AQ buffered message: a PERSISTENT dequeue (AQ's default) does not see it
        assertThat(aq.dequeueArray("ORDERS", NO_WAIT.copy().selector("JMSDeliveryMode = 'NON_PERSISTENT'"), 1)).isEmpty();
        Message nonPersistent = aq.dequeue("ORDERS", NO_WAIT.copy().selector("JMSDeliveryMode = 'NON_PERSISTENT'")
                .deliveryMode(io.aqueduct.api.DeliveryMode.PERSISTENT_OR_BUFFERED));
        assertThat(nonPersistent.properties().userProperty("orderNo")).isEqualTo(4);
        assertThat(nonPersistent.properties().deliveryMode()).isEqualTo(io.aqueduct.api.DeliveryMode.BUFFERED);
        aq.commit();
        assertThat(aq.dequeueArray("ORDERS", NO_WAIT, 10)).isEmpty();
    }

    @Test
    void a_message_the_aq_api_dequeued_by_condition_is_gone_for_JMS_and_the_rest_is_received() throws Exception {
        Queue orders = queue("ORDERS", PayloadType.RAW);
        MessageProducer producer = session.createProducer(orders);
        for (String region : List.of("WEST", "EAST")) {
            TextMessage m = session.createTextMessage(region);
            m.setStringProperty("region", region);
            producer.send(m);
        }
        aq.dequeue("ORDERS", NO_WAIT.copy().condition("region = 'EAST'"));
        aq.commit();

        MessageConsumer consumer = session.createConsumer(orders);
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("WEST");
        assertThat(consumer.receiveNoWait()).isNull();
    }

    // ------------------------------------------------------------------ what a typed queue refuses

    @Test
    void a_BytesMessage_sent_to_a_TEXT_queue_is_a_MessageFormatException_and_nothing_is_enqueued() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        BytesMessage bytes = session.createBytesMessage();
        bytes.writeBytes(new byte[] {1, 2, 3});
        MessageProducer producer = session.createProducer(news);

        assertThatThrownBy(() -> producer.send(bytes)).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> producer.send(session.createObjectMessage("an object")))
                .isInstanceOf(MessageFormatException.class);

        assertThat(aq.dequeueArray("NEWS", NO_WAIT, 10)).isEmpty();
        assertThat(session.createConsumer(news).receiveNoWait()).isNull();
    }

    @Test
    void a_message_without_a_body_sent_to_a_TEXT_queue_is_a_MessageFormatException() throws Exception {
        Queue news = queue("NEWS", PayloadType.TEXT);
        assertThatThrownBy(() -> session.createProducer(news).send(session.createMessage()))
                .isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> aq.dequeue("NEWS", NO_WAIT)).isInstanceOf(AqException.class);
    }
}
