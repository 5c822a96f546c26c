package io.aqueduct.engine.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.PayloadType;
import jakarta.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The BooksOnLine subscriber rules and dequeue conditions of the reference, on every payload kind. */
class BooksOnLineRulesTest {

    static final String WEST = "tab.user_data.orderregion = 'WESTERN' AND tab.user_data.ordertype != 'RUSH'";
    static final String EAST = "tab.user_data.orderregion = 'EASTERN' OR "
            + "(tab.user_data.ordertype = 'RUSH' AND tab.user_data.customer.country = 'USA')";
    static final String OVERSEAS = "tab.user_data.orderregion = 'INTERNATIONAL'";
    /** The Overseas_DHL rule exactly as the reference writes it, line break inside the XPath included. */
    static final String OVERSEAS_DHL = "tab.user_data.extract('/ORDER_TYP/ORDERTYPE/\n"
            + "                             text()').getStringVal()='RUSH'";
    /** The get_canada_orders dequeue condition of the reference. */
    static final String CANADA = "tab.user_data.extract(\n'/ORDER_TYP/CUSTOMER/COUNTRY/text()').getStringVal()='CANADA'";

    static final Map<String, Expression> RULES = new LinkedHashMap<>();

    static {
        RULES.put("West_Shipping", Expression.parse(WEST));
        RULES.put("East_Shipping", Expression.parse(EAST));
        RULES.put("Overseas_Shipping", Expression.parse(OVERSEAS));
    }

    static List<String> recipients(MessageView m) {
        List<String> out = new ArrayList<>();
        RULES.forEach((agent, rule) -> {
            if (rule.test(m)) {
                out.add(agent);
            }
        });
        return out;
    }

    // ------------------------------------------------------------------ payloads

    static String json(String region, String type, String country) {
        return "{\"orderno\": 1001, \"status\": 0, \"ordertype\": \"" + type + "\", \"orderregion\": \"" + region
                + "\", \"customer\": {\"custno\": 7, \"name\": \"Jane\", \"country\": \"" + country + "\"},"
                + " \"paymentmethod\": \"CREDIT\", \"items\": [{\"title\": \"AQ\", \"quantity\": 2}], \"total\": 59.90}";
    }

    static MessageView jsonOrder(String region, String type, String country) {
        return MessageSnapshot.builder().payload(PayloadType.JSON, json(region, type, country)).build();
    }

    /** Getters in camel case ({@code getOrderRegion}) while the rule writes {@code orderregion}. */
    public static final class OrderTyp implements java.io.Serializable {
        private final long orderno;
        private final String ordertype;
        private final String orderRegion;
        private final CustomerTyp customer;
        private final BigDecimal total;

        OrderTyp(long orderno, String ordertype, String orderRegion, CustomerTyp customer) {
            this.orderno = orderno;
            this.ordertype = ordertype;
            this.orderRegion = orderRegion;
            this.customer = customer;
            this.total = new BigDecimal("59.90");
        }

        public long getOrderno() {
            return orderno;
        }

        public String getOrderType() {
            return ordertype;
        }

        public String getOrderRegion() {
            return orderRegion;
        }

        public CustomerTyp getCustomer() {
            return customer;
        }

        public BigDecimal getTotal() {
            return total;
        }

        /** Never called by a rule: only getters, record accessors and field-named accessors are. */
        public boolean delete() {
            throw new AssertionError("a rule called delete()");
        }
    }

    /** No getters: private fields only. */
    static final class CustomerTyp implements java.io.Serializable {
        private final long custno;
        private final String country;

        CustomerTyp(long custno, String country) {
            this.custno = custno;
            this.country = country;
        }
    }

    record OrderRecord(String orderregion, String ordertype, Map<String, Object> customer) {
    }

