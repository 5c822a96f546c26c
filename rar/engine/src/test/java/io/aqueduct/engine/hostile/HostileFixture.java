package io.aqueduct.engine.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.Transformer;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.ManualClock;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;

/**
 * A fresh in-memory Derby store per test holding one queue of each payload type, a multi-consumer
 * queue with two subscribers, a stopped queue and two transformations, each queue with a committed
 * message. {@link #assertRefused} is the one check every hostile input passes: the call fails with
 * an {@link AqException} of the expected AQ number and a message, the store (read through the API
 * and the AQ$ views) is exactly as before, and the session that made the call still enqueues and
 * dequeues.
 */
abstract class HostileFixture {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    static final String RAW_QT = "RAW_QT", RAW_Q = "RAW_Q";
    static final String TEXT_QT = "TEXT_QT", TEXT_Q = "TEXT_Q", STOPPED_Q = "STOPPED_Q";
    static final String JSON_QT = "JSON_QT", JSON_Q = "JSON_Q";
    static final String XML_QT = "XML_QT", XML_Q = "XML_Q";
    static final String OBJ_QT = "OBJ_QT", OBJ_Q = "OBJ_Q";
    static final String MC_QT = "MC_QT", MC_Q = "MC_Q";
    static final String TEXT_EXCEPTION_Q = "AQ$_TEXT_QT_E";
    static final Agent SUB1 = Agent.named("SUB1"), SUB2 = Agent.named("SUB2");
    /** TEXT → TEXT, upper-cases. */
    static final String UPPER_T = "UPPER_T";
    /** TEXT → TEXT, always throws. */
    static final String BOOM_T = "BOOM_T";
    /** TEXT → JSON. */
    static final String TO_JSON_T = "TO_JSON_T";

    /** Queues a BROWSE can read (and with which consumer); the OBJECT queue is counted through its view only. */
    private static final Map<String, String> BROWSABLE = Map.of(RAW_Q, "", TEXT_Q, "", JSON_Q, "", XML_Q, "",
            MC_Q, "SUB1");

    /** A serializable payload class for the OBJECT queue table; {@code note} may hold anything. */
    public record Order(int orderno, Object note) implements Serializable {
    }

    public static final class Upper implements Transformer {
        @Override
        public Object transform(Object payload) {
            return ((String) payload).toUpperCase(java.util.Locale.ROOT);
        }
    }

    public static final class Boom implements Transformer {
        @Override
        public Object transform(Object payload) {
            throw new IllegalStateException("boom");
        }
    }

    public static final class ToJson implements Transformer {
        @Override
        public Object transform(Object payload) {
            return "{\"text\": \"" + payload + "\"}";
        }
    }

    protected ManualClock clock;
    protected AqueductEngine engine;
    protected String databaseName;
    /** The session the hostile calls go through. */
    protected QueueSession session;
    /** Its admin interface. */
    protected QueueAdmin admin;
    /** A second session that only looks (BROWSE) to take snapshots. */
    private QueueSession observer;

    /** A backup of the store with the fixtures, made once per JVM: each test starts on a copy of it. */
    private static Path fixtureBackup;

    @BeforeEach
    void startEngineWithFixtures() throws SQLException {
        clock = new ManualClock();
        databaseName = "hostile" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        DriverManager.getConnection("jdbc:derby:memory:" + databaseName + ";createFrom=" + fixtureBackup()).close();
        engine = AqueductEngine.builder().derbyInMemory(databaseName).timeManager(false).clock(clock).user("TESTER").start();
        session = engine.openSession();
        admin = session.admin();
        observer = engine.openSession();
    }

    /**
     * The fixtures are built once, by the engine through the API, and backed up; a copy of that
     * backup opens as the same store the set-up would have left (the clock starts at the same instant),
     * without its few hundred DDL statements per test.
     */
    private static synchronized Path fixtureBackup() throws SQLException {
        if (fixtureBackup == null) {
            String name = "hostilefixture_" + ProcessHandle.current().pid();
            Path dir;
            try {
                dir = Files.createTempDirectory("aqueduct-hostile-fixture-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir), "hostile-fixture-cleanup"));
            try (AqueductEngine template = AqueductEngine.builder().derbyInMemory(name).timeManager(false)
                    .clock(new ManualClock()).user("TESTER").start()) {
                try (QueueSession s = template.openSession()) {
                    createFixtures(s);
                }
                try (Connection c = DriverManager.getConnection("jdbc:derby:memory:" + name);
                        CallableStatement backup = c.prepareCall("CALL SYSCS_UTIL.SYSCS_BACKUP_DATABASE(?)")) {
                    backup.setString(1, dir.toString());
                    backup.execute();
                }
            }
            fixtureBackup = dir.resolve(name);
        }
        return fixtureBackup;
    }

    private static void createFixtures(QueueSession session) {
        QueueAdmin admin = session.admin();
        started(admin, RAW_Q, RAW_QT, QueueTableProperties.create().payloadType(PayloadType.RAW));
        started(admin, TEXT_Q, TEXT_QT, QueueTableProperties.create().payloadType(PayloadType.TEXT)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue(STOPPED_Q, TEXT_QT, QueueProperties.create());
        started(admin, JSON_Q, JSON_QT, QueueTableProperties.create().payloadType(PayloadType.JSON));
        started(admin, XML_Q, XML_QT, QueueTableProperties.create().payloadType(PayloadType.XML));
        started(admin, OBJ_Q, OBJ_QT, QueueTableProperties.create().objectType(Order.class.getName()));
        started(admin, MC_Q, MC_QT, QueueTableProperties.create().payloadType(PayloadType.TEXT).multipleConsumers(true));
        admin.addSubscriber(MC_Q, SUB1, null);
        admin.addSubscriber(MC_Q, SUB2, "priority < 5");
        admin.createTransformation(UPPER_T, "TEXT", "TEXT", Upper.class.getName());
        admin.createTransformation(BOOM_T, "TEXT", "TEXT", Boom.class.getName());
        admin.createTransformation(TO_JSON_T, "TEXT", "JSON", ToJson.class.getName());

        session.enqueue(RAW_Q, Message.of(new byte[] {1, 2, 3}));
        session.enqueue(TEXT_Q, Message.of("t1", MessageProperties.create().correlation("C1")));
        session.enqueue(JSON_Q, Message.of("{\"a\": 1}"));
        session.enqueue(XML_Q, Message.of("<a>1</a>"));
        session.enqueue(OBJ_Q, Message.of(new Order(1, "first")));
        session.enqueue(MC_Q, Message.of("m1"));
        session.commit();
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS reclaims it
        }
    }

    private static void started(QueueAdmin admin, String queue, String table, QueueTableProperties props) {
        admin.createQueueTable(table, props);
        admin.createQueue(queue, table, QueueProperties.create());
        admin.startQueue(queue, true, true);
    }

    @AfterEach
    void stopEngine() {
        for (QueueSession s : new QueueSession[] {session, observer}) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // the test closed it, or the engine
            }
        }
        if (engine != null) {
            engine.close();
        }
    }

