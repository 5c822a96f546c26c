package io.aqueduct.engine.store;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * DBA_QUEUE_SCHEDULES and USER_QUEUE_SCHEDULES (schema 4), written once for every database: their
 * columns and SELECT over {@code AQ_SCHEDULE} and {@code AQ_QUEUE}. The store keeps instants as epoch
 * milliseconds; each database turns them into a UTC TIMESTAMP and an 'HH:MM:SS' UTC time of day its
 * own way (given here as {@code timestamp} and {@code timeOfDay}), never through the session's time
 * zone. TOTAL_TIME is DECIMAL seconds (milliseconds exact); AVG_NUMBER, AVG_SIZE and AVG_TIME are
 * DOUBLE, 0 when nothing was propagated.
 */
final class QueueScheduleViews {
    /** DBA_QUEUE_SCHEDULES' columns, in order; USER_QUEUE_SCHEDULES has all but the first (SCHEMA). */
    static final List<String> COLUMNS = List.of("SCHEMA", "QNAME", "DESTINATION", "START_DATE", "START_TIME",
            "PROPAGATION_WINDOW", "NEXT_TIME", "LATENCY", "SCHEDULE_DISABLED", "PROCESS_NAME", "SESSION_ID", "INSTANCE",
            "LAST_RUN_DATE", "LAST_RUN_TIME", "CURRENT_START_DATE", "CURRENT_START_TIME", "NEXT_RUN_DATE", "NEXT_RUN_TIME",
            "TOTAL_TIME", "TOTAL_NUMBER", "TOTAL_BYTES", "MAX_NUMBER", "MAX_BYTES", "AVG_NUMBER", "AVG_SIZE", "AVG_TIME",
            "FAILURES", "LAST_ERROR_DATE", "LAST_ERROR_TIME", "LAST_ERROR_MSG");

    static final String DBA = "DBA_QUEUE_SCHEDULES";
    static final String USER = "USER_QUEUE_SCHEDULES";

    private QueueScheduleViews() {
    }

    /**
     * The column list and {@code AS SELECT} of DBA_QUEUE_SCHEDULES, appended to
     * {@code CREATE [OR REPLACE] VIEW DBA_QUEUE_SCHEDULES}. {@code quote} quotes an identifier (SCHEMA
     * is a reserved word on Derby and MariaDB); {@code timestamp} / {@code timeOfDay} turn an epoch-ms
     * expression (NULL stays NULL) into a UTC TIMESTAMP / an 'HH:MM:SS' string; {@code doubleType} is
     * the database's name of DOUBLE in a CAST.
     */
    static String dbaColumnsAndSelect(UnaryOperator<String> quote, UnaryOperator<String> timestamp,
            UnaryOperator<String> timeOfDay, String doubleType) {
        String columns = " (" + quote.apply("SCHEMA") + ", " + String.join(", ", COLUMNS.subList(1, COLUMNS.size())) + ")";
        String dbl = "CAST(%s AS " + doubleType + ")";
        return columns + " AS SELECT Q.OWNER, Q.NAME, S.DESTINATION,"
                + " " + timestamp.apply("S.START_MS") + ", " + timeOfDay.apply("S.START_MS") + ","
                + " S.DURATION, S.NEXT_TIME, S.LATENCY, CASE WHEN S.DISABLED = 1 THEN 'Y' ELSE 'N' END,"
                + " S.NODE_NAME, S.SESSION_ID, S.NODE_INSTANCE,"
                + " " + timestamp.apply("S.LAST_RUN_MS") + ", " + timeOfDay.apply("S.LAST_RUN_MS") + ","
                + " " + timestamp.apply("S.CURRENT_START_MS") + ", " + timeOfDay.apply("S.CURRENT_START_MS") + ","
                + " " + timestamp.apply("S.NEXT_RUN_MS") + ", " + timeOfDay.apply("S.NEXT_RUN_MS") + ","
                + " CAST(S.TOTAL_TIME_MS * 0.001 AS DECIMAL(20, 3)),"
                + " S.TOTAL_NUMBER, S.TOTAL_BYTES, S.MAX_NUMBER, S.MAX_BYTES,"
                + " CASE WHEN S.WINDOWS = 0 THEN " + dbl.formatted("0") + " ELSE "
                + dbl.formatted("S.TOTAL_NUMBER") + " / S.WINDOWS END,"
                + " CASE WHEN S.TOTAL_NUMBER = 0 THEN " + dbl.formatted("0") + " ELSE "
                + dbl.formatted("S.TOTAL_BYTES") + " / S.TOTAL_NUMBER END,"
                + " CASE WHEN S.TOTAL_NUMBER = 0 THEN " + dbl.formatted("0") + " ELSE "
                + dbl.formatted("S.TOTAL_TIME_MS") + " / 1000 / S.TOTAL_NUMBER END,"
                + " S.FAILURES, " + timestamp.apply("S.LAST_ERROR_MS") + ", " + timeOfDay.apply("S.LAST_ERROR_MS") + ","
                + " S.LAST_ERROR_MSG"
                + " FROM AQ_SCHEDULE S JOIN AQ_QUEUE Q ON S.QID = Q.QID";
    }

    /**
     * {@code AS SELECT} of USER_QUEUE_SCHEDULES: DBA_QUEUE_SCHEDULES of the schema {@code currentSchema}
     * (the connected user's, as USER_QUEUES), without SCHEMA.
     */
    static String userSelect(UnaryOperator<String> quote, String currentSchema) {
        return " AS SELECT " + String.join(", ", COLUMNS.subList(1, COLUMNS.size())) + " FROM " + DBA + " WHERE "
                + quote.apply("SCHEMA") + " = " + currentSchema;
    }
}
