package io.aqueduct.engine;

import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.time.ManualClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh in-memory store per test, on a manual clock, with helpers to create queues and to read
 * the store with plain SQL as an administrator would.
 */
public abstract class EngineFixture {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    protected ManualClock clock;
    protected AqueductEngine engine;
    protected QueueAdmin admin;
    protected String databaseName;
    private final List<QueueSession> sessions = new ArrayList<>();

    @BeforeEach
    void startEngine() {
        clock = new ManualClock();
        databaseName = "aqtest" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        engine = AqueductEngine.builder().derbyInMemory(databaseName).clock(clock).user("TESTER").start();
        admin = engine.admin();
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
        engine.close();
    }

    protected QueueSession session() {
        QueueSession s = engine.openSession();
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
        return DriverManager.getConnection("jdbc:derby:memory:" + databaseName);
    }
}
