package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.xml.parsers.DocumentBuilderFactory;
import org.awaitility.Awaitility;
import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.CommandRunner;
import org.glassfish.internal.api.Globals;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * AQ over HTTP as a client sees it: the BooksOnLine EAR's aqueduct.war at /aqueduct in embedded Payara, a real
 * HTTP client with BASIC authentication against the file realm. The XML servlet with the seed's own AQXmlSend and
 * AQXmlReceive envelopes (queue names adapted), transactions that span requests of an HTTP session, the JSON REST
 * API, authentication, and hostile input (XXE, billion laughs, oversized and malformed bodies). One deployment for
 * all; its transaction timeout set to 3 s so that the idle rollback shows within the test.
 */
@ExtendWith(ArquillianExtension.class)
class HttpAccessIT {
    static final String BASE = "http://localhost:" + Integer.getInteger("it.http.port", 18181) + "/aqueduct";
    static final String SERVLET = "/aqserv/servlet";
    static final String AQ = "http://ns.oracle.com/AQ/schemas/access";
    static final String SOAP = "http://schemas.xmlsoap.org/soap/envelope/";
    static final int TRANSACTION_TIMEOUT_SECONDS = 3;
    static final int MAX_BODY = 65_536;

    @Deployment(name = "aqueduct-http", testable = false)
    static EnterpriseArchive booksOnLine() {
        EnterpriseArchive ear = ShrinkWrap.createFromZipFile(EnterpriseArchive.class,
                AqueductContainerIT.DEPLOYMENTS.resolve("aqueduct-booksonline.ear").toFile());
        // the limits the tests exercise, set as an operator would: the WAR's context parameters
        WebArchive war = ear.getAsType(WebArchive.class, "aqueduct.war");
        try (InputStream in = war.get("WEB-INF/web.xml").getAsset().openStream()) {
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("<param-value>180</param-value>", "<param-value>" + TRANSACTION_TIMEOUT_SECONDS + "</param-value>")
                    .replace("<param-value>1048576</param-value>", "<param-value>" + MAX_BODY + "</param-value>");
            war.setWebXML(new StringAsset(xml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ear;
    }

    /**
     * john and jane may use AQ over HTTP (group aqueduct-http) and are AQ agents (it/tests/pom.xml's queue definitions):
     * john works as HTTP, the owner of the HTTP.* queues, jane as CLERK, with ENQUEUE on HTTP.CLERK_IN_Q and DEQUEUE on
     * HTTP.CLERK_OUT_Q only. mary has the role but is no agent; mallory is a user of the realm without the role.
     */
    @BeforeAll
    static void users() throws IOException {
        CommandRunner runner = Globals.getDefaultHabitat().getService(CommandRunner.class);
        for (String[] user : new String[][] {{"john", "aqueduct-http"}, {"jane", "aqueduct-http"}, {"mary", "aqueduct-http"},
                {"mallory", "staff"}}) {
            // as asadmin takes it: the password from a password file, never on the command line
            java.nio.file.Path passwordFile = java.nio.file.Files.createTempFile("aqueduct-http-user", ".txt");
            java.nio.file.Files.writeString(passwordFile, "AS_ADMIN_USERPASSWORD=secret-" + user[0] + "\n");
            CommandResult r = runner.run("create-file-user", "--groups", user[1], "--passwordfile", passwordFile.toString(), user[0]);
            assertThat(r.getExitStatus()).as("create-file-user " + user[0] + ": " + r.getOutput() + " " + r.getFailureCause())
                    .isEqualTo(CommandResult.ExitStatus.SUCCESS);
        }
    }

    // ------------------------------------------------------------------ the XML servlet (IDAP)

    @Test
    void theSeedsSendAndReceiveEnvelopesEnqueueAndDequeueTheOrder() {
        Client john = Client.as("john");
        String send = resource("aqxmlsend-seed.xml");
        Document sent = john.soap(send, 200);
        Element response = only(sent, AQ, "AQXmlSendResponse");
        assertThat(text(response, "status_code")).isEqualTo("0");
        assertThat(text(response, "destination")).isEqualTo("HTTP.OE_bookedorders_que");
        assertThat(text(response, "message_id")).matches("[0-9A-F]{32}");
        // a second order, the one the seed's receive selects (correlation RUSH)
        String rushId = text(john.soap(send.replace("<correlation>ORDER1</correlation>", "<correlation>RUSH</correlation>"), 200),
                "message_id");

        Document received = john.soap(resource("aqxmlreceive-seed.xml"), 200);
        Element r = only(received, AQ, "AQXmlReceiveResponse");
        assertThat(text(r, "status_code")).isEqualTo("0");
        assertThat(text(r, "message_count")).isEqualTo("1");
        assertThat(text(r, "message_id")).isEqualTo(rushId);
        assertThat(text(r, "correlation")).isEqualTo("RUSH");
        assertThat(text(r, "priority")).isEqualTo("1");
        assertThat(text(r, "agent_name")).isEqualTo("john");
        assertThat(text(r, "delivery_count")).isEqualTo("0");
        // the payload as the sender wrote it, the envelope's namespace not part of it
        Element order = only(received, null, "ORDER_TYP");
        assertThat(text(order, "ORDERNO")).isEqualTo("100");
        assertThat(text(order, "CUSTID")).isEqualTo("JOHN");
        assertThat(order.getElementsByTagName("ITEMS_ITEM").getLength()).isEqualTo(2);

        // committed: nothing more with RUSH for East_Shipping; ORDER1 is still there
        assertThat(text(john.soap(resource("aqxmlreceive-seed.xml"), 200), "message_count")).isEqualTo("0");
        assertThat(text(john.soap(resource("aqxmlreceive-seed.xml").replace(">RUSH<", ">ORDER1<"), 200), "correlation"))
                .isEqualTo("ORDER1");
    }

    @Test
    void workWithoutCommitIsHeldForTheHttpSessionUntilItsCommitOrRollback() {
        Client producer = Client.as("john");
        Client consumer = Client.as("john");
        String kept = text(producer.soap(sendText("HTTP.TEXT_Q", "kept", false), 200), "message_id");
        assertThat(receiveText(consumer, "HTTP.TEXT_Q")).as("not visible before the commit").isEmpty();
        String second = text(producer.soap(sendText("HTTP.TEXT_Q", "kept too", false), 200), "message_id");
        Element committed = only(producer.soap(envelope("<AQXmlCommit xmlns=\"" + AQ + "\"/>"), 200), AQ, "AQXmlCommitResponse");
        assertThat(text(committed, "status_code")).isEqualTo("0");
        assertThat(receiveText(consumer, "HTTP.TEXT_Q")).containsExactly(kept + "=kept");
        assertThat(receiveText(consumer, "HTTP.TEXT_Q")).containsExactly(second + "=kept too");

        producer.soap(sendText("HTTP.TEXT_Q", "rolled back", false), 200);
        only(producer.soap(envelope("<AQXmlRollback xmlns=\"" + AQ + "\"/>"), 200), AQ, "AQXmlRollbackResponse");
        assertThat(receiveText(consumer, "HTTP.TEXT_Q")).isEmpty();
    }

    @Test
    void aHeldTransactionIdleForTheTimeoutIsRolledBackAndItsClientToldSo() {
        Client producer = Client.as("john");
        producer.soap(sendText("HTTP.TIMEOUT_Q", "forgotten", false), 200);
        Awaitility.await("the idle transaction rolled back").pollDelay(Duration.ofSeconds(TRANSACTION_TIMEOUT_SECONDS + 2))
                .atMost(Duration.ofSeconds(TRANSACTION_TIMEOUT_SECONDS + 10)).untilAsserted(() -> {
                    Document fault = producer.soap(envelope("<AQXmlCommit xmlns=\"" + AQ + "\"/>"), 500);
                    assertThat(text(fault, "faultstring")).contains("rolled back after " + TRANSACTION_TIMEOUT_SECONDS + " s");
                });
        assertThat(receiveText(Client.as("john"), "HTTP.TIMEOUT_Q")).isEmpty();
        // the session goes on with a new transaction
        producer.soap(sendText("HTTP.TIMEOUT_Q", "next", true), 200);
        assertThat(receiveText(Client.as("john"), "HTTP.TIMEOUT_Q")).singleElement().asString().endsWith("=next");
    }

    @Test
    void aPublishWithRecipientsReachesOnlyThemAndAReceiveSelectsByMessageIdOrCondition() {
        Client john = Client.as("john");
        String message = "<message><message_header><correlation>P1</correlation><priority>%d</priority><recipient_list>"
                + "<recipient><agent_name>WEST_SHIPPING</agent_name></recipient></recipient_list></message_header>"
                + "<message_payload><ORDER_TYP><ORDERNO>%d</ORDERNO></ORDER_TYP></message_payload></message>";
        Document published = john.soap(envelope("<AQXmlPublish xmlns=\"" + AQ + "\"><producer_options><destination>"
                + "HTTP.OE_BOOKEDORDERS_QUE</destination></producer_options><message_set><message_count>2</message_count>"
                + message.formatted(1, 201) + message.formatted(5, 202) + "</message_set><AQXmlCommit/></AQXmlPublish>"), 200);
        Element result = only(published, AQ, "publish_result");
        var ids = result.getElementsByTagNameNS(AQ, "message_id");
        assertThat(ids.getLength()).isEqualTo(2);
        String second = ids.item(1).getTextContent();

        String receive = "<AQXmlReceive xmlns=\"" + AQ + "\"><consumer_options><destination>HTTP.OE_BOOKEDORDERS_QUE</destination>"
                + "<consumer_name>%s</consumer_name><wait_time>0</wait_time><selector>%s</selector></consumer_options>"
                + "<AQXmlCommit/></AQXmlReceive>";
        assertThat(text(john.soap(envelope(receive.formatted("EAST_SHIPPING", "<correlation>P1</correlation>")), 200),
                "message_count")).as("not a recipient").isEqualTo("0");
        Document byId = john.soap(envelope(receive.formatted("WEST_SHIPPING", "<message_id>" + second + "</message_id>")), 200);
        assertThat(text(byId, "message_id")).isEqualTo(second);
        assertThat(text(byId, "ORDERNO")).isEqualTo("202");
        Document byCondition = john.soap(envelope(receive.formatted("WEST_SHIPPING", "<condition>priority = 1</condition>")), 200);
        assertThat(text(byCondition, "ORDERNO")).isEqualTo("201");
        assertThat(text(john.soap(envelope(receive.formatted("WEST_SHIPPING", "<correlation>P1</correlation>")), 200),
                "message_count")).isEqualTo("0");
    }

    @Test
    void severalMessagesGoInOneSendAndComeInOneBatchedReceive() {
        Client john = Client.as("john");
        StringBuilder set = new StringBuilder("<message_count>3</message_count>");
        for (int i = 1; i <= 3; i++) {
            set.append("<message><message_number>").append(i).append("</message_number><message_payload><text>batch ")
                    .append(i).append("</text></message_payload></message>");
        }
        Document sent = john.soap(envelope("<AQXmlSend xmlns=\"" + AQ + "\"><producer_options><destination>HTTP.TEXT_Q"
                + "</destination></producer_options><message_set>" + set + "</message_set><AQXmlCommit/></AQXmlSend>"), 200);
        assertThat(sent.getElementsByTagNameNS(AQ, "message_id").getLength()).isEqualTo(3);
        Document received = john.soap(envelope("<AQXmlReceive xmlns=\"" + AQ + "\"><consumer_options><destination>HTTP.TEXT_Q"
                + "</destination><wait_time>0</wait_time><batch_size>5</batch_size></consumer_options><AQXmlCommit/></AQXmlReceive>"), 200);
        assertThat(text(received, "message_count")).isEqualTo("3");
        var texts = received.getElementsByTagNameNS(AQ, "text");
        assertThat(List.of(texts.item(0).getTextContent(), texts.item(1).getTextContent(), texts.item(2).getTextContent()))
                .containsExactly("batch 1", "batch 2", "batch 3");
    }

    @Test
    void eachPayloadTypeTravelsInItsDocumentedForm() {
        Client john = Client.as("john");
        byte[] bytes = {0, 1, 2, (byte) 0xff, '<', '&'};
        String raw = Base64.getEncoder().encodeToString(bytes);
        john.soap(send("HTTP.RAW_Q", "<raw>" + raw + "</raw>", true), 200);
        assertThat(text(john.soap(receive("HTTP.RAW_Q", null), 200), "raw")).isEqualTo(raw);
        john.soap(send("HTTP.JSON_Q", "<json>{\"order\": 7, \"lines\": [1, 2]}</json>", true), 200);
        assertThat(text(john.soap(receive("HTTP.JSON_Q", null), 200), "json")).isEqualTo("{\"order\": 7, \"lines\": [1, 2]}");

        // the wrong form for the queue: 25215, nothing enqueued
        Document fault = john.soap(send("HTTP.RAW_Q", "<text>not bytes</text>", true), 500);
        assertThat(text(fault, "error_code")).isEqualTo("25215");
        assertThat(text(fault, "faultstring")).contains("<raw> with base64");
        assertThat(text(john.soap(receive("HTTP.RAW_Q", null), 200), "message_count")).isEqualTo("0");
    }

    @Test
    void anAqErrorIsASoapFaultWithItsNumberAndSentence() {
        Document fault = Client.as("john").soap(sendText("HTTP.NO_SUCH_Q", "x", true), 500);
        assertThat(text(fault, "faultcode")).isEqualTo("soap:Client");
        assertThat(text(fault, "error_code")).isEqualTo("24010");
        assertThat(text(fault, "faultstring")).startsWith("AQ-24010: ").contains("NO_SUCH_Q");
    }

    @Test
    void everyMalformedRequestIsAFaultNamingWhatIsWrong() {
        Client john = Client.as("john");
        record Case(String body, String says) {
        }
        String aq = " xmlns=\"" + AQ + "\"";
        for (Case c : List.of(
                new Case("this is not XML", "not well-formed XML (line 1"),
                new Case("<Envelope><Body/></Envelope>", "must be a SOAP <Envelope>"),
                new Case(envelope(""), "holds 0 elements"),
                new Case(send("HTTP.TEXT_Q", "<a>".repeat(1_000) + "</a>".repeat(1_000), true), "exceeds the limit"),
                new Case(envelope("<AQXmlDance" + aq + "/>"), "<AQXmlDance> is not an operation"),
                new Case(envelope("<AQXmlSend" + aq + "><producer_options><destination>HTTP.TEXT_Q</destination><colour>red</colour>"
                        + "</producer_options></AQXmlSend>"), "<producer_options> has no element <colour>"),
                new Case(envelope("<AQXmlSend" + aq + "><producer_options/></AQXmlSend>"), "<producer_options> needs a <destination>"),
                new Case(envelope("<AQXmlSend" + aq + "><producer_options><destination>HTTP.TEXT_Q</destination></producer_options>"
                        + "<message_set><message_count>2</message_count><message><message_payload><text>a</text></message_payload>"
                        + "</message></message_set></AQXmlSend>"), "<message_count> says 2"),
                new Case(send("HTTP.TEXT_Q", "<text>a</text>", true).replace("<priority>", "<priority>high"), "<priority> must be a whole number"),
                new Case(receive("HTTP.TEXT_Q", null).replace("<wait_time>0</wait_time>", "<dequeue_mode>EAT</dequeue_mode>"),
                        "<dequeue_mode> is 'EAT'"))) {
            Document fault = john.soap(c.body(), 500);
            assertThat(text(fault, "faultcode")).as(c.body()).isEqualTo("soap:Client");
            assertThat(text(fault, "faultstring")).as(c.body()).contains(c.says());
        }
        assertThat(text(john.soap(receive("HTTP.TEXT_Q", null), 200), "message_count")).isEqualTo("0");
    }

    // ------------------------------------------------------------------ hostile input and authentication

    @Test
    void anExternalEntityIsRefusedWithoutReadingTheFile() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE Envelope [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
                + sendText("HTTP.TEXT_Q", "&xxe;", true).replaceFirst("<\\?xml[^>]*>", "");
        HttpResponse<String> answer = Client.as("john").post(SERVLET, "text/xml", xxe);
        assertThat(answer.statusCode()).isEqualTo(500);
        assertThat(answer.body()).contains("document type").doesNotContain("root:");
        assertThat(text(Client.as("john").soap(receive("HTTP.TEXT_Q", null), 200), "message_count")).isEqualTo("0");
    }

    @Test
    void aBillionLaughsIsRefusedAtOnce() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE Envelope [<!ENTITY lol \"lol\">");
        dtd.append("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">");
        for (int i = 2; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>");
        String bomb = dtd + envelope("<AQXmlCommit xmlns=\"" + AQ + "\">&lol9;</AQXmlCommit>");
        long start = System.nanoTime();
        HttpResponse<String> answer = Client.as("john").post(SERVLET, "text/xml", bomb);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(answer.statusCode()).isEqualTo(500);
        assertThat(answer.body()).contains("document type").doesNotContain("lollol");
    }

    @Test
    void anOversizedBodyIsRefusedWith413WhetherItsLengthIsDeclaredOrNot() {
        String big = sendText("HTTP.TEXT_Q", "x".repeat(MAX_BODY), true);
        HttpResponse<String> declared = Client.as("john").post(SERVLET, "text/xml", big);
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.body()).contains("at most " + MAX_BODY + " are accepted");
        HttpResponse<String> chunked = Client.as("john").send(SERVLET, "POST", "text/xml", HttpRequest.BodyPublishers.ofInputStream(
                () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))));
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(Client.as("john").post("/api/queues/HTTP.TEXT_Q/messages", "application/json",
                "{\"payload\": \"" + "x".repeat(MAX_BODY) + "\"}").statusCode()).isEqualTo(413);
        assertThat(text(Client.as("john").soap(receive("HTTP.TEXT_Q", null), 200), "message_count")).isEqualTo("0");
    }

    @Test
    void withoutCredentialsItIs401AndWithoutTheRoleItIs403() {
        for (String path : List.of(SERVLET, "/api/queues/HTTP.TEXT_Q/messages")) {
            HttpResponse<String> anonymous = Client.anonymous().post(path, "text/xml", sendText("HTTP.TEXT_Q", "anon", true));
            assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).as(path).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
            assertThat(new Client("john", "wrong").post(path, "text/xml", sendText("HTTP.TEXT_Q", "wrong", true)).statusCode())
                    .as(path).isEqualTo(401);
            assertThat(Client.as("mallory").post(path, "text/xml", sendText("HTTP.TEXT_Q", "mallory", true)).statusCode())
                    .as(path).isEqualTo(403);
        }
        assertThat(text(Client.as("john").soap(receive("HTTP.TEXT_Q", null), 200), "message_count")).isEqualTo("0");
    }

