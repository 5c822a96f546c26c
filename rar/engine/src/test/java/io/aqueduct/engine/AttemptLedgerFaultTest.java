package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.store.Dialect;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A shared store's attempt ledger: the connection breaks after the server wrote a dequeue's attempt
 * record and before the engine heard so. The dequeue fails and its transaction is rolled back; the
 * record, which the engine cannot know is there, must not hide the message for as long as the node lives.
 */
class AttemptLedgerFaultTest extends EngineFixture {
    private static final String Q = "JOBS_Q";
    private final BreakingStore breaking = new BreakingStore();

    @Override
    protected Dialect store(Dialect dialect) {
        return breaking.wrap(dialect);
    }

    @BeforeEach
    void queue() {
        Assumptions.assumeTrue(sharedStore(), "the attempt ledger is a shared store's (Derby journals attempts in memory)");
        startedQueue(Q, "JOBS_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        s.enqueue(Q, Message.of("job"));
        s.commit();
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void a_message_whose_attempt_record_was_written_as_the_connection_broke_comes_back_uncounted() {
        breaking.breakAfterStatementContaining("INSERT INTO AQ_ATTEMPT");
        try (QueueSession s = engine.openSession()) {
            assertThatThrownBy(() -> s.dequeue(Q, noWait())).isInstanceOf(AqException.class)
                    .hasMessageContaining("could not put its attempt on record");
        }
        assertThat(breaking.statementsBroken()).isTrue();

        try (QueueSession s = engine.openSession()) {
            Message m = s.dequeue(Q, DequeueOptions.create().waitSeconds(10));
            assertThat(m.text()).isEqualTo("job");
            assertThat(m.properties().attempts()).as("the caller never had it: no attempt of theirs").isZero();
            s.commit();
        }
    }
}
