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
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Throughput in embedded Payara, run by bench/run-payara (excluded from mvn verify): XA delivery of
 * 1 KiB messages to MDBs with 1 and 4 sessions, and EJB enqueue in container transactions. Prints
 * BENCH lines (also written to target/bench.txt).
 */
@ExtendWith(ArquillianExtension.class)
class AqueductBenchIT {
    static final Probe PROBE = AqueductContainerIT.PROBE;
    static final int MESSAGES = Integer.getInteger("bench.messages", 4000);
    static final int ENQUEUES = Integer.getInteger("bench.enqueues", 2000);

    @Deployment(name = "booksonline", testable = false)
    static EnterpriseArchive booksOnLine() {
        return AqueductContainerIT.booksOnLine();
    }

    @Test
    void bench() throws Exception {
        List<String> lines = new ArrayList<>();
        // warm-up: a few hundred of each, not measured
        PROBE.call("enqueue-each", "queue", "IT.SINK_Q", "n", "300", "size", "1024");
        drain("IT.BENCH4_Q", 500);
        drain("IT.BENCH1_Q", 500);

        for (String[] c : new String[][] {{"IT.BENCH1_Q", "1"}, {"IT.BENCH4_Q", "4"}}) {
            double rate = drain(c[0], MESSAGES);
            lines.add(String.format(Locale.ROOT, "BENCH aqueduct-mdb/derby/maxSessions=%s msgs_per_s=%.1f", c[1], rate));
        }
        Map<String, String> r = PROBE.call("enqueue-each", "queue", "IT.SINK_Q", "n", String.valueOf(ENQUEUES), "size", "1024");
        double enq = ENQUEUES / (Long.parseLong(r.get("nanos")) / 1e9);
        lines.add(String.format(Locale.ROOT, "BENCH aqueduct-ejb/derby/enqueue enq_per_s=%.1f", enq));
        lines.forEach(System.out::println);
        Files.write(Path.of("target", "bench.txt"), lines);
    }

    /** Enqueues n 1 KiB messages (500 per transaction), waits until all are delivered; deliveries per second. */
    private static double drain(String queue, int n) {
        PROBE.call("reset", "queue", queue);
        for (int done = 0; done < n; done += 500) {
            PROBE.call("enqueue", "queue", queue, "count", String.valueOf(Math.min(500, n - done)), "size", "1024");
        }
        Probe.await(n + " deliveries from " + queue, Duration.ofMinutes(10),
                () -> Integer.parseInt(PROBE.call("deliveries", "queue", queue).get("messages")) >= n);
        Map<String, String> d = PROBE.call("deliveries", "queue", queue);
        assertThat(d).containsEntry("duplicates", "0");
        long first = Long.parseLong(d.get("first"));
        long last = Long.parseLong(d.get("last"));
        return (n - 1) / ((last - first) / 1000.0);
    }
}