    @Test
    void aRealmUserThatIsNoAqAgentIsRefusedWith403NamingCreateAqAgent() {
        HttpResponse<String> rest = Client.as("mary").post("/api/queues/HTTP.TEXT_Q/messages", "application/json",
                "{\"payload\": \"mary\"}");
        assertThat(rest.statusCode()).as(rest.body()).isEqualTo(403);
        assertThat(jsonObject(rest.body()).getInt("error")).isEqualTo(24088);
        assertThat(jsonObject(rest.body()).getString("message")).contains("mary is no AQ agent", "CREATE_AQ_AGENT",
                "createAqAgent(\"MARY\", true, false)");
        Document fault = Client.as("mary").soap(sendText("HTTP.TEXT_Q", "mary", true), 500);
        assertThat(text(fault, "error_code")).isEqualTo("24088");
        assertThat(text(fault, "faultstring")).startsWith("AQ-24088: The user mary is no AQ agent");
        assertThat(receiveText(Client.as("john"), "HTTP.TEXT_Q")).as("nothing enqueued").isEmpty();
    }

    @Test
    void anAgentWorksWithItsDatabaseUsersPrivilegesOnlyAndNothingRefusedIsEnqueued() {
        Client jane = Client.as("jane");
        Client john = Client.as("john");
        // CLERK has no ENQUEUE on CLERK_OUT_Q: 403 from the REST API, a SOAP fault with 1031 from the servlet
        HttpResponse<String> rest = jane.post("/api/queues/HTTP.CLERK_OUT_Q/messages", "application/json", "{\"payload\": \"no\"}");
        assertThat(rest.statusCode()).as(rest.body()).isEqualTo(403);
        assertThat(jsonObject(rest.body()).getInt("error")).isEqualTo(1031);
        assertThat(jsonObject(rest.body()).getString("message")).contains("CLERK may not enqueue into HTTP.CLERK_OUT_Q");
        Document fault = jane.soap(sendText("HTTP.CLERK_OUT_Q", "no", true), 500);
        assertThat(text(fault, "error_code")).isEqualTo("1031");
        assertThat(text(fault, "faultstring")).startsWith("AQ-01031: CLERK may not enqueue into HTTP.CLERK_OUT_Q");
        assertThat(receiveText(john, "HTTP.CLERK_OUT_Q")).as("nothing enqueued").isEmpty();
        // nor DEQUEUE on CLERK_IN_Q
        assertThat(text(jane.soap(receive("HTTP.CLERK_IN_Q", null), 500), "error_code")).isEqualTo("1031");
        assertThat(jane.post("/api/queues/HTTP.CLERK_IN_Q/receive", null, "").statusCode()).isEqualTo(403);

        // with the grants: ENQUEUE on CLERK_IN_Q, DEQUEUE on CLERK_OUT_Q; a message sent without a sender has jane's agent
        assertThat(jane.post("/api/queues/HTTP.CLERK_IN_Q/messages", "application/json", "{\"payload\": \"by rest\"}")
                .statusCode()).isEqualTo(201);
        String bySoap = text(jane.soap(sendText("HTTP.CLERK_IN_Q", "by soap", true), 200), "message_id");
        Document first = john.soap(receive("HTTP.CLERK_IN_Q", null), 200);
        assertThat(text(first, "text")).isEqualTo("by rest");
        assertThat(text(first, "agent_name")).isEqualTo("JANE");
        assertThat(receiveText(john, "HTTP.CLERK_IN_Q")).containsExactly(bySoap + "=by soap");
        String forJane = text(john.soap(sendText("HTTP.CLERK_OUT_Q", "for jane", true), 200), "message_id");
        assertThat(receiveText(jane, "HTTP.CLERK_OUT_Q")).containsExactly(forJane + "=for jane");
    }

