package io.aqueduct.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import io.aqueduct.it.openmq.OmqMdbs;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Throughput in embedded Payara, run by bench/run-payara (excluded from mvn verify): XA delivery of
 * 1 KiB messages to MDBs with 1 and 4 sessions, and EJB enqueue in container transactions, each
 * natively (AqMessageListener MDBs, QueueSession enqueue) and through Jakarta Messaging
 * (MessageListener MDBs on the adapter's JMS activation spec, BytesMessages sent with a JMSContext
 * of the adapter's JMS connection factory), side by side in the same run. Prints BENCH lines (also
 * written to target/bench.txt).
 */
@ExtendWith(ArquillianExtension.class)
class AqueductBenchIT {
    static final Probe PROBE = AqueductContainerIT.PROBE;
    static final int MESSAGES = Integer.getInteger("bench.messages", 4000);
    static final int ENQUEUES = Integer.getInteger("bench.enqueues", 2000);

    /** The OpenMQ side: MDBs on Payara's own broker (embedded in the same server), a sender, a counter. */
    static final Probe OPENMQ = new Probe(Integer.getInteger("it.http.port", 18181), "/aqueduct-openmq/omq/");

    @Deployment(name = "booksonline", testable = false, order = 1)
    static EnterpriseArchive booksOnLine() {
        return AqueductContainerIT.booksOnLine();
    }

    @Deployment(name = "openmq", testable = false, order = 2)
    static WebArchive openMq() {
        return ShrinkWrap.create(WebArchive.class, "aqueduct-openmq.war").addPackage(OmqMdbs.class.getPackage())
                .addAsWebInfResource("openmq/glassfish-ejb-jar.xml", "glassfish-ejb-jar.xml");
    }

    @Test
    void bench() throws Exception {
        List<String> lines = new ArrayList<>();
        // warm-up: a few hundred of each, not measured
        PROBE.call("enqueue-each", "queue", "IT.SINK_Q", "n", "300", "size", "1024");
        PROBE.call("jms-send-each", "queue", "IT.JMS_SINK_Q", "n", "300", "size", "1024");
        drain("IT.BENCH4_Q", 500, false);
        drain("IT.JMS_BENCH4_Q", 500, true);
        drain("IT.BENCH1_Q", 500, false);
        drain("IT.JMS_BENCH1_Q", 500, true);
        drainOpenMq("1", 500);
        drainOpenMq("4", 500);

        List<String> ratios = new ArrayList<>();
        for (String[] c : new String[][] {{"IT.BENCH1_Q", "IT.JMS_BENCH1_Q", "1"}, {"IT.BENCH4_Q", "IT.JMS_BENCH4_Q", "4"}}) {
            double nativeRate = drain(c[0], MESSAGES, false);
            double jmsRate = drain(c[1], MESSAGES, true);
            lines.add(String.format(Locale.ROOT, "BENCH aqueduct-mdb/derby/maxSessions=%s msgs_per_s=%.1f", c[2], nativeRate));
            lines.add(String.format(Locale.ROOT, "BENCH aqueduct-jms-mdb/derby/maxSessions=%s msgs_per_s=%.1f", c[2], jmsRate));
            double openMqRate = drainOpenMq(c[2], MESSAGES);
            lines.add(String.format(Locale.ROOT, "BENCH openmq-mdb/derby/maxSessions=%s msgs_per_s=%.1f", c[2], openMqRate));
            ratios.add(String.format(Locale.ROOT, "BENCH ratio/derby/jms-vs-native-mdb maxSessions=%s ratio=%.2f", c[2],
                    jmsRate / nativeRate));
            ratios.add(String.format(Locale.ROOT, "BENCH ratio/derby/aqueduct-vs-openmq-mdb maxSessions=%s ratio=%.2f", c[2],
                    nativeRate / openMqRate));
        }
        Map<String, String> r = PROBE.call("enqueue-each", "queue", "IT.SINK_Q", "n", String.valueOf(ENQUEUES), "size", "1024");
        double enq = ENQUEUES / (Long.parseLong(r.get("nanos")) / 1e9);
        Map<String, String> j = PROBE.call("jms-send-each", "queue", "IT.JMS_SINK_Q", "n", String.valueOf(ENQUEUES), "size", "1024");
        double sends = ENQUEUES / (Long.parseLong(j.get("nanos")) / 1e9);
        lines.add(String.format(Locale.ROOT, "BENCH aqueduct-ejb/derby/enqueue enq_per_s=%.1f", enq));
        lines.add(String.format(Locale.ROOT, "BENCH aqueduct-jms-ejb/derby/send sends_per_s=%.1f", sends));
        ratios.add(String.format(Locale.ROOT, "BENCH ratio/derby/jms-vs-native-ejb ratio=%.2f", sends / enq));
        lines.addAll(ratios);
        lines.forEach(System.out::println);
        Files.write(Path.of("target", "bench.txt"), lines);
    }

    /**
     * Enqueues n 1 KiB messages in one transaction (through JMS: BytesMessages sent with a JMSContext),
     * so the MDB drains a queue filled at once; waits until all are delivered; deliveries per second,
     * first to last delivery.
     */
    private static double drain(String queue, int n, boolean jms) {
        String key = jms ? "jms:" + queue : queue;
        PROBE.call("reset", "queue", key);
        if (jms) {
            PROBE.call("jms-send-bytes", "queue", queue, "count", String.valueOf(n), "size", "1024");
        } else {
            PROBE.call("enqueue", "queue", queue, "count", String.valueOf(n), "size", "1024");
        }
        Probe.await(n + " deliveries from " + queue, Duration.ofMinutes(10),
                () -> Integer.parseInt(PROBE.call("deliveries", "queue", key).get("messages")) >= n);
        Map<String, String> d = PROBE.call("deliveries", "queue", key);
        assertThat(d).containsEntry("duplicates", "0");
        long first = Long.parseLong(d.get("first"));
        long last = Long.parseLong(d.get("last"));
        return (n - 1) / ((last - first) / 1000.0);
    }

    /**
     * The same on Payara's own broker: n persistent 1 KiB BytesMessages sent in one container transaction
     * with the default connection factory, drained by the OpenMQ MDB with pool {@code pool}; the broker
     * syncs its file store on every commit (imq.persist.file.sync.enabled=true, failsafe's system property).
     */
    private static double drainOpenMq(String pool, int n) {
        OPENMQ.call("reset", "pool", pool);
        OPENMQ.call("send", "pool", pool, "count", String.valueOf(n), "size", "1024");
        Probe.await(n + " OpenMQ deliveries (pool " + pool + ")", Duration.ofMinutes(10),
                () -> Integer.parseInt(OPENMQ.call("deliveries", "pool", pool).get("messages")) >= n);
        Map<String, String> d = OPENMQ.call("deliveries", "pool", pool);
        assertThat(d).containsEntry("duplicates", "0").containsEntry("sync", "true");
        System.out.println("OpenMQ pool " + pool + ": most deliveries at once " + d.get("maxInFlight"));
        long first = Long.parseLong(d.get("first"));
        long last = Long.parseLong(d.get("last"));
        return (n - 1) / ((last - first) / 1000.0);
    }
}
