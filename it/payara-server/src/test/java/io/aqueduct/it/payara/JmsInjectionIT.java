package io.aqueduct.it.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.it.payara.jms.Ji;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Jakarta Messaging through the adapter on a real Payara Server domain: an EJB (REQUIRED) sends with
 * {@code @Inject @JMSConnectionFactory JMSContext} and with {@code factory.createContext()}; a committed
 * send reaches a MessageListener MDB (destinationLookup = the admin object), a rolled-back one
 * (setRollbackOnly) never does; also with the injected JMSContext of an application-scoped factory
 * the bean declares (@JMSConnectionFactoryDefinition, java:app/..., on the standalone adapter). The same application as a WAR and inside an EAR, and a control with
 * Payara's own JMS (OpenMQ, the default connection factory, a Payara JMS queue).
 *
 * <p>The domain: a fresh one under target/jms (port base 31000 or the next free block), the adapter
 * deployed standalone (its queue from queueDefinitions), a server-wide connector pool + resource of
 * connection definition jakarta.jms.ConnectionFactory, an AdministeredQueue admin object, a Payara
 * JMS queue; this module's jms WAR (package io.aqueduct.it.payara.jms).
 */
@Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JmsInjectionIT {
    private static final Path WORK = Path.of(System.getProperty("jms.workDir", "target/jms")).toAbsolutePath();
    private static final String DOMAIN = "aqjms";
    private static final String WAR_ROOT = "/ji";
    private static final String EAR_ROOT = "/ji-ear";
    private static final long T0 = System.nanoTime();

    private static PayaraDomain domain;

    @BeforeAll
    static void createDomain() throws IOException {
        PayaraDomain.killLeftOver(WORK.resolve("domains"), DOMAIN);
        deleteTree(WORK);
        Files.createDirectories(WORK);
        int portbase = PayaraDomain.freePortbase(Integer.getInteger("jms.portbase", 31000));
        domain = new PayaraDomain(DOMAIN, Path.of(System.getProperty("crash.payaraHome")), WORK.resolve("domains"), portbase);
        log("creating the domain " + DOMAIN + " in " + WORK.resolve("domains") + ", port base " + portbase
                + " (admin " + domain.adminPort() + ", http " + domain.httpPort() + ")");
        domain.create();
        Runtime.getRuntime().addShutdownHook(new Thread(domain::killIfAlive, "kill " + DOMAIN));
        try {
            configure();
        } catch (Throwable e) {
            throw new AssertionError("setting up the domain failed: " + e.getMessage() + "\n--- server.log tail ---\n"
                    + domain.serverLogTail(80), e);
        }
    }

    private static void configure() throws IOException {
        domain.start();
        log("domain started");
        Duration t = Duration.ofSeconds(120);
        domain.asadmin(t, "create-resource-adapter-config", "--property", "storeDirectory=" + escape(WORK.resolve("store").toString())
                + ":queueDefinitions=" + escape(Ji.QUEUE_DEFINITIONS), Ji.RA);
        domain.asadmin(t, "deploy", "--name", Ji.RA, "--type", "rar", System.getProperty("crash.rar"));
        Path resources = WORK.resolve("jms-resources.xml");
        Files.writeString(resources, resources());
        domain.asadmin(t, "add-resources", resources.toString());
        log("adapter deployed, resources added");
        domain.asadmin(t, "deploy", "--name", "aqueduct-jms", "--contextroot", WAR_ROOT.substring(1), System.getProperty("jms.war"));
        log("WAR deployed");
    }

    /**
     * What the asadmin commands create-connector-connection-pool / create-connector-resource /
     * create-admin-object / create-jms-resource would, in one add-resources.
     */
    private static String resources() {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE resources PUBLIC "-//GlassFish.org//DTD GlassFish Application Server 3.1 Resource Definitions//EN"
                        "http://glassfish.org/dtds/glassfish-resources_1_5.dtd">
                <resources>
                  <connector-connection-pool name="%1$sPool" resource-adapter-name="%2$s"
                                             connection-definition-name="jakarta.jms.ConnectionFactory"
                                             transaction-support="XATransaction"
                                             steady-pool-size="0" max-pool-size="32"/>
                  <connector-resource jndi-name="%1$s" pool-name="%1$sPool"/>
                  <admin-object-resource jndi-name="%3$s" res-type="jakarta.jms.Queue" res-adapter="%2$s">
                    <property name="name" value="%4$s"/>
                  </admin-object-resource>
                  <admin-object-resource jndi-name="%5$s" res-type="jakarta.jms.Queue" res-adapter="jmsra">
                    <property name="Name" value="%6$s"/>
                  </admin-object-resource>
                </resources>
                """.formatted(Ji.FACTORY, Ji.RA, Ji.QUEUE, Ji.AQ_QUEUE, Ji.OPENMQ_QUEUE, Ji.OPENMQ_PHYSICAL);
    }

    @AfterAll
    static void stopDomain() {
        if (domain != null) {
            domain.stopQuietly();
            log("domain stopped");
        }
    }

    @Test
    @Order(1)
    void warCreatedContextInTransaction() {
        check(WAR_ROOT, "created", "aqueduct");
    }

    @Test
    @Order(2)
    void warInjectedContextInTransaction() {
        check(WAR_ROOT, "injected", "aqueduct");
    }

    @Test
    @Order(3)
    void warInjectedContextOfDefinedFactoryInTransaction() {
        check(WAR_ROOT, "defined", "aqueduct");
    }

    @Test
    @Order(4)
    void warOpenMqInjectedContextInTransaction() {
        check(WAR_ROOT, "openmq", "openmq");
    }

    @Test
    @Order(5)
    void earCreatedContextInTransaction() throws IOException {
        deployEar();
        check(EAR_ROOT, "created", "aqueduct");
    }

    @Test
    @Order(6)
    void earInjectedContextInTransaction() throws IOException {
        deployEar();
        check(EAR_ROOT, "injected", "aqueduct");
    }

    @Test
    @Order(7)
    void earInjectedContextOfDefinedFactoryInTransaction() throws IOException {
        deployEar();
        check(EAR_ROOT, "defined", "aqueduct");
    }

    @Test
    @Order(8)
    void earOpenMqInjectedContextInTransaction() throws IOException {
        deployEar();
        check(EAR_ROOT, "openmq", "openmq");
    }

    private static boolean earDeployed;

    /** Replaces the WAR by an EAR holding the same WAR (so that one MDB pair consumes the queues). */
    private static void deployEar() throws IOException {
        if (earDeployed) {
            return;
        }
        Duration t = Duration.ofSeconds(120);
        domain.asadmin(t, "undeploy", "aqueduct-jms");
        Path ear = WORK.resolve("aqueduct-jms.ear");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(ear))) {
            z.putNextEntry(new ZipEntry("META-INF/application.xml"));
            z.write("""
                    <?xml version="1.0" encoding="UTF-8"?>
                    <application xmlns="https://jakarta.ee/xml/ns/jakartaee" version="10">
                      <display-name>aqueduct-jms-ear</display-name>
                      <module><web><web-uri>jms.war</web-uri><context-root>%s</context-root></web></module>
                    </application>
                    """.formatted(EAR_ROOT.substring(1)).getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
            z.putNextEntry(new ZipEntry("jms.war"));
            Files.copy(Path.of(System.getProperty("jms.war")), z);
            z.closeEntry();
        }
        domain.asadmin(t, "deploy", "--name", "aqueduct-jms-ear", ear.toString());
        earDeployed = true;
        log("WAR undeployed, EAR deployed");
    }

    /**
     * In {@code root}'s application: a send marked rollback-only, then a committed one, each in a container
     * transaction ({@code how}: injected / created / openmq); the committed one must reach the MDB of
     * {@code queue}, the rolled-back one never (it was sent first: it would have come before the committed one).
     */
    private void check(String root, String how, String queue) {
        String id = how + "-" + System.nanoTime();
        String rolledBack = id + "-rolledback";
        String committed = id + "-committed";
        long begin = System.nanoTime();
        send(root, how, rolledBack, true);
        send(root, how, committed, false);
        await(committed + " delivered").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> received(root, queue).contains(committed));
        long delivered = (System.nanoTime() - begin) / 1_000_000;
        // and it stays away a little longer (OpenMQ's MDB has several sessions: order is not guaranteed)
        await(rolledBack + " never delivered").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100)).until(() -> !received(root, queue).contains(rolledBack));
        assertThat(received(root, queue)).as("the MDB must never receive the rolled-back send").doesNotContain(rolledBack);
        log(root + " " + how + ": committed delivered in " + delivered + " ms, rolled back not delivered");
    }

    private static void send(String root, String how, String text, boolean rollback) {
        HttpResponse<String> r = domain.response(root + "/ji/send?how=" + how + "&text=" + URLEncoder.encode(text, StandardCharsets.UTF_8)
                + "&rollback=" + rollback, Duration.ofSeconds(60));
        if (r.statusCode() != 200 || !r.body().equals("sent")) {
            String top = Arrays.stream(r.body().split("\n")).limit(40).reduce((a, b) -> a + "\n" + b).orElse("");
            log(root + " " + how + " (rollback=" + rollback + ") FAILED: HTTP " + r.statusCode() + "\n" + top);
            throw new AssertionError(root + " send how=" + how + " rollback=" + rollback + ": HTTP " + r.statusCode() + "\n" + r.body());
        }
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("=", "\\=").replace(":", "\\:");
    }

    private static List<String> received(String root, String queue) {
        return List.of(domain.get(root + "/ji/received?queue=" + queue, Duration.ofSeconds(20)).split("\n"));
    }

    private static void log(String s) {
        System.out.printf("[jms %6.1f s] %s%n", (System.nanoTime() - T0) / 1e9, s);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
