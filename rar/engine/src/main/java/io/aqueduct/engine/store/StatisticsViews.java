package io.aqueduct.engine.store;

import io.aqueduct.api.MessageState;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * V$AQ and GV$AQ (schema 8), AQ's dynamic statistics views, written once for every database: per queue
 * (exception queues included) its messages WAITING, READY and EXPIRED, TOTAL_WAIT (seconds the READY ones
 * have waited, summed; DECIMAL, milliseconds exact) and AVERAGE_WAIT (DOUBLE; 0 without READY messages).
 * The figures are those of {@code QueueAdmin.queueStatistics()} ({@link QueueCounts}), counted from the
 * rows when the view is read: a READY message waits from ORDER_MS (its enqueue, a transaction group
 * member's head's) or the end of its DELAY. The store is the whole database (GV$AQ) and what every node
 * sees (V$AQ), so both views show the same rows. "Now" is the database's clock (the engine's is the
 * system clock in production); each database gives its epoch milliseconds its own way.
 */
final class StatisticsViews {
    static final String V = "V$AQ";
    static final String GV = "GV$AQ";
    static final List<String> COLUMNS = List.of("QID", "WAITING", "READY", "EXPIRED", "TOTAL_WAIT", "AVERAGE_WAIT");

    private StatisticsViews() {
    }

    /**
     * The column list and {@code AS SELECT} of V$AQ, appended to {@code CREATE [OR REPLACE] VIEW V$AQ}.
     * {@code nowMillis} is the database's current epoch milliseconds; {@code utcMillis} turns a UTC
     * TIMESTAMP column (DELAY) into epoch milliseconds; {@code doubleType} names DOUBLE in a CAST.
     */
    static String columnsAndSelect(String nowMillis, UnaryOperator<String> utcMillis, String doubleType) {
        int ready = MessageState.READY.code();
        String isReady = "M.STATE = " + ready;
        String wait = "CASE WHEN " + isReady + " THEN " + nowMillis + " - (CASE WHEN M.DELAY IS NULL THEN M.ORDER_MS ELSE "
                + utcMillis.apply("M.DELAY") + " END) END";
        String readyCount = "COUNT(CASE WHEN " + isReady + " THEN 1 END)";
        return " (" + String.join(", ", COLUMNS) + ") AS SELECT Q.QID,"
                + " COUNT(CASE WHEN M.STATE = " + MessageState.WAITING.code() + " THEN 1 END), " + readyCount + ","
                + " COUNT(CASE WHEN M.STATE = " + MessageState.EXPIRED.code() + " THEN 1 END),"
                + " CAST(COALESCE(SUM(" + wait + "), 0) * 0.001 AS DECIMAL(20, 3)),"
                + " CASE WHEN " + readyCount + " = 0 THEN CAST(0 AS " + doubleType + ") ELSE CAST(SUM(" + wait + ") AS "
                + doubleType + ") / 1000 / " + readyCount + " END"
                + " FROM AQ_QUEUE Q LEFT JOIN AQ_MESSAGE M ON M.QID = Q.QID GROUP BY Q.QID";
    }

    /** {@code AS SELECT} of GV$AQ: V$AQ's rows ({@code v} is V$AQ's name as the DDL writes it). */
    static String globalSelect(String v) {
        return " AS SELECT " + String.join(", ", COLUMNS) + " FROM " + v;
    }
}