    static MessageView objectOrder(String region, String type, String country) {
        OrderTyp o = new OrderTyp(1001, type, region, country == null ? null : new CustomerTyp(7, country));
        return MessageSnapshot.builder().payload(PayloadType.OBJECT, o).build();
    }

    static String xml(String region, String type, String country) {
        return "<ORDER_TYP><ORDERNO>1001</ORDERNO><STATUS>0</STATUS><ORDERTYPE>" + type + "</ORDERTYPE>"
                + "<ORDERREGION>" + region + "</ORDERREGION><CUSTOMER id=\"c7\"><CUSTNO>7</CUSTNO><NAME>Jane</NAME>"
                + "<COUNTRY>" + country + "</COUNTRY></CUSTOMER><PAYMENTMETHOD>CREDIT</PAYMENTMETHOD></ORDER_TYP>";
    }

    static MessageView xmlOrder(String region, String type, String country) {
        return MessageSnapshot.builder().payload(PayloadType.XML, xml(region, type, country)).build();
    }

    // ------------------------------------------------------------------ routing

    @Nested
    class OnJsonPayloads {
        @Test
        void westernNormalOrderGoesToWestShipping() {
            assertThat(recipients(jsonOrder("WESTERN", "NORMAL", "USA"))).containsExactly("West_Shipping");
        }

        @Test
        void westernRushOrderInTheUsGoesToEastShipping() {
            assertThat(recipients(jsonOrder("WESTERN", "RUSH", "USA"))).containsExactly("East_Shipping");
        }

        @Test
        void easternOrderGoesToEastShipping() {
            assertThat(recipients(jsonOrder("EASTERN", "NORMAL", "USA"))).containsExactly("East_Shipping");
            assertThat(recipients(jsonOrder("EASTERN", "RUSH", "CANADA"))).containsExactly("East_Shipping");
        }

        @Test
        void internationalOrderGoesOverseas() {
            assertThat(recipients(jsonOrder("INTERNATIONAL", "RUSH", "CANADA"))).containsExactly("Overseas_Shipping");
        }

        @Test
        void jsonValuePayloadsNeedNoParsing() {
            var value = Json.createReader(new java.io.StringReader(json("WESTERN", "NORMAL", "USA"))).readValue();
            MessageView m = MessageSnapshot.builder().payload(PayloadType.JSON, value).build();
            assertThat(recipients(m)).containsExactly("West_Shipping");
        }

        @Test
        void membersMatchIgnoringCaseAndUnderscores() {
            MessageView m = jsonOrder("WESTERN", "NORMAL", "USA");
            assertThat(Expression.parse("tab.user_data.OrderRegion = 'WESTERN'").test(m)).isTrue();
            assertThat(Expression.parse("user_data.customer.COUNTRY = 'USA'").test(m)).isTrue();
            // the dequeue condition of "Message Transformation During Dequeue" spells order_region
            assertThat(Expression.parse("tab.user_data.order_region = 'WESTERN' and tab.user_data.order_type != 'RUSH'")
                    .test(m)).isTrue();
        }

        @Test
        void numbersAndBareAttributeNames() {
            MessageView m = jsonOrder("WESTERN", "NORMAL", "USA");
            assertThat(Expression.parse("orderno = 1001 AND total > 50 AND total * 2 = 119.8").test(m)).isTrue();
            assertThat(Expression.parse("orderregion = 'WESTERN'").test(m)).isTrue();
            assertThat(Expression.parse("customer.custno = '7'").test(m)).isTrue();
        }
    }

    @Nested
    class OnJavaObjectPayloads {
        @Test
        void routesLikeJson() {
            assertThat(recipients(objectOrder("WESTERN", "NORMAL", "USA"))).containsExactly("West_Shipping");
            assertThat(recipients(objectOrder("WESTERN", "RUSH", "USA"))).containsExactly("East_Shipping");
            assertThat(recipients(objectOrder("EASTERN", "NORMAL", "USA"))).containsExactly("East_Shipping");
            assertThat(recipients(objectOrder("INTERNATIONAL", "RUSH", "CANADA"))).containsExactly("Overseas_Shipping");
        }