    // ------------------------------------------------------------------ registrations for notifications

    @Test
    void theSeedsRegisterEnvelopeAndTheRestApiRegisterForNotificationsThatArriveAfterASend() throws IOException {
        // the test's endpoint: every POST it is sent, as "<path> <content type>\n<body>"
        List<String> notifications = new CopyOnWriteArrayList<>();
        HttpServer endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/", exchange -> {
            try (exchange) {
                notifications.add(exchange.getRequestURI().getPath() + " " + exchange.getRequestHeaders().getFirst("Content-Type")
                        + "\n" + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        endpoint.start();
        String base = "http://127.0.0.1:" + endpoint.getAddress().getPort();
        Client john = Client.as("john");
        String register = resource("aqxmlregister-seed.xml").replace("NOTIFY_URL", base + "/xml");
        String restUrl = base + "/json";
        try {
            // the seed's AQXmlRegister (an http:// URL for its mailto:), then an order for EAST_SHIPPING
            assertThat(text(only(john.soap(register, 200), AQ, "AQXmlRegisterResponse"), "status_code")).isEqualTo("0");
            String order = text(john.soap(resource("aqxmlsend-seed.xml").replace(">ORDER1<", ">NOTIFY<"), 200), "message_id");
            Awaitility.await("the AQXmlNotification of " + order).atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(notifications).anySatisfy(n -> assertThat(n).startsWith("/xml text/xml")
                            .contains("AQXmlNotification", "<destination>HTTP.OE_BOOKEDORDERS_QUE</destination>",
                                    "<message_id>" + order + "</message_id>", "<correlation>NOTIFY</correlation>")));

            // the REST API: JSON notifications with a context
            HttpResponse<String> registered = john.post("/api/queues/HTTP.NOTIFY_Q/registrations", "application/json",
                    "{\"notifyUrl\": \"" + restUrl + "\", \"qos\": [\"JSON\"], \"context\": \"ZWFzdA==\"}");
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
            String id = jsonObject(john.post("/api/queues/HTTP.NOTIFY_Q/messages", "application/json", "{\"payload\": \"n\"}")
                    .body()).getJsonArray("messageIds").getString(0);
            Awaitility.await("the JSON notification of " + id).atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(notifications).anySatisfy(n -> assertThat(n).startsWith("/json application/json")
                            .contains("\"message_id\":\"" + id + "\"", "\"context\":\"ZWFzdA==\"")));
        } finally {
            try {
                Document unregistered = john.soap(register.replace("AQXmlRegister", "AQXmlUnregister"), 200);
                only(unregistered, AQ, "AQXmlUnregisterResponse");
                assertThat(john.send("/api/queues/HTTP.NOTIFY_Q/registrations?notifyUrl=" + restUrl, "DELETE", null,
                        HttpRequest.BodyPublishers.noBody()).statusCode()).isEqualTo(204);
            } finally {
                endpoint.stop(0);
            }
        }
        HttpResponse<String> again = john.send("/api/queues/HTTP.NOTIFY_Q/registrations?notifyUrl=" + restUrl, "DELETE", null,
                HttpRequest.BodyPublishers.noBody());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(404);
        assertThat(jsonObject(again.body()).getInt("error")).isEqualTo(24950);
        // what the notifications announced, taken away
        assertThat(text(john.soap(resource("aqxmlreceive-seed.xml").replace(">RUSH<", ">NOTIFY<"), 200), "message_count")).isEqualTo("1");
        assertThat(receiveText(john, "HTTP.NOTIFY_Q")).singleElement().asString().endsWith("=n");
    }

