package io.aqueduct.engine.store;

import io.aqueduct.api.MessageState;
import java.util.function.UnaryOperator;

/**
 * V$AQ's counters: per queue and message state (WAITING, READY, EXPIRED) the number of messages and the sum of
 * the instants (epoch ms) they became available, in {@code AQ_QUEUE_STAT}. Triggers on {@code AQ_MESSAGE} keep
 * them in the transaction that changes the rows, whatever changes them (enqueue, dequeue, time manager, retry
 * accounting, exception queues, propagation, administration, recovery): they commit and roll back with it, so a
 * killed node leaves nothing to reconcile, and a poll reads a few rows per queue whatever the depth. A trigger on
 * {@code AQ_QUEUE} makes a queue's rows with it and drops them with it. TOTAL_WAIT at an instant t is
 * {@code MESSAGES * t - SINCE_SUM} of the READY row.
 */
final class QueueStatCounters {
    static final String TABLE = "AQ_QUEUE_STAT";
    /** The states counted: a row each per queue. */
    static final int[] STATES = {MessageState.READY.code(), MessageState.WAITING.code(), MessageState.EXPIRED.code()};

    private QueueStatCounters() {
    }

    /**
     * The table; {@code idColumn} is the dialect's generated key. Rows are only ever inserted by the triggers (a delta
     * each), never updated: so that concurrent transactions never wait for one another's counts. The key lets the
     * compaction ({@link QueueStatCompaction}) delete exactly the deltas it folded.
     */
    static String createTable(String idColumn, String tableOptions) {
        return "CREATE TABLE " + TABLE + " (ID " + idColumn + ", QID BIGINT NOT NULL, STATE INT NOT NULL,"
                + " MESSAGES BIGINT NOT NULL, SINCE_SUM BIGINT NOT NULL)" + tableOptions;
    }

    /** When the message of a row (NEW, OLD, M...) became available: the end of its delay, else ORDER_MS. */
    static String since(String row, UnaryOperator<String> epochMillisOfTimestamp) {
        return "CASE WHEN " + row + ".DELAY IS NULL THEN " + row + ".ORDER_MS ELSE "
                + epochMillisOfTimestamp.apply(row + ".DELAY") + " END";
    }

    /** The triggered statement of an insert (sign +) or delete (sign -) of a message row: a delta row. */
    static String apply(String row, char sign, UnaryOperator<String> epochMillisOfTimestamp) {
        return "INSERT INTO " + TABLE + " (QID, STATE, MESSAGES, SINCE_SUM) VALUES (" + row + ".QID, " + row + ".STATE, "
                + sign + "1, " + sign + "(" + since(row, epochMillisOfTimestamp) + "))";
    }

    /** Did an update change what a message row counts in (its queue, state or availability)? */
    static String changed(String oldRow, String newRow) {
        return oldRow + ".QID <> " + newRow + ".QID OR " + oldRow + ".STATE <> " + newRow + ".STATE OR " + oldRow
                + ".ORDER_MS <> " + newRow + ".ORDER_MS OR " + oldRow + ".DELAY IS NULL AND " + newRow + ".DELAY IS NOT NULL OR "
                + oldRow + ".DELAY IS NOT NULL AND " + newRow + ".DELAY IS NULL OR " + oldRow + ".DELAY <> " + newRow + ".DELAY";
    }

    /** The triggered statement of a dropped queue. */
    static String dropQueue(String row) {
        return "DELETE FROM " + TABLE + " WHERE QID = " + row + ".QID";
    }

    /**
     * Brings the counters to a count of the rows (a store's first schema 8, or a repair): the missing rows of every
     * queue, then every row's figures. Run after the triggers exist, in their transaction or with the schema lock.
     */
    static String[] recount(UnaryOperator<String> epochMillisOfTimestamp) {
        return new String[] {"DELETE FROM " + TABLE, "INSERT INTO " + TABLE + " (QID, STATE, MESSAGES, SINCE_SUM)"
                + " SELECT M.QID, M.STATE, COUNT(*), SUM(" + since("M", epochMillisOfTimestamp) + ") FROM AQ_MESSAGE M"
                + " GROUP BY M.QID, M.STATE"};
    }
}
