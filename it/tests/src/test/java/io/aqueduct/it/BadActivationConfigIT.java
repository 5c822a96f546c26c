package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad activation configurations fail the deployment with an error that names the problem. Each is
 * a small EAR of its own: the real RAR (on a store of its own, set in an ra.xml) and the probe's
 * BadConfigMdb declared in an ejb-jar.xml with the bad activation config. A class of its own, so
 * that the BooksOnLine EAR is not deployed meanwhile: two copies of the resource adapter cannot run
 * in one server today (their EclipseLink session names collide; see the report / engine issue).
 */
@ExtendWith(ArquillianExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadActivationConfigIT {
    static final Path DEPLOYMENTS = AqueductContainerIT.DEPLOYMENTS;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "unknown-queue", managed = false, testable = false, order = 1)
    static EnterpriseArchive unknownQueue() {
        return badEar("aqueduct-bad-unknown", "<activation-config-property><activation-config-property-name>queueName"
                + "</activation-config-property-name><activation-config-property-value>IT.NO_SUCH_QUEUE"
                + "</activation-config-property-value></activation-config-property>");
    }

    @Deployment(name = "malformed", managed = false, testable = false, order = 2)
    static EnterpriseArchive malformed() {
        return badEar("aqueduct-bad-malformed", "<activation-config-property><activation-config-property-name>queueName"
                + "</activation-config-property-name><activation-config-property-value>IT.FLAKY_Q"
                + "</activation-config-property-value></activation-config-property>"
                + "<activation-config-property><activation-config-property-name>maxSessions"
                + "</activation-config-property-name><activation-config-property-value>0"
                + "</activation-config-property-value></activation-config-property>");
    }

    @Deployment(name = "malformed-condition", managed = false, testable = false, order = 3)
    static EnterpriseArchive malformedCondition() {
        return badEar("aqueduct-bad-condition", "<activation-config-property><activation-config-property-name>queueName"
                + "</activation-config-property-name><activation-config-property-value>IT.FLAKY_Q"
                + "</activation-config-property-value></activation-config-property>"
                + "<activation-config-property><activation-config-property-name>condition"
                + "</activation-config-property-name><activation-config-property-value>priority = = 1"
                + "</activation-config-property-value></activation-config-property>");
    }

    // the JMS activation spec (a jakarta.jms.MessageListener MDB)

    @Deployment(name = "jms-unknown-destination", managed = false, testable = false, order = 4)
    static EnterpriseArchive jmsUnknownDestination() {
        return badJmsEar("aqueduct-bad-jms-dest", property("destination", "IT.NO_SUCH_JMS_Q")
                + property("destinationType", "jakarta.jms.Queue"));
    }

    @Deployment(name = "jms-malformed-selector", managed = false, testable = false, order = 5)
    static EnterpriseArchive jmsMalformedSelector() {
        return badJmsEar("aqueduct-bad-jms-selector", property("destination", "IT.JMS_Q")
                + property("destinationType", "jakarta.jms.Queue") + property("messageSelector", "color = = 'red'"));
    }

    @Deployment(name = "jms-durable-unnamed", managed = false, testable = false, order = 6)
    static EnterpriseArchive jmsDurableWithoutSubscriptionName() {
        return badJmsEar("aqueduct-bad-jms-durable", property("destination", "IT.JMS_T")
                + property("destinationType", "jakarta.jms.Topic") + property("subscriptionDurability", "Durable")
                + property("clientId", "it-bad-client"));
    }

    @Deployment(name = "jms-unknown-destination-type", managed = false, testable = false, order = 7)
    static EnterpriseArchive jmsUnknownDestinationType() {
        return badJmsEar("aqueduct-bad-jms-type", property("destination", "IT.JMS_Q")
                + property("destinationType", "jakarta.jms.Mailbox"));
    }

    // ------------------------------------------------------------------ bad activation configs fail the deployment

    @Test
    @Order(90)
    void unknownQueueFailsTheDeploymentNamingIt() {
        String problem = deployExpectingFailure("unknown-queue");
        assertThat(problem).contains("IT.NO_SUCH_QUEUE").contains("queueName");
    }

    @Test
    @Order(91)
    void malformedActivationConfigFailsTheDeploymentNamingTheProperty() {
        String problem = deployExpectingFailure("malformed");
        assertThat(problem).contains("maxSessions");
    }

    @Test
    @Order(92)
    void malformedConditionFailsTheDeploymentNamingThePropertyAndThePosition() {
        String problem = deployExpectingFailure("malformed-condition");
        assertThat(problem).contains("condition").contains("position");
    }

    @Test
    @Order(93)
    void jmsUnknownDestinationFailsTheDeploymentNamingItAndTheProperty() {
        String problem = deployExpectingFailure("jms-unknown-destination");
        assertThat(problem).contains("IT.NO_SUCH_JMS_Q").contains("destination");
    }

    @Test
    @Order(94)
    void jmsMalformedSelectorFailsTheDeploymentNamingTheProperty() {
        String problem = deployExpectingFailure("jms-malformed-selector");
        assertThat(problem).contains("messageSelector");
    }

    @Test
    @Order(95)
    void jmsDurableSubscriptionWithoutANameFailsTheDeploymentNamingTheMissingProperty() {
        String problem = deployExpectingFailure("jms-durable-unnamed");
        assertThat(problem).contains("subscriptionName");
    }

    @Test
    @Order(96)
    void jmsUnknownDestinationTypeFailsTheDeploymentNamingThePropertyAndTheValue() {
        String problem = deployExpectingFailure("jms-unknown-destination-type");
        assertThat(problem).contains("destinationType").contains("jakarta.jms.Mailbox");
    }

    private static String property(String name, String value) {
        return "<activation-config-property><activation-config-property-name>" + name
                + "</activation-config-property-name><activation-config-property-value>" + value
                + "</activation-config-property-value></activation-config-property>";
    }

    /** Deploys, expects a failure, and returns what the failure said (exception chain and server log). */
    private String deployExpectingFailure(String name) {
        List<String> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    StringBuilder sb = new StringBuilder(String.valueOf(r.getMessage()));
                    if (r.getParameters() != null) {
                        sb.append(' ').append(Arrays.toString(r.getParameters()));
                    }
                    for (Throwable c = r.getThrown(); c != null; c = c.getCause()) {
                        sb.append(" | ").append(c);
                    }
                    synchronized (logged) {
                        logged.add(sb.toString());
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Path log = serverLog();
        long logBefore = sizeOf(log);
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        StringBuilder said = new StringBuilder();
        boolean deployed = false;
        try {
            deployer.deploy(name);
            deployed = true;
        } catch (RuntimeException e) {
            StringWriter sw = new StringWriter();
            e.printStackTrace(new PrintWriter(sw));
            said.append(sw);
        } finally {
            root.removeHandler(capture);
        }
        synchronized (logged) {
            logged.forEach(l -> said.append('\n').append(l));
        }
        if (deployed) {
            // the embedded container reports a failed deployment in its log only
            try {
                deployer.undeploy(name);
            } catch (RuntimeException e) {
                said.append("\n(undeploy: ").append(e).append(')');
            }
            if (!said.toString().contains("Exception while loading the app")) {
                throw new AssertionError("the deployment '" + name + "' should have failed; it said:\n" + said);
            }
        }
        if (log != null && Files.exists(log)) {
            // what the server logged during this deployment only: earlier deployments' lines name other properties
            try {
                byte[] all = Files.readAllBytes(log);
                int from = (int) Math.min(logBefore, all.length);
                said.append('\n').append(new String(all, from, all.length - from, java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                said.append("\n(server.log unreadable: ").append(e).append(')');
            }
        }
        System.out.println("deployment '" + name + "' failed as expected; what it said:\n" + said);
        return said.toString();
    }

    private static Path serverLog() {
        String instanceRoot = System.getProperty("com.sun.aas.instanceRoot");
        return instanceRoot == null ? null : Path.of(instanceRoot, "logs", "server.log");
    }

    private static long sizeOf(Path file) {
        try {
            return file != null && Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** A small EAR: the real RAR on a store of its own, and the probe's BadConfigMdb with the given activation config. */
    private static EnterpriseArchive badEar(String earName, String activationConfig) {
        return badEar(earName, "BadConfigMdb", "io.aqueduct.api.AqMessageListener", activationConfig);
    }

    /** As {@link #badEar(String, String)}, with the probe's BadJmsConfigMdb, a jakarta.jms.MessageListener. */
    private static EnterpriseArchive badJmsEar(String earName, String activationConfig) {
        return badEar(earName, "BadJmsConfigMdb", "jakarta.jms.MessageListener", activationConfig);
    }

    private static EnterpriseArchive badEar(String earName, String mdbClass, String messagingType, String activationConfig) {
        File store = new File(System.getProperty("java.io.tmpdir"), earName + "-store");
        ResourceAdapterArchive rar = ShrinkWrap.create(ResourceAdapterArchive.class, "aqueduct-rar.rar")
                .merge(ShrinkWrap.createFromZipFile(ResourceAdapterArchive.class, DEPLOYMENTS.resolve("aqueduct-rar.rar").toFile()))
                .addAsManifestResource(new StringAsset("""
                        <?xml version="1.0" encoding="UTF-8"?>
                        <connector xmlns="https://jakarta.ee/xml/ns/jakartaee"
                                   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                                   xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/connector_2_1.xsd"
                                   version="2.1" metadata-complete="false">
                          <vendor-name>Aqueduct</vendor-name>
                          <eis-type>Advanced queuing</eis-type>
                          <resourceadapter-version>0.1</resourceadapter-version>
                          <resourceadapter>
                            <resourceadapter-class>io.aqueduct.connector.AqResourceAdapter</resourceadapter-class>
                            <config-property>
                              <config-property-name>storeDirectory</config-property-name>
                              <config-property-type>java.lang.String</config-property-type>
                              <config-property-value>%s</config-property-value>
                            </config-property>
                          </resourceadapter>
                        </connector>
                        """.formatted(store.getAbsolutePath())), "ra.xml");
        WebArchive probe = ShrinkWrap.createFromZipFile(WebArchive.class, DEPLOYMENTS.resolve("aqueduct-probe.war").toFile());
        JavaArchive ejb = ShrinkWrap.create(JavaArchive.class, "bad-mdb.jar")
                .add(probe.get("/WEB-INF/classes/io/aqueduct/it/probe/" + mdbClass + ".class").getAsset(),
                        "io/aqueduct/it/probe/" + mdbClass + ".class")
                .addAsManifestResource(new StringAsset("""
                        <?xml version="1.0" encoding="UTF-8"?>
                        <ejb-jar xmlns="https://jakarta.ee/xml/ns/jakartaee"
                                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                                 xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/ejb-jar_4_0.xsd"
                                 version="4.0">
                          <enterprise-beans>
                            <message-driven>
                              <ejb-name>BadConfigMdb</ejb-name>
                              <ejb-class>io.aqueduct.it.probe.%s</ejb-class>
                              <messaging-type>%s</messaging-type>
                              <transaction-type>Container</transaction-type>
                              <activation-config>
                                %s
                              </activation-config>
                            </message-driven>
                          </enterprise-beans>
                        </ejb-jar>
                        """.formatted(mdbClass, messagingType, activationConfig)), "ejb-jar.xml")
                .addAsManifestResource(new StringAsset("""
                        <?xml version="1.0" encoding="UTF-8"?>
                        <!DOCTYPE glassfish-ejb-jar PUBLIC "-//GlassFish.org//DTD GlassFish Application Server 3.1 EJB 3.1//EN"
                                "http://glassfish.org/dtds/glassfish-ejb-jar_3_1-1.dtd">
                        <glassfish-ejb-jar>
                          <enterprise-beans>
                            <ejb>
                              <ejb-name>BadConfigMdb</ejb-name>
                              <mdb-resource-adapter>
                                <resource-adapter-mid>%s#aqueduct-rar</resource-adapter-mid>
                              </mdb-resource-adapter>
                            </ejb>
                          </enterprise-beans>
                        </glassfish-ejb-jar>
                        """.formatted(earName)), "glassfish-ejb-jar.xml");
        return ShrinkWrap.create(EnterpriseArchive.class, earName + ".ear").addAsModule(rar).addAsModule(ejb);
    }
}