    @Test
    void aRegistrationNeedsDequeueOnTheQueueAndAnInternetAddress() {
        Client jane = Client.as("jane");
        String url = "http://127.0.0.1:9/never";
        HttpResponse<String> rest = jane.post("/api/queues/HTTP.CLERK_IN_Q/registrations", "application/json",
                "{\"notifyUrl\": \"" + url + "\"}");
        assertThat(rest.statusCode()).as(rest.body()).isEqualTo(403);
        assertThat(jsonObject(rest.body()).getString("message")).contains("CLERK may not dequeue from HTTP.CLERK_IN_Q");
        Document fault = jane.soap(envelope("<AQXmlRegister xmlns=\"" + AQ + "\"><register_options><destination>HTTP.CLERK_IN_Q"
                + "</destination><notify_url>" + url + "</notify_url></register_options></AQXmlRegister>"), 500);
        assertThat(text(fault, "error_code")).isEqualTo("1031");
        HttpResponse<String> inJvm = Client.as("john").post("/api/queues/HTTP.NOTIFY_Q/registrations", "application/json",
                "{\"notifyUrl\": \"java:someones.listener\"}");
        assertThat(inJvm.statusCode()).as(inJvm.body()).isEqualTo(400);
        assertThat(jsonObject(inJvm.body()).getInt("error")).isEqualTo(24915);
        HttpResponse<String> inJvmRemoved = Client.as("john").send("/api/queues/HTTP.NOTIFY_Q/registrations?notifyUrl=java:x",
                "DELETE", null, HttpRequest.BodyPublishers.noBody());
        assertThat(inJvmRemoved.statusCode()).as(inJvmRemoved.body()).isEqualTo(400);
        assertThat(jsonObject(inJvmRemoved.body()).getInt("error")).isEqualTo(24915);
        assertThat(jane.post("/api/queues/HTTP.CLERK_OUT_Q/registrations", "application/json", "{\"notifyUrl\": \"" + url + "\"}")
                .statusCode()).as("DEQUEUE granted").isEqualTo(201);
        assertThat(jane.send("/api/queues/HTTP.CLERK_OUT_Q/registrations?notifyUrl=" + url, "DELETE", null,
                HttpRequest.BodyPublishers.noBody()).statusCode()).isEqualTo(204);
    }

