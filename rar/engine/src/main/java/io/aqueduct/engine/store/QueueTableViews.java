package io.aqueduct.engine.store;

import io.aqueduct.api.MessageState;

/**
 * The AQ$&lt;queue_table&gt; view, written once for every database: its columns and SELECT. A view's
 * DDL takes no parameters, so the state names are mapped to codes here, from {@link MessageState} and
 * {@link ConsumerStates}, never as numbers typed into the text.
 */
final class QueueTableViews {
    private QueueTableViews() {
    }

    /**
     * The view's column list and {@code AS SELECT ... WHERE M.QT_ID = <id>}, appended to
     * {@code CREATE [OR REPLACE] VIEW <name>}. {@code messages}, {@code queues}, {@code consumers}
     * name the store's tables AQ_MESSAGE, AQ_QUEUE, AQ_MESSAGE_CONSUMER as the view must (MariaDB
     * qualifies them with the store's database); {@code payload} is the expression of the message's
     * payload from {@code M.USER_DATA} and {@code M.USER_DATA_LOB}.
     */
    static String columnsAndSelect(boolean multipleConsumers, long queueTableId, String messages, String queues,
            String consumers, String payload) {
        String messageState = messageState("M.STATE");
        String columns = " (QUEUE, MSG_ID, CORR_ID, MSG_PRIORITY, MSG_STATE, DELAY, EXPIRATION, ENQ_TIME, ENQ_USER_ID,"
                + " ENQ_TXN_ID, DEQ_TIME, DEQ_USER_ID, DEQ_TXN_ID, RETRY_COUNT, EXCEPTION_QUEUE_OWNER, EXCEPTION_QUEUE, USER_DATA";
        String from = " FROM " + messages + " M JOIN " + queues + " Q ON M.QID = Q.QID";
        String select;
        if (multipleConsumers) {
            // one row per message and consumer: the consumer's state and dequeue history
            columns += ", CONSUMER_NAME, ADDRESS, PROTOCOL, ORIGINAL_MSGID, ORIGINAL_QUEUE_OWNER, ORIGINAL_QUEUE_NAME)";
            select = " AS SELECT Q.NAME, M.MSGID, M.CORRID, M.PRIORITY,"
                    + " CASE WHEN C.STATE = " + ConsumerStates.UNDELIVERABLE + " THEN 'UNDELIVERABLE'"
                    + " WHEN C.STATE IS NULL OR M.STATE <> " + MessageState.READY.code() + " THEN " + messageState
                    + " WHEN C.STATE = " + ConsumerStates.READY + " THEN 'READY'"
                    + " WHEN C.STATE = " + ConsumerStates.WAITING + " THEN 'WAITING'"
                    + " WHEN C.STATE = " + ConsumerStates.PROCESSED + " THEN 'PROCESSED'"
                    + " ELSE 'EXPIRED' END," // ConsumerStates.EXPIRED
                    + " M.DELAY, M.EXPIRATION, M.ENQ_TIME, M.ENQ_UID, M.ENQ_TID, C.DEQ_TIME, C.DEQ_UID, C.DEQ_TID,"
                    + " COALESCE(C.RETRY_COUNT, M.RETRY_COUNT), M.EXCEPTION_QSCHEMA, M.EXCEPTION_QUEUE, " + payload + ","
                    + " C.NAME, C.ADDRESS, C.PROTOCOL, M.ORIGINAL_MSGID, M.ORIGINAL_QSCHEMA, M.ORIGINAL_QUEUE"
                    + from + " LEFT JOIN " + consumers + " C ON C.MSGID = M.MSGID";
        } else {
            columns += ", ORIGINAL_MSGID, ORIGINAL_QUEUE_OWNER, ORIGINAL_QUEUE_NAME)";
            select = " AS SELECT Q.NAME, M.MSGID, M.CORRID, M.PRIORITY, " + messageState + ","
                    + " M.DELAY, M.EXPIRATION, M.ENQ_TIME, M.ENQ_UID, M.ENQ_TID, M.DEQ_TIME, M.DEQ_UID, M.DEQ_TID,"
                    + " M.RETRY_COUNT, M.EXCEPTION_QSCHEMA, M.EXCEPTION_QUEUE, " + payload + ", M.ORIGINAL_MSGID, M.ORIGINAL_QSCHEMA, M.ORIGINAL_QUEUE"
                    + from;
        }
        // the id is ours (a number): nothing user-typed is spliced in raw
        return columns + select + " WHERE M.QT_ID = " + queueTableId;
    }

    /** {@code CASE <column> WHEN <code> THEN '<name>' ... ELSE 'EXPIRED' END}, from {@link MessageState}. */
    static String messageState(String column) {
        StringBuilder sql = new StringBuilder("CASE ").append(column);
        for (MessageState s : MessageState.values()) {
            if (s != MessageState.EXPIRED) {
                sql.append(" WHEN ").append(s.code()).append(" THEN '").append(s.name()).append('\'');
            }
        }
        return sql.append(" ELSE '").append(MessageState.EXPIRED.name()).append("' END").toString();
    }
}
