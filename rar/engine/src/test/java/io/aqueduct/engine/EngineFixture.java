package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.time.ManualClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;

/**
 * A fresh in-memory store per test, on a manual clock, with helpers to create queues and to read
 * the store with plain SQL as an administrator would.
 */
public abstract class EngineFixture {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** Never waits. Shared: use {@code copy()} before changing it. */
    protected static final DequeueOptions NO_WAIT = noWait();
    /** Never waits, from the head of the queue. Shared: use {@code copy()} before changing it. */
    protected static final DequeueOptions FIRST_NO_WAIT = NO_WAIT.copy().navigation(Navigation.FIRST_MESSAGE);

    /** The columns of the AQ$&lt;queue_table&gt; view but the payload (USER_DATA). */
    private static final String VIEW_COLUMNS = "QUEUE, MSG_ID, CORR_ID, MSG_PRIORITY, MSG_STATE, DELAY, EXPIRATION,"
            + " ENQ_TIME, ENQ_USER_ID, ENQ_TXN_ID, DEQ_TIME, DEQ_USER_ID, DEQ_TXN_ID, RETRY_COUNT, EXCEPTION_QUEUE_OWNER,"
            + " EXCEPTION_QUEUE, ORIGINAL_QUEUE_OWNER, ORIGINAL_QUEUE_NAME";

    protected ManualClock clock;
    protected AqueductEngine engine;
    protected QueueAdmin admin;
    protected String databaseName;
    private final List<QueueSession> sessions = new ArrayList<>();
    private final Map<FutureTask<?>, Thread> blockedDequeuers = new HashMap<>();

    @BeforeEach
    void startEngine() throws SQLException {
        TestStore.CURRENT.assumeConfigured();
        clock = new ManualClock();
        databaseName = "aqtest" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        AqueductEngine.Builder builder = AqueductEngine.builder().clock(clock).user("TESTER").timeManager(backgroundLoops());
        if (TestStore.CURRENT.shared()) {
            builder.dialect(store(TestStore.CURRENT.migratedStore())).defaultSchema("APP");
        } else {
            DerbyTemplate.copyTo(databaseName); // empty and migrated: the engine opens it without the migration's DDL
            builder.derbyInMemory(databaseName);
            Dialect derby = io.aqueduct.engine.store.DerbyDialect.inMemory(databaseName);
            Dialect wrapped = store(derby);
            if (wrapped != derby) {
                builder.dialect(wrapped);
            }
        }
        configure(builder);
        engine = builder.start();
        admin = engine.admin();
    }

    /** The store the engine works on: a test may put faults between the engine and the database; as it is by default. */
    protected Dialect store(Dialect dialect) {
        return dialect;
    }

    /** A test's own engine settings, applied last (administrators, ...); nothing by default. */
    protected void configure(AqueductEngine.Builder builder) {
    }

    /** Whether the engine's loops (time manager, propagation) run by themselves; false: the test drives them. */
    protected boolean backgroundLoops() {
        return true;
    }

    @AfterEach
    void stopEngine() {
        for (QueueSession s : sessions) {
            try {
                s.close();
            } catch (RuntimeException ignored) {
                // the test may have closed it, or the engine went first
            }
        }
        if (engine != null) {
            engine.close(); // null when the store is not configured and the test was skipped
        }
    }

    protected QueueSession session() {
        QueueSession s = engine.openSession();
        sessions.add(s);
        return s;
    }

    /** A session working as {@code user} (closed after the test). */
    protected QueueSession session(String user) {
        QueueSession s = engine.openSession(user);
        sessions.add(s);
        return s;
    }

    /** Creates a queue table and one started queue in it. */
    protected void startedQueue(String queue, String queueTable, QueueTableProperties table, QueueProperties props) {
        admin.createQueueTable(queueTable, table);
        admin.createQueue(queue, queueTable, props);
        admin.startQueue(queue, true, true);
    }

    protected Connection sql() throws SQLException {
        return TestStore.CURRENT.shared() ? TestStore.CURRENT.connect() : DriverManager.getConnection("jdbc:derby:memory:" + databaseName);
    }

    /** Is the store shared by several nodes (PostgreSQL, MariaDB), not an embedded Derby? */
    protected static boolean sharedStore() {
        return TestStore.CURRENT.shared();
    }

