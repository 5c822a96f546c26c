package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SortOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Reference 000 "Rule-Based Subscription", "Creating Queues with XMLType Payloads" and the eleven
 * orders of "Propagation Scheduling": subscriber rules on message content decide at enqueue who
 * receives a message; altering a rule changes only what is enqueued later.
 */
class RuleBasedRoutingTest extends MultiConsumerFixture {
    private static final String OE_Q = "OE_BOOKEDORDERS_QUE";
    private static final String OE_QT = "OE_ORDERS_PR_MQTAB";
    private static final String TS_Q = "TS_BOOKEDORDERS_QUE";
    private static final String TS_QT = "TS_ORDERS_PR_MQTAB";

    static final String WEST_RULE = "tab.user_data.orderregion = 'WESTERN' AND tab.user_data.ordertype != 'RUSH'";
    static final String EAST_RULE = "tab.user_data.orderregion = 'EASTERN' OR\n"
            + "                      (tab.user_data.ordertype = 'RUSH' AND\n"
            + "                       tab.user_data.customer.country = 'USA') ";
    static final String OVERSEAS_RULE = "tab.user_data.orderregion = 'INTERNATIONAL'";
    /** Exactly as the reference writes it, the line break inside the XPath included. */
    static final String OVERSEAS_DHL_RULE = "tab.user_data.extract('/ORDER_TYP/ORDERTYPE/\n"
            + "                             text()').getStringVal()='RUSH'";

    /** An order of the reference's order_enq(title, quantity, orderno, state, country, region, ordertype). */
    record Order(String title, int quantity, int orderno, String state, String country, String region, String type) {
        String json() {
            return "{\"orderno\": " + orderno + ", \"status\": \"BOOKED\", \"ordertype\": \"" + type + "\", \"orderregion\": \""
                    + region + "\", \"customer\": {\"custno\": " + orderno + ", \"name\": \"Customer " + orderno
                    + "\", \"state\": \"" + state + "\", \"country\": \"" + country + "\"}, \"paymentmethod\": \"CREDIT\","
                    + " \"items\": [{\"title\": \"" + title + "\", \"quantity\": " + quantity + "}]}";
        }

        String xml() {
            return "<ORDER_TYP><ORDERNO>" + orderno + "</ORDERNO><STATUS>BOOKED</STATUS><ORDERTYPE>" + type + "</ORDERTYPE>"
                    + "<ORDERREGION>" + region + "</ORDERREGION><CUSTOMER><CUSTNO>" + orderno + "</CUSTNO><STATE>" + state
                    + "</STATE><COUNTRY>" + country.toUpperCase(java.util.Locale.ROOT) + "</COUNTRY></CUSTOMER>"
                    + "<ITEMS><ITEM><TITLE>" + title + "</TITLE><QUANTITY>" + quantity + "</QUANTITY></ITEM></ITEMS></ORDER_TYP>";
        }
    }

    /** The eleven orders enqueued in "Propagation Scheduling". */
    static final List<Order> ELEVEN_ORDERS = List.of(
            new Order("My First   Book", 1, 1001, "CA", "USA", "WESTERN", "NORMAL"),
            new Order("My Second  Book", 2, 1002, "NY", "USA", "EASTERN", "NORMAL"),
            new Order("My Third   Book", 3, 1003, "", "Canada", "INTERNATIONAL", "NORMAL"),
            new Order("My Fourth  Book", 4, 1004, "NV", "USA", "WESTERN", "RUSH"),
            new Order("My Fifth   Book", 5, 1005, "MA", "USA", "EASTERN", "RUSH"),
            new Order("My Sixth   Book", 6, 1006, "", "UK", "INTERNATIONAL", "NORMAL"),
            new Order("My Seventh Book", 7, 1007, "", "Canada", "INTERNATIONAL", "RUSH"),
            new Order("My Eighth  Book", 8, 1008, "", "Mexico", "INTERNATIONAL", "NORMAL"),
            new Order("My Ninth   Book", 9, 1009, "CA", "USA", "WESTERN", "RUSH"),
            new Order("My Tenth   Book", 8, 1010, "", "UK", "INTERNATIONAL", "NORMAL"),
            new Order("My Last    Book", 7, 1011, "", "Mexico", "INTERNATIONAL", "NORMAL"));

    /**
     * Who gets which of the eleven orders: West the Western non-rush order, East the Eastern orders and
     * every U.S. rush order (the Western rush ones included), Overseas every international order.
     */
    static final Map<String, List<Integer>> EXPECTED_ROUTING = new LinkedHashMap<>();

    static {
        EXPECTED_ROUTING.put("West_Shipping", List.of(1001));
        EXPECTED_ROUTING.put("East_Shipping", List.of(1002, 1004, 1005, 1009));
        EXPECTED_ROUTING.put("Overseas_Shipping", List.of(1003, 1006, 1007, 1008, 1010, 1011));
    }

    private void oeQueue() {
        multiConsumerQueue(OE_Q, OE_QT, PayloadType.JSON, SortOrder.ENQ_TIME, QueueProperties.create());
    }

