package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.api.TransformationInfo;
import io.aqueduct.engine.transformation.FailingTransformer;
import io.aqueduct.engine.transformation.NotATransformer;
import io.aqueduct.engine.transformation.Order;
import io.aqueduct.engine.transformation.OrderToXml;
import io.aqueduct.engine.transformation.ShippingOrder;
import io.aqueduct.engine.transformation.WrongResultTransformer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reference 000 "Creating Transformations", "Message Transformation During Enqueue / Dequeue" and
 * "Message Format Transformation During Propagation": named transformations (a function class or one
 * expression per target attribute), applied at enqueue, at dequeue and per subscriber; the OE2XML
 * example (an order object to XML). A refused call changes nothing.
 */
class TransformationTest extends MultiConsumerFixture {
    private static final String ORDER = Order.class.getName();
    private static final Order WESTERN = new Order(1001, "BOOKED", "Smith", "WESTERN");
    private static final Order INTERNATIONAL = new Order(1002, "BOOKED", "Dupont", "INTERNATIONAL");
    private static final String WESTERN_XML = "<ORDER_TYP><ORDERNO>1001</ORDERNO><STATUS>BOOKED</STATUS>"
            + "<CUSTOMER>Smith</CUSTOMER><ORDERREGION>WESTERN</ORDERREGION></ORDER_TYP>";

