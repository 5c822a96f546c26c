package io.aqueduct.engine.store;

import java.util.function.UnaryOperator;

/**
 * DBA_SUBSCR_REGISTRATIONS (schema 6): the notification registrations, written once for every database
 * over {@code AQ_REGISTRATION}, {@code AQ_QUEUE} and the pending RELIABLE notifications of
 * {@code AQ_NOTIFICATION}. Instants are kept as epoch ms and shown as UTC TIMESTAMPs ({@code timestamp}).
 */
final class RegistrationViews {
    static final String DBA = "DBA_SUBSCR_REGISTRATIONS";

    private RegistrationViews() {
    }

    /** The column list and {@code AS SELECT}, appended to {@code CREATE [OR REPLACE] VIEW DBA_SUBSCR_REGISTRATIONS}. */
    static String columnsAndSelect(UnaryOperator<String> timestamp) {
        return " (REG_ID, QUEUE_OWNER, QUEUE_NAME, CONSUMER_NAME, LOCATION_NAME, QOSFLAGS, TIMEOUT, REG_USER, REG_TIME,"
                + " EXPIRES, NUM_NTFNS, NUM_FAILED, NUM_PENDING, LAST_ERROR_TIME, LAST_ERROR_MSG)"
                + " AS SELECT R.REG_ID, Q.OWNER, Q.NAME, R.CONSUMER, R.URL, R.QOS, R.TIMEOUT_S, R.REG_USER,"
                + " " + timestamp.apply("R.CREATED_MS") + ", " + timestamp.apply("R.EXPIRES_MS") + ","
                + " R.DELIVERED, R.FAILED, (SELECT COUNT(*) FROM AQ_NOTIFICATION N WHERE N.REG_ID = R.REG_ID),"
                + " " + timestamp.apply("R.LAST_ERROR_MS") + ", R.LAST_ERROR_MSG"
                + " FROM AQ_REGISTRATION R JOIN AQ_QUEUE Q ON R.QID = Q.QID";
    }
}
