package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqError;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.Visibility;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.Serializable;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Enqueue: message ids, properties, payload types, validation, visibility and array enqueue. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EnqueueTest extends EngineFixture {

    /** An OBJECT payload: a book order line. */
    record BookOrder(int orderNo, String title, int quantity) implements Serializable {
    }

    /** Another serializable class, not the queue table's object type. */
    record Invoice(int invoiceNo) implements Serializable {
    }

    private void textQueue() {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
    }

    private void queueOf(PayloadType type) {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(type), QueueProperties.create());
    }

    /** A column of the message's AQ$QT row as text. */
    private String column(String column, MessageId id) throws SQLException {
        return Objects.toString(viewColumn("QT", id, column), null);
    }

    // ------------------------------------------------------------------ ids and properties

    @Test
    void enqueue_returns_a_distinct_16_byte_message_id_that_names_the_row_in_the_queue_table_view() throws Exception {
        textQueue();
        QueueSession s = session();
        MessageId first = s.enqueue("Q", Message.of("one"));
        MessageId second = s.enqueue("Q", Message.of("two"));
        s.commit();

        assertThat(first.bytes()).hasSize(16);
        assertThat(second.bytes()).hasSize(16);
        assertThat(first).isNotEqualTo(second);
        assertThat(first.toString()).matches("[0-9A-F]{32}");
        assertThat(column("MSG_STATE", first)).isEqualTo("READY");
        assertThat(column("QUEUE", first)).isEqualTo("Q");
        assertThat(column("ENQ_USER_ID", first)).isEqualTo("TESTER");
        assertThat(column("RETRY_COUNT", first)).isEqualTo("0");

        Message m = s.dequeue("Q", noWait());
        assertThat(m.id()).isEqualTo(first);
        assertThat(m.text()).isEqualTo("one");
    }

    @Test
    void properties_given_at_enqueue_come_back_on_dequeue() throws Exception {
        admin.createQueueTable("QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
        admin.createQueue("Q", "QT", QueueProperties.create());
        admin.createQueue("ORDERS_EXCP", "QT", QueueProperties.create().queueType(QueueType.EXCEPTION));
        admin.startQueue("Q", true, true);
        QueueSession s = session();
        MessageProperties props = MessageProperties.create().priority(7).expiration(3600).correlation("RUSH")
                .exceptionQueue("ORDERS_EXCP").sender(new Agent("OE", "OE.OE_NEWORDERS_QUE", 0));
        MessageId id = s.enqueue("Q", Message.of("order 1001", props));
        s.commit();

        assertThat(column("MSG_PRIORITY", id)).isEqualTo("7");
        assertThat(column("CORR_ID", id)).isEqualTo("RUSH");
        assertThat(column("EXPIRATION", id)).isEqualTo("3600");
        assertThat(column("EXCEPTION_QUEUE", id)).isEqualTo("ORDERS_EXCP");

        Message m = s.dequeue("Q", noWait());
        s.commit();
        MessageProperties p = m.properties();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("order 1001");
        assertThat(p.priority()).isEqualTo(7);
        assertThat(p.expiration()).isEqualTo(3600);
        assertThat(p.delay()).isEqualTo(MessageProperties.NO_DELAY);
        assertThat(p.correlation()).isEqualTo("RUSH");
        assertThat(p.exceptionQueue()).isEqualTo(engine.defaultSchema() + ".ORDERS_EXCP");
        assertThat(p.sender()).isEqualTo(new Agent("OE", "OE.OE_NEWORDERS_QUE", 0));
        assertThat(p.enqueueTime()).isEqualTo(clock.now());
        assertThat(p.state()).isEqualTo(MessageState.READY);
        assertThat(p.attempts()).isZero();
        assertThat(p.originalMessageId()).isNull();
    }

    @Test
    void a_message_without_properties_gets_the_defaults() {
        textQueue();
        QueueSession s = session();
        s.enqueue("Q", Message.of("plain"));
        s.commit();

        MessageProperties p = s.dequeue("Q", noWait()).properties();
        assertThat(p.priority()).isEqualTo(MessageProperties.DEFAULT_PRIORITY);
        assertThat(p.delay()).isEqualTo(MessageProperties.NO_DELAY);
        assertThat(p.expiration()).isEqualTo(MessageProperties.NEVER);
        assertThat(p.correlation()).isNull();
        assertThat(p.exceptionQueue()).isNull();
        assertThat(p.sender()).isNull();
    }

    @Test
    void a_delayed_message_waits_until_its_delay_ends_and_keeps_its_delay_property() throws Exception {
        textQueue();
        QueueSession s = session();
        MessageId id = s.enqueue("Q", Message.of("later", MessageProperties.create().delay(60)));
        s.commit();

        assertThat(column("MSG_STATE", id)).isEqualTo("WAITING");
        try (Connection c = sql();
                PreparedStatement ps = c.prepareStatement("SELECT DELAY, ENQ_TIME FROM \"AQ$QT\" WHERE MSG_ID = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getTimestamp(1).toLocalDateTime().toInstant(java.time.ZoneOffset.UTC))
                        .isEqualTo(clock.now().plusSeconds(60));
                assertThat(rs.getTimestamp(2).toLocalDateTime().toInstant(java.time.ZoneOffset.UTC)).isEqualTo(clock.now());
            }
        }
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));

        clock.advanceSeconds(60);
        // the time manager makes it READY; the blocking dequeue is woken when it does
        Message m = s.dequeue("Q", DequeueOptions.create().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE));
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("later");
        assertThat(m.properties().delay()).isEqualTo(60);
    }

    // ------------------------------------------------------------------ payload types

    @Test
    void a_raw_payload_round_trips_as_bytes() {
        queueOf(PayloadType.RAW);
        QueueSession s = session();
        byte[] bytes = {0, 1, 2, (byte) 0xFF, (byte) 0x80, 42};
        s.enqueue("Q", Message.of(bytes));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(m.payload()).isInstanceOf(byte[].class);
        assertThat(m.payload(byte[].class)).containsExactly(bytes);
    }

    @Test
    void a_text_payload_round_trips_as_a_string() {
        textQueue();
        QueueSession s = session();
        s.enqueue("Q", Message.of("Grüße aus Köln — 東京"));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(m.payload()).isEqualTo("Grüße aus Köln — 東京");
    }

    @Test
    void a_json_payload_given_as_a_string_round_trips() {
        queueOf(PayloadType.JSON);
        QueueSession s = session();
        String json = "{\"orderno\":1001,\"items\":[{\"title\":\"My First Book\",\"qty\":1}]}";
        s.enqueue("Q", Message.of(json));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(parse(m.text())).isEqualTo(parse(json));
    }

    @Test
    void a_json_payload_given_as_a_json_value_round_trips() {
        queueOf(PayloadType.JSON);
        QueueSession s = session();
        JsonObject order = Json.createObjectBuilder().add("orderno", 1002).add("state", "WA")
                .add("items", Json.createArrayBuilder().add(Json.createObjectBuilder().add("title", "My Third Book")))
                .build();
        s.enqueue("Q", Message.of(order));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(parse(m.text())).isEqualTo(order);
    }

    @Test
    void malformed_json_is_refused_with_25215_and_nothing_is_written() throws Exception {
        queueOf(PayloadType.JSON);
        QueueSession s = session();
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of("{\"orderno\": 1001,")));
        s.commit();

        assertThat(viewCount("QT")).isZero();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));
    }

    @Test
    void an_xml_payload_round_trips() {
        queueOf(PayloadType.XML);
        QueueSession s = session();
        String xml = "<order no=\"1001\"><item qty=\"1\">My First Book</item></order>";
        s.enqueue("Q", Message.of(xml));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(m.text()).isEqualTo(xml);
    }

    @Test
    void malformed_xml_is_refused_with_25215_and_nothing_is_written() throws Exception {
        queueOf(PayloadType.XML);
        QueueSession s = session();
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of("<order><item></order>")));
        s.commit();

        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void an_object_payload_of_the_queue_tables_type_round_trips() {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(BookOrder.class.getName()), QueueProperties.create());
        QueueSession s = session();
        BookOrder order = new BookOrder(1001, "My First Book", 1);
        s.enqueue("Q", Message.of(order));
        s.commit();

        Message m = s.dequeue("Q", noWait());
        assertThat(m.payload()).isInstanceOf(BookOrder.class).isEqualTo(order);
    }

    @Test
    void an_object_payload_of_another_class_is_refused_with_25215_and_nothing_is_written() throws Exception {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(BookOrder.class.getName()), QueueProperties.create());
        QueueSession s = session();
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of(new Invoice(7))));
        s.commit();

        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void a_payload_of_the_wrong_java_type_is_refused_with_25215_and_nothing_is_written() throws Exception {
        queueOf(PayloadType.RAW);
        QueueSession s = session();
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of("a string, not bytes")));
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of(42)));
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void bytes_are_refused_by_a_text_queue_with_25215() throws Exception {
        textQueue();
        QueueSession s = session();
        expectError(AqError.PAYLOAD_TYPE_MISMATCH,
                () -> s.enqueue("Q", Message.of("text".getBytes(StandardCharsets.UTF_8))));
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void a_100_kb_payload_round_trips() throws Exception {
        queueOf(PayloadType.RAW);
        QueueSession s = session();
        byte[] big = new byte[100 * 1024];
        new Random(20260105L).nextBytes(big);
        MessageId id = s.enqueue("Q", Message.of(big));
        s.commit();

        try (Connection c = sql();
                PreparedStatement ps = c.prepareStatement("SELECT USER_DATA FROM \"AQ$QT\" WHERE MSG_ID = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBytes(1)).containsExactly(big);
            }
        }
        Message m = s.dequeue("Q", noWait());
        assertThat(m.payload(byte[].class)).containsExactly(big);
    }

    @Test
    void a_100_kb_text_payload_round_trips() {
        textQueue();
        QueueSession s = session();
        String big = "BooksOnLine ".repeat(100 * 1024 / 12 + 1);
        s.enqueue("Q", Message.of(big));
        s.commit();

        assertThat(s.dequeue("Q", noWait()).text()).isEqualTo(big);
    }

    @Test
    void raw_payloads_around_32_kb_and_empty_ones_round_trip() {
        queueOf(PayloadType.RAW);
        QueueSession s = session();
        Random random = new Random(7);
        List<byte[]> payloads = new ArrayList<>();
        for (int size : new int[] {0, 1, 32_671, 32_672, 32_673, 65_536}) {
            byte[] b = new byte[size];
            random.nextBytes(b);
            payloads.add(b);
            s.enqueue("Q", Message.of(b));
        }
        s.commit();
        for (byte[] expected : payloads) {
            assertThat(s.dequeue("Q", noWait()).payload(byte[].class)).as("payload of %d bytes", expected.length)
                    .containsExactly(expected);
        }
        s.commit();
    }

    @Test
    void an_empty_text_payload_round_trips_as_an_empty_string() {
        textQueue();
        QueueSession s = session();
        s.enqueue("Q", Message.of(""));
        s.commit();
        assertThat(s.dequeue("Q", noWait()).payload()).isEqualTo("");
    }

    @Test
    void an_xml_payload_given_as_a_dom_document_round_trips() throws Exception {
        queueOf(PayloadType.XML);
        org.w3c.dom.Document doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        org.w3c.dom.Element order = doc.createElement("order");
        order.setAttribute("no", "1001");
        order.appendChild(doc.createElement("item")).setTextContent("My First Book");
        doc.appendChild(order);
        QueueSession s = session();
        s.enqueue("Q", Message.of(doc));
        s.commit();

        String xml = s.dequeue("Q", noWait()).text();
        org.w3c.dom.Document back = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(xml)));
        assertThat(back.getDocumentElement().getTagName()).isEqualTo("order");
        assertThat(back.getDocumentElement().getAttribute("no")).isEqualTo("1001");
        assertThat(back.getDocumentElement().getTextContent()).isEqualTo("My First Book");
    }

    /** The object type of a queue table may be an interface: any serializable implementation is accepted. */
    interface OrderEvent extends Serializable {
    }

    record OrderShipped(int orderNo) implements OrderEvent {
    }

    @Test
    void an_object_payload_of_a_subtype_of_the_queue_tables_type_round_trips() {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(OrderEvent.class.getName()), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q", Message.of(new OrderShipped(1001)));
        s.commit();
        assertThat(s.dequeue("Q", noWait()).payload()).isEqualTo(new OrderShipped(1001));
    }

    // ------------------------------------------------------------------ validation

    @Test
    void a_negative_delay_is_refused_with_25203_and_nothing_is_written() throws Exception {
        textQueue();
        QueueSession s = session();
        expectError(AqError.INVALID_DELAY, () -> s.enqueue("Q", Message.of("x", MessageProperties.create().delay(-1))));
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void an_expiration_below_never_is_refused_with_25209_and_nothing_is_written() throws Exception {
        textQueue();
        QueueSession s = session();
        expectError(AqError.INVALID_EXPIRATION,
                () -> s.enqueue("Q", Message.of("x", MessageProperties.create().expiration(-2))));
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void a_delay_or_expiration_reaching_past_the_year_9999_is_refused_and_the_session_goes_on() throws Exception {
        textQueue();
        QueueSession s = session();
        expectError(AqError.INVALID_DELAY, () -> s.enqueue("Q", Message.of("x", MessageProperties.create().delay(Long.MAX_VALUE))));
        expectError(AqError.INVALID_DELAY,
                () -> s.enqueue("Q", Message.of("x", MessageProperties.create().delay(300L * 365 * 24 * 3600 * 1000))));
        expectError(AqError.INVALID_EXPIRATION,
                () -> s.enqueue("Q", Message.of("x", MessageProperties.create().expiration(Long.MAX_VALUE))));
        expectError(AqError.INVALID_EXPIRATION, () -> s.enqueue("Q", Message.of("x",
                MessageProperties.create().delay(1000L * 365 * 24 * 3600).expiration(8000L * 365 * 24 * 3600))));
        s.commit();
        assertThat(viewCount("QT")).isZero();

        // a thousand years of delay is fine: it is stored and waits
        s.enqueue("Q", Message.of("patient", MessageProperties.create().delay(1000L * 365 * 24 * 3600)
                .expiration(1000L * 365 * 24 * 3600)));
        s.commit();
        assertThat(viewCount("QT")).isEqualTo(1);
    }

    @Test
    void a_null_message_is_refused_with_a_clear_error_and_the_session_goes_on() throws Exception {
        textQueue();
        QueueSession s = session();
        expectError(AqError.INVALID_VALUE, () -> s.enqueue("Q", (Message) null));
        s.enqueue("Q", Message.of("next"));
        s.commit();
        assertThat(viewCount("QT")).isEqualTo(1);
    }

    @Test
    void xml_with_a_dtd_an_external_entity_or_absurd_nesting_is_refused_and_nothing_is_written() throws Exception {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.XML), QueueProperties.create());
        QueueSession s = session();
        for (String hostile : List.of(
                "<!DOCTYPE order [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]><order>&lol2;</order>",
                "<!DOCTYPE order [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]><order>&secret;</order>",
                "<a>".repeat(5000) + "</a>".repeat(5000))) {
            expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of(hostile)));
        }
        s.commit();
        assertThat(viewCount("QT")).isZero();
        s.enqueue("Q", Message.of("<order><id>1</id></order>"));
        s.commit();
        assertThat(viewCount("QT")).isEqualTo(1);
    }

    @Test
    void a_json_payload_must_be_exactly_one_json_value() throws Exception {
        startedQueue("Q", "QT", QueueTableProperties.create().payloadType(PayloadType.JSON), QueueProperties.create());
        QueueSession s = session();
        for (String notOne : List.of("", "   ", "{} {}", "{\"a\": 1} trailing", "1 2", "[1,", "{\"a\": 1}}")) {
            expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueue("Q", Message.of(notOne)));
        }
        s.commit();
        assertThat(viewCount("QT")).isZero();
        for (String one : List.of(" {\"a\": [1, 2]} ", "\"text\"", "42", "null", "[]")) {
            s.enqueue("Q", Message.of(one));
        }
        s.commit();
        assertThat(viewCount("QT")).isEqualTo(5);
    }

    @Test
    void a_payload_above_the_maximum_size_is_refused_before_anything_is_written() throws Exception {
        try (AqueductEngine small = AqueductEngine.builder().derbyInMemory(databaseName + "_small").clock(clock)
                .maxPayloadBytes(100).start(); QueueSession s = small.openSession()) {
            small.admin().createQueueTable("TQT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            small.admin().createQueue("TQ", "TQT", QueueProperties.create());
            small.admin().startQueue("TQ", true, true);
            small.admin().createQueueTable("RQT", QueueTableProperties.create().payloadType(PayloadType.RAW));
            small.admin().createQueue("RQ", "RQT", QueueProperties.create());
            small.admin().startQueue("RQ", true, true);
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("TQ", Message.of("x".repeat(101))));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("TQ", Message.of("\u00e9".repeat(51)))); // 102 bytes in UTF-8
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("RQ", Message.of(new byte[101])));
            expectError(AqError.INVALID_VALUE, () -> s.enqueue("RQ", Message.of(new byte[Integer.MAX_VALUE / 64])));
            s.enqueue("TQ", Message.of("x".repeat(100)));
            s.enqueue("RQ", Message.of(new byte[100]));
            s.commit();
            assertThat(s.dequeue("TQ", noWait()).text()).hasSize(100);
            assertThat((byte[]) s.dequeue("RQ", noWait()).payload()).hasSize(100);
            s.commit();
        }
        expectError(AqError.INVALID_VALUE, () -> AqueductEngine.builder().maxPayloadBytes(0));
    }

    @Test
    void expiration_never_and_expiration_zero_are_accepted() throws Exception {
        textQueue();
        QueueSession s = session();
        s.enqueue("Q", Message.of("never", MessageProperties.create().expiration(MessageProperties.NEVER)));
        s.enqueue("Q", Message.of("zero", MessageProperties.create().expiration(0)));
        s.commit();
        assertThat(viewCount("QT")).isEqualTo(2);
    }

    @Test
    void enqueue_into_a_queue_that_does_not_exist_is_refused_with_25205() {
        textQueue();
        QueueSession s = session();
        expectError(AqError.QUEUE_DOES_NOT_EXIST, () -> s.enqueue("NO_SUCH_QUEUE", Message.of("x")));
    }

    @Test
    void enqueue_into_a_queue_stopped_for_enqueue_is_refused_with_25207_and_nothing_is_written() throws Exception {
        textQueue();
        admin.stopQueue("Q", true, false, true);
        QueueSession s = session();
        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("Q", Message.of("x")));
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void enqueue_into_an_exception_queue_is_refused_with_25207() {
        textQueue();
        QueueSession s = session();
        expectError(AqError.ENQUEUE_DISABLED, () -> s.enqueue("AQ$_QT_E", Message.of("x")));
    }

    @Test
    void expiration_counts_from_the_end_of_the_delay() throws Exception {
        textQueue();
        QueueSession s = session();
        MessageId id = s.enqueue("Q", Message.of("later", MessageProperties.create().delay(60).expiration(10)));
        s.commit();

        clock.advanceSeconds(65);
        Message m = s.dequeue("Q", DequeueOptions.create().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE));
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.properties().expiration()).isEqualTo(10);
    }

    // ------------------------------------------------------------------ visibility

    @Test
    void an_on_commit_enqueue_is_invisible_to_another_session_until_commit() throws Exception {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        MessageId id = producer.enqueue("Q", EnqueueOptions.create().visibility(Visibility.ON_COMMIT), Message.of("order"));

        expectError(AqError.NO_MESSAGE, () -> consumer.dequeue("Q", noWait().mode(io.aqueduct.api.DequeueMode.BROWSE)));
        expectError(AqError.NO_MESSAGE, () -> consumer.dequeue("Q", noWait()));

        producer.commit();
        Message m = consumer.dequeue("Q", noWait().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE));
        consumer.commit();
        assertThat(m.id()).isEqualTo(id);
    }

    @Test
    void on_commit_is_the_default_visibility_of_enqueue() {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        producer.enqueue("Q", Message.of("order"));

        expectError(AqError.NO_MESSAGE, () -> consumer.dequeue("Q", noWait()));
        producer.commit();
        assertThat(consumer.dequeue("Q", noWait().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE)).text())
                .isEqualTo("order");
    }

    @Test
    void a_rolled_back_on_commit_enqueue_is_gone() throws Exception {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        producer.enqueue("Q", Message.of("cancelled order"));
        producer.rollback();

        assertThat(viewCount("QT")).isZero();
        expectError(AqError.NO_MESSAGE, () -> consumer.dequeue("Q", noWait()));
        expectError(AqError.NO_MESSAGE, () -> producer.dequeue("Q", noWait()));
    }

    @Test
    void an_immediate_enqueue_is_visible_at_once_and_survives_a_rollback_of_the_session() throws Exception {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        MessageId id = producer.enqueue("Q", EnqueueOptions.create().visibility(Visibility.IMMEDIATE), Message.of("audit"));

        Message browsed = consumer.dequeue("Q", noWait().mode(io.aqueduct.api.DequeueMode.BROWSE));
        assertThat(browsed.id()).isEqualTo(id);

        producer.rollback();
        assertThat(column("MSG_STATE", id)).isEqualTo("READY");
        Message m = consumer.dequeue("Q", noWait().navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE));
        consumer.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("audit");
    }

    @Test
    void an_immediate_enqueue_does_not_commit_the_sessions_other_work() throws Exception {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        producer.enqueue("Q", Message.of("transactional"));
        MessageId immediate = producer.enqueue("Q", EnqueueOptions.create().visibility(Visibility.IMMEDIATE),
                Message.of("immediate"));
        producer.rollback();

        assertThat(consumer.dequeue("Q", noWait()).id()).isEqualTo(immediate);
        expectError(AqError.NO_MESSAGE, () -> consumer.dequeue("Q", noWait()));
        consumer.commit();
        assertThat(viewCount("QT")).isZero();
    }

    // ------------------------------------------------------------------ array enqueue

    @Test
    void an_array_enqueue_writes_all_messages_in_one_call_and_returns_their_ids_in_order() throws Exception {
        textQueue();
        QueueSession s = session();
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            batch.add(Message.of("book " + i, MessageProperties.create().correlation("C" + i)));
        }
        List<MessageId> ids = s.enqueueArray("Q", EnqueueOptions.create(), batch);
        s.commit();

        assertThat(ids).hasSize(50);
        Set<MessageId> distinct = new HashSet<>(ids);
        assertThat(distinct).hasSize(50);
        assertThat(viewCount("QT")).isEqualTo(50);
        for (int i = 0; i < 50; i++) {
            Message m = s.dequeue("Q", noWait());
            assertThat(m.id()).isEqualTo(ids.get(i));
            assertThat(m.text()).isEqualTo("book " + i);
            assertThat(m.properties().correlation()).isEqualTo("C" + i);
        }
        s.commit();
        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void an_array_enqueue_with_one_message_of_negative_delay_writes_nothing() throws Exception {
        textQueue();
        QueueSession s = session();
        List<Message> batch = List.of(Message.of("a"), Message.of("b"),
                Message.of("bad", MessageProperties.create().delay(-5)), Message.of("d"));
        expectError(AqError.INVALID_DELAY, () -> s.enqueueArray("Q", EnqueueOptions.create(), batch));
        s.commit();

        assertThat(viewCount("QT")).isZero();
        expectError(AqError.NO_MESSAGE, () -> s.dequeue("Q", noWait()));
    }

    @Test
    void an_array_enqueue_with_one_payload_of_the_wrong_type_writes_nothing() throws Exception {
        queueOf(PayloadType.JSON);
        QueueSession s = session();
        List<Message> batch = List.of(Message.of("{\"n\":1}"), Message.of("{\"n\":2}"), Message.of("{not json"));
        expectError(AqError.PAYLOAD_TYPE_MISMATCH, () -> s.enqueueArray("Q", EnqueueOptions.create(), batch));
        s.commit();

        assertThat(viewCount("QT")).isZero();
    }

    @Test
    void an_array_enqueue_with_one_bad_message_leaves_earlier_work_of_the_transaction_alone() throws Exception {
        textQueue();
        QueueSession s = session();
        MessageId before = s.enqueue("Q", Message.of("before"));
        List<Message> batch = List.of(Message.of("a"), Message.of("bad", MessageProperties.create().expiration(-7)));
        expectError(AqError.INVALID_EXPIRATION, () -> s.enqueueArray("Q", EnqueueOptions.create(), batch));
        s.commit();

        assertThat(viewCount("QT")).isEqualTo(1);
        assertThat(s.dequeue("Q", noWait()).id()).isEqualTo(before);
    }

    @Test
    void an_array_enqueue_the_store_refuses_part_way_through_writes_none_of_it_and_leaves_earlier_work_alone()
            throws Exception {
        textQueue();
        // the store itself refuses message 90 of 100: after the rows before it were written (a check of the test's own)
        try (Connection c = sql(); java.sql.Statement st = c.createStatement()) {
            st.execute("ALTER TABLE AQ_MESSAGE ADD CONSTRAINT TEST_REFUSED CHECK (CORRID IS NULL OR CORRID <> 'refused')");
        }
        QueueSession s = session();
        MessageId before = s.enqueue("Q", Message.of("before"));
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(Message.of("m" + i, MessageProperties.create().correlation(i == 90 ? "refused" : "C" + i)));
        }
        expectError(AqError.STORE_FAILURE, () -> s.enqueueArray("Q", EnqueueOptions.create(), batch));
        List<MessageId> after = s.enqueueArray("Q", EnqueueOptions.create(), batch.subList(0, 90));
        s.commit();

        assertThat(viewCount("QT")).isEqualTo(91);
        assertThat(s.dequeue("Q", noWait()).id()).isEqualTo(before);
        assertThat(s.dequeueArray("Q", noWait(), 100)).extracting(Message::id).containsExactlyElementsOf(after);
        s.commit();
    }

    @Test
    void an_immediate_array_enqueue_is_visible_at_once() {
        textQueue();
        QueueSession producer = session();
        QueueSession consumer = session();
        List<MessageId> ids = producer.enqueueArray("Q", EnqueueOptions.create().visibility(Visibility.IMMEDIATE),
                List.of(Message.of("x"), Message.of("y"), Message.of("z")));
        producer.rollback();

        List<Message> got = consumer.dequeueArray("Q", noWait(), 10);
        consumer.commit();
        assertThat(got).extracting(Message::id).containsExactlyElementsOf(ids);
    }

    private static JsonValue parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
