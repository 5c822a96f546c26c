package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/**
 * DBA_QUEUE_SCHEDULES / USER_QUEUE_SCHEDULES (schema 4), read with plain SQL over AQ_SCHEDULE rows
 * written with JDBC: every column, instants as UTC dates and times whatever the time zone, the
 * averages, and USER_ limited to the connected schema as USER_QUEUES is.
 */
class QueueSchedulesViewTest extends EngineFixture {

    static final List<String> DBA_COLUMNS = List.of("SCHEMA", "QNAME", "DESTINATION", "START_DATE", "START_TIME",
            "PROPAGATION_WINDOW", "NEXT_TIME", "LATENCY", "SCHEDULE_DISABLED", "PROCESS_NAME", "SESSION_ID", "INSTANCE",
            "LAST_RUN_DATE", "LAST_RUN_TIME", "CURRENT_START_DATE", "CURRENT_START_TIME", "NEXT_RUN_DATE", "NEXT_RUN_TIME",
            "TOTAL_TIME", "TOTAL_NUMBER", "TOTAL_BYTES", "MAX_NUMBER", "MAX_BYTES", "AVG_NUMBER", "AVG_SIZE", "AVG_TIME",
            "FAILURES", "LAST_ERROR_DATE", "LAST_ERROR_TIME", "LAST_ERROR_MSG");

    private static final String INSERT = "INSERT INTO AQ_SCHEDULE (QID, DESTINATION, START_MS, DURATION, NEXT_TIME, LATENCY,"
            + " DISABLED, FAILURES, LAST_ERROR_MS, LAST_ERROR_MSG, LAST_RUN_MS, CURRENT_START_MS, NEXT_RUN_MS, TOTAL_TIME_MS,"
            + " TOTAL_NUMBER, TOTAL_BYTES, MAX_NUMBER, MAX_BYTES, WINDOWS, WINDOW_NUMBER, WINDOW_BYTES, NODE_NAME,"
            + " NODE_INSTANCE, SESSION_ID, LEASE_UNTIL) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** 2023-11-14T22:13:20.123Z */
    private static final long START = Instant.parse("2023-11-14T22:13:20.123Z").toEpochMilli();
    /** 2024-03-10T02:30:00.250Z: its wall-clock time does not exist in New York (the spring-forward hour) */
    private static final long LAST_RUN = Instant.parse("2024-03-10T02:30:00.250Z").toEpochMilli();
    /** 2024-11-03T01:30:59.999Z: its wall-clock time happens twice in New York */
    private static final long CURRENT_START = Instant.parse("2024-11-03T01:30:59.999Z").toEpochMilli();
    /** 2038-01-19T03:14:08Z: past a 32-bit count of seconds */
    private static final long NEXT_RUN = Instant.parse("2038-01-19T03:14:08Z").toEpochMilli();
    /** the epoch's first day, one ms before midnight */
    private static final long LAST_ERROR = 86_399_999L;

    private long qid;
    private long otherQid;

