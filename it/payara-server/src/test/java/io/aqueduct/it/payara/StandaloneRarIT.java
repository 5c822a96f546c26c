package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The resource adapter deployed standalone with server-wide resources, on a fresh Payara Server domain, as
 * server-config/README.md ("Payara Server: the resource adapter standalone, resources server-wide") says: Derby and
 * the queue definitions set up as for the EAR, then {@code asadmin --interactive=false multimode --file
 * server-config/aqueduct-setup.asadmin} from the project root, and the sample's standalone WAR
 * (ejb-samples/booksonline-war/target/booksonline.war) taking orders on those resources. Then the other documented
 * way to the same resources: the script's resources deleted, {@code asadmin add-resources
 * server-config/glassfish-resources.xml}, and the WAR takes orders again. Last, AQ over HTTP beside the adapter:
 * rar/http/target/aqueduct-standalone.war on the same resources, a realm user in the group aqueduct-http; and the
 * administration console, rar/console/target/aqueduct-console-standalone.war, for a user in the group aqueduct-admin.
 *
 * <p>asadmin multimode reports success even when commands inside the file fail, so every resource the script and the
 * file should create is checked with the list-* commands.
 */
@Timeout(value = 600, unit = java.util.concurrent.TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneRarIT {
    private static final Path ROOT = Path.of(System.getProperty("it.projectRoot", "../..")).toAbsolutePath().normalize();
    private static final Path WORK = Path.of(System.getProperty("rar.workDir", "target/rar")).toAbsolutePath();
    private static final String DOMAIN = "aqrar";
    private static final String WAR = "ejb-samples/booksonline-war/target/booksonline.war";
    private static final Duration T = Duration.ofSeconds(180);
    private static final Duration DELIVERY = Duration.ofSeconds(60);
    private static final long T0 = System.nanoTime();

    private static final List<String> CONNECTOR_POOLS = List.of("aqueduct/QueueSessionsPool", "jms/BooksOnLineConnectionFactoryPool");
    private static final List<String> CONNECTOR_RESOURCES = List.of("aqueduct/QueueSessions", "jms/BooksOnLineConnectionFactory");
    private static final List<String> ADMIN_OBJECTS = List.of("jms/BillingRequests", "jms/BookedOrderNotifications");

    private static PayaraDomain domain;
    private static BooksOnLineClient books;
    private static String setupOutput;
    private static long setupAt;

    @BeforeAll
    static void createDomain() throws IOException {
        PayaraDomain.killLeftOver(WORK.resolve("domains"), DOMAIN);
        BooksOnLineClient.deleteTree(WORK);
        Files.createDirectories(WORK);
        int portbase = PayaraDomain.freePortbase(Integer.getInteger("rar.portbase", 34000));
        domain = new PayaraDomain(DOMAIN, Path.of(System.getProperty("crash.payaraHome")), WORK.resolve("domains"), portbase);
        books = new BooksOnLineClient(domain);
        log("creating the domain " + DOMAIN + ", port base " + portbase + " (admin " + domain.adminPort() + ", http "
                + domain.httpPort() + ")");
        domain.create();
        Runtime.getRuntime().addShutdownHook(new Thread(domain::killIfAlive, "kill " + DOMAIN));
        domain.start();
        Path derby = Path.of(System.getProperty("crash.derbyLib"));
        domain.asadmin(T, "add-library", derby.resolve("derby.jar").toString(), derby.resolve("derbytools.jar").toString(),
                derby.resolve("derbyshared.jar").toString());
        // and, for aqueduct.war (server-config/README.md, "AQ over HTTP"), john as an AQ agent working as SHIP
        domain.asadmin(T, "create-jvm-options", "-Daqueduct.queueDefinitions="
                + Files.readString(ROOT.resolve("server-config/queue-definitions.txt")).strip() + "; agent JOHN http=true db_users=SHIP");
        domain.restart();
        log("Derby added, queue definitions set, domain restarted");
        setupAt = domain.serverLogSize();
        setupOutput = domain.asadminIn(ROOT, T, "multimode", "--file", "server-config/aqueduct-setup.asadmin");
        Files.writeString(WORK.resolve("aqueduct-setup.out"), setupOutput);
        log("aqueduct-setup.asadmin run (its output in target/rar/aqueduct-setup.out)");
    }

    @AfterAll
    static void stopDomain() {
        if (domain != null) {
            domain.stopQuietly();
            domain.copyServerLog(WORK.getParent().resolve("rar-server.log"));
            log("domain stopped, its log in target/rar-server.log");
        }
    }

    @Test
    @Order(1)
    void theSetupScriptCreatesEveryResourceItNames() {
        assertThat(BooksOnLineClient.failures(setupOutput)).as("failed commands of aqueduct-setup.asadmin:\n%s", setupOutput)
                .isEmpty();
        assertThat(domain.asadmin(T, "list-applications")).contains("aqueduct-rar");
        assertResources();
        assertThat(domain.asadmin(T, "get", "configs.config.server-config.transaction-service.automatic-recovery"))
                .contains("automatic-recovery=true");
    }

    @Test
    @Order(2)
    void theAdapterLogsTheStoreItOpenedAndTheQueuesItCreated() {
        assertThat(domain.serverLogFrom(setupAt)).contains("Aqueduct opened the store")
                .contains("Aqueduct created queue OE.OE_BOOKEDORDERS_MQUE")
                .contains("Aqueduct created queue CB.CB_BILLING_QUE");
    }

    @Test
    @Order(3)
    void theStandaloneWarTakesOrdersOnTheScriptsResources() {
        domain.asadminIn(ROOT, T, "deploy", WAR);
        log("WAR deployed");
        BooksOnLineClient.Batch batch = books.place(2, true);
        books.awaitDelivered(batch.booked(), DELIVERY);
        books.assertNeverBooked(batch.rolledBack());
    }

    @Test
    @Order(4)
    void theSameResourcesFromGlassfishResourcesXmlServeTheWarAsWell() {
        domain.asadmin(T, "undeploy", "booksonline");
        for (String r : CONNECTOR_RESOURCES) {
            domain.asadmin(T, "delete-connector-resource", r);
        }
        for (String p : CONNECTOR_POOLS) {
            domain.asadmin(T, "delete-connector-connection-pool", p);
        }
        for (String a : ADMIN_OBJECTS) {
            domain.asadmin(T, "delete-admin-object", a);
        }
        domain.asadmin(T, "delete-jdbc-resource", "jdbc/BooksOnLine");
        domain.asadmin(T, "delete-jdbc-connection-pool", "BooksOnLinePool");
        assertThat(domain.asadmin(T, "list-connector-resources")).doesNotContain("aqueduct/QueueSessions");
        log("the script's resources deleted");

        domain.asadminIn(ROOT, T, "add-resources", "server-config/glassfish-resources.xml");
        assertResources();
        domain.asadminIn(ROOT, T, "deploy", WAR);
        log("resources added from glassfish-resources.xml, WAR deployed again");
        books.awaitDelivered(books.place(1, false).booked(), DELIVERY);
    }

    @Test
    @Order(5)
    void aqueductWarServesAqOverHttpBesideTheStandaloneAdapter() throws Exception {
        // server-config/README.md, "AQ over HTTP: aqueduct.war"
        domain.asadminIn(ROOT, T, "deploy", "--name", "aqueduct", "--contextroot", "aqueduct", "rar/http/target/aqueduct-standalone.war");
        Path password = WORK.resolve("http-user.txt");
        Files.writeString(password, "AS_ADMIN_USERPASSWORD=secret-john\n");
        domain.asadmin(T, "--passwordfile", password.toString(), "create-file-user", "--groups", "aqueduct-http", "john");
        log("aqueduct.war deployed, user john created");
        String base = "http://localhost:" + domain.httpPort() + "/aqueduct";
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("john:secret-john".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();

        // the REST API browses a queue of the server-wide resources as john, that is as SHIP, the queue's owner
        java.net.http.HttpResponse<String> browsed = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(base + "/api/queues/SHIP.SHIP_BOOKEDORDERS_QUE/messages")).header("Authorization", basic)
                .timeout(Duration.ofSeconds(60)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(browsed.statusCode()).as(browsed.body()).isEqualTo(200);
        assertThat(browsed.body()).startsWith("{\"messages\":[");
        // the XML servlet answers an unknown queue with AQ's number in a SOAP fault
        String envelope = "<Envelope xmlns=\"http://schemas.xmlsoap.org/soap/envelope/\"><Body><AQXmlReceive"
                + " xmlns=\"http://ns.oracle.com/AQ/schemas/access\"><consumer_options><destination>NO.SUCH_Q</destination>"
                + "<wait_time>0</wait_time></consumer_options><AQXmlCommit/></AQXmlReceive></Body></Envelope>";
        java.net.http.HttpResponse<String> fault = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(base + "/aqserv/servlet")).header("Authorization", basic).header("Content-Type", "text/xml")
                .timeout(Duration.ofSeconds(60)).POST(java.net.http.HttpRequest.BodyPublishers.ofString(envelope)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(fault.statusCode()).isEqualTo(500);
        assertThat(fault.body()).contains("<aq:error_code>24010</aq:error_code>");
        // and nothing without credentials
        assertThat(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/aqserv/servlet"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(envelope)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    }

    @Test
    @Order(6)
    void theConsoleShowsTheQueuesBesideTheStandaloneAdapter() throws Exception {
        // server-config/README.md, "The administration console: aqueduct-console.war"
        domain.asadminIn(ROOT, T, "deploy", "--name", "aqueduct-console", "--contextroot", "aqueduct-console",
                "rar/console/target/aqueduct-console-standalone.war");
        Path password = WORK.resolve("console-user.txt");
        Files.writeString(password, "AS_ADMIN_USERPASSWORD=secret-admin\n");
        domain.asadmin(T, "--passwordfile", password.toString(), "create-file-user", "--groups", "aqueduct-admin", "admin");
        log("aqueduct-console.war deployed, user admin created");
        String base = "http://localhost:" + domain.httpPort() + "/aqueduct-console/";
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().cookieHandler(new java.net.CookieManager())
                .followRedirects(java.net.http.HttpClient.Redirect.NORMAL).build();

        // the login form, then the page's JSON API in the session it opened
        java.net.http.HttpResponse<String> page = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base))
                .timeout(Duration.ofSeconds(60)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(page.body()).contains("j_security_check");
        java.net.http.HttpResponse<String> login = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "j_security_check"))
                .header("Content-Type", "application/x-www-form-urlencoded").timeout(Duration.ofSeconds(60))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("j_username=admin&j_password=secret-admin")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(login.body()).as("the console's page after the login").contains("js/app.js");
        java.net.http.HttpResponse<String> catalog = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "api/catalog"))
                .timeout(Duration.ofSeconds(60)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(catalog.statusCode()).as(catalog.body()).isEqualTo(200);
        assertThat(catalog.body()).contains("\"qualified\":\"SHIP.SHIP_BOOKEDORDERS_QUE\"");
        // the background poll's figures come within a few seconds of the first question
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> http.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "api/statistics")).timeout(Duration.ofSeconds(60)).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body().contains("\"queue\":\"SHIP.SHIP_BOOKEDORDERS_QUE\""));

        // its MicroProfile health and metrics (docs/metrics.md), without login. /metrics answers at all only because the
        // scripts' JDBC pool is named without a '/' (docs/metrics.md, "Payara Server and JDBC pools")
        String server = "http://localhost:" + domain.httpPort();
        java.net.http.HttpResponse<String> ready = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(server + "/health/ready")).timeout(Duration.ofSeconds(60)).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body()).contains("\"name\":\"aqueduct-ready\"").contains("storeReachable\":\"true\"");
        java.net.http.HttpResponse<String> metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(server + "/metrics?scope=application")).header("Accept", "text/plain")
                .timeout(Duration.ofSeconds(60)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).as(metrics.body()).isEqualTo(200);
        // labels in name order; the store's label is the store's place
        assertThat(metrics.body()).containsPattern("aqueduct_queue_messages\\{mp_scope=\"application\",node=\"\\w+\","
                + "queue=\"SHIP.SHIP_BOOKEDORDERS_QUE\",state=\"ready\",store=\"derby:[^\"]+\"\\} \\d");
    }

    /** Every pool and resource of aqueduct-setup.asadmin / glassfish-resources.xml, as the list-* commands show them. */
    private static void assertResources() {
        assertThat(domain.asadmin(T, "list-connector-connection-pools")).contains(CONNECTOR_POOLS);
        assertThat(domain.asadmin(T, "list-connector-resources")).contains(CONNECTOR_RESOURCES);
        assertThat(domain.asadmin(T, "list-admin-objects")).contains(ADMIN_OBJECTS);
        assertThat(domain.asadmin(T, "list-jdbc-connection-pools")).contains("BooksOnLinePool");
        assertThat(domain.asadmin(T, "list-jdbc-resources")).contains("jdbc/BooksOnLine");
    }

    private static void log(String s) {
        System.out.printf("[rar %6.1f s] %s%n", (System.nanoTime() - T0) / 1e9, s);
    }
}