    private void shippingSubscribers(boolean remote) {
        admin.addSubscriber(OE_Q, new Agent("West_Shipping", remote ? "WS.WS_bookedorders_que" : null, 0), WEST_RULE);
        admin.addSubscriber(OE_Q, new Agent("East_Shipping", remote ? "ES.ES_bookedorders_que" : null, 0), EAST_RULE);
        admin.addSubscriber(OE_Q, new Agent("Overseas_Shipping", remote ? "TS.TS_bookedorders_que" : null, 0),
                OVERSEAS_RULE);
    }

    private static List<Integer> ordernos(List<String> jsonTexts) {
        List<Integer> out = new ArrayList<>();
        for (String t : jsonTexts) {
            try (jakarta.json.JsonReader r = jakarta.json.Json.createReader(new java.io.StringReader(t))) {
                out.add(r.readObject().getInt("orderno"));
            }
        }
        return out;
    }

    private static List<Integer> ordernosOfXml(List<String> xmlTexts) {
        List<Integer> out = new ArrayList<>();
        for (String t : xmlTexts) {
            int a = t.indexOf("<ORDERNO>") + "<ORDERNO>".length();
            out.add(Integer.parseInt(t.substring(a, t.indexOf("</ORDERNO>"))));
        }
        return out;
    }

    @Test
    void the_West_East_and_Overseas_rules_route_each_booked_order_at_enqueue() {
        oeQueue();
        shippingSubscribers(false);
        QueueSession s = session();
        s.enqueue(OE_Q, Message.of(new Order("a", 1, 1, "CA", "USA", "WESTERN", "NORMAL").json()));
        s.enqueue(OE_Q, Message.of(new Order("b", 1, 2, "CA", "USA", "WESTERN", "RUSH").json()));
        s.enqueue(OE_Q, Message.of(new Order("c", 1, 3, "NY", "USA", "EASTERN", "NORMAL").json()));
        s.enqueue(OE_Q, Message.of(new Order("d", 1, 4, "", "Japan", "INTERNATIONAL", "RUSH").json()));
        s.enqueue(OE_Q, Message.of(new Order("e", 1, 5, "NY", "USA", "EASTERN", "RUSH").json()));
        s.commit();

        assertThat(ordernos(drain(s, OE_Q, "West_Shipping"))).containsExactly(1);
        assertThat(ordernos(drain(s, OE_Q, "East_Shipping"))).containsExactly(2, 3, 5);
        assertThat(ordernos(drain(s, OE_Q, "Overseas_Shipping"))).containsExactly(4);
    }

    @Test
    void the_eleven_orders_of_the_propagation_example_reach_the_right_consumers() throws Exception {
        oeQueue();
        shippingSubscribers(false);
        QueueSession s = session();
        Map<Integer, MessageId> ids = new LinkedHashMap<>();
        for (Order o : ELEVEN_ORDERS) {
            ids.put(o.orderno(), s.enqueue(OE_Q, Message.of(o.json())));
        }
        s.commit();

        // the AQ$ view names each message's consumers
        Map<String, List<Integer>> inView = new TreeMap<>();
        for (Map.Entry<Integer, MessageId> e : ids.entrySet()) {
            for (String consumer : statesByConsumer(OE_QT, e.getValue()).keySet()) {
                inView.computeIfAbsent(consumer, k -> new ArrayList<>()).add(e.getKey());
            }
        }
        assertThat(inView).isEqualTo(new TreeMap<>(EXPECTED_ROUTING));

        for (Map.Entry<String, List<Integer>> e : EXPECTED_ROUTING.entrySet()) {
            assertThat(ordernos(drain(s, OE_Q, e.getKey()))).as("orders dequeued by %s", e.getKey())
                    .isEqualTo(e.getValue());
        }
        engine.timeManager().runDue();
        assertThat(viewCount(OE_QT)).isZero();
    }

    @Test
    void with_the_reference_addresses_the_shipping_consumers_are_remote_recorded_in_the_view_and_not_dequeued_here()
            throws Exception {
        oeQueue();
        shippingSubscribers(true);
        QueueSession s = session();
        Map<Integer, MessageId> ids = new LinkedHashMap<>();
        for (Order o : ELEVEN_ORDERS) {
            ids.put(o.orderno(), s.enqueue(OE_Q, Message.of(o.json())));
        }
        s.commit();

        Map<String, String> addresses = Map.of("West_Shipping", "WS.WS_bookedorders_que", "East_Shipping",
                "ES.ES_bookedorders_que", "Overseas_Shipping", "TS.TS_bookedorders_que");
        Map<String, List<Integer>> inView = new TreeMap<>();
        for (Map.Entry<Integer, MessageId> e : ids.entrySet()) {
            for (Map.Entry<String, Map<String, Object>> row : consumerRows(OE_QT, e.getValue()).entrySet()) {
                inView.computeIfAbsent(row.getKey(), k -> new ArrayList<>()).add(e.getKey());
                assertThat(row.getValue()).containsEntry("ADDRESS", addresses.get(row.getKey()))
                        .containsEntry("MSG_STATE", "READY");
            }
        }
        assertThat(inView).isEqualTo(new TreeMap<>(EXPECTED_ROUTING));
        for (String consumer : EXPECTED_ROUTING.keySet()) {
            assertNothingFor(s, OE_Q, consumer);
        }
    }

