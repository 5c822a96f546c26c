package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.propagation.Propagator;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import io.aqueduct.engine.time.ManualClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store a database link reaches goes down and comes back: a private PostgreSQL server of the
 * test's own ({@link PrivateServer}), stopped under a schedule. The source is the store under test
 * (Derby in memory, or a schema / database of the test's own on the PostgreSQL / MariaDB server of
 * the run), on a manual clock: the test runs the propagation job itself, so AQ's backoff (30 s,
 * 60 s, ...) passes in no time. While the destination is down each try fails, is counted in the
 * schedule's {@code failures} with its {@code lastErrorMessage}, and no try is made before the
 * backoff ends; once it is back, the next try delivers what was enqueued meanwhile, once, and the
 * failures are reset.
 */
class PropagationDestinationOutageTest {
    private static final String SHARED_SCHEMA = "PROPOUTAGE";
    private static final String DEST_SCHEMA = "DEST";
    private static final String SRC_Q = "SRC_Q";
    private static PrivateServer server;
    private ManualClock clock;
    private AqueductEngine engine;
    private String databaseName;
    private JdbcSettings destination;

    @BeforeAll
    static void startPrivateServer() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "a private PostgreSQL server (none installed)");
        server = PrivateServer.postgres();
    }

    @AfterAll
    static void removePrivateServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void createStores() throws Exception {
        server.start();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS \"" + DEST_SCHEMA + "\" CASCADE");
            s.execute("CREATE SCHEMA \"" + DEST_SCHEMA + "\"");
        }
        destination = new JdbcSettings(server.jdbcUrl() + "?currentSchema=%22" + DEST_SCHEMA + "%22", server.user(),
                server.password());
        try (AqueductEngine dst = destinationEngine()) {
            dst.admin().createQueueTable("DST_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            dst.admin().createQueue("DST_Q", "DST_QT", QueueProperties.create());
            dst.admin().startQueue("DST_Q", true, true);
        }
        clock = new ManualClock();
        AqueductEngine.Builder b = AqueductEngine.builder().clock(clock).user("TESTER").timeManager(false);
        if (TestStore.CURRENT.shared()) {
            b.dialect(Dialects.forJdbc(TestStore.CURRENT.privateStore(SHARED_SCHEMA))).defaultSchema(SHARED_SCHEMA);
        } else {
            databaseName = "propoutage_" + ProcessHandle.current().pid();
            b.derbyInMemory(databaseName);
        }
        engine = b.start();
        QueueAdmin admin = engine.admin();
        admin.createQueueTable("SRC_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.createQueue(SRC_Q, "SRC_QT", QueueProperties.create().retention(86_400)); // kept: the test reads the parts
        admin.startQueue(SRC_Q, true, true);
        admin.createDatabaseLink("DEST", destination.url(), destination.user(), destination.password());
        admin.addSubscriber(SRC_Q, new Agent("X", DEST_SCHEMA + ".DST_Q@DEST", 0), null);
        admin.schedulePropagation(SRC_Q, "DEST", null, null, null, 0);
    }

    @AfterEach
    void stopEngine() {
        if (engine != null) {
            engine.close();
        }
    }

    /** An engine on the destination store that the link does not share (the link opens its own). */
    private AqueductEngine destinationEngine() {
        return AqueductEngine.builder().dialect(Dialects.forJdbc(destination)).defaultSchema(DEST_SCHEMA).user("TS")
                .timeManager(false).start();
    }

    @Test
    void messages_enqueued_while_the_destination_is_down_are_delivered_once_when_it_is_back() throws Exception {
        enqueue("before", 10);
        engine.propagator().runDue();
        assertThat(schedule().totalNumber()).isEqualTo(10);
        assertThat(schedule().failures()).isZero();

        server.stop();
        enqueue("down", 20);
        long firstTry = clock.millis();
        engine.propagator().runDue();
        PropagationSchedule failed = schedule();
        System.out.println("PropagationDestinationOutageTest (" + TestStore.CURRENT.kind + " source): while the destination"
                + " is down, failures " + failed.failures() + ", last error: " + failed.lastErrorMessage());
        assertThat(failed.failures()).isEqualTo(1);
        // its AQ number once: "AQ-03113: The Aqueduct store cannot be reached ..." (or 12541 when the link's store cannot be opened)
        assertThat(failed.lastErrorMessage()).matches("(?s)AQ-\\d{5}: (?!AQ-).*");
        assertThat(failed.lastErrorTime()).isNotNull();
        assertThat(failed.nextRun()).isEqualTo(java.time.Instant.ofEpochMilli(firstTry + Propagator.FIRST_RETRY_MS));
        assertThat(failed.totalNumber()).isEqualTo(10);
        assertThat(failed.disabled()).isFalse();

        // backing off: no try before the 30 s are over
        clock.advance(Duration.ofMillis(Propagator.FIRST_RETRY_MS - 1000));
        engine.propagator().runDue();
        assertThat(schedule().failures()).as("no try before the backoff ends").isEqualTo(1);
        clock.advance(Duration.ofMillis(1000));
        long secondTry = clock.millis();
        engine.propagator().runDue();
        failed = schedule();
        assertThat(failed.failures()).as("the second try, still down").isEqualTo(2);
        assertThat(failed.nextRun()).as("then 60 s").isEqualTo(java.time.Instant.ofEpochMilli(secondTry
                + 2 * Propagator.FIRST_RETRY_MS));
        assertThat(failed.lastErrorMessage()).matches("(?s)AQ-\\d{5}: (?!AQ-).*");

        server.start();
        clock.advance(Duration.ofMillis(2 * Propagator.FIRST_RETRY_MS - 1000));
        engine.propagator().runDue();
        assertThat(schedule().failures()).as("back, but the backoff is not over: no try yet").isEqualTo(2);
        assertThat(delivered()).isEqualTo(10);
        clock.advance(Duration.ofMillis(1000));
        engine.propagator().runDue();
        PropagationSchedule recovered = schedule();
        assertThat(recovered.failures()).as("reset by the success").isZero();
        assertThat(recovered.lastErrorMessage()).isNull();
        assertThat(recovered.nextRun()).isNull();
        assertThat(recovered.totalNumber()).isEqualTo(30);
        engine.propagator().runDue(); // nothing more to move

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("before-" + i);
        }
        for (int i = 0; i < 20; i++) {
            expected.add("down-" + i);
        }
        try (AqueductEngine dst = destinationEngine(); QueueSession s = dst.openSession()) {
            List<String> arrived = new ArrayList<>();
            while (true) {
                try {
                    arrived.add(s.dequeue(DEST_SCHEMA + ".DST_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text());
                } catch (AqException e) {
                    assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE);
                    break;
                }
            }
            s.commit();
            assertThat(arrived).as("each message once, in the source's order").containsExactlyElementsOf(expected);
        }
        assertThat(sourceParts()).as("the source parts of consumer X by state").isEqualTo(Map.of("PROCESSED", 30));
        assertThat(receipts()).as("receipts left at the destination").isZero();
    }

    private void enqueue(String prefix, int n) {
        try (QueueSession s = engine.openSession()) {
            for (int i = 0; i < n; i++) {
                s.enqueue(SRC_Q, EnqueueOptions.create(), Message.of(prefix + "-" + i));
            }
            s.commit();
        }
    }

    private PropagationSchedule schedule() {
        return engine.admin().propagationSchedule(SRC_Q, "DEST");
    }

    private int delivered() throws SQLException {
        return count("SELECT COUNT(*) FROM \"" + DEST_SCHEMA + "\".\"AQ$DST_QT\"");
    }

    private int receipts() throws SQLException {
        return count("SELECT COUNT(*) FROM AQ_PROPAGATION_RECEIPT");
    }

    private int count(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(destination.url(), destination.user(), destination.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private Map<String, Integer> sourceParts() throws SQLException {
        String schema = TestStore.CURRENT.shared() ? SHARED_SCHEMA : "APP";
        Map<String, Integer> out = new TreeMap<>();
        try (Connection c = TestStore.CURRENT.shared() ? TestStore.CURRENT.connect(TestStore.CURRENT.privateStoreSettings(SHARED_SCHEMA))
                : DriverManager.getConnection("jdbc:derby:memory:" + databaseName);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MSG_STATE, COUNT(*) FROM \"" + schema
                        + "\".\"AQ$SRC_QT\" WHERE CONSUMER_NAME = 'X' GROUP BY MSG_STATE")) {
            while (rs.next()) {
                out.put(rs.getString(1).trim(), rs.getInt(2));
            }
        }
        return out;
    }
}