    private void queuesAndSchedules() throws SQLException {
        admin.createQueueTable("PROP_QT", QueueTableProperties.create().multipleConsumers(true));
        admin.createQueue("PROP_Q", "PROP_QT", QueueProperties.create());
        admin.createQueueTable("OE.PROP_QT2", QueueTableProperties.create().multipleConsumers(true));
        admin.createQueue("OE.PROP_Q2", "OE.PROP_QT2", QueueProperties.create());
        qid = admin.queue("PROP_Q").qid();
        otherQid = admin.queue("OE.PROP_Q2").qid();
        try (Connection c = sql()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                // a busy schedule to a link: a window, disabled after failures, every instant known
                insert(ps, qid, "REMOTE_DB", START, 600L, "SYSDATE + 1/24", 30, 1, 3, LAST_ERROR,
                        "ORA-02068: following severe error from REMOTE_DB", LAST_RUN, CURRENT_START, NEXT_RUN,
                        12_345L, 7, 7_000, 4, 4_096, 2, 1, 100, "node-a", "aqueduct@host-a", "sess-1", NEXT_RUN);
                // a new schedule to this store: no window, nothing run, nothing propagated
                insert(ps, qid, "AQ$_LOCAL", 0L, null, null, 0, 0, 0, null, null, null, null, null,
                        0, 0, 0, 0, 0, 0, 0, 0, null, null, null, null);
                // another schema's
                insert(ps, otherQid, "REMOTE_DB", START, null, null, 60, 0, 0, null, null, null, null, null,
                        0, 0, 0, 0, 0, 0, 0, 0, null, null, null, null);
                ps.executeBatch();
            }
            c.commit();
        }
    }

    private static void insert(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
        ps.addBatch();
    }

    private static LocalDateTime utc(long ms) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC);
    }

    private static BigDecimal decimal(Object value) {
        assertThat(value).isInstanceOf(BigDecimal.class);
        return (BigDecimal) value;
    }

    private static double dbl(Map<String, Object> row, String column) {
        assertThat(row.get(column)).as(column).isInstanceOf(Number.class);
        return ((Number) row.get(column)).doubleValue();
    }

    @Test
    void dba_queue_schedules_has_exactly_the_columns_of_AQ() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM DBA_QUEUE_SCHEDULES")).containsExactlyElementsOf(DBA_COLUMNS);
    }

    @Test
    void user_queue_schedules_has_the_columns_of_dba_queue_schedules_without_SCHEMA() throws SQLException {
        assertThat(Sql.columns(this::sql, "SELECT * FROM USER_QUEUE_SCHEDULES"))
                .containsExactlyElementsOf(DBA_COLUMNS.subList(1, DBA_COLUMNS.size()));
    }

    @Test
    void a_schedule_that_ran_shows_its_instants_in_UTC_its_statistics_averages_and_last_error() throws SQLException {
        queuesAndSchedules();

        Map<String, Object> row = Sql.single(this::sql,
                "SELECT * FROM DBA_QUEUE_SCHEDULES WHERE QNAME = 'PROP_Q' AND DESTINATION = 'REMOTE_DB'");
        assertThat(row.get("SCHEMA")).isEqualTo("APP");
        assertThat(row.get("QNAME")).isEqualTo("PROP_Q");
        assertThat(row.get("DESTINATION")).isEqualTo("REMOTE_DB");
        assertThat(row.get("START_DATE")).isEqualTo(utc(START));
        assertThat(row.get("START_TIME")).isEqualTo("22:13:20");
        assertThat(Sql.num(row, "PROPAGATION_WINDOW")).isEqualTo(600);
        assertThat(row.get("NEXT_TIME")).isEqualTo("SYSDATE + 1/24");
        assertThat(Sql.num(row, "LATENCY")).isEqualTo(30);
        assertThat(row.get("SCHEDULE_DISABLED")).isEqualTo("Y");
        assertThat(row.get("PROCESS_NAME")).isEqualTo("node-a");
        assertThat(row.get("SESSION_ID")).isEqualTo("sess-1");
        assertThat(row.get("INSTANCE")).isEqualTo("aqueduct@host-a");
        assertThat(row.get("LAST_RUN_DATE")).isEqualTo(utc(LAST_RUN));
        assertThat(row.get("LAST_RUN_TIME")).isEqualTo("02:30:00");
        assertThat(row.get("CURRENT_START_DATE")).isEqualTo(utc(CURRENT_START));
        assertThat(row.get("CURRENT_START_TIME")).isEqualTo("01:30:59");
        assertThat(row.get("NEXT_RUN_DATE")).isEqualTo(utc(NEXT_RUN));
        assertThat(row.get("NEXT_RUN_TIME")).isEqualTo("03:14:08");
        assertThat(decimal(row.get("TOTAL_TIME"))).isEqualByComparingTo("12.345");
        assertThat(Sql.num(row, "TOTAL_NUMBER")).isEqualTo(7);
        assertThat(Sql.num(row, "TOTAL_BYTES")).isEqualTo(7_000);
        assertThat(Sql.num(row, "MAX_NUMBER")).isEqualTo(4);
        assertThat(Sql.num(row, "MAX_BYTES")).isEqualTo(4_096);
        assertThat(dbl(row, "AVG_NUMBER")).isEqualTo(3.5); // 7 messages in 2 windows
        assertThat(dbl(row, "AVG_SIZE")).isEqualTo(1_000.0);
        assertThat(dbl(row, "AVG_TIME")).isCloseTo(12.345 / 7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Sql.num(row, "FAILURES")).isEqualTo(3);
        assertThat(row.get("LAST_ERROR_DATE")).isEqualTo(LocalDateTime.of(1970, 1, 1, 23, 59, 59, 999_000_000));
        assertThat(row.get("LAST_ERROR_TIME")).isEqualTo("23:59:59");
        assertThat(row.get("LAST_ERROR_MSG")).isEqualTo("ORA-02068: following severe error from REMOTE_DB");
    }

    @Test
    void a_schedule_that_never_ran_shows_nulls_for_its_instants_and_zero_averages() throws SQLException {
        queuesAndSchedules();

        Map<String, Object> row = Sql.single(this::sql,
                "SELECT * FROM DBA_QUEUE_SCHEDULES WHERE QNAME = 'PROP_Q' AND DESTINATION = 'AQ$_LOCAL'");
        assertThat(row.get("SCHEMA")).isEqualTo("APP");
        assertThat(row.get("START_DATE")).isEqualTo(LocalDateTime.of(1970, 1, 1, 0, 0));
        assertThat(row.get("START_TIME")).isEqualTo("00:00:00");
        assertThat(row.get("PROPAGATION_WINDOW")).isNull();
        assertThat(row.get("NEXT_TIME")).isNull();
        assertThat(Sql.num(row, "LATENCY")).isZero();
        assertThat(row.get("SCHEDULE_DISABLED")).isEqualTo("N");
        for (String column : List.of("PROCESS_NAME", "SESSION_ID", "INSTANCE", "LAST_RUN_DATE", "LAST_RUN_TIME",
                "CURRENT_START_DATE", "CURRENT_START_TIME", "NEXT_RUN_DATE", "NEXT_RUN_TIME", "LAST_ERROR_DATE",
                "LAST_ERROR_TIME", "LAST_ERROR_MSG")) {
            assertThat(row.get(column)).as(column).isNull();
        }
        assertThat(decimal(row.get("TOTAL_TIME"))).isEqualByComparingTo("0");
        for (String column : List.of("TOTAL_NUMBER", "TOTAL_BYTES", "MAX_NUMBER", "MAX_BYTES", "FAILURES")) {
            assertThat(Sql.num(row, column)).as(column).isZero();
        }
        for (String column : List.of("AVG_NUMBER", "AVG_SIZE", "AVG_TIME")) {
            assertThat(dbl(row, column)).as(column).isZero();
        }
    }

    @Test
    void a_schedule_with_windows_but_no_message_averages_zero_per_message() throws SQLException {
        queuesAndSchedules();
        try (Connection c = sql(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE AQ_SCHEDULE SET WINDOWS = 3, TOTAL_TIME_MS = 1500 WHERE DESTINATION = 'AQ$_LOCAL'");
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }

        Map<String, Object> row = Sql.single(this::sql,
                "SELECT TOTAL_TIME, AVG_NUMBER, AVG_SIZE, AVG_TIME FROM DBA_QUEUE_SCHEDULES WHERE DESTINATION = 'AQ$_LOCAL'");
        assertThat(decimal(row.get("TOTAL_TIME"))).isEqualByComparingTo("1.5");
        assertThat(dbl(row, "AVG_NUMBER")).isZero();
        assertThat(dbl(row, "AVG_SIZE")).isZero();
        assertThat(dbl(row, "AVG_TIME")).isZero();
    }

    @Test
    void dba_queue_schedules_shows_every_schema_and_user_queue_schedules_only_the_current_one() throws SQLException {
        queuesAndSchedules();

        // SCHEMA is reserved on Derby and MariaDB (quoted there); PostgreSQL folds the unquoted name as its other columns
        String schema = TestStore.CURRENT.kind == TestStore.Kind.POSTGRES ? "SCHEMA" : "\"SCHEMA\"";
        assertThat(Sql.strings(this::sql, "SELECT " + schema + " || '.' || QNAME || '@' || DESTINATION FROM DBA_QUEUE_SCHEDULES"
                + " ORDER BY 1")).containsExactly("APP.PROP_Q@AQ$_LOCAL", "APP.PROP_Q@REMOTE_DB", "OE.PROP_Q2@REMOTE_DB");
        List<Map<String, Object>> mine = Sql.rows(this::sql, "SELECT * FROM USER_QUEUE_SCHEDULES ORDER BY DESTINATION");
        assertThat(mine).extracting(r -> r.get("QNAME") + "@" + r.get("DESTINATION"))
                .containsExactly("PROP_Q@AQ$_LOCAL", "PROP_Q@REMOTE_DB");
        // the same row as DBA_QUEUE_SCHEDULES shows, SCHEMA aside
        Map<String, Object> dba = Sql.single(this::sql,
                "SELECT * FROM DBA_QUEUE_SCHEDULES WHERE QNAME = 'PROP_Q' AND DESTINATION = 'REMOTE_DB'");
        dba.remove("SCHEMA");
        assertThat(mine.get(1)).isEqualTo(dba);

        try (Connection c = sql()) {
            if (TestStore.CURRENT.kind == TestStore.Kind.MARIADB) {
                c.setCatalog("OE"); // MariaDB's schemas are its databases
            } else {
                c.setSchema("OE");
            }
            try (ResultSet rs = c.createStatement().executeQuery(
                    "SELECT QNAME, DESTINATION FROM \"APP\".USER_QUEUE_SCHEDULES")) {
                List<String> names = new ArrayList<>();
                while (rs.next()) {
                    names.add(rs.getString(1) + "@" + rs.getString(2));
                }
                assertThat(names).containsExactly("PROP_Q2@REMOTE_DB");
            }
        }
    }

    @Test
    void dates_and_times_are_UTC_whatever_the_time_zone_of_the_jvm_and_the_session() throws SQLException {
        queuesAndSchedules();
        TimeZone before = TimeZone.getDefault();
        // Derby computes in this JVM; PostgreSQL's driver gives a new session the JVM's zone; MariaDB's is set below
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        try (Connection c = sql()) {
            if (TestStore.CURRENT.kind == TestStore.Kind.MARIADB) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET time_zone = 'America/New_York'");
                } catch (SQLException noZoneTables) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET time_zone = '-05:00'");
                    }
                }
            } else if (TestStore.CURRENT.kind == TestStore.Kind.POSTGRES) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET TIME ZONE 'America/New_York'");
                }
            }
            Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            try (ResultSet rs = c.createStatement().executeQuery("SELECT START_DATE, START_TIME, LAST_RUN_DATE, LAST_RUN_TIME,"
                    + " CURRENT_START_DATE, CURRENT_START_TIME, NEXT_RUN_DATE, NEXT_RUN_TIME, LAST_ERROR_DATE, LAST_ERROR_TIME"
                    + " FROM DBA_QUEUE_SCHEDULES WHERE QNAME = 'PROP_Q' AND DESTINATION = 'REMOTE_DB'")) {
                assertThat(rs.next()).isTrue();
                long[] expected = {START, LAST_RUN, CURRENT_START, NEXT_RUN, LAST_ERROR};
                String[] times = {"22:13:20", "02:30:00", "01:30:59", "03:14:08", "23:59:59"};
                for (int i = 0; i < expected.length; i++) {
                    Timestamp date = rs.getTimestamp(2 * i + 1, utc); // the UTC wall clock, read as UTC
                    assertThat(date.toInstant()).as("column %d", 2 * i + 1).isEqualTo(Instant.ofEpochMilli(expected[i]));
                    assertThat(rs.getString(2 * i + 2)).as("column %d", 2 * i + 2).isEqualTo(times[i]);
                }
            }
        } finally {
            TimeZone.setDefault(before);
        }
    }
}