    // ------------------------------------------------------------------ dequeue options and errors

    /** Fresh options that never wait; the caller may change them. */
    protected static DequeueOptions noWait() {
        return DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);
    }

    /** Runs the call, expecting it to fail with the AQ error {@code code}; returns the exception. */
    protected static AqException expectError(int code, Executable call) {
        try {
            call.execute();
        } catch (AqException e) {
            assertThat(e.errorCode()).as("error code of: %s", e.getMessage()).isEqualTo(code);
            return e;
        } catch (Throwable t) {
            throw new AssertionError("expected AqException " + code + " but got " + t, t);
        }
        throw new AssertionError("expected AqException " + code + " but the call succeeded");
    }

    /** A NO_WAIT dequeue from the head of the queue finds nothing (25228). */
    protected static void assertNoMessage(QueueSession s, String queue) {
        assertThatThrownBy(() -> s.dequeue(queue, FIRST_NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                e -> assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE));
    }

    // ------------------------------------------------------------------ a dequeue parked in a thread

    /**
     * Runs the dequeue (and its commit) in a session and a daemon thread of its own, and returns once
     * the thread is parked waiting for a message (or the dequeue has already ended).
     */
    protected FutureTask<Message> blockedDequeue(String queue, DequeueOptions options) {
        FutureTask<Message> task = new FutureTask<>(() -> {
            try (QueueSession own = engine.openSession()) {
                Message m = own.dequeue(queue, options);
                own.commit();
                return m;
            }
        });
        Thread t = new Thread(task, "blocked-dequeuer");
        t.setDaemon(true);
        t.start();
        Blocking.awaitBlocked(t, task);
        blockedDequeuers.put(task, t);
        return task;
    }

    /** Waits until a dequeue started by {@link #blockedDequeue} is parked again (or has ended). */
    protected void awaitBlockedInDequeue(FutureTask<?> task) {
        Blocking.awaitBlocked(blockedDequeuers.get(task), task);
    }

    // ------------------------------------------------------------------ the AQ$<queue_table> view, read with plain SQL

    /**
     * The row of a message in AQ$&lt;queueTable&gt;, column → value (strings trimmed, timestamps as
     * {@link java.sql.Timestamp}), all columns but USER_DATA; null when the view has no row for it.
     */
    protected Map<String, Object> viewRowOrNull(String queueTable, MessageId id) throws SQLException {
        try (Connection c = sql(); PreparedStatement ps = c.prepareStatement(
                "SELECT " + VIEW_COLUMNS + " FROM \"APP\".\"AQ$" + queueTable + "\" WHERE MSG_ID = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Map<String, Object> row = new HashMap<>();
                ResultSetMetaData md = rs.getMetaData();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.put(md.getColumnName(i).toUpperCase(java.util.Locale.ROOT), trimmed(rs.getObject(i)));
                }
                return row;
            }
        }
    }

    /** As {@link #viewRowOrNull}, asserting that the view has a row for the message. */
    protected Map<String, Object> viewRow(String queueTable, MessageId id) throws SQLException {
        Map<String, Object> row = viewRowOrNull(queueTable, id);
        assertThat(row).as("message %s in the AQ$%s view", id, queueTable).isNotNull();
        return row;
    }

    /** One column (or expression) of a message's row in AQ$&lt;queueTable&gt;, strings trimmed; asserts the row is there. */
    protected Object viewColumn(String queueTable, MessageId id, String column) throws SQLException {
        try (Connection c = sql(); PreparedStatement ps = c.prepareStatement(
                "SELECT " + column + " FROM \"APP\".\"AQ$" + queueTable + "\" WHERE MSG_ID = ?")) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("message %s in the AQ$%s view", id, queueTable).isTrue();
                return trimmed(rs.getObject(1));
            }
        }
    }

    /** MSG_STATE of a message in AQ$&lt;queueTable&gt;; asserts the row is there. */
    protected String viewState(String queueTable, MessageId id) throws SQLException {
        return (String) viewColumn(queueTable, id, "MSG_STATE");
    }

    /** How many rows AQ$&lt;queueTable&gt; shows. */
    protected int viewCount(String queueTable) throws SQLException {
        try (Connection c = sql(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM \"APP\".\"AQ$" + queueTable + "\"")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Object trimmed(Object v) {
        return v instanceof String str ? str.trim() : v;
    }
}