        @Test
        void gettersFieldsAndNumbers() {
            MessageView m = objectOrder("WESTERN", "NORMAL", "USA");
            assertThat(Expression.parse("tab.user_data.orderno = 1001").test(m)).isTrue();
            assertThat(Expression.parse("tab.user_data.customer.custno = 7").test(m)).isTrue();
            assertThat(Expression.parse("tab.user_data.total = 59.9").test(m)).isTrue();
            assertThat(Expression.parse("tab.user_data.order_region = 'WESTERN'").test(m)).isTrue();
        }

        @Test
        void onlyAccessorsAreCalled() {
            MessageView m = objectOrder("WESTERN", "NORMAL", "USA");
            assertThat(Expression.parse("tab.user_data.delete = TRUE").evaluate(m)).isNull();
            assertThat(Expression.parse("tab.user_data.class IS NULL").test(m)).isTrue();
        }

        @Test
        void recordsAndMaps() {
            OrderRecord r = new OrderRecord("WESTERN", "RUSH", Map.of("country", "USA"));
            MessageView m = MessageSnapshot.builder().payload(PayloadType.OBJECT, r).build();
            assertThat(recipients(m)).containsExactly("East_Shipping");
        }
    }

    @Nested
    class OnXmlPayloads {
        @Test
        void overseasDhlRuleAsInTheReference() {
            Expression dhl = Expression.parse(OVERSEAS_DHL);
            assertThat(dhl.test(xmlOrder("INTERNATIONAL", "RUSH", "CANADA"))).isTrue();
            assertThat(dhl.test(xmlOrder("INTERNATIONAL", "NORMAL", "CANADA"))).isFalse();
        }

        @Test
        void canadaDequeueConditionAsInTheReference() {
            Expression canada = Expression.parse(CANADA);
            assertThat(canada.test(xmlOrder("INTERNATIONAL", "RUSH", "CANADA"))).isTrue();
            assertThat(canada.test(xmlOrder("INTERNATIONAL", "RUSH", "MEXICO"))).isFalse();
        }

        @Test
        void existsNodeAndExtractFunctionForms() {
            MessageView usa = xmlOrder("EASTERN", "RUSH", "USA");
            MessageView canada = xmlOrder("INTERNATIONAL", "RUSH", "CANADA");
            String exists = "existsNode(tab.user_data, '/ORDER_TYP/CUSTOMER/COUNTRY[text()=\"USA\"]') = 1";
            assertThat(Expression.parse(exists).test(usa)).isTrue();
            assertThat(Expression.parse(exists).test(canada)).isFalse();
            assertThat(Expression.parse("tab.user_data.existsNode('/ORDER_TYP/CUSTOMER[@id=\"c7\"]') = 1").test(usa)).isTrue();
            assertThat(Expression.parse("existsNode(tab.user_data, '/ORDER_TYP/NOSUCH') = 0").test(usa)).isTrue();
            assertThat(Expression.parse("extract(tab.user_data, '/ORDER_TYP/ORDERTYPE/text()').getStringVal() = 'RUSH'")
                    .test(usa)).isTrue();
            assertThat(Expression.parse("extract(tab.user_data, '/ORDER_TYP/ORDERNO/text()').getNumberVal() > 1000")
                    .test(usa)).isTrue();
            assertThat(Expression.parse("extractValue(tab.user_data, '/ORDER_TYP/CUSTOMER/NAME') = 'Jane'").test(usa)).isTrue();
            assertThat(Expression.parse("tab.user_data.extract('/ORDER_TYP/CUSTOMER').extract('COUNTRY/text()')"
                    + ".getStringVal() = 'USA'").test(usa)).isTrue();
            assertThat(Expression.parseValue("tab.user_data.extract('/ORDER_TYP/CUSTOMER/COUNTRY').getStringVal()")
                    .value(usa)).isEqualTo("<COUNTRY>USA</COUNTRY>");
        }