    // ------------------------------------------------------------------ the JSON REST API

    @Test
    void restSendsBrowsesAndReceivesEachPayloadInItsForm() {
        Client john = Client.as("john");
        HttpResponse<String> sent = john.post("/api/queues/HTTP.JSON_Q/messages", "application/json",
                "{\"payload\": {\"order\": 8, \"rush\": true}, \"priority\": 3, \"correlation\": \"R8\","
                        + " \"properties\": {\"region\": \"WEST\", \"lines\": 2}}");
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
        String id = jsonObject(sent.body()).getJsonArray("messageIds").getString(0);

        HttpResponse<String> browsed = john.send("/api/queues/HTTP.JSON_Q/messages", "GET", null, HttpRequest.BodyPublishers.noBody());
        assertThat(browsed.statusCode()).isEqualTo(200);
        JsonObject seen = jsonObject(browsed.body()).getJsonArray("messages").getJsonObject(0);
        assertThat(seen.getString("messageId")).isEqualTo(id);
        assertThat(seen.getJsonObject("payload").getInt("order")).isEqualTo(8);

        HttpResponse<String> received = john.post("/api/queues/HTTP.JSON_Q/receive?correlation=R8", null, "");
        assertThat(received.statusCode()).as(received.body()).isEqualTo(200);
        JsonObject m = jsonObject(received.body()).getJsonArray("messages").getJsonObject(0);
        assertThat(m.getString("messageId")).isEqualTo(id);
        assertThat(m.getInt("priority")).isEqualTo(3);
        assertThat(m.getJsonObject("payload").getBoolean("rush")).isTrue();
        assertThat(m.getJsonObject("properties").getString("region")).isEqualTo("WEST");
        assertThat(m.getJsonObject("properties").getInt("lines")).isEqualTo(2);
        assertThat(john.post("/api/queues/HTTP.JSON_Q/receive", null, "").statusCode()).as("nothing left").isEqualTo(204);

        // several at once, bytes as base64
        String raw = Base64.getEncoder().encodeToString(new byte[] {9, 8, 7});
        assertThat(john.post("/api/queues/HTTP.RAW_Q/messages", "application/json",
                "{\"messages\": [{\"payload\": \"" + raw + "\"}, {\"payload\": \"" + raw + "\"}]}").statusCode()).isEqualTo(201);
        HttpResponse<String> both = john.post("/api/queues/HTTP.RAW_Q/receive?max=5", null, "");
        assertThat(jsonObject(both.body()).getJsonArray("messages")).hasSize(2)
                .allSatisfy(v -> assertThat(v.asJsonObject().getString("payload")).isEqualTo(raw));
    }

