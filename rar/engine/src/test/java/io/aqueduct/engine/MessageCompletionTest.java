package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.Agent;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SortOrder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A multi-consumer message whose last consumer committed is completed (removed, retention 0) by the
 * time manager's next run, however many completions wait: more than one batch of them loses none.
 */
class MessageCompletionTest extends MultiConsumerFixture {
    private static final String Q = "DONE_Q";
    private static final String QT = "DONE_QT";

    @Override
    protected boolean backgroundLoops() {
        return false; // the completions wait for the one run the test makes
    }

    @Test
    void more_than_a_batch_of_finished_messages_are_all_completed_by_one_run() throws SQLException {
        multiConsumerQueue(Q, QT, PayloadType.TEXT, SortOrder.ENQ_TIME, QueueProperties.create());
        admin.addSubscriber(Q, Agent.named("ONLY"), null);
        QueueSession s = session();
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 450; i++) {
            messages.add(Message.of("m-" + i));
        }
        s.enqueueArray(Q, EnqueueOptions.create(), messages);
        s.commit();
        assertThat(drain(s, Q, "ONLY")).hasSize(450);
        s.commit();

        engine.timeManager().runDue();

        assertThat(viewCount(QT)).as("messages left in the queue table").isZero();
    }
}