        @Test
        void dottedPathsReadChildElements() {
            MessageView canada = xmlOrder("INTERNATIONAL", "RUSH", "CANADA");
            assertThat(recipients(canada)).containsExactly("Overseas_Shipping");
            assertThat(recipients(xmlOrder("WESTERN", "RUSH", "USA"))).containsExactly("East_Shipping");
            assertThat(Expression.parse("tab.user_data.customer.custno = 7 AND tab.user_data.customer.id = 'c7'")
                    .test(canada)).isTrue();
        }

        @Test
        void xmlAttributeOfAnObjectPayload() {
            record Wrapper(String region, String order) {
            }
            MessageView m = MessageSnapshot.builder()
                    .payload(PayloadType.OBJECT, new Wrapper("X", xml("WESTERN", "RUSH", "USA"))).build();
            assertThat(Expression.parse("tab.user_data.order.extract('/ORDER_TYP/ORDERTYPE/text()').getStringVal() = 'RUSH'")
                    .test(m)).isTrue();
        }

        @Test
        void documentPayloadsAreUsedAsGiven() {
            org.w3c.dom.Document d = XmlSupport.parse(xml("INTERNATIONAL", "RUSH", "CANADA"));
            MessageView m = MessageSnapshot.builder().payload(PayloadType.XML, d).build();
            assertThat(Expression.parse(OVERSEAS_DHL).test(m)).isTrue();
        }

