package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The BooksOnLine EAR on a fresh Payara Server domain, set up as server-config/README.md ("Payara Server: the
 * BooksOnLine EAR") says, command for command: add-library of the Derby jars, create-jvm-options with
 * queue-definitions.txt, restart-domain, deploy ear/target/aqueduct-booksonline.ear. Then what a user does with
 * it through its web API: orders shipped, billed and notified, the rolled-back one never (one log line, no stack
 * trace), a second batch with new ids; disable + enable, delete-application-ref + create-application-ref, and a
 * redeploy (deploy --force), each followed by a working order, without restarting the domain; and a standalone RAR next to the EAR, refused on the EAR's store directory
 * until it has one of its own.
 */
@Timeout(value = 600, unit = java.util.concurrent.TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BooksOnLineEarIT {
    private static final Path ROOT = Path.of(System.getProperty("it.projectRoot", "../..")).toAbsolutePath().normalize();
    private static final Path WORK = Path.of(System.getProperty("ear.workDir", "target/ear")).toAbsolutePath();
    private static final String DOMAIN = "aqear";
    private static final String APP = "aqueduct-booksonline";
    private static final Duration T = Duration.ofSeconds(180);
    private static final Duration DELIVERY = Duration.ofSeconds(60);
    private static final long T0 = System.nanoTime();

    private static PayaraDomain domain;
    private static BooksOnLineClient books;
    private static long deployedAt;
    private static List<String> firstBatch;

    @BeforeAll
    static void createDomain() throws IOException {
        PayaraDomain.killLeftOver(WORK.resolve("domains"), DOMAIN);
        BooksOnLineClient.deleteTree(WORK);
        Files.createDirectories(WORK);
        int portbase = PayaraDomain.freePortbase(Integer.getInteger("ear.portbase", 32000));
        domain = new PayaraDomain(DOMAIN, Path.of(System.getProperty("crash.payaraHome")), WORK.resolve("domains"), portbase);
        books = new BooksOnLineClient(domain);
        log("creating the domain " + DOMAIN + ", port base " + portbase + " (admin " + domain.adminPort() + ", http "
                + domain.httpPort() + ")");
        domain.create();
        Runtime.getRuntime().addShutdownHook(new Thread(domain::killIfAlive, "kill " + DOMAIN));
        domain.start();
        // server-config/README.md, "Payara Server: the BooksOnLine EAR", step 1 (the Derby jars of this build)
        Path derby = Path.of(System.getProperty("crash.derbyLib"));
        domain.asadmin(T, "add-library", derby.resolve("derby.jar").toString(), derby.resolve("derbytools.jar").toString(),
                derby.resolve("derbyshared.jar").toString());
        domain.asadmin(T, "create-jvm-options",
                "-Daqueduct.queueDefinitions=" + Files.readString(ROOT.resolve("server-config/queue-definitions.txt")).strip());
        domain.restart();
        log("Derby added, queue definitions set, domain restarted");
        // step 2, from the project root as documented
        deployedAt = domain.serverLogSize();
        domain.asadminIn(ROOT, T, "deploy", "ear/target/aqueduct-booksonline.ear");
        log("EAR deployed");
    }

    @AfterAll
    static void stopDomain() {
        if (domain != null) {
            domain.stopQuietly();
            domain.copyServerLog(WORK.getParent().resolve("ear-server.log"));
            log("domain stopped, its log in target/ear-server.log");
        }
    }

    @Test
    @Order(1)
    void firstDeploymentLogsTheStoreItOpenedAndTheQueuesItCreated() {
        String log = domain.serverLogFrom(deployedAt);
        assertThat(log).as("server.log of the first deployment").contains("Aqueduct opened the store")
                .contains("Aqueduct created queue OE.OE_BOOKEDORDERS_MQUE")
                .contains("Aqueduct created queue SHIP.SHIP_BOOKEDORDERS_QUE")
                .contains("Aqueduct created queue CB.CB_BILLING_QUE")
                .contains("Aqueduct created queue CS.CS_BOOKEDORDERS_TOPIC");
    }

    @Test
    @Order(2)
    void ordersAreShippedBilledAndNotifiedTheRolledBackOneNeverAndLogsOneLine() {
        long from = domain.serverLogSize();
        BooksOnLineClient.Batch batch = books.place(3, true);
        assertThat(batch.rolledBack()).as("the order rolled back on purpose").isNotBlank().isNotIn(batch.booked());
        books.awaitDelivered(batch.booked(), DELIVERY);
        books.assertNeverBooked(batch.rolledBack());
        List<String> records = BooksOnLineClient.logRecords(domain.serverLogFrom(from), batch.rolledBack());
        assertThat(records).as("server.log records naming the rolled-back order %s", batch.rolledBack()).hasSize(1);
        assertThat(records.get(0)).contains("rolled back");
        assertThat(BooksOnLineClient.hasStackTrace(records.get(0))).as("a stack trace in:\n%s", records.get(0)).isFalse();
        firstBatch = batch.booked();
    }

    @Test
    @Order(3)
    void aSecondBatchGetsNewOrderIds() {
        BooksOnLineClient.Batch batch = books.place(2, false);
        assertThat(batch.rolledBack()).isNull();
        assertThat(batch.booked()).doesNotContainAnyElementsOf(firstBatch == null ? List.of() : firstBatch);
        books.awaitDelivered(batch.booked(), DELIVERY);
    }

    @Test
    @Order(4)
    void disableThenEnableWithoutRestartTakesOrdersAgain() {
        domain.asadmin(T, "disable", APP);
        assertThat(domain.response("/booksonline/api/orders", Duration.ofSeconds(20)).statusCode())
                .as("the API of the disabled application").isEqualTo(404);
        domain.asadmin(T, "enable", APP);
        log("disabled and enabled");
        books.awaitDelivered(books.place(1, false).booked(), DELIVERY);
    }

    @Test
    @Order(5)
    void applicationReferenceRemovedAndCreatedAgainWithoutRestartTakesOrdersAgain() {
        domain.asadmin(T, "delete-application-ref", "--target", "server", APP);
        domain.asadmin(T, "create-application-ref", "--target", "server", APP);
        log("application reference deleted and created again");
        books.awaitDelivered(books.place(1, false).booked(), DELIVERY);
    }

    @Test
    @Order(6)
    void redeployWithoutRestartTakesOrdersAgainAndKeepsTheEarlierOnes() {
        domain.asadminIn(ROOT, T, "deploy", "--force", "ear/target/aqueduct-booksonline.ear");
        log("redeployed");
        books.awaitDelivered(books.place(1, false).booked(), DELIVERY);
        if (firstBatch != null) {
            assertThat(books.order(firstBatch.get(0))).as("an order of the first batch after the redeploy").isNotNull();
        }
    }

    /**
     * The adapter deployed standalone next to the EAR, without a storeDirectory, would open the EAR's default Derby
     * store directory: it is refused saying so; given a directory of its own it starts.
     */
    @Test
    @Order(7)
    void aStandaloneAdapterNextToTheEarNeedsAStoreDirectoryOfItsOwn() {
        String rar = System.getProperty("crash.rar");
        assertThatThrownBy(() -> domain.asadmin(T, "deploy", "--name", "aqueduct-rar", "--type", "rar", rar))
                .as("deploying the standalone adapter on the EAR's store directory")
                .hasMessageContaining("store directory").hasMessageContaining("storeDirectory");
        String own = WORK.resolve("standalone-store").toString();
        domain.asadmin(T, "create-resource-adapter-config", "--property",
                "storeDirectory=" + own.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\="), "aqueduct-rar");
        long from = domain.serverLogSize();
        domain.asadmin(T, "deploy", "--name", "aqueduct-rar", "--type", "rar", rar);
        assertThat(domain.serverLogFrom(from)).contains("Aqueduct opened the store").contains(own);
        assertThat(domain.asadmin(T, "list-applications")).contains("aqueduct-rar").contains(APP);
        // the EAR still takes orders
        books.awaitDelivered(books.place(1, false).booked(), DELIVERY);
    }

    private static void log(String s) {
        System.out.printf("[ear %6.1f s] %s%n", (System.nanoTime() - T0) / 1e9, s);
    }
}