    private static Map<String, String> orderToJson() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("orderno", "source.user_data.orderno");
        m.put("customer", "UPPER(source.user_data.customer)");
        m.put("region", "source.user_data.orderregion");
        m.put("priority", "priority");
        return m;
    }

    private List<Object> transformationSnapshot() throws SQLException {
        List<Object> out = new ArrayList<>(admin.transformations());
        out.addAll(query("SELECT OWNER, NAME, FROM_TYPE, TO_TYPE, FUNCTION_CLASS, CAST(ATTRIBUTES AS VARCHAR(32000)) AS ATTRIBUTES FROM AQ_TRANSFORMATION ORDER BY OWNER, NAME"));
        out.addAll(query("SELECT QID, CONSUMER, RULE_TEXT, TRANSFORMATION FROM AQ_SUBSCRIBER ORDER BY SUB_ID"));
        return out;
    }

    private void objectQueue(String queue, String table, boolean multi) {
        startedQueue(queue, table, QueueTableProperties.create().objectType(ORDER)
                .multipleConsumers(multi), QueueProperties.create());
    }

    private void queueOf(String queue, String table, PayloadType type) {
        startedQueue(queue, table, QueueTableProperties.create().payloadType(type), QueueProperties.create());
    }

    // ------------------------------------------------------------------ administration

    @Test
    void transformations_are_created_listed_modified_and_dropped() {
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        admin.createTransformation("oe2json", ORDER, "json", orderToJson());
        assertThat(admin.transformations()).containsExactly(
                new TransformationInfo("APP", "OE2JSON", ORDER, "JSON", null, orderToJson()),
                new TransformationInfo("TS", "OE2XML", ORDER, "XML", OrderToXml.class.getName(), Map.of()));

        admin.modifyTransformation("OE2JSON", "customer", "source.user_data.customer");
        admin.modifyTransformation("OE2JSON", "status", "source.user_data.status");
        Map<String, String> expected = orderToJson();
        expected.put("customer", "source.user_data.customer");
        expected.put("status", "source.user_data.status");
        assertThat(admin.transformations().get(0).attributes()).containsExactlyEntriesOf(expected);

        admin.modifyTransformation("TS.OE2XML", Map.of("orderno", "source.user_data.orderno"));
        assertThat(admin.transformations().get(1).functionClass()).isNull();
        assertThat(admin.transformations().get(1).attributes()).containsExactlyEntriesOf(Map.of("orderno",
                "source.user_data.orderno"));
        admin.modifyTransformation("TS.OE2XML", OrderToXml.class.getName());
        assertThat(admin.transformations().get(1).functionClass()).isEqualTo(OrderToXml.class.getName());

        admin.dropTransformation("APP.OE2JSON");
        admin.dropTransformation("ts.oe2xml");
        assertThat(admin.transformations()).isEmpty();
    }

    @Test
    void the_reference_way_create_empty_then_set_each_attribute() {
        queueOf("WS_Q", "WS_QT", PayloadType.JSON);
        admin.createTransformation("OE2WS", ORDER, "JSON", Map.of());
        QueueSession s = session();
        // no expressions yet: the transformation cannot produce anything
        expectError(AqError.TRANSFORMATION_FAILED,
                () -> s.enqueue("WS_Q", EnqueueOptions.create().transformation("OE2WS"), Message.of(WESTERN)));
        admin.modifyTransformation("OE2WS", "orderno", "source.user_data.orderno");
        admin.modifyTransformation("OE2WS", "status", "source.user_data.status");
        s.enqueue("WS_Q", EnqueueOptions.create().transformation("OE2WS"), Message.of(WESTERN));
        s.commit();
        assertThat(s.dequeue("WS_Q", NO_WAIT).text()).isEqualTo("{\"orderno\":1001,\"status\":\"BOOKED\"}");
    }

    @Test
    void a_duplicate_name_is_refused_with_24184_and_nothing_changes() throws Exception {
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        List<Object> before = transformationSnapshot();
        expectError(AqError.TRANSFORMATION_EXISTS, () -> admin.createTransformation("ts.oe2xml", ORDER, "JSON", orderToJson()));
        expectError(AqError.TRANSFORMATION_EXISTS,
                () -> admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName()));
        assertThat(transformationSnapshot()).isEqualTo(before);
    }

    @Test
    void an_unknown_transformation_is_refused_with_24185_everywhere() throws Exception {
        multiConsumerQueue("OE_Q", "OE_QT", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber("OE_Q", Agent.named("WEST"), null);
        List<Object> before = transformationSnapshot();
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NOPE", OrderToXml.class.getName()));
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NOPE", "a", "source.user_data"));
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.modifyTransformation("NOPE", Map.of()));
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.dropTransformation("TS.NOPE"));
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.addSubscriber("OE_Q", Agent.named("EAST"), null, "NOPE"));
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> admin.alterSubscriber("OE_Q", Agent.named("WEST"), null, "NOPE"));
        assertThat(transformationSnapshot()).isEqualTo(before);

        QueueSession s = session();
        expectError(AqError.TRANSFORMATION_NOT_FOUND,
                () -> s.enqueue("OE_Q", EnqueueOptions.create().transformation("NOPE"), Message.of("x")));
        s.commit();
        assertThat(viewCount("OE_QT")).isZero();
        s.enqueue("OE_Q", Message.of("x"));
        s.commit();
        expectError(AqError.TRANSFORMATION_NOT_FOUND, () -> s.dequeue("OE_Q", as("WEST").transformation("NOPE")));
        s.rollback();
        assertThat(drain(s, "OE_Q", "WEST")).containsExactly("x");
    }

    @Test
    void a_function_class_that_is_missing_or_not_a_transformer_is_refused_and_nothing_is_written() throws Exception {
        List<Object> before = transformationSnapshot();
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "XML", "com.example.Missing"));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "XML", NotATransformer.class.getName()));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "XML", (String) null));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "XML", "not a class"));
        assertThat(transformationSnapshot()).isEqualTo(before);

        admin.createTransformation("T1", ORDER, "XML", OrderToXml.class.getName());
        List<Object> created = transformationSnapshot();
        expectError(AqError.INVALID_VALUE, () -> admin.modifyTransformation("T1", NotATransformer.class.getName()));
        expectError(AqError.INVALID_VALUE, () -> admin.modifyTransformation("T1", "a", "source.user_data"));
        assertThat(transformationSnapshot()).isEqualTo(created);
    }

    @Test
    void malformed_definitions_are_refused_and_nothing_is_written() throws Exception {
        List<Object> before = transformationSnapshot();
        expectError(AqError.INVALID_EXPRESSION,
                () -> admin.createTransformation("T1", ORDER, "JSON", Map.of("orderno", "source.user_data.orderno +")));
        expectError(AqError.INVALID_EXPRESSION, () -> admin.createTransformation("T1", ORDER, "JSON", Map.of("orderno", " ")));
        expectError(AqError.INVALID_VALUE,
                () -> admin.createTransformation("T1", ORDER, "JSON", Map.of("order no", "source.user_data.orderno")));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", "", "JSON", orderToJson()));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "no such type!", orderToJson()));
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, "TEXT", orderToJson()));
        // a target class without such a property, or one that is not there
        expectError(AqError.INVALID_VALUE, () -> admin.createTransformation("T1", ORDER, ShippingOrder.class.getName(),
                Map.of("nonexistent", "source.user_data.orderno")));
        expectError(AqError.INVALID_VALUE,
                () -> admin.createTransformation("T1", ORDER, "com.example.Missing", Map.of("a", "source.user_data")));
        expectError(AqError.INVALID_NAME, () -> admin.createTransformation("1T", ORDER, "JSON", orderToJson()));
        expectError(AqError.NAME_TOO_LONG,
                () -> admin.createTransformation("T234567890123456789012345", ORDER, "JSON", orderToJson()));
        assertThat(transformationSnapshot()).isEqualTo(before);

        admin.createTransformation("T1", ORDER, "JSON", orderToJson());
        List<Object> created = transformationSnapshot();
        expectError(AqError.INVALID_EXPRESSION, () -> admin.modifyTransformation("T1", "orderno", "((("));
        expectError(AqError.INVALID_EXPRESSION, () -> admin.modifyTransformation("T1", Map.of("orderno", "AND")));
        assertThat(transformationSnapshot()).isEqualTo(created);
    }

    @Test
    void a_transformation_a_subscriber_uses_cannot_be_dropped() throws Exception {
        objectQueue("OE_Q", "OE_QT", true);
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        admin.addSubscriber("OE_Q", Agent.named("Overseas_Shipping"), null, "TS.OE2XML");
        List<Object> before = transformationSnapshot();
        AqException e = expectError(AqError.INVALID_VALUE, () -> admin.dropTransformation("TS.OE2XML"));
        assertThat(e.getMessage()).contains("Overseas_Shipping");
        assertThat(transformationSnapshot()).isEqualTo(before);
        admin.alterSubscriber("OE_Q", Agent.named("Overseas_Shipping"), null, null);
        admin.dropTransformation("TS.OE2XML");
        assertThat(admin.transformations()).isEmpty();
    }

    @Test
    void a_subscriber_transformation_must_take_the_queue_payload_type() throws Exception {
        multiConsumerQueue("TXT_Q", "TXT_QT", PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        List<Object> before = transformationSnapshot();
        expectError(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> admin.addSubscriber("TXT_Q", Agent.named("Overseas_Shipping"), null, "TS.OE2XML"));
        assertThat(transformationSnapshot()).isEqualTo(before);
        assertThat(admin.subscribers("TXT_Q")).isEmpty();
    }

    // ------------------------------------------------------------------ OE2XML at enqueue

    @Test
    void oe2xml_function_transforms_an_order_object_at_enqueue_into_an_xml_queue() {
        queueOf("TS_Q", "TS_QT", PayloadType.XML);
        admin.createTransformation("TS.OE2XML", ORDER, "SYS.XMLTYPE", OrderToXml.class.getName());
        QueueSession s = session();
        s.enqueue("TS_Q", EnqueueOptions.create().transformation("TS.OE2XML"),
                Message.of(WESTERN, MessageProperties.create().correlation("RUSH")));
        s.commit();
        Message m = s.dequeue("TS_Q", NO_WAIT.copy().condition("extractValue(tab.user_data, '/ORDER_TYP/CUSTOMER') = 'Smith'"));
        assertThat(m.text()).isEqualTo(WESTERN_XML);
        assertThat(m.properties().correlation()).isEqualTo("RUSH");
        s.commit();
    }

    @Test
    void oe2json_attribute_expressions_transform_an_order_object_at_enqueue() {
        queueOf("JSON_Q", "JSON_QT", PayloadType.JSON);
        admin.createTransformation("OE2JSON", ORDER, "JSON", orderToJson());
        QueueSession s = session();
        s.enqueueArray("JSON_Q", EnqueueOptions.create().transformation("OE2JSON"),
                List.of(Message.of(WESTERN, MessageProperties.create().priority(2)), Message.of(INTERNATIONAL)));
        s.commit();
        JsonObject first = json(s.dequeue("JSON_Q", FIRST_NO_WAIT.copy().condition("tab.user_data.region = 'WESTERN'")).text());
        assertThat(first.getInt("orderno")).isEqualTo(1001);
        assertThat(first.getString("customer")).isEqualTo("SMITH");
        assertThat(first.getString("region")).isEqualTo("WESTERN");
        assertThat(first.getInt("priority")).isEqualTo(2);
        assertThat(json(s.dequeue("JSON_Q", FIRST_NO_WAIT).text()).getString("customer")).isEqualTo("DUPONT");
        s.commit();
    }

    @Test
    void attribute_expressions_fill_a_new_instance_of_a_target_class() {
        startedQueue("WS_Q", "WS_QT", QueueTableProperties.create()
                .objectType(ShippingOrder.class.getName()), QueueProperties.create());
        admin.createTransformation("OE.OE2WS", ORDER, ShippingOrder.class.getName(), Map.of(
                "orderno", "source.user_data.orderno", "customer", "source.user_data.customer",
                "region", "LOWER(source.user_data.orderregion)"));
        QueueSession s = session();
        s.enqueue("WS_Q", EnqueueOptions.create().transformation("OE.OE2WS"), Message.of(WESTERN));
        s.commit();
        ShippingOrder o = s.dequeue("WS_Q", NO_WAIT).payload(ShippingOrder.class);
        assertThat(o.getOrderno()).isEqualTo(1001L);
        assertThat(o.getCustomer()).isEqualTo("Smith");
        assertThat(o.region).isEqualTo("western");
    }

    // ------------------------------------------------------------------ refusals at enqueue

    @Test
    void a_transformer_that_throws_fails_the_enqueue_with_25229_and_nothing_is_enqueued() throws Exception {
        queueOf("TS_Q", "TS_QT", PayloadType.XML);
        admin.createTransformation("BROKEN", ORDER, "XML", FailingTransformer.class.getName());
        admin.createTransformation("WRONG", ORDER, "XML", WrongResultTransformer.class.getName());
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        QueueSession s = session();
        AqException e = expectError(AqError.TRANSFORMATION_FAILED, () -> s.enqueueArray("TS_Q",
                EnqueueOptions.create().transformation("BROKEN"), List.of(Message.of(WESTERN), Message.of(INTERNATIONAL))));
        assertThat(e.getMessage()).contains("APP.BROKEN").contains("customer lookup failed");
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
        expectError(AqError.TRANSFORMATION_FAILED,
                () -> s.enqueue("TS_Q", EnqueueOptions.create().transformation("WRONG"), Message.of(WESTERN)));
        s.commit();
        assertThat(viewCount("TS_QT")).isZero();
        // the session goes on
        s.enqueue("TS_Q", EnqueueOptions.create().transformation("TS.OE2XML"), Message.of(WESTERN));
        s.commit();
        assertThat(viewCount("TS_QT")).isEqualTo(1);
    }

    @Test
    void a_payload_of_the_wrong_source_type_or_a_target_that_does_not_fit_the_queue_is_refused_with_24186() throws Exception {
        queueOf("TS_Q", "TS_QT", PayloadType.XML);
        queueOf("TXT_Q", "TXT_QT", PayloadType.TEXT);
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        QueueSession s = session();
        expectError(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> s.enqueue("TS_Q", EnqueueOptions.create().transformation("TS.OE2XML"), Message.of("<not-an-order/>")));
        expectError(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> s.enqueue("TXT_Q", EnqueueOptions.create().transformation("TS.OE2XML"), Message.of(WESTERN)));
        s.commit();
        assertThat(viewCount("TS_QT")).isZero();
        assertThat(viewCount("TXT_QT")).isZero();
    }

    // ------------------------------------------------------------------ at dequeue

    @Test
    void at_dequeue_the_payload_is_transformed_and_the_stored_message_is_not() {
        objectQueue("OE_Q", "OE_QT", false);
        admin.createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
        admin.createTransformation("OE2JSON", ORDER, "JSON", orderToJson());
        QueueSession s = session();
        s.enqueue("OE_Q", Message.of(WESTERN));
        s.enqueue("OE_Q", Message.of(INTERNATIONAL));
        s.commit();
        DequeueOptions browse = FIRST_NO_WAIT.copy().mode(DequeueMode.BROWSE);
        assertThat(s.dequeue("OE_Q", browse.copy().transformation("TS.OE2XML")).text()).isEqualTo(WESTERN_XML);
        assertThat(s.dequeue("OE_Q", browse).payload(Order.class).getCustomer()).isEqualTo("Smith");
        // the condition sees the stored order; the consumer gets JSON
        Message m = s.dequeue("OE_Q", FIRST_NO_WAIT.copy().condition("tab.user_data.orderregion = 'INTERNATIONAL'")
                .transformation("OE2JSON"));
        assertThat(json(m.text()).getString("customer")).isEqualTo("DUPONT");
        s.commit();
        assertThat(s.dequeue("OE_Q", FIRST_NO_WAIT).payload(Order.class).getOrderno()).isEqualTo(1001);
        s.commit();
        assertNoMessage(s, "OE_Q");
    }

    @Test
    void a_failing_transformation_at_dequeue_gives_25229_and_leaves_the_message_in_the_queue() {
        objectQueue("OE_Q", "OE_QT", false);
        admin.createTransformation("BROKEN", ORDER, "XML", FailingTransformer.class.getName());
        admin.createTransformation("TXT2XML", "TEXT", "XML", OrderToXml.class.getName());
        QueueSession s = session();
        s.enqueue("OE_Q", Message.of(WESTERN));
        s.commit();
        expectError(AqError.TRANSFORMATION_FAILED, () -> s.dequeue("OE_Q", NO_WAIT.copy().transformation("BROKEN")));
        // a transformation from another type is refused before anything is dequeued
        expectError(AqError.TRANSFORMATION_WRONG_TYPE, () -> s.dequeue("OE_Q", NO_WAIT.copy().transformation("TXT2XML")));
        s.commit();
        assertThat(s.dequeue("OE_Q", NO_WAIT).payload(Order.class).getCustomer()).isEqualTo("Smith");
        s.commit();
    }

    // ------------------------------------------------------------------ per subscriber

    @Test
    void two_subscribers_get_the_same_message_each_in_its_own_form() {
        objectQueue("OE.OE_BOOKEDORDERS_QUE", "OE.OE_BOOKEDORDERS_QT", true);
        admin.createTransformation("TS.OE2XML", ORDER, "XMLTYPE", OrderToXml.class.getName());
        admin.addSubscriber("OE.OE_BOOKEDORDERS_QUE", Agent.named("Overseas_Shipping"),
                "tab.user_data.orderregion = 'WESTERN'", "TS.OE2XML");
        admin.addSubscriber("OE.OE_BOOKEDORDERS_QUE", Agent.named("Order_Entry"), null);
        assertThat(admin.subscribers("OE.OE_BOOKEDORDERS_QUE")).containsExactly(
                new SubscriberInfo(Agent.named("Overseas_Shipping"), "tab.user_data.orderregion = 'WESTERN'", "TS.OE2XML"),
                new SubscriberInfo(Agent.named("Order_Entry"), null));
        QueueSession s = session();
        s.enqueue("OE.OE_BOOKEDORDERS_QUE", Message.of(WESTERN));
        s.commit();
        assertThat(s.dequeue("OE.OE_BOOKEDORDERS_QUE", as("Overseas_Shipping")).text()).isEqualTo(WESTERN_XML);
        Order forOrderEntry = s.dequeue("OE.OE_BOOKEDORDERS_QUE", as("Order_Entry")).payload(Order.class);
        assertThat(forOrderEntry.getCustomer()).isEqualTo("Smith");
        s.commit();

        // a dequeue option's transformation applies after the subscriber's: it must take XML
        admin.createTransformation("XML2TEXT", "XML", "TEXT", Map.of("customer",
                "extractValue(source.user_data, '/ORDER_TYP/CUSTOMER')"));
        s.enqueue("OE.OE_BOOKEDORDERS_QUE", Message.of(WESTERN));
        s.commit();
        expectError(AqError.TRANSFORMATION_WRONG_TYPE,
                () -> s.dequeue("OE.OE_BOOKEDORDERS_QUE", as("Order_Entry").transformation("XML2TEXT")));
        assertThat(s.dequeue("OE.OE_BOOKEDORDERS_QUE", as("Overseas_Shipping").transformation("XML2TEXT")).text())
                .isEqualTo("Smith");
        s.commit();

        // altering the rule keeps the transformation; altering both can take it away
        admin.alterSubscriber("OE.OE_BOOKEDORDERS_QUE", Agent.named("Overseas_Shipping"), null);
        assertThat(admin.subscribers("OE.OE_BOOKEDORDERS_QUE").get(0).transformation()).isEqualTo("TS.OE2XML");
        admin.alterSubscriber("OE.OE_BOOKEDORDERS_QUE", Agent.named("Overseas_Shipping"), null, null);
        s.enqueue("OE.OE_BOOKEDORDERS_QUE", Message.of(INTERNATIONAL));
        s.commit();
        assertThat(s.dequeue("OE.OE_BOOKEDORDERS_QUE", as("Overseas_Shipping")).payload(Order.class).getCustomer())
                .isEqualTo("Dupont");
        s.commit();
    }

    @Test
    void a_subscriber_whose_transformation_fails_keeps_its_message_and_the_other_is_served() {
        objectQueue("OE_Q", "OE_QT", true);
        admin.createTransformation("BROKEN", ORDER, "XML", FailingTransformer.class.getName());
        admin.addSubscriber("OE_Q", Agent.named("WEST"), null, "BROKEN");
        admin.addSubscriber("OE_Q", Agent.named("EAST"), null);
        QueueSession s = session();
        s.enqueue("OE_Q", Message.of(WESTERN));
        s.commit();
        expectError(AqError.TRANSFORMATION_FAILED, () -> s.dequeue("OE_Q", as("WEST")));
        assertThat(s.dequeue("OE_Q", as("EAST")).payload(Order.class).getCustomer()).isEqualTo("Smith");
        s.commit();
        admin.alterSubscriber("OE_Q", Agent.named("WEST"), null, null);
        assertThat(s.dequeue("OE_Q", as("WEST")).payload(Order.class).getCustomer()).isEqualTo("Smith");
        s.commit();
    }

    // ------------------------------------------------------------------ durability and upgrade

    @Test
    void transformations_and_subscriber_transformations_survive_a_restart_and_old_stores_are_upgraded(@TempDir Path dir)
            throws Exception {
        Path store = dir.resolve("store");
        try (AqueductEngine first = AqueductEngine.builder().derbyDirectory(store).clock(clock).user("TESTER")
                .timeManager(false).start()) {
            first.admin().createQueueTable("OE.OE_QT", QueueTableProperties.create()
                    .objectType(ORDER).multipleConsumers(true));
            first.admin().createQueue("OE.OE_Q", "OE.OE_QT", QueueProperties.create());
            first.admin().addSubscriber("OE.OE_Q", Agent.named("OLD"), null);
        }
        // a store of the version before transformations: no AQ_TRANSFORMATION, no TRANSFORMATION column
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + store.toAbsolutePath()); Statement st = c.createStatement()) {
            st.execute("DROP TABLE AQ_TRANSFORMATION");
            st.execute("ALTER TABLE AQ_SUBSCRIBER DROP COLUMN TRANSFORMATION");
            st.execute("DROP TABLE AQ_SCHEMA_VERSION"); // that version recorded no schema version either
        }
        shutdown(store);
        List<TransformationInfo> before;
        try (AqueductEngine second = AqueductEngine.builder().derbyDirectory(store).clock(clock).user("TESTER")
                .timeManager(false).start()) {
            assertThat(second.admin().subscribers("OE.OE_Q")).containsExactly(new SubscriberInfo(Agent.named("OLD"), null));
            second.admin().createTransformation("TS.OE2XML", ORDER, "XML", OrderToXml.class.getName());
            second.admin().createTransformation("OE2JSON", ORDER, "JSON", orderToJson());
            second.admin().addSubscriber("OE.OE_Q", Agent.named("Overseas_Shipping"), null, "TS.OE2XML");
            before = second.admin().transformations();
        }
        try (AqueductEngine third = AqueductEngine.builder().derbyDirectory(store).clock(clock).user("TESTER")
                .timeManager(false).start()) {
            assertThat(third.admin().transformations()).isEqualTo(before);
            assertThat(third.admin().subscribers("OE.OE_Q")).extracting(SubscriberInfo::transformation)
                    .containsExactly(null, "TS.OE2XML");
            third.admin().startQueue("OE.OE_Q", true, true);
            QueueSession s = third.openSession();
            s.enqueue("OE.OE_Q", Message.of(WESTERN));
            s.commit();
            assertThat(s.dequeue("OE.OE_Q", as("Overseas_Shipping")).text()).isEqualTo(WESTERN_XML);
            assertThat(json(s.dequeue("OE.OE_Q", as("OLD").transformation("OE2JSON")).text()).getString("customer"))
                    .isEqualTo("SMITH");
            s.commit();
            s.close();
        }
    }

    private static void shutdown(Path store) {
        try {
            DriverManager.getConnection("jdbc:derby:" + store.toAbsolutePath() + ";shutdown=true").close();
        } catch (SQLException expected) {
            // Derby reports a shutdown as an exception
        }
    }

    private static JsonObject json(String text) {
        try (var r = Json.createReader(new StringReader(text))) {
            return r.readObject();
        }
    }
}
