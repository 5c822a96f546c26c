package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The folding of V$AQ's counters (QueueStatCompaction) survives a broken connection: it logs, backs off, opens a
 * new connection and folds the deltas, losing and doubling none (a fold is one transaction).
 */
class QueueStatCompactionFaultTest extends EngineFixture {
    private static final String Q = "ORDERS_Q";
    private final BreakingStore breaking = new BreakingStore();

    @Override
    protected Dialect store(Dialect dialect) {
        return breaking.wrap(dialect);
    }

    @Test
    void the_folding_loop_resumes_after_its_connection_breaks_and_the_figures_stay_exact() {
        startedQueue(Q, "ORDERS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        breaking.breakStatementsContaining("MESSAGES, SINCE_SUM FROM AQ_QUEUE_STAT", 2); // the fold's read
        QueueSession s = session();
        for (int i = 0; i < 10; i++) {
            s.enqueue(Q, Message.of("m" + i));
            s.commit();
        }

        await().atMost(Duration.ofSeconds(10)).until(breaking::statementsBroken);
        await().atMost(Duration.ofSeconds(15)).until(() -> counterRows() == 1);
        assertThat(admin.queueStatistics(Q).ready()).isEqualTo(10);
    }

    private long counterRows() throws SQLException {
        try (Connection c = sql(); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM AQ_QUEUE_STAT")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
