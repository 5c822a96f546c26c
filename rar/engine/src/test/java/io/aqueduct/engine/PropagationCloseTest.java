package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.Agent;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine closed while its propagation loop is moving messages: the batch in flight ends without
 * counting as a failure of the schedule and without leaving its locks behind, and the close is
 * quick. A failure recorded then would make the next start wait out AQ's backoff (30 s, then
 * 60 s, ...) before it propagates anything, and sixteen such closes would disable the schedule.
 */
class PropagationCloseTest {
    private static final int MESSAGES = 3000;
    private static final int CLOSES = 3;

    @TempDir
    Path dir;

    private AqueductEngine engine(boolean loops) {
        return AqueductEngine.builder().derbyDirectory(dir.resolve("store")).user("TESTER").timeManager(loops).start();
    }

    @Test
    void closing_the_engine_while_it_propagates_is_no_failure_of_the_schedule() throws Exception {
        // a Derby directory whatever the run: it runs once, in the Derby run
        org.junit.jupiter.api.Assumptions.assumeFalse(TestStore.CURRENT.shared(), "runs on Derby only");
        try (AqueductEngine engine = engine(false)) {
            var admin = engine.admin();
            admin.createQueueTable("SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
            admin.createQueue("SRC_Q", "SRC_QT", QueueProperties.create());
            admin.startQueue("SRC_Q", true, true);
            admin.createQueueTable("DST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            admin.createQueue("DST_Q", "DST_QT", QueueProperties.create());
            admin.startQueue("DST_Q", true, true);
            admin.addSubscriber("SRC_Q", new Agent("X", "DST_Q", 0), null);
            admin.schedulePropagation("SRC_Q", null, null, null, null, 0);
            try (QueueSession s = engine.openSession()) {
                List<Message> all = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    all.add(Message.of("m-" + i));
                }
                s.enqueueArray("SRC_Q", EnqueueOptions.create(), all);
                s.commit();
            }
        }
        for (int close = 1; close <= CLOSES; close++) {
            int before = delivered();
            AqueductEngine engine = engine(true);
            long closeMs;
            try {
                // its loop propagates: the destination grew by more than the batch in flight
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered() > before + 100);
            } finally {
                long t0 = System.nanoTime();
                engine.close(); // in the middle of the moving, most likely in a batch
                closeMs = (System.nanoTime() - t0) / 1_000_000;
            }
            int after = delivered();
            try (AqueductEngine reopened = engine(false)) {
                PropagationSchedule s = reopened.admin().propagationSchedule("SRC_Q", null);
                System.out.printf("PropagationCloseTest: close %d with %d of %d delivered took %d ms: failures %d, last error %s%n",
                        close, after, MESSAGES, closeMs, s.failures(), s.lastErrorMessage());
                assertThat(after).as("closed while propagating").isLessThan(MESSAGES);
                // a batch cut off by the close and left holding the schedule's row made the close wait out Derby's
                // 10 s lock timeout, several times
                assertThat(closeMs).as("ms to close").isLessThan(10_000);
                assertThat(s.failures()).as("failures after a close (last error: %s)", s.lastErrorMessage()).isZero();
                assertThat(s.nextRun()).as("no backoff to wait out at the next start").isNull();
            }
        }
    }

    /** The messages in DST_Q (read without waiting for a batch's locks). */
    private int delivered() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + dir.resolve("store"))) {
            c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM \"APP\".\"AQ$DST_QT\"")) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
