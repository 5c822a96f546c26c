package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * server-config/shared-store.asadmin and its README section ("Several servers on one PostgreSQL or MariaDB
 * store") followed as written: the PostgreSQL role and database, a fresh domain, the script in multimode,
 * then an application deployed to the deployment group. Its MDB runs on both instances, on a queue of the
 * sample's queue definitions; keys enqueued in container transactions are delivered on both instances,
 * each exactly once, none lost, and each delivery's acknowledgement, enqueued in the delivery's transaction
 * (two XA branches: PostgreSQL prepares them), arrives once too; the persistent EJB timer fires (data grid
 * timer service).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SharedStoreGroupIT {
    private static final Path WORK = Path.of(System.getProperty("group.workDir", "target/group")).toAbsolutePath();
    private static final Path PAYARA = Path.of(System.getProperty("crash.payaraHome"));
    private static final Path PROJECT = Path.of(System.getProperty("it.projectRoot", "../..")).toAbsolutePath().normalize();
    private static final String DOMAIN = "aqgroup";
    /** The PostgreSQL server of the README's commands, as its administrator (database "test" to connect to). */
    private static final String PG_ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final int KEYS_PER_INSTANCE = 300;

    private static PayaraDomain das;
    private static GroupInstances group;
    /** Only what this test created is dropped (a skipped run leaves an existing database aqueduct alone). */
    private static boolean createdDatabase;

    @BeforeAll
    static void domainAndDatabase() throws Exception {
        requirePostgresWithXa();
        PayaraDomain.killLeftOver(WORK.resolve("domains"), DOMAIN);
        GroupInstances.killLeftOvers(PAYARA);
        deleteTree(WORK);
        // the node directory lives in the installation: a left-over one would make create-instance refuse
        deleteTree(GroupInstances.nodeDir(PAYARA));
        // the script gives the instances the port bases 35100 and 35200
        for (int instancePortbase : new int[] {35100, 35200}) {
            assertThat(PayaraDomain.freePortbase(instancePortbase)).as("ports " + instancePortbase + "-"
                    + (instancePortbase + 99) + " free for an instance of shared-store.asadmin").isEqualTo(instancePortbase);
        }
        int portbase = PayaraDomain.freePortbase(Integer.getInteger("group.portbase", 35000));
        das = new PayaraDomain(DOMAIN, PAYARA, WORK.resolve("domains"), portbase);
        group = new GroupInstances(PAYARA, PROJECT, das);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            GroupInstances.killLeftOvers(PAYARA);
            das.killIfAlive();
        }, "kill " + DOMAIN));
        System.out.println("DAS " + DOMAIN + ": admin port " + das.adminPort());
        das.create();
        das.start();
        // README: "as the PostgreSQL administrator"
        postgres("DROP DATABASE IF EXISTS aqueduct", "DROP ROLE IF EXISTS aqueduct",
                "CREATE ROLE aqueduct LOGIN PASSWORD 'secret'", "CREATE DATABASE aqueduct OWNER aqueduct");
        createdDatabase = true;
        // README, the BooksOnLine EAR on the group: Derby in the domain's lib before the instances first start
        // (they copy it when they synchronize with the DAS)
        Path derby = Path.of(System.getProperty("crash.derbyLib"));
        das.asadmin(Duration.ofMinutes(2), "add-library", derby.resolve("derby.jar").toString(),
                derby.resolve("derbytools.jar").toString(), derby.resolve("derbyshared.jar").toString());
    }

    @AfterAll
    static void stopAndDrop() {
        if (group != null) {
            try {
                group.asadmin(Duration.ofSeconds(120), "stop-deployment-group", "aqueduct-dg");
            } catch (RuntimeException e) {
                System.err.println("stop-deployment-group failed (" + e.getMessage() + "); the instances are killed");
            }
            GroupInstances.killLeftOvers(PAYARA);
            group.copyLogs(WORK.resolve("logs"));
        }
        if (das != null) {
            das.stopQuietly();
            try {
                Files.createDirectories(WORK.resolve("logs"));
                if (Files.exists(das.serverLog())) {
                    Files.copy(das.serverLog(), WORK.resolve("logs/das-server.log"), StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                System.err.println("could not copy the DAS's server.log: " + e);
            }
        }
        try {
            if (createdDatabase) {
                postgres("DROP DATABASE IF EXISTS aqueduct", "DROP ROLE IF EXISTS aqueduct");
            }
        } catch (SQLException e) {
            System.err.println("could not drop the database aqueduct and its role: " + e);
        }
    }

    @Test
    @Order(1)
    void bothInstancesOfTheGroupDeliverEachKeyOnceFromOneStore() {
        Path script = PROJECT.resolve("server-config/shared-store.asadmin");
        Path rar = PROJECT.resolve("rar/connector/target/aqueduct-rar-0.1.0-SNAPSHOT.rar");
        assertThat(rar).as("the script deploys the adapter from the build's target directory").exists();

        String out = group.asadmin(Duration.ofMinutes(6), "multimode", "--file", PROJECT.relativize(script).toString());
        System.out.println(out);
        // multimode exits with 0 while commands inside it fail: each failure is a line "Command <name> failed."
        assertThat(out.lines().filter(l -> l.matches(".*Command \\S+ failed.*"))).as(out).isEmpty();

        // each command's effect (asadmin takes 3-20 s a call here: few calls)
        String instances = group.asadmin(Duration.ofSeconds(60), "list-instances", "-l");
        assertThat(instances.lines().filter(l -> l.matches("aq[12]\\s+localhost\\s.*running.*"))).as(instances).hasSize(2);
        assertThat(group.get("configs.config.aqueduct-config.ejb-container.ejb-timer-service.ejb-timer-service"))
                .isEqualTo("DataGrid");
        assertThat(group.get("resources.resource-adapter-config.aqueduct-rar.property.storeUrl"))
                .isEqualTo("jdbc:postgresql://127.0.0.1:5432/aqueduct");
        assertThat(group.asadmin(Duration.ofSeconds(60), "list-applications", "aqueduct-dg")).contains("aqueduct-rar");
        // (no resource-ref on the group or its instances: Payara 6.2025.10 records none for a deployment group,
        // and the instances find the resource all the same, as the enqueues below show)
        assertThat(group.asadmin(Duration.ofSeconds(60), "list-connector-resources", "domain")).contains("aqueduct/QueueSessions");
        for (String instance : GroupInstances.INSTANCES) {
            assertThat(group.serverLogText(instance)).as(instance + "'s server.log")
                    .contains("Aqueduct started on the store at jdbc:postgresql://127.0.0.1:5432/aqueduct")
                    .doesNotContain("Exception while loading the app");
        }
        assertThat(das.serverLogFrom(0)).as("the DAS's adapter, started first, created the queues")
                .contains("Aqueduct created queue " + "CB.CB_BILLING_QUE");

        group.asadmin(Duration.ofMinutes(3), "deploy", "--target", "aqueduct-dg", "--name", "aqueduct-group",
                System.getProperty("group.war"));
        Map<String, Integer> ports = new HashMap<>();
        for (String instance : GroupInstances.INSTANCES) {
            ports.put(instance, group.httpPort(instance));
            assertThat(group.serverLogText(instance)).as(instance + "'s server.log")
                    .contains("aqueduct-group was successfully deployed");
        }
        System.out.println("HTTP ports of the instances: " + ports);

        // keys enqueued through each instance, in XA transactions of 10 keys
        List<String> sent = new ArrayList<>();
        for (String instance : GroupInstances.INSTANCES) {
            group.ok(ports.get(instance), "POST", "/aqueduct-group/group/enqueue?prefix=" + instance + "&count="
                    + KEYS_PER_INSTANCE + "&batch=10", Duration.ofMinutes(2));
            for (int i = 0; i < KEYS_PER_INSTANCE; i++) {
                sent.add(instance + "-" + i);
            }
        }

        Map<String, List<String>> received = new HashMap<>();
        Map<String, List<String>> acks = new HashMap<>();
        // every key and its acknowledgement arrived, and nothing more comes for a while (a duplicate would)
        await("all " + sent.size() + " keys and their acknowledgements delivered, then no more")
                .atMost(Duration.ofMinutes(3)).during(Duration.ofSeconds(5)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    for (String instance : GroupInstances.INSTANCES) {
                        received.put(instance, linesOf(instance, ports.get(instance), "received"));
                        acks.put(instance, linesOf(instance, ports.get(instance), "acks"));
                    }
                    return total(received) == sent.size() && total(acks) == sent.size();
                });
        System.out.println("keys delivered per instance: " + sizes(received) + "; acknowledgements: " + sizes(acks));
        List<String> allKeys = new ArrayList<>();
        List<String> expectedAcks = new ArrayList<>();
        received.forEach((instance, keys) -> {
            allKeys.addAll(keys);
            keys.forEach(k -> expectedAcks.add("ack " + k + " " + instance));
        });
        assertThat(allKeys).as("each key once over both instances").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(sent);
        for (String instance : GroupInstances.INSTANCES) {
            assertThat(received.get(instance)).as("keys delivered on " + instance).isNotEmpty();
        }
        // each acknowledgement committed with its key's dequeue (two-phase commit), once
        List<String> allAcks = new ArrayList<>();
        acks.values().forEach(allAcks::addAll);
        assertThat(allAcks).as("one acknowledgement per key, naming the instance that received it")
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expectedAcks);

        // the persistent @Schedule (every 2 s) fires on one of the instances
        await("the persistent timer fires").atMost(Duration.ofSeconds(30)).until(() -> GroupInstances.INSTANCES.stream()
                .mapToInt(i -> Integer.parseInt(group.ok(ports.get(i), "GET", "/aqueduct-group/group/ticks",
                        Duration.ofSeconds(10)).trim())).sum() > 0);
    }

    /**
     * The BooksOnLine EAR deployed to the running group (its resources are definitions: nothing for Payara's
     * resource validation to miss), then disabled and enabled on the group, without restarting an instance:
     * each instance takes an order and ships, bills and notifies it (the EAR's adapter on a Derby store of
     * each instance, with the queue definitions as its resource-adapter-config).
     */
    @Test
    @Order(2)
    void theBooksOnLineEarDeploysToTheRunningGroupAndIsDisabledAndEnabledThere() {
        String definitions = Files.exists(PROJECT.resolve("server-config/queue-definitions.txt"))
                ? readString(PROJECT.resolve("server-config/queue-definitions.txt")).strip() : "";
        group.asadmin(Duration.ofMinutes(2), "create-resource-adapter-config", "--property",
                "queueDefinitions=" + definitions.replace("=", "\\=").replace(":", "\\:"), "aqueduct-booksonline#aqueduct-rar");
        group.asadmin(Duration.ofMinutes(4), "deploy", "--target", "aqueduct-dg", "ear/target/aqueduct-booksonline.ear");
        orderOnEachInstance();
        group.asadmin(Duration.ofMinutes(2), "disable", "--target", "aqueduct-dg", "aqueduct-booksonline");
        group.asadmin(Duration.ofMinutes(2), "enable", "--target", "aqueduct-dg", "aqueduct-booksonline");
        orderOnEachInstance();
    }

    private static void orderOnEachInstance() {
        for (String instance : GroupInstances.INSTANCES) {
            int port = group.httpPort(instance);
            String placed = group.ok(port, "POST", "/booksonline/api/orders?count=1", Duration.ofMinutes(1));
            String id = jsonString(placed, "orderId");
            await("order " + id + " shipped, billed and notified on " + instance).atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        String o = group.ok(port, "GET", "/booksonline/api/orders/" + id, Duration.ofSeconds(10));
                        return o.replace(" ", "").contains("\"shipped\":true") && o.replace(" ", "").contains("\"billed\":true")
                                && o.replace(" ", "").contains("\"notified\":true");
                    });
        }
    }

    private static String jsonString(String json, String field) {
        try (jakarta.json.JsonReader r = jakarta.json.Json.createReader(new java.io.StringReader(json))) {
            return r.readObject().getJsonArray("booked").getJsonObject(0).getString(field);
        }
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The lines of GET /group/&lt;what&gt;; its first line names the instance that answered. */
    private static List<String> linesOf(String instance, int port, String what) {
        List<String> lines = group.ok(port, "GET", "/aqueduct-group/group/" + what, Duration.ofSeconds(10)).lines().toList();
        assertThat(lines.get(0)).as("the instance answering on port " + port).isEqualTo(instance);
        return lines.subList(1, lines.size());
    }

    private static int total(Map<String, List<String>> perInstance) {
        return perInstance.values().stream().mapToInt(List::size).sum();
    }

    private static List<String> sizes(Map<String, List<String>> perInstance) {
        return perInstance.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().size()).sorted().toList();
    }

    /**
     * The script's store is the PostgreSQL server on 127.0.0.1:5432 (user postgres, trust), with XA on. Without
     * one the test is skipped, as the engine's PostgreSQL tests are, unless AQUEDUCT_TEST_REQUIRE_STORES=1
     * (.ci/run): then it fails saying what is missing.
     */
    private static void requirePostgresWithXa() {
        String missing;
        try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, "postgres", "");
             Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SHOW max_prepared_transactions")) {
            rs.next();
            missing = Integer.parseInt(rs.getString(1).trim()) > 0 ? null
                    : "PostgreSQL on 127.0.0.1:5432 has max_prepared_transactions = 0 (XA needs more; .ci/run sets 64)";
        } catch (SQLException e) {
            missing = "no PostgreSQL on 127.0.0.1:5432 (user postgres, database test): " + e.getMessage();
        }
        if (missing != null) {
            if ("1".equals(System.getenv("AQUEDUCT_TEST_REQUIRE_STORES"))) {
                throw new AssertionError(missing + ", and AQUEDUCT_TEST_REQUIRE_STORES=1 requires the deployment-group test");
            }
            org.junit.jupiter.api.Assumptions.abort(missing);
        }
    }

    private static void postgres(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(PG_ADMIN_URL, "postgres", "");
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

}
