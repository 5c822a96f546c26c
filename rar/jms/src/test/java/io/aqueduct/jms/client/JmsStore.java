package io.aqueduct.jms.client;

import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store for one JMS test: Derby in memory unless {@code aqueduct.test.store} says
 * {@code postgres} or {@code mariadb} (as the engine's suite reads it), where each store is a
 * schema / database of its own, dropped when the test closes it. Public: the simplified API's tests
 * (io.aqueduct.jms.context) use it too.
 */
public final class JmsStore implements AutoCloseable {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final String KIND = System.getProperty("aqueduct.test.store", "derby").trim().toLowerCase(Locale.ROOT);

    public final AqueductEngine engine;
    private final Runnable drop;

    private JmsStore(AqueductEngine engine, Runnable drop) {
        this.engine = engine;
        this.drop = drop;
    }

    public static JmsStore open() {
        return open(AqClock.system());
    }

    /** A store whose engine measures time on {@code clock} (a ManualClock: delays, expiry and retry delays on demand). */
    public static JmsStore open(AqClock clock) {
        return open(clock, b -> b);
    }

    /** A store whose engine's builder {@code tune} adjusts (e.g. a small buffered-message memory). */
    public static JmsStore open(AqClock clock, java.util.function.UnaryOperator<AqueductEngine.Builder> tune) {
        String name = "jms" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        if (KIND.equals("derby")) {
            return new JmsStore(tune.apply(AqueductEngine.builder().clock(clock).derbyInMemory(name)).start(), () -> { });
        }
        String url = setting("url");
        String user = setting("user");
        String password = setting("password");
        if (url == null) {
            if ("1".equals(System.getenv("AQUEDUCT_TEST_REQUIRE_STORES"))) {
                throw new AssertionError("aqueduct.test.store=" + KIND + " but no server is configured");
            }
            Assumptions.assumeTrue(false, "aqueduct.test.store=" + KIND + " but no server is configured");
        }
        boolean pg = KIND.equals("postgres");
        String storeUrl = pg ? url + (url.contains("?") ? "&" : "?") + "currentSchema=" + name
                : url.replaceAll("/+$", "") + "/" + name;
        sql(url, user, password, pg ? "CREATE SCHEMA " + name : "CREATE DATABASE " + name);
        AqueductEngine engine = tune.apply(AqueductEngine.builder().clock(clock).jdbc(storeUrl, user, password)).start();
        return new JmsStore(engine, () -> sql(url, user, password, pg ? "DROP SCHEMA " + name + " CASCADE" : "DROP DATABASE " + name));
    }

    private static void sql(String url, String user, String password, String statement) {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(statement + ": " + e.getMessage(), e);
        }
    }

    private static String setting(String what) {
        String value = System.getProperty("aqueduct.test." + KIND + "." + what);
        if (value == null || value.isBlank()) {
            value = System.getenv("AQUEDUCT_TEST_" + KIND.toUpperCase(Locale.ROOT) + "_" + what.toUpperCase(Locale.ROOT));
        }
        return value == null || value.isBlank() ? null : value;
    }

    QueueAdmin admin() {
        return engine.admin();
    }

    /** A JMS queue: a started single-consumer RAW queue ordered by priority, in a queue table of its own. */
    public AqueductQueue queue(String name) throws Exception {
        return queue(name, QueueProperties.create());
    }

    AqueductQueue queue(String name, QueueProperties properties) throws Exception {
        create(name, false, properties);
        return new AqueductQueue(name);
    }

    /** A JMS topic: a started multi-consumer RAW queue. */
    public AqueductTopic topic(String name) throws Exception {
        create(name, true, QueueProperties.create());
        return new AqueductTopic(name);
    }

    private void create(String name, boolean topic, QueueProperties properties) {
        admin().createQueueTable(name + "_T", QueueTableProperties.create().payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME).multipleConsumers(topic));
        admin().createQueue(name, name + "_T", properties);
        admin().startQueue(name, true, true);
    }

    public AqueductConnectionFactory factory() {
        return new AqueductConnectionFactory(engine);
    }

    public AqueductXAConnectionFactory xaFactory() {
        return new AqueductXAConnectionFactory(engine);
    }

    @Override
    public void close() {
        engine.close();
        drop.run();
    }
}