    @Test
    void aRestTransactionCommitsOrRollsBackWhatItsRequestsDid() {
        Client john = Client.as("john");
        Client other = Client.as("john");
        HttpResponse<String> begun = john.post("/api/transactions", null, "");
        assertThat(begun.statusCode()).isEqualTo(201);
        String tx = jsonObject(begun.body()).getString("transaction");
        assertThat(begun.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/api/transactions/" + tx));
        assertThat(john.post("/api/queues/HTTP.TEXT_Q/messages?transaction=" + tx, "application/json", "{\"payload\": \"one\"}")
                .statusCode()).isEqualTo(201);
        assertThat(john.post("/api/queues/HTTP.TEXT_Q/messages?transaction=" + tx, "application/json", "{\"payload\": \"two\"}")
                .statusCode()).isEqualTo(201);
        assertThat(other.post("/api/queues/HTTP.TEXT_Q/receive", null, "").statusCode()).as("uncommitted").isEqualTo(204);
        assertThat(john.post("/api/transactions/" + tx + "/commit", null, "").statusCode()).isEqualTo(204);
        assertThat(jsonObject(other.post("/api/queues/HTTP.TEXT_Q/receive?max=10", null, "").body()).getJsonArray("messages"))
                .extracting(v -> v.asJsonObject().getString("payload")).containsExactly("one", "two");
        assertThat(john.post("/api/transactions/" + tx + "/commit", null, "").statusCode()).as("ended").isEqualTo(404);

        // a rolled-back transaction: its receive undone (the message back in the queue), its send never happened
        assertThat(john.post("/api/queues/HTTP.TEXT_Q/messages", "application/json", "{\"payload\": \"back\"}").statusCode())
                .isEqualTo(201);
        String rolledBack = jsonObject(john.post("/api/transactions", null, "").body()).getString("transaction");
        assertThat(jsonObject(john.post("/api/queues/HTTP.TEXT_Q/receive?transaction=" + rolledBack, null, "").body())
                .getJsonArray("messages").getJsonObject(0).getString("payload")).isEqualTo("back");
        assertThat(john.post("/api/queues/HTTP.TEXT_Q/messages?transaction=" + rolledBack, "application/json",
                "{\"payload\": \"never\"}").statusCode()).isEqualTo(201);
        assertThat(john.send("/api/transactions/" + rolledBack, "DELETE", null, HttpRequest.BodyPublishers.noBody()).statusCode())
                .isEqualTo(204);
        assertThat(jsonObject(other.post("/api/queues/HTTP.TEXT_Q/receive?max=10", null, "").body()).getJsonArray("messages"))
                .extracting(v -> v.asJsonObject().getString("payload")).containsExactly("back");
    }

    @Test
    void restRefusesBadInputWithTheAqErrorAndAStatus() {
        Client john = Client.as("john");
        record Case(String path, String body, int status, int error, String says) {
        }
        for (Case c : List.of(
                new Case("/api/queues/HTTP.NO_SUCH_Q/messages", "{\"payload\": \"x\"}", 404, 24010, "NO_SUCH_Q"),
                new Case("/api/queues/HTTP.TEXT_Q/messages", "{\"payload\": \"x\", \"colour\": 1}", 400, 24097, "no field \"colour\""),
                new Case("/api/queues/HTTP.TEXT_Q/messages", "{\"payload\": ", 400, 24097, "not the JSON"),
                new Case("/api/queues/HTTP.TEXT_Q/messages", "{\"payload\": \"x\", \"priority\": \"high\"}", 400, 24097, "whole number"),
                new Case("/api/queues/HTTP.TEXT_Q/messages", "{\"payload\": 5}", 400, 25215, "JSON string"),
                new Case("/api/queues/HTTP.RAW_Q/messages", "{\"payload\": \"%%%\"}", 400, 25215, "base64"),
                new Case("/api/queues/HTTP.TEXT_Q/receive?mode=EAT", "", 400, 24097, "mode is 'EAT'"),
                new Case("/api/queues/HTTP.TEXT_Q/receive?transaction=nope", "", 404, 25400, "no open transaction"))) {
            HttpResponse<String> r = john.post(c.path(), "application/json", c.body());
            assertThat(r.statusCode()).as(c + " answered " + r.body()).isEqualTo(c.status());
            JsonObject error = jsonObject(r.body());
            assertThat(error.getInt("error")).as(c.toString()).isEqualTo(c.error());
            assertThat(error.getString("message")).as(c.toString()).contains(c.says());
        }
        assertThat(john.post("/api/queues/HTTP.TEXT_Q/receive", null, "").statusCode()).isEqualTo(204);
        assertThat(john.post("/api/queues/HTTP.RAW_Q/receive", null, "").statusCode()).isEqualTo(204);
    }

    @Test
    void aRequestFromAnotherSitesPageIsRefusedAndOneFromThisServerIsNot() {
        Client john = Client.as("john");
        for (String path : List.of(SERVLET, "/api/queues/HTTP.TEXT_Q/receive")) {
            HttpResponse<String> forged = john.send(path, "POST", "text/plain", HttpRequest.BodyPublishers.ofString(
                    sendText("HTTP.TEXT_Q", "forged", true)), "Origin", "http://evil.example");
            assertThat(forged.statusCode()).as(path + ": " + forged.body()).isEqualTo(403);
            assertThat(forged.body()).contains("another site");
        }
        String own = "http://localhost:" + Integer.getInteger("it.http.port", 18181);
        assertThat(john.send("/api/queues/HTTP.TEXT_Q/messages", "POST", "application/json",
                HttpRequest.BodyPublishers.ofString("{\"payload\": \"own page\"}"), "Origin", own).statusCode()).isEqualTo(201);
        assertThat(receiveText(john, "HTTP.TEXT_Q")).singleElement().asString().endsWith("=own page");
    }

    // ------------------------------------------------------------------ propagation over HTTP

    /**
     * AQ's propagation using HTTP: the store's HTTP.OUTBOX_Q has a remote subscriber at HTTP.PROPAGATED_Q@OVER_HTTP, a
     * database link whose URL is this server's own servlet with john's credentials (it/tests/pom.xml's definitions): the
     * schedule POSTs the message to the servlet, which enqueues it as john's database user. The schedule may be backing
     * off from tries made before the users existed (its first retry 30 s later), hence the generous wait.
     */
    @Test
    void aMessageReachesItsQueueThroughPropagationOverHttpOnce() {
        Client john = Client.as("john");
        String sent = text(john.soap(sendText("HTTP.OUTBOX_Q", "over the web", true), 200), "message_id");
        List<String> arrived = new ArrayList<>();
        Awaitility.await("the message propagated over HTTP").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    arrived.addAll(receiveText(john, "HTTP.PROPAGATED_Q"));
                    return !arrived.isEmpty();
                });
        assertThat(arrived).singleElement().asString().endsWith("=over the web").doesNotStartWith(sent + "=");
        assertThat(receiveText(john, "HTTP.PROPAGATED_Q")).as("once").isEmpty();
    }

    @Test
    void propagationRequestsAreAuthenticatedAndCheckedBeforeAnythingIsWritten() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        java.util.function.BiFunction<String, byte[], HttpResponse<String>> post = (user, body) -> {
            HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(BASE + SERVLET))
                    .header("Content-Type", "application/vnd.aqueduct.propagation").POST(HttpRequest.BodyPublishers.ofByteArray(body));
            if (user != null) {
                r.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":secret-" + user)
                        .getBytes(StandardCharsets.UTF_8)));
            }
            try {
                return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        byte[] garbage = "not a batch".getBytes(StandardCharsets.UTF_8);
        assertThat(post.apply(null, garbage).statusCode()).as("no credentials").isEqualTo(401);
        assertThat(post.apply("mallory", garbage).statusCode()).as("not in the role aqueduct-http").isEqualTo(403);
        HttpResponse<String> mary = post.apply("mary", garbage);
        assertThat(mary.statusCode()).as("no AQ agent").isEqualTo(403);
        assertThat(mary.headers().firstValue("X-Aqueduct-Error")).contains("24088");
        HttpResponse<String> john = post.apply("john", garbage);
        assertThat(john.statusCode()).isEqualTo(400);
        assertThat(john.headers().firstValue("X-Aqueduct-Error")).contains("24097");
        assertThat(john.body()).contains("not an Aqueduct propagation request");
    }

    // ------------------------------------------------------------------ envelopes

    static String envelope(String operation) {
        return "<?xml version=\"1.0\"?><Envelope xmlns=\"" + SOAP + "\"><Body>" + operation + "</Body></Envelope>";
    }

    static String sendText(String queue, String text, boolean commit) {
        return send(queue, "<text>" + text + "</text>", commit);
    }

    static String send(String queue, String payload, boolean commit) {
        return envelope("<AQXmlSend xmlns=\"" + AQ + "\"><producer_options><destination>" + queue + "</destination>"
                + "</producer_options><message_set><message_count>1</message_count><message><message_number>1</message_number>"
                + "<message_header><priority>2</priority></message_header><message_payload>" + payload
                + "</message_payload></message></message_set>" + (commit ? "<AQXmlCommit/>" : "") + "</AQXmlSend>");
    }

    static String receive(String queue, String consumer) {
        return envelope("<AQXmlReceive xmlns=\"" + AQ + "\"><consumer_options><destination>" + queue + "</destination>"
                + (consumer == null ? "" : "<consumer_name>" + consumer + "</consumer_name>")
                + "<wait_time>0</wait_time></consumer_options><AQXmlCommit/></AQXmlReceive>");
    }

    /** Receives (and commits) one message: ["<id>=<text>"], or [] when there is none. */
    static List<String> receiveText(Client client, String queue) {
        Document d = client.soap(receive(queue, null), 200);
        List<String> out = new ArrayList<>();
        if (!"0".equals(text(d, "message_count"))) {
            out.add(text(d, "message_id") + "=" + text(d, "text"));
        }
        return out;
    }

    static String resource(String name) {
        try (InputStream in = HttpAccessIT.class.getResourceAsStream("/http/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Element only(Document d, String ns, String name) {
        var list = ns == null ? d.getElementsByTagName(name) : d.getElementsByTagNameNS(ns, name);
        assertThat(list.getLength()).as("<" + name + "> in " + serialize(d)).isEqualTo(1);
        return (Element) list.item(0);
    }

    static String text(Document d, String localName) {
        return text(d.getDocumentElement(), localName);
    }

    static String text(Element e, String localName) {
        var list = e.getElementsByTagNameNS("*", localName);
        if (list.getLength() == 0) {
            list = e.getElementsByTagName(localName);
        }
        assertThat(list.getLength()).as("<" + localName + "> in " + serialize(e.getOwnerDocument())).isGreaterThan(0);
        return list.item(0).getTextContent();
    }

    static String serialize(Document d) {
        try {
            var w = new java.io.StringWriter();
            javax.xml.transform.TransformerFactory.newDefaultInstance().newTransformer()
                    .transform(new javax.xml.transform.dom.DOMSource(d), new javax.xml.transform.stream.StreamResult(w));
            return w.toString();
        } catch (javax.xml.transform.TransformerException e) {
            return String.valueOf(d);
        }
    }

    static JsonObject jsonObject(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    static JsonArray jsonArray(JsonObject o, String name) {
        return o.getJsonArray(name);
    }

    /** An HTTP client of one user with its own cookies (its own HTTP session). */
    static final class Client {
        private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(10)).build();
        private final String authorization;

        Client(String user, String password) {
            this.authorization = user == null ? null
                    : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        }

        static Client as(String user) {
            return new Client(user, "secret-" + user);
        }

        static Client anonymous() {
            return new Client(null, null);
        }

        Document soap(String envelope, int expectedStatus) {
            HttpResponse<String> r = post(SERVLET, "text/xml; charset=UTF-8", envelope);
            assertThat(r.statusCode()).as("answer to " + envelope + ":\n" + r.body()).isEqualTo(expectedStatus);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/xml"));
            try {
                DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
                f.setNamespaceAware(true);
                return f.newDocumentBuilder().parse(new InputSource(new StringReader(r.body())));
            } catch (Exception e) {
                throw new AssertionError("not XML: " + r.body(), e);
            }
        }

        HttpResponse<String> post(String path, String contentType, String body) {
            return send(path, "POST", contentType, HttpRequest.BodyPublishers.ofString(body));
        }

        HttpResponse<String> send(String path, String method, String contentType, HttpRequest.BodyPublisher body,
                String... headers) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE + path)).timeout(Duration.ofSeconds(60))
                    .method(method, body);
            if (headers.length > 0) {
                b.headers(headers);
            }
            if (contentType != null) {
                b.header("Content-Type", contentType);
            }
            if (authorization != null) {
                b.header("Authorization", authorization);
            }
            try {
                return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + path + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