    @Test
    void the_Overseas_DHL_XPath_rule_routes_the_rush_orders_of_an_XML_queue() throws Exception {
        multiConsumerQueue(TS_Q, TS_QT, PayloadType.XML, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(TS_Q, Agent.named("Overseas_DHL"), OVERSEAS_DHL_RULE);
        admin.addSubscriber(TS_Q, Agent.named("Overseas_Shipping"), null);
        QueueSession s = session();
        for (Order o : ELEVEN_ORDERS) {
            if (o.region().equals("INTERNATIONAL")) {
                s.enqueue(TS_Q, Message.of(o.xml()));
            }
        }
        s.commit();

        assertThat(ordernosOfXml(drain(s, TS_Q, "Overseas_DHL"))).containsExactly(1007);
        // get_canada_orders: the Canadian orders first, by a dequeue condition
        String canada = "tab.user_data.extract(\n'/ORDER_TYP/CUSTOMER/COUNTRY/text()').getStringVal()='CANADA'";
        assertThat(ordernosOfXml(drain(s, TS_Q, as("Overseas_Shipping").condition(canada)))).containsExactly(1003, 1007);
        assertThat(ordernosOfXml(drain(s, TS_Q, "Overseas_Shipping"))).containsExactly(1006, 1008, 1010, 1011);
    }

    @Test
    void altering_a_rule_affects_only_messages_enqueued_afterwards() {
        oeQueue();
        admin.addSubscriber(OE_Q, Agent.named("West_Shipping"), WEST_RULE);
        admin.addSubscriber(OE_Q, Agent.named("Audit"), null);
        QueueSession s = session();
        s.enqueue(OE_Q, Message.of(new Order("a", 1, 1, "CA", "USA", "WESTERN", "NORMAL").json()));
        s.enqueue(OE_Q, Message.of(new Order("b", 1, 2, "NY", "USA", "EASTERN", "NORMAL").json()));
        s.commit();

        admin.alterSubscriber(OE_Q, Agent.named("West_Shipping"), "tab.user_data.orderregion = 'EASTERN'");
        s.enqueue(OE_Q, Message.of(new Order("c", 1, 3, "CA", "USA", "WESTERN", "NORMAL").json()));
        s.enqueue(OE_Q, Message.of(new Order("d", 1, 4, "NY", "USA", "EASTERN", "NORMAL").json()));
        s.commit();

        admin.alterSubscriber(OE_Q, Agent.named("West_Shipping"), null);
        s.enqueue(OE_Q, Message.of(new Order("e", 1, 5, "", "UK", "INTERNATIONAL", "NORMAL").json()));
        s.commit();

        assertThat(ordernos(drain(s, OE_Q, "West_Shipping"))).containsExactly(1, 4, 5);
        assertThat(ordernos(drain(s, OE_Q, "Audit"))).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void rules_may_test_message_properties() {
        multiConsumerQueue(OE_Q, OE_QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(OE_Q, Agent.named("FedEx"), "priority = 1");
        admin.addSubscriber(OE_Q, Agent.named("Rush_Desk"), "corrid = 'RUSH' OR corrid LIKE 'EXPRESS%'");
        admin.addSubscriber(OE_Q, Agent.named("Ground"), "priority >= 3");
        QueueSession s = session();
        s.enqueue(OE_Q, Message.of("fedex rush", MessageProperties.create().priority(1).correlation("RUSH")));
        s.enqueue(OE_Q, Message.of("air express", MessageProperties.create().priority(2).correlation("EXPRESS-7")));
        s.enqueue(OE_Q, Message.of("ground", MessageProperties.create().priority(3)));
        s.commit();

        assertThat(drain(s, OE_Q, "FedEx")).containsExactly("fedex rush");
        assertThat(drain(s, OE_Q, "Rush_Desk")).containsExactly("fedex rush", "air express");
        assertThat(drain(s, OE_Q, "Ground")).containsExactly("ground");
    }

    @Test
    void a_rule_that_cannot_apply_to_a_payload_is_false_for_it_not_an_error() {
        oeQueue();
        admin.addSubscriber(OE_Q, Agent.named("East_Shipping"), EAST_RULE);
        admin.addSubscriber(OE_Q, Agent.named("Audit"), null);
        QueueSession s = session();
        s.enqueue(OE_Q, Message.of("{\"orderregion\": 42}"));
        s.enqueue(OE_Q, Message.of("[1, 2, 3]"));
        s.enqueue(OE_Q, Message.of("{\"ordertype\": \"RUSH\"}"));
        s.commit();
        assertThat(drain(s, OE_Q, "East_Shipping")).isEmpty();
        assertThat(drain(s, OE_Q, "Audit")).hasSize(3);
    }
}
