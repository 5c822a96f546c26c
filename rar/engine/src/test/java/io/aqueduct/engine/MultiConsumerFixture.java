package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.api.SubscriberInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;

/**
 * Helpers for multi-consumer queues: the per-consumer rows of the AQ$ view read with plain SQL,
 * "drain what this consumer can get", and a snapshot of everything a refused call must not change.
 */
abstract class MultiConsumerFixture extends EngineFixture {

    /** Creates a started multi-consumer queue in a queue table of its own. */
    protected void multiConsumerQueue(String queue, String queueTable, PayloadType payload, SortOrder sort,
            QueueProperties props) {
        startedQueue(queue, queueTable, QueueTableProperties.create().payloadType(payload).sortOrder(sort)
                .multipleConsumers(true), props);
    }

    protected static DequeueOptions as(String consumer) {
        return FIRST_NO_WAIT.copy().consumerName(consumer);
    }

    /** REMOVEs (and commits) everything the consumer can get now; the texts in the order received. */
    protected static List<String> drain(QueueSession s, String queue, String consumer) {
        return drain(s, queue, as(consumer));
    }

    protected static List<String> drain(QueueSession s, String queue, DequeueOptions options) {
        List<String> out = new ArrayList<>();
        while (true) {
            try {
                out.add(s.dequeue(queue, options).text());
                s.commit();
            } catch (AqException e) {
                assertThat(e.errorCode()).as("dequeue ended with: %s", e.getMessage()).isEqualTo(AqError.NO_MESSAGE);
                s.rollback();
                return out;
            }
            assertThat(out.size()).as("drain of %s runs away", queue).isLessThan(100_000);
        }
    }

    /** The consumer cannot dequeue anything from the queue now (25228). */
    protected static void assertNothingFor(QueueSession s, String queue, String consumer) {
        expectError(AqError.NO_MESSAGE, () -> s.dequeue(queue, as(consumer)));
    }

    // ------------------------------------------------------------------ the AQ$ view, with plain SQL

    /** The connection of {@link #query}, opened at its first use, closed after the test (before its store goes). */
    private Connection reader;

    /**
     * A plain SQL query, READ UNCOMMITTED: a transaction a test keeps open neither blocks it nor
     * hides what it wrote. The test's queries share one connection (autocommit: each reads the store
     * as it is then): a snapshot per call of a fuzz test would otherwise open thousands.
     */
    protected List<Map<String, Object>> query(String sqlText, Object... args) throws SQLException {
        if (reader == null) {
            reader = sql();
            reader.setAutoCommit(true);
            reader.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        }
        return query(reader, sqlText, args);
    }

    @AfterEach
    void closeReader() throws SQLException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }

    private static List<Map<String, Object>> query(Connection c, String sqlText, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sqlText)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<Map<String, Object>> out = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        Object v = rs.getObject(i);
                        row.put(md.getColumnLabel(i).toUpperCase(java.util.Locale.ROOT), v instanceof String str ? str.trim() : v);
                    }
                    out.add(row);
                }
                return out;
            }
        }
    }

    private static final String CONSUMER_COLUMNS = "QUEUE, MSG_ID, CORR_ID, MSG_STATE, CONSUMER_NAME, ADDRESS, PROTOCOL,"
            + " RETRY_COUNT, DEQ_TIME, DEQ_USER_ID, DEQ_TXN_ID, ORIGINAL_QUEUE_OWNER, ORIGINAL_QUEUE_NAME";

    /** The rows of a message in AQ$&lt;queueTable&gt; (one per consumer), by consumer name. */
    protected Map<String, Map<String, Object>> consumerRows(String queueTable, MessageId id) throws SQLException {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        for (Map<String, Object> row : query("SELECT " + CONSUMER_COLUMNS + " FROM \"APP\".\"AQ$" + queueTable
                + "\" WHERE MSG_ID = ?", id.toString())) {
            Object prior = out.put(String.valueOf(row.get("CONSUMER_NAME")), row);
            assertThat(prior).as("two AQ$ rows of message %s for consumer %s", id, row.get("CONSUMER_NAME")).isNull();
        }
        return out;
    }

    /** Consumer name → MSG_STATE of a message in AQ$&lt;queueTable&gt;. */
    protected Map<String, String> statesByConsumer(String queueTable, MessageId id) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        consumerRows(queueTable, id).forEach((k, v) -> out.put(k, (String) v.get("MSG_STATE")));
        return out;
    }

    /** The distinct queues the view shows a message in. */
    protected List<String> queuesOf(String queueTable, MessageId id) throws SQLException {
        return query("SELECT DISTINCT QUEUE FROM \"APP\".\"AQ$" + queueTable + "\" WHERE MSG_ID = ?", id.toString())
                .stream().map(r -> (String) r.get("QUEUE")).toList();
    }

    protected int distinctMessages(String queueTable) throws SQLException {
        return ((Number) query("SELECT COUNT(DISTINCT MSG_ID) AS N FROM \"APP\".\"AQ$" + queueTable + "\"").get(0).get("N"))
                .intValue();
    }

    /**
     * What a refused call must leave as it was: the subscribers of the queues (API and store), and
     * every row of the AQ$ views of the given queue tables.
     */
    protected List<String> storeSnapshot(List<String> queues, List<String> queueTables) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String q : queues) {
            for (SubscriberInfo s : admin.subscribers(q)) {
                out.add("subscriber of " + q + ": " + s);
            }
        }
        for (Map<String, Object> r : query("SELECT QID, CONSUMER, NAME, ADDRESS, PROTOCOL, RULE_TEXT, RULE_SYNTAX FROM AQ_SUBSCRIBER")) {
            out.add("stored subscriber " + r);
        }
        for (String qt : queueTables) {
            for (Map<String, Object> r : query("SELECT * FROM \"APP\".\"AQ$" + qt + "\"")) {
                r.remove("USER_DATA");
                out.add("AQ$" + qt + " " + r);
            }
        }
        out.sort(null);
        return out;
    }
}