    // ------------------------------------------------------------------ the one check

    /**
     * Runs the hostile call, which must fail with {@code code}; then the store must be as it was
     * and the session must still work.
     */
    protected AqException assertRefused(int code, Executable call) {
        List<String> before = snapshot();
        AqException e = expectError(code, call);
        assertThat(snapshot()).as("the store after the refused call").isEqualTo(before);
        assertSessionUsable(session);
        return e;
    }

    /** The call fails with {@code code} (and a message saying something); returns the exception. */
    protected static AqException expectError(int code, Executable call) {
        try {
            call.execute();
        } catch (AqException e) {
            assertThat(e.errorCode()).as("error code of: %s", e.getMessage()).isEqualTo(code);
            assertThat(e.getMessage()).as("the message of error %s", code).isNotBlank();
            return e;
        } catch (Throwable t) {
            throw new AssertionError("expected AqException " + code + " but got " + t, t);
        }
        throw new AssertionError("expected AqException " + code + " but the call succeeded");
    }

    /** A committed enqueue and a committed REMOVE of that very message work in {@code s}. */
    protected static void assertSessionUsable(QueueSession s) {
        MessageId id = s.enqueue(TEXT_Q, Message.of("probe"));
        s.commit();
        Message m = s.dequeue(TEXT_Q, DequeueOptions.create().messageId(id).waitSeconds(DequeueOptions.NO_WAIT)
                .navigation(Navigation.FIRST_MESSAGE));
        assertThat(m.text()).isEqualTo("probe");
        s.commit();
    }

    /**
     * What the API and the AQ$ views show: queue tables, queues (with their settings and state),
     * subscribers, transformations, the messages a BROWSE sees in each browsable queue, and every
     * message row with its queue, state, priority, correlation and retry count.
     */
    protected List<String> snapshot() {
        List<String> out = new ArrayList<>();
        for (QueueTableInfo t : observer.admin().queueTables()) {
            out.add("table " + t);
        }
        for (QueueInfo q : observer.admin().queues()) {
            out.add("queue " + q);
            if (q.name().equals(MC_Q)) {
                out.add("subscribers " + observer.admin().subscribers(q.owner() + "." + q.name()));
            }
        }
        out.add("transformations " + observer.admin().transformations());
        BROWSABLE.keySet().stream().sorted().forEach(queue -> {
            String consumer = BROWSABLE.get(queue);
            List<Message> seen = observer.dequeueArray(queue, DequeueOptions.create().mode(DequeueMode.BROWSE)
                    .navigation(Navigation.FIRST_MESSAGE).waitSeconds(DequeueOptions.NO_WAIT)
                    .consumerName(consumer.isEmpty() ? null : consumer), 10_000);
            for (Message m : seen) {
                out.add("browse " + queue + " " + m.id() + " " + m.text());
            }
        });
        observer.commit();
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:" + databaseName);
                Statement st = c.createStatement()) {
            for (QueueTableInfo t : observer.admin().queueTables()) {
                try (ResultSet rs = st.executeQuery("SELECT QUEUE, MSG_ID, MSG_STATE, MSG_PRIORITY, CORR_ID, RETRY_COUNT"
                        + " FROM \"" + t.owner() + "\".\"AQ$" + t.name() + "\" ORDER BY MSG_ID")) {
                    while (rs.next()) {
                        out.add("row " + t.name() + " " + rs.getString(1).trim() + " " + rs.getString(2).trim() + " "
                                + rs.getString(3).trim() + " " + rs.getInt(4) + " " + rs.getString(5) + " " + rs.getInt(6));
                    }
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    /** Never waits, from the head of the queue (so a call does not depend on where the last one left the session). */
    protected static DequeueOptions noWait() {
        return DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT).navigation(Navigation.FIRST_MESSAGE);
    }

    protected static DequeueOptions browseFirst() {
        return noWait().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE);
    }
}
