package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.CommandRunner;
import org.glassfish.internal.api.Globals;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The administration console as an administrator sees it: the BooksOnLine EAR's aqueduct-console.war at
 * /aqueduct-console in embedded Payara, driven by a real headless Chromium (Debian's chromium and chromedriver:
 * missing, the test fails). The messages are sent over the EAR's REST API by realm user feeder (agent FEEDER, working
 * as CONSOLE, the owner of the CONSOLE.* queues of it/tests/pom.xml). Screenshots of the main pages go to
 * target/console-screenshots (docs/console/ has the best of them).
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleIT {
    static final int PORT = Integer.getInteger("it.http.port", 18181);
    static final String CONSOLE = "http://localhost:" + PORT + "/aqueduct-console/";
    static final String REST = "http://localhost:" + PORT + "/aqueduct/api/";
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static WebDriver browser;

    @Deployment(name = "aqueduct-console", testable = false)
    static EnterpriseArchive booksOnLine() {
        return ShrinkWrap.createFromZipFile(EnterpriseArchive.class,
                AqueductContainerIT.DEPLOYMENTS.resolve("aqueduct-booksonline.ear").toFile());
    }

    /** admin has the console's role (and is an administrator of the store); feeder sends; outsider has no role. */
    @BeforeAll
    static void usersAndBrowser() throws IOException {
        CommandRunner runner = Globals.getDefaultHabitat().getService(CommandRunner.class);
        for (String[] user : new String[][] {{"admin", "aqueduct-admin"}, {"feeder", "aqueduct-http"}, {"outsider", "staff"}}) {
            Path passwordFile = Files.createTempFile("aqueduct-console-user", ".txt");
            Files.writeString(passwordFile, "AS_ADMIN_USERPASSWORD=secret-" + user[0] + "\n");
            CommandResult r = runner.run("create-file-user", "--groups", user[1], "--passwordfile", passwordFile.toString(), user[0]);
            assertThat(r.getExitStatus()).as("create-file-user " + user[0] + ": " + r.getOutput() + " " + r.getFailureCause())
                    .isIn(CommandResult.ExitStatus.SUCCESS, CommandResult.ExitStatus.WARNING);
        }
        Path chromium = Path.of("/usr/bin/chromium");
        Path driver = Path.of("/usr/bin/chromedriver");
        assertThat(Files.isExecutable(chromium) && Files.isExecutable(driver))
                .as("Chromium and its driver are needed: apt-get install -y chromium chromium-driver").isTrue();
        ChromeOptions options = new ChromeOptions().setBinary(chromium.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100");
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).build(), options);
        browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(0));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @Order(1)
    void aUserWithoutTheRoleIsRefusedAndTheApiRefusesRequestsFromOtherPages() throws Exception {
        browser.get(CONSOLE);
        login("outsider");
        assertThat(browser.getPageSource()).doesNotContain("Queue tables and queues");
        browser.manage().deleteAllCookies();
        // the administrator's session: a change without the console's header (a form another site posts) is refused
        browser.get(CONSOLE);
        login("admin");
        await(() -> !browser.findElements(By.id("queues")).isEmpty());
        String session = "JSESSIONID=" + browser.manage().getCookieNamed("JSESSIONID").getValue();
        HttpResponse<String> forged = HTTP.send(HttpRequest.newBuilder(URI.create(CONSOLE + "api/queues/CONSOLE.ORDERS_Q/stop"))
                .header("Cookie", session).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(forged.statusCode()).isEqualTo(403);
        HttpResponse<String> otherSite = HTTP.send(HttpRequest.newBuilder(URI.create(CONSOLE + "api/queues/CONSOLE.ORDERS_Q/stop"))
                .header("Cookie", session).header("Content-Type", "application/json").header("X-Aqueduct-Console", "1")
                .header("Origin", "https://evil.example.com").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(otherSite.statusCode()).isEqualTo(403);
        browser.manage().deleteAllCookies();
    }

    @Test
    @Order(2)
    void theAdministratorLogsInAndSeesTheQueuesWithTheirDepths() {
        send("CONSOLE.ORDERS_Q", "{\"payload\": {\"orderno\": 1, \"items\": [\"book\", \"pen\"]}, \"correlation\": \"ORDER1\"}");
        send("CONSOLE.ORDERS_Q", "{\"payload\": {\"orderno\": 2}, \"correlation\": \"ORDER2\", \"delay\": 3600}");
        send("CONSOLE.RAW_Q", "{\"payload\": \"" + Base64.getEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xFF, 'A'}) + "\"}");
        browser.get(CONSOLE);
        login("admin");
        await(() -> browser.findElements(By.cssSelector("#queues tr[data-queue]")).size() > 10);
        // BooksOnLine's queues are there, with their tables
        for (String queue : List.of("OE.OE_BOOKEDORDERS_MQUE", "SHIP.SHIP_BOOKEDORDERS_QUE", "CB.CB_BILLING_QUE", "CS.CS_BOOKEDORDERS_TOPIC")) {
            assertThat(browser.findElements(By.cssSelector("tr[data-queue='" + queue + "']"))).as(queue).hasSize(1);
        }
        // the depths by state: one READY and one WAITING (delayed) order, one RAW message
        await(() -> "1".equals(cell("CONSOLE.ORDERS_Q", "ready")) && "1".equals(cell("CONSOLE.ORDERS_Q", "waiting")));
        await(() -> "1".equals(cell("CONSOLE.RAW_Q", "ready")));
        assertThat(cell("CONSOLE.ORDERS_Q", "expired")).isEqualTo("0");
        screenshot("queues");
    }

    @Test
    @Order(3)
    void aMessageIsBrowsedWithItsPropertiesAndItsPayloadPrettyPrinted() {
        openQueue("CONSOLE.ORDERS_Q");
        await(() -> !browser.findElements(By.cssSelector("#message-list tr[data-message]")).isEmpty());
        browser.findElement(By.cssSelector("#message-list tr[data-message] a")).click();
        await(() -> !browser.findElements(By.id("payload")).isEmpty());
        assertThat(browser.findElement(By.id("message-properties")).getText()).contains("ORDER1").contains("READY");
        assertThat(browser.findElement(By.id("payload")).getText()).contains("\"orderno\": 1").contains("\"book\"");
        screenshot("message");

        // filtered by correlation (the delayed ORDER2 is not browsable before its delay ends, as in AQ), and a RAW
        // payload shown in hexadecimal
        browser.findElement(By.id("browse-correlation")).sendKeys("ORDER%");
        browser.findElement(By.id("browse")).click();
        await(() -> browser.findElements(By.cssSelector("#message-list tr[data-message]")).size() == 1
                && browser.findElement(By.id("message-list")).getText().contains("ORDER1"));
        browser.findElement(By.id("browse-correlation")).clear();
        browser.findElement(By.id("browse-correlation")).sendKeys("NONE%");
        browser.findElement(By.id("browse")).click();
        await(() -> browser.findElement(By.id("page-range")).getText().equals("no messages"));
        // the delayed ORDER2 is listed among the WAITING messages (the AQ$ view's rows, not a BROWSE)
        browser.findElement(By.id("browse-correlation")).clear();
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("browse-state"))).selectByValue("WAITING");
        browser.findElement(By.id("browse")).click();
        await(() -> browser.findElements(By.cssSelector("#message-list tr[data-message]")).size() == 1
                && browser.findElement(By.id("message-list")).getText().contains("ORDER2"));
        browser.findElement(By.cssSelector("#message-list tr[data-message] a")).click();
        await(() -> browser.findElement(By.id("message-properties")).getText().contains("WAITING"));
        openQueue("CONSOLE.RAW_Q");
        await(() -> !browser.findElements(By.cssSelector("#message-list tr[data-message] a")).isEmpty());
        browser.findElement(By.cssSelector("#message-list tr[data-message] a")).click();
        await(() -> !browser.findElements(By.id("payload")).isEmpty());
        assertThat(browser.findElement(By.id("payload")).getText()).contains("00 01 02 ff 41".toUpperCase());
    }

    @Test
    @Order(4)
    void aQueueIsStoppedAndStartedAndAProducerSeesIt() {
        openQueue("CONSOLE.RAW_Q");
        click("stop-queue");
        confirm();
        await(() -> outcome().contains("stopped"));
        await(() -> browser.findElement(By.id("enqueue-state")).getText().equals("disabled"));
        assertThat(sendStatus("CONSOLE.RAW_Q", "{\"payload\": \"AA==\"}")).as("a stopped queue refuses (25207)").isEqualTo(400);
        click("start-queue");
        confirm();
        await(() -> outcome().contains("started"));
        await(() -> browser.findElement(By.id("enqueue-state")).getText().equals("enabled"));
        assertThat(sendStatus("CONSOLE.RAW_Q", "{\"payload\": \"AA==\"}")).isEqualTo(201);
    }

    @Test
    @Order(5)
    void anExpiredMessageIsRequeuedFromTheExceptionQueueAndDeliveredAndAnotherPurged() throws Exception {
        send("CONSOLE.ORDERS_Q", "{\"payload\": {\"orderno\": 3}, \"correlation\": \"LATE\", \"expiration\": 1}");
        send("CONSOLE.ORDERS_Q", "{\"payload\": {\"orderno\": 4}, \"correlation\": \"GONE\", \"expiration\": 1, \"priority\": 2}");
        String exceptionQueue = "CONSOLE.AQ$_CONSOLE_QTAB_E";
        browser.get(CONSOLE + "#queues");
        await(() -> "2".equals(cell(exceptionQueue, "expired")));
        openQueue(exceptionQueue);
        if (browser.findElement(By.id("dequeue-state")).getText().equals("disabled")) {
            click("start-queue");
            confirm();
            await(() -> browser.findElement(By.id("dequeue-state")).getText().equals("enabled"));
        }
        await(() -> browser.findElements(By.cssSelector("#message-list tr[data-message]")).size() == 2);
        screenshot("exception-queue");
        selectRowWith("LATE");
        click("requeue");
        // by default back to the queue it expired from, which the engine recorded
        assertThat(new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("requeue-target")))
                .getFirstSelectedOption().getAttribute("value")).isEmpty();
        confirm();
        await(() -> outcome().contains("1 message(s) requeued to CONSOLE.ORDERS_Q"));
        // delivered: a consumer of the original queue receives it, its attempts at zero
        String received = receive("CONSOLE.ORDERS_Q", "LATE");
        assertThat(received).contains("\"orderno\":3").contains("\"attempts\":0");

        // the other one is purged: gone from the exception queue
        await(() -> browser.findElements(By.cssSelector("#message-list tr[data-message]")).size() == 1);
        selectRowWith("GONE");
        click("purge-selected");
        confirm();
        await(() -> outcome().contains("1 message(s) purged"));
        await(() -> browser.findElement(By.id("page-range")).getText().equals("no messages"));
        await(() -> "0".equals(browser.findElement(By.id("stat-expired")).getText()));
    }

    static void selectRowWith(String correlation) {
        await(() -> browser.findElements(By.cssSelector("#message-list tr[data-message]")).stream()
                .anyMatch(r -> r.getText().contains(correlation)));
        browser.findElements(By.cssSelector("#message-list tr[data-message]")).stream().filter(r -> r.getText().contains(correlation))
                .findFirst().orElseThrow().findElement(By.cssSelector("input[type=checkbox]")).click();
    }

    @Test
    @Order(6)
    void aSubscriberWithABadRuleIsRefusedWith25448AndItsPosition() {
        openQueue("CONSOLE.NEWS_Q");
        await(() -> !browser.findElements(By.id("subscriber-name")).isEmpty());
        browser.findElement(By.id("subscriber-name")).sendKeys("ARCHIVE");
        browser.findElement(By.id("subscriber-rule")).sendKeys("corrid = 'NEWS' AND AND priority > 1");
        click("add-subscriber-button");
        confirm();
        await(() -> outcome().contains("AQ-25448"));
        assertThat(outcome()).contains("position");
        screenshot("subscriber-bad-rule");
        assertThat(browser.findElements(By.cssSelector("#subscribers tr[data-subscriber='ARCHIVE']"))).isEmpty();
        // a good rule is added
        browser.findElement(By.id("subscriber-rule")).clear();
        browser.findElement(By.id("subscriber-rule")).sendKeys("corrid = 'NEWS' AND priority > 1");
        click("add-subscriber-button");
        confirm();
        await(() -> browser.findElements(By.cssSelector("#subscribers tr[data-subscriber='ARCHIVE']")).size() == 1);
    }

    @Test
    @Order(7)
    void theThroughputChartMovesWhileMessagesFlow() throws Exception {
        openQueue("CONSOLE.ORDERS_Q");
        await(() -> !browser.findElements(By.id("latest-rates")).isEmpty());
        AtomicBoolean flowing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> {
            for (int i = 0; flowing.get() && i < 200; i++) {
                send("CONSOLE.ORDERS_Q", "{\"payload\": {\"orderno\": " + (100 + i) + "}, \"correlation\": \"FLOW\"}");
                sleep(100);
            }
        });
        // a consumer takes them as they come
        Thread consumer = new Thread(() -> {
            while (flowing.get()) {
                try {
                    HTTP.send(HttpRequest.newBuilder(URI.create(REST + "queues/CONSOLE.ORDERS_Q/receive?wait=1&max=5&correlation=FLOW"))
                            .header("Authorization", basic("feeder")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.discarding());
                } catch (IOException e) {
                    sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        producer.start();
        consumer.start();
        try {
            Awaitility.await("the throughput chart shows the flow").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Double.parseDouble(rate()) > 0);
            Awaitility.await("the chart shows the dequeues").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        String values = browser.findElement(By.id("latest-rates")).getAttribute("data-values");
                        String[] v = values.replaceAll("[\\[\\]]", "").split(",");
                        return v.length > 1 && !v[1].equals("null") && Double.parseDouble(v[1]) > 0;
                    });
            int points = Integer.parseInt(browser.findElement(By.id("latest-rates")).getAttribute("data-points"));
            await(() -> Integer.parseInt(browser.findElement(By.id("latest-rates")).getAttribute("data-points")) > points);
            // a few more seconds of flow on the chart before its picture is taken
            await(() -> Integer.parseInt(browser.findElement(By.id("latest-rates")).getAttribute("data-points")) > points + 3);
            screenshot("charts");
        } finally {
            flowing.set(false);
            producer.join();
            consumer.join();
        }
    }

    @Test
    @Order(8)
    void aPropagationScheduleIsDisabledAndEnabledWithItsStatisticsShown() {
        browser.get(CONSOLE + "#schedules");
        browser.navigate().refresh();
        String row = "#schedules tr[data-schedule='OE.OE_BOOKEDORDERS_MQUE/AQ$_LOCAL']";
        await(() -> browser.findElements(By.cssSelector(row)).size() == 1);
        assertThat(browser.findElement(By.cssSelector(row)).getText()).contains("enabled");
        browser.findElement(By.cssSelector(row + " button")).click();
        confirm();
        await(() -> outcome().contains("disabled") && browser.findElement(By.cssSelector(row)).getText().contains("disabled"));
        screenshot("schedules");
        browser.findElement(By.cssSelector(row + " button")).click();
        confirm();
        await(() -> outcome().contains("enabled") && browser.findElement(By.cssSelector(row)).getText().contains("enabled"));
    }

    // ------------------------------------------------------------------ the browser

    static void login(String user) {
        await(() -> !browser.findElements(By.name("j_username")).isEmpty());
        browser.findElement(By.name("j_username")).sendKeys(user);
        browser.findElement(By.name("j_password")).sendKeys("secret-" + user);
        browser.findElement(By.id("login")).click();
    }

    static void openQueue(String queue) {
        browser.get(CONSOLE + "#queue/" + java.net.URLEncoder.encode(queue, StandardCharsets.UTF_8));
        browser.navigate().refresh();
        await(() -> !browser.findElements(By.id("queue-name")).isEmpty()
                && browser.findElement(By.id("queue-name")).getText().equals(queue));
    }

    static String cell(String queue, String field) {
        List<WebElement> cells = browser.findElements(By.cssSelector("tr[data-queue='" + queue + "'] td[data-field='" + field + "']"));
        return cells.isEmpty() ? null : cells.get(0).getText();
    }

    static String rate() {
        String v = browser.findElement(By.id("latest-rates")).getAttribute("data-value");
        return v == null || v.isEmpty() ? "0" : v;
    }

    static void click(String id) {
        await(() -> !browser.findElements(By.id(id)).isEmpty());
        browser.findElement(By.id(id)).click();
    }

    static void confirm() {
        await(() -> browser.findElement(By.id("confirm")).isDisplayed());
        browser.findElement(By.id("confirm-ok")).click();
    }

    static String outcome() {
        WebElement box = browser.findElement(By.id("outcome"));
        return box.isDisplayed() ? box.getText() : "";
    }

    static void screenshot(String name) {
        try {
            Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve(name + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void await(java.util.concurrent.Callable<Boolean> condition) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // what the page showed, for the report: its screenshot and its document
            String name = "failed-" + System.currentTimeMillis();
            screenshot(name);
            try {
                Files.writeString(SCREENSHOTS.resolve(name + ".html"), browser.getCurrentUrl() + "\n" + browser.getPageSource());
            } catch (IOException ignored) {
                // the timeout is the failure to report
            }
            throw e;
        }
    }

    // ------------------------------------------------------------------ the REST API (feeder)

    static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":secret-" + user).getBytes(StandardCharsets.UTF_8));
    }

    static void send(String queue, String json) {
        assertThat(sendStatus(queue, json)).as("send to " + queue).isEqualTo(201);
    }

    static int sendStatus(String queue, String json) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(REST + "queues/" + queue + "/messages"))
                    .header("Authorization", basic("feeder")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String receive(String queue, String correlation) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(REST + "queues/" + queue + "/receive?wait=10&correlation="
                + correlation)).header("Authorization", basic("feeder")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