        @Test
        void xpathRulesAreSafeAcrossThreads() throws Exception {
            Expression dhl = Expression.parse(OVERSEAS_DHL);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    boolean rush = i % 2 == 0;
                    results.add(pool.submit(() -> dhl.test(xmlOrder("INTERNATIONAL", rush ? "RUSH" : "NORMAL", "CANADA")) == rush));
                }
                for (Future<Boolean> f : results) {
                    assertThat(f.get()).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class MissingOrMismatched {
        @Test
        void missingAttributesAreFalseNotExceptions() {
            MessageView noCustomer = MessageSnapshot.builder()
                    .payload(PayloadType.JSON, "{\"orderregion\": \"WESTERN\", \"ordertype\": \"RUSH\"}").build();
            assertThat(recipients(noCustomer)).isEmpty();
            assertThat(Expression.parse("tab.user_data.nosuch.deeper = 1").test(noCustomer)).isFalse();
            assertThat(recipients(objectOrder("WESTERN", "RUSH", null))).isEmpty();
            assertThat(Expression.parse("tab.user_data.customer.nosuch = 'x'").test(objectOrder("W", "RUSH", "USA"))).isFalse();
            assertThat(Expression.parse("tab.user_data.customer.zip IS NULL").test(objectOrder("W", "RUSH", "USA"))).isTrue();
        }

        @Test
        void wrongTypesAreUnknown() {
            MessageView m = MessageSnapshot.builder()
                    .payload(PayloadType.JSON, "{\"orderregion\": 5, \"customer\": \"USA\", \"items\": [1, 2]}").build();
            assertThat(recipients(m)).isEmpty();
            assertThat(Expression.parse("tab.user_data.items = 1").evaluate(m)).isNull();
            assertThat(Expression.parse("tab.user_data.customer.country = 'USA'").evaluate(m)).isNull();
        }

        @Test
        void payloadsWithoutAttributesMatchNothing() {
            List<MessageView> views = List.of(
                    MessageSnapshot.builder().payload(PayloadType.TEXT, "WESTERN").build(),
                    MessageSnapshot.builder().payload(PayloadType.RAW, new byte[] {1, 2}).build(),
                    MessageSnapshot.builder().payload(PayloadType.JSON, "{not json").build(),
                    MessageSnapshot.builder().payload(PayloadType.XML, "<unclosed>").build(),
                    MessageSnapshot.builder().payload(PayloadType.XML, "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>").build(),
                    MessageSnapshot.builder().payload(PayloadType.OBJECT, "just a string").build(),
                    MessageSnapshot.builder().build());
            for (MessageView m : views) {
                assertThat(recipients(m)).isEmpty();
                assertThat(Expression.parse(OVERSEAS_DHL).test(m)).isFalse();
                assertThat(Expression.parse("existsNode(tab.user_data, '/x') = 1").test(m)).isFalse();
            }
        }

        @Test
        void textPayloadComparesAsAWhole() {
            MessageView m = MessageSnapshot.builder().payload(PayloadType.TEXT, "hello world").build();
            assertThat(Expression.parse("tab.user_data LIKE 'hello%'").test(m)).isTrue();
        }

        @Test
        void xpathOnJsonIsUnknown() {
            assertThat(Expression.parse(OVERSEAS_DHL).evaluate(jsonOrder("WESTERN", "RUSH", "USA"))).isNull();
        }
    }

    @Test
    void aRuleSetParsesThePayloadOnce() {
        CachedPayloadView json = (CachedPayloadView) PayloadView.of(PayloadType.JSON, json("WESTERN", "RUSH", "USA"));
        MessageView m = MessageSnapshot.builder().payload(json).build();
        for (int i = 0; i < 10; i++) {
            recipients(m);
        }
        assertThat(json.parses).isEqualTo(1);

        CachedPayloadView xml = (CachedPayloadView) PayloadView.of(PayloadType.XML, xml("INTERNATIONAL", "RUSH", "USA"));
        MessageView x = MessageSnapshot.builder().payload(xml).build();
        recipients(x);
        Expression.parse(OVERSEAS_DHL).test(x);
        Expression.parse(CANADA).test(x);
        assertThat(xml.parses).isEqualTo(1);
    }

    @Test
    void lazyPayloadsAreDecodedOnlyWhenARuleReadsThem() {
        int[] decodes = {0};
        PayloadView lazy = PayloadView.lazy(PayloadType.JSON, () -> {
            decodes[0]++;
            return json("EASTERN", "NORMAL", "USA");
        });
        MessageView m = MessageSnapshot.builder().priority(2).payload(lazy).build();
        Expression byPriority = Expression.parse("priority = 2");
        assertThat(byPriority.readsPayload()).isFalse();
        assertThat(byPriority.test(m)).isTrue();
        assertThat(decodes[0]).isZero();
        assertThat(recipients(m)).containsExactly("East_Shipping");
        assertThat(recipients(m)).containsExactly("East_Shipping");
        assertThat(decodes[0]).isEqualTo(1);

        PayloadView failing = PayloadView.lazy(PayloadType.OBJECT, () -> {
            throw new IllegalStateException("class not found");
        });
        assertThat(recipients(MessageSnapshot.builder().payload(failing).build())).isEmpty();
    }

    @Test
    void transformationAttributeExpressions() {
        MessageView m = objectOrder("WESTERN", "NORMAL", "USA");
        assertThat(Expression.parseValue("source.user_data.orderno").value(m)).isEqualTo(1001L);
        assertThat(Expression.parseValue("source.user_data.ordertype").value(m)).isEqualTo("NORMAL");
        assertThat(Expression.parseValue("source.user_data.customer.country").value(m)).isEqualTo("USA");
    }

    @Test
    void rulesMixPropertiesAndContent() {
        MessageView m = MessageSnapshot.builder().priority(1).correlation("RUSH")
                .payload(PayloadType.JSON, json("WESTERN", "RUSH", "USA")).build();
        assertThat(Expression.parse("tab.priority = 1 AND tab.corrid = 'RUSH' AND " + EAST.replace(" OR ", " OR (")
                + ")").test(m)).isTrue();
    }
}
