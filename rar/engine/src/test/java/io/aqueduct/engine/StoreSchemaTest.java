package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.DerbyDialect;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.store.JdbcSettings;
import io.aqueduct.engine.store.MariaDbDialect;
import io.aqueduct.engine.store.PostgresDialect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's dialect is chosen from what the database says it is, and its schema is created from
 * an empty database idempotently, also by nodes starting at the same moment.
 */
class StoreSchemaTest {

    @Test
    void the_dialect_is_chosen_from_the_database_behind_the_url(@TempDir Path dir) {
        assertThat(Dialects.forJdbc(new JdbcSettings("jdbc:derby:" + dir.resolve("db") + ";create=true", null, null)))
                .isInstanceOf(DerbyDialect.class);
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "a PostgreSQL or MariaDB server is configured");
        TestStore.CURRENT.assumeConfigured();
        assertThat(Dialects.forJdbc(TestStore.CURRENT.settings())).isInstanceOf(
                TestStore.CURRENT.kind == TestStore.Kind.POSTGRES ? PostgresDialect.class : MariaDbDialect.class);
    }

    @Test
    void a_url_that_is_not_jdbc_or_a_server_that_is_not_there_is_refused_with_a_clear_message() {
        assertThatThrownBy(() -> Dialects.forJdbc(new JdbcSettings("postgres://localhost/db", null, null)))
                .isInstanceOfSatisfying(AqException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                    assertThat(e.getMessage()).contains("JDBC URL");
                });
        assertThatThrownBy(() -> Dialects.forJdbc(new JdbcSettings("jdbc:postgresql://127.0.0.1:1/nothing", "nobody", null)))
                .isInstanceOfSatisfying(AqException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                    assertThat(e.getMessage()).contains("Cannot connect to the Aqueduct store at jdbc:postgresql://127.0.0.1:1/nothing");
                });
    }

    @Test
    void nodes_starting_together_on_an_empty_database_create_one_schema_and_share_its_queues() throws Exception {
        Assumptions.assumeTrue(TestStore.CURRENT.shared(), "several nodes need a shared store");
        TestStore.CURRENT.assumeConfigured();
        TestStore.CURRENT.emptyStore();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<AqueductEngine> engines = new ArrayList<>();
        try {
            List<Future<AqueductEngine>> starting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                starting.add(pool.submit((Callable<AqueductEngine>) MultiNodeTest::engine));
            }
            for (Future<AqueductEngine> f : starting) {
                engines.add(f.get());
            }
            engines.get(0).admin().createQueueTable("SHARED_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engines.get(0).admin().createQueue("SHARED_Q", "SHARED_QT", QueueProperties.create());
            engines.get(0).admin().startQueue("SHARED_Q", true, true);
            try (QueueSession s = engines.get(1).openSession()) {
                s.enqueue("SHARED_Q", null, Message.of("made on node 0, enqueued on node 1"));
                s.commit();
            }
            try (QueueSession s = engines.get(2).openSession()) {
                assertThat(s.dequeue("SHARED_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                        .isEqualTo("made on node 0, enqueued on node 1");
                s.commit();
            }
        } finally {
            engines.forEach(AqueductEngine::close);
            pool.shutdownNow();
        }
        // a later start finds everything in place
        try (AqueductEngine again = MultiNodeTest.engine()) {
            assertThat(again.admin().queue("SHARED_Q").name()).isEqualTo("SHARED_Q");
        }
    }

    /** An engine on a durable store: a Derby directory, or the shared test server. */
    private static AqueductEngine durableEngine(Path dir) {
        return TestStore.CURRENT.shared() ? MultiNodeTest.engine()
                : AqueductEngine.builder().derbyDirectory(dir.resolve("store")).user("NODE").start();
    }

    private static java.sql.Connection admin(Path dir) throws java.sql.SQLException {
        return TestStore.CURRENT.shared() ? TestStore.CURRENT.connect()
                : java.sql.DriverManager.getConnection("jdbc:derby:" + dir.resolve("store"));
    }

    private static int recordedVersion(Path dir) throws java.sql.SQLException {
        try (java.sql.Connection c = admin(dir); java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT VERSION FROM AQ_SCHEMA_VERSION")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    private static void execute(Path dir, String sql) throws java.sql.SQLException {
        try (java.sql.Connection c = admin(dir); java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    @Test
    void a_store_made_before_schema_versions_is_brought_to_the_current_version_with_its_messages(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("OLD_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("OLD_Q", "OLD_QT", QueueProperties.create());
            engine.admin().startQueue("OLD_Q", true, true);
            s.enqueue("OLD_Q", null, Message.of("kept across the upgrade"));
            s.commit();
        }
        execute(dir, "DROP TABLE AQ_SCHEMA_VERSION"); // as the release before versions left its stores

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            assertThat(s.dequeue("OLD_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                    .isEqualTo("kept across the upgrade");
            s.commit();
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
    }

    @Test
    void a_version_1_store_gains_user_properties_and_keeps_its_messages(@TempDir Path dir) throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V1_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("V1_Q", "V1_QT", QueueProperties.create());
            engine.admin().startQueue("V1_Q", true, true);
            s.enqueue("V1_Q", null, Message.of("written by schema 1"));
            s.commit();
        }
        // schema 1 as it was: no user properties column, no rule syntax column
        execute(dir, "ALTER TABLE AQ_MESSAGE DROP COLUMN USER_PROPS");
        execute(dir, "ALTER TABLE AQ_SUBSCRIBER DROP COLUMN RULE_SYNTAX");
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 1");

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            DequeueOptions first = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
                    .navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE);
            s.enqueue("V1_Q", null, Message.of("with a property",
                    io.aqueduct.api.MessageProperties.create().userProperty("region", "WEST")));
            s.commit();
            Message old = s.dequeue("V1_Q", first);
            assertThat(old.text()).isEqualTo("written by schema 1");
            assertThat(old.properties().userProperties()).isEmpty();
            assertThat(s.dequeue("V1_Q", first.copy().condition("region = 'WEST'")).text()).isEqualTo("with a property");
            s.commit();
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
    }

    @Test
    void a_version_2_store_gains_rule_syntaxes_and_keeps_its_subscribers_as_conditions(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        io.aqueduct.api.Agent west = io.aqueduct.api.Agent.named("West");
        io.aqueduct.api.Agent all = io.aqueduct.api.Agent.named("All");
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V2_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                    .multipleConsumers(true));
            engine.admin().createQueue("V2_Q", "V2_QT", QueueProperties.create());
            engine.admin().startQueue("V2_Q", true, true);
            engine.admin().addSubscriber("V2_Q", west, "region = 'WEST'");
            engine.admin().addSubscriber("V2_Q", all, null);
            s.enqueue("V2_Q", null, Message.of("pending for West, written by schema 2",
                    io.aqueduct.api.MessageProperties.create().userProperty("region", "WEST")));
            s.commit();
        }
        // schema 2 as it was: subscribers' rules were conditions, with no column saying so
        execute(dir, "ALTER TABLE AQ_SUBSCRIBER DROP COLUMN RULE_SYNTAX");
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 2");

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            assertThat(engine.admin().subscribers("V2_Q")).containsExactly(
                    new io.aqueduct.api.SubscriberInfo(west, "region = 'WEST'", null, io.aqueduct.api.RuleSyntax.CONDITION),
                    new io.aqueduct.api.SubscriberInfo(all, null, null, io.aqueduct.api.RuleSyntax.CONDITION));
            DequeueOptions asWest = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT).consumerName("West");
            assertThat(s.dequeue("V2_Q", asWest).text()).isEqualTo("pending for West, written by schema 2");
            s.commit();
            // and the store now keeps a selector's syntax
            engine.admin().addSubscriber("V2_Q", io.aqueduct.api.Agent.named("Jms"), "region = 'EAST'", null,
                    io.aqueduct.api.RuleSyntax.SELECTOR);
        }
        try (AqueductEngine engine = durableEngine(dir)) {
            assertThat(engine.admin().subscribers("V2_Q")).extracting(io.aqueduct.api.SubscriberInfo::syntax).containsExactly(
                    io.aqueduct.api.RuleSyntax.CONDITION, io.aqueduct.api.RuleSyntax.CONDITION,
                    io.aqueduct.api.RuleSyntax.SELECTOR);
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
    }

    @Test
    void a_version_3_store_gains_propagation_tables_views_and_consumer_destinations_and_keeps_its_messages(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        io.aqueduct.api.Agent west = io.aqueduct.api.Agent.named("West");
        long qid;
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V3_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT)
                    .multipleConsumers(true));
            engine.admin().createQueue("V3_Q", "V3_QT", QueueProperties.create());
            engine.admin().startQueue("V3_Q", true, true);
            engine.admin().addSubscriber("V3_Q", west, null);
            s.enqueue("V3_Q", null, Message.of("pending for West, written by schema 3"));
            s.enqueue("V3_Q", null, Message.of("still pending for West after the migration"));
            s.commit();
            qid = engine.admin().queue("V3_Q").qid();
        }
        // schema 3 as it was: no propagation tables or views, no consumer destinations
        execute(dir, "DROP VIEW USER_QUEUE_SCHEDULES");
        execute(dir, "DROP VIEW DBA_QUEUE_SCHEDULES");
        for (String table : List.of("AQ_SCHEDULE", "AQ_DBLINK", "AQ_PROPAGATION_RECEIPT")) {
            execute(dir, "DROP TABLE " + table);
        }
        execute(dir, TestStore.CURRENT.kind == TestStore.Kind.MARIADB
                ? "DROP INDEX AQ_MESSAGE_CONSUMER_DEST ON AQ_MESSAGE_CONSUMER" : "DROP INDEX AQ_MESSAGE_CONSUMER_DEST");
        execute(dir, "ALTER TABLE AQ_MESSAGE_CONSUMER DROP COLUMN DEST");
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 3");
        assertThat(indexes(dir, "AQ_MESSAGE_CONSUMER")).doesNotContain("AQ_MESSAGE_CONSUMER_DEST");

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            DequeueOptions asWest = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT).consumerName("West");
            assertThat(s.dequeue("V3_Q", asWest).text()).isEqualTo("pending for West, written by schema 3");
            s.commit();
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
        assertThat(indexes(dir, "AQ_MESSAGE_CONSUMER")).contains("AQ_MESSAGE_CONSUMER_DEST");
        assertThat(indexes(dir, "AQ_PROPAGATION_RECEIPT")).contains("AQ_PROPAGATION_RECEIPT_SOURCE");
        try (java.sql.Connection c = admin(dir); java.sql.Statement s = c.createStatement()) {
            // the consumers written by schema 3 are local ones
            try (java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DEST) FROM AQ_MESSAGE_CONSUMER")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isPositive();
                assertThat(rs.getInt(2)).isZero();
            }
            s.executeUpdate("INSERT INTO AQ_DBLINK (NAME, URL, USERNAME, PASSWORD, CREATED_MS)"
                    + " VALUES ('REMOTE_DB', 'jdbc:derby:memory:remote', 'AQ', NULL, 1)");
            s.executeUpdate("INSERT INTO AQ_PROPAGATION_RECEIPT (ID, QID, SOURCE, CREATED_MS) VALUES ('src:1', " + qid
                    + ", 'src', 1)");
            s.executeUpdate("INSERT INTO AQ_SCHEDULE (QID, DESTINATION, START_MS, DURATION, NEXT_TIME, LATENCY, DISABLED,"
                    + " FAILURES, TOTAL_TIME_MS, TOTAL_NUMBER, TOTAL_BYTES, MAX_NUMBER, MAX_BYTES, WINDOWS, WINDOW_NUMBER,"
                    + " WINDOW_BYTES) VALUES (" + qid + ", 'REMOTE_DB', 86400000, NULL, NULL, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)");
            if (!c.getAutoCommit()) {
                c.commit();
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT QNAME, DESTINATION, START_TIME, SCHEDULE_DISABLED"
                    + " FROM DBA_QUEUE_SCHEDULES")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1) + "@" + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4))
                        .isEqualTo("V3_Q@REMOTE_DB 00:00:00 N");
                assertThat(rs.next()).isFalse();
            }
        }
        // a second start finds the schema current and changes nothing
        durableEngine(dir).close();
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
    }

    @Test
    void a_version_4_store_gains_privilege_and_agent_tables_and_views_and_its_users_keep_working(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V4_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("V4_Q", "V4_QT", QueueProperties.create());
            engine.admin().startQueue("V4_Q", true, true);
            s.enqueue("V4_Q", null, Message.of("written by schema 4"));
            s.commit();
        }
        // schema 4 as it was: no privileges, agents or their views
        execute(dir, "DROP VIEW QUEUE_PRIVILEGES");
        execute(dir, "DROP VIEW \"AQ$INTERNET_USERS\"");
        for (String table : List.of("AQ_AGENT", "AQ_AGENT_DB_USER", "AQ_QUEUE_PRIVILEGE", "AQ_SYSTEM_PRIVILEGE")) {
            execute(dir, "DROP TABLE " + table);
        }
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 4");

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            // a session without a user is the engine's user, an administrator: as before the migration
            assertThat(s.dequeue("V4_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                    .isEqualTo("written by schema 4");
            s.commit();
            engine.admin().grantQueuePrivilege(io.aqueduct.api.QueuePrivilege.ENQUEUE, "V4_Q", "CLERK", false);
            engine.admin().createAqAgent("WEB", true, false);
            try (QueueSession clerk = engine.openSession("clerk")) {
                clerk.enqueue("V4_Q", null, Message.of("granted after the migration"));
                clerk.commit();
            }
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
        try (java.sql.Connection c = admin(dir); java.sql.Statement s = c.createStatement()) {
            try (java.sql.ResultSet rs = s.executeQuery("SELECT GRANTEE, NAME, ENQUEUE_PRIVILEGE FROM QUEUE_PRIVILEGES")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1) + " " + rs.getString(2) + " " + rs.getInt(3)).isEqualTo("CLERK V4_Q 1");
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT AGENT_NAME, HTTP_ENABLED FROM \"AQ$INTERNET_USERS\"")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1) + " " + rs.getString(2)).isEqualTo("WEB YES");
            }
        }
    }

    @Test
    void a_version_6_store_gains_original_queues_and_its_old_exception_messages_keep_an_unknown_one(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        String owner;
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V6_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("V6_Q", "V6_QT", QueueProperties.create().maxRetries(0));
            engine.admin().startQueue("V6_Q", true, true);
            s.enqueue("V6_Q", null, Message.of("failed under schema 6"));
            s.commit();
            s.dequeue("V6_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            s.rollback(); // max_retries 0: to the exception queue
            owner = engine.admin().queue("V6_Q").owner();
        }
        // schema 6 as it was: no original queue columns, and AQ$ views without them
        execute(dir, "DROP VIEW \"" + owner + "\".\"AQ$V6_QT\"");
        execute(dir, "ALTER TABLE AQ_MESSAGE DROP COLUMN ORIGINAL_QUEUE");
        execute(dir, "ALTER TABLE AQ_MESSAGE DROP COLUMN ORIGINAL_QSCHEMA");
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 6");

        String exceptionQueue = "AQ$_V6_QT_E";
        DequeueOptions browse = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
                .mode(io.aqueduct.api.DequeueMode.BROWSE).navigation(io.aqueduct.api.Navigation.FIRST_MESSAGE);
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().startQueue(exceptionQueue, false, true);
            Message old = s.dequeue(exceptionQueue, browse);
            assertThat(old.text()).isEqualTo("failed under schema 6");
            assertThat(old.properties().originalQueue()).isNull(); // moved before it was recorded: unknown
            s.enqueue("V6_Q", null, Message.of("failed under schema 7"));
            s.commit();
            s.dequeue("V6_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            s.rollback();
            s.dequeue(exceptionQueue, browse); // the first again; the second is recorded
            Message recent = s.dequeue(exceptionQueue, browse.copy().navigation(io.aqueduct.api.Navigation.NEXT_MESSAGE));
            assertThat(recent.text()).isEqualTo("failed under schema 7");
            assertThat(recent.properties().originalQueue()).isEqualTo(owner + ".V6_Q");
            s.commit();
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
        try (java.sql.Connection c = admin(dir); java.sql.Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT ORIGINAL_QUEUE_OWNER, ORIGINAL_QUEUE_NAME FROM \""
                        + owner + "\".\"AQ$V6_QT\" ORDER BY ENQ_TIME, MSG_ID")) {
            List<String> originals = new ArrayList<>();
            while (rs.next()) {
                originals.add(rs.getString(1) + "." + rs.getString(2));
            }
            assertThat(originals).containsExactlyInAnyOrder("null.null", owner + ".V6_Q");
        }
    }

    @Test
    void a_version_7_store_gains_the_statistics_views_over_the_messages_it_holds(@TempDir Path dir) throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        long qid;
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V7_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("V7_Q", "V7_QT", QueueProperties.create());
            engine.admin().startQueue("V7_Q", true, true);
            s.enqueue("V7_Q", null, Message.of("queued under schema 7"));
            s.commit();
            qid = engine.admin().queue("V7_Q").qid();
        }
        // schema 7 as it was: no statistics views (on Derby, nor their clock function)
        boolean derby = !TestStore.CURRENT.shared();
        String v = derby ? "\"V$AQ\"" : "V$AQ";
        String gv = derby ? "\"GV$AQ\"" : "GV$AQ";
        execute(dir, "DROP VIEW " + gv);
        execute(dir, "DROP VIEW " + v);
        if (derby) {
            execute(dir, "DROP FUNCTION AQ_NOW_MILLIS");
        }
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 7");

        try (AqueductEngine engine = durableEngine(dir)) {
            assertThat(engine.admin().queueStatistics("V7_Q").ready()).isEqualTo(1);
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
        for (String view : List.of(v, gv)) {
            try (java.sql.Connection c = admin(dir); java.sql.PreparedStatement ps = c.prepareStatement(
                    "SELECT WAITING, READY, EXPIRED FROM " + view + " WHERE QID = ?")) {
                ps.setLong(1, qid);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as(view).isTrue();
                    assertThat(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3))).as(view).containsExactly(0L, 1L, 0L);
                }
            }
        }
    }

    @Test
    void a_version_8_store_gains_the_claims_second_look_at_the_ledger_and_its_messages_are_dequeued(@TempDir Path dir)
            throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("V8_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue("V8_Q", "V8_QT", QueueProperties.create());
            engine.admin().startQueue("V8_Q", true, true);
            s.enqueue("V8_Q", null, Message.of("taken"));
            s.enqueue("V8_Q", null, Message.of("claimed by id"));
            s.commit();
        }
        // schema 8 as it was: PostgreSQL had no AQ_ATTEMPT_ON_RECORD
        if (TestStore.CURRENT.kind == TestStore.Kind.POSTGRES) {
            execute(dir, "DROP FUNCTION AQ_ATTEMPT_ON_RECORD(VARCHAR)");
        }
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = 8");

        try (AqueductEngine engine = durableEngine(dir); QueueSession s = engine.openSession()) {
            assertThat(s.dequeue("V8_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text())
                    .isEqualTo("taken");
            io.aqueduct.api.MessageId second = s.dequeue("V8_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)
                    .mode(io.aqueduct.api.DequeueMode.BROWSE)).id();
            assertThat(s.dequeue("V8_Q", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT).messageId(second)).text())
                    .isEqualTo("claimed by id");
            s.commit();
        }
        assertThat(recordedVersion(dir)).isEqualTo(io.aqueduct.engine.store.StoreSchema.CURRENT);
    }

    /** The names (upper case) of the indexes of one of the store's tables. */
    private static List<String> indexes(Path dir, String table) throws java.sql.SQLException {
        List<String> names = new ArrayList<>();
        try (java.sql.Connection c = admin(dir)) {
            java.sql.DatabaseMetaData md = c.getMetaData();
            String schema = TestStore.CURRENT.kind == TestStore.Kind.MARIADB ? null : "APP";
            String name = TestStore.CURRENT.kind == TestStore.Kind.POSTGRES ? table.toLowerCase(java.util.Locale.ROOT) : table;
            try (java.sql.ResultSet rs = md.getIndexInfo(c.getCatalog(), schema, name, false, false)) {
                while (rs.next()) {
                    if (rs.getString("INDEX_NAME") != null) {
                        names.add(rs.getString("INDEX_NAME").toUpperCase(java.util.Locale.ROOT));
                    }
                }
            }
        }
        return names;
    }

    @Test
    void a_store_of_a_newer_aqueduct_is_refused_and_left_as_it_was(@TempDir Path dir) throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
        }
        durableEngine(dir).close();
        int newer = io.aqueduct.engine.store.StoreSchema.CURRENT + 1;
        execute(dir, "UPDATE AQ_SCHEMA_VERSION SET VERSION = " + newer);

        assertThatThrownBy(() -> durableEngine(dir)).isInstanceOfSatisfying(AqException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
            assertThat(e.getMessage()).contains("schema version " + newer, "newer than this Aqueduct's");
        });
        assertThat(recordedVersion(dir)).isEqualTo(newer);
    }

    @Test
    void a_second_engine_on_the_same_derby_store_is_refused_and_the_first_goes_on(@TempDir Path dir) {
        Path store = dir.resolve("store");
        try (AqueductEngine first = AqueductEngine.builder().derbyDirectory(store).start()) {
            first.admin().createQueueTable("STILL_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            first.admin().createQueue("STILL_Q", "STILL_QT", QueueProperties.create());
            first.admin().startQueue("STILL_Q", true, true);
            QueueSession pending = first.openSession();
            pending.enqueue("STILL_Q", null, Message.of("uncommitted while the second engine is refused"));

            assertThatThrownBy(() -> AqueductEngine.builder().derbyDirectory(store).start())
                    .isInstanceOfSatisfying(AqException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(AqError.STORE_FAILURE);
                        assertThat(e.getMessage()).contains("already open by another Aqueduct engine");
                    });
            pending.commit(); // the first engine's connections were not touched
            pending.close();
        }
        try (AqueductEngine again = AqueductEngine.builder().derbyDirectory(store).start()) {
            assertThat(again.admin().queueTable("STILL_QT").name()).isEqualTo("STILL_QT");
        }
    }

    @Test
    void an_engine_on_the_in_memory_name_of_an_engine_just_closed_starts_on_an_empty_store() {
        String name = "reopened_" + ProcessHandle.current().pid();
        AqueductEngine.Builder next = AqueductEngine.builder().derbyInMemory(name);
        for (int round = 0; round < 3; round++) {
            // the builder of the next engine exists before this one closes: the wait for the drop is at its first connection
            AqueductEngine.Builder current = next;
            next = AqueductEngine.builder().derbyInMemory(name);
            try (AqueductEngine engine = current.start()) {
                assertThat(engine.admin().queueTables()).as("queue tables at the start of round %s", round).isEmpty();
                engine.admin().createQueueTable("GONE_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            }
        }
    }
}
