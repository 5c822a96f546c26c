package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import org.junit.jupiter.api.Test;

class SmokeTest extends EngineFixture {
    @Test
    void a_committed_message_is_dequeued() {
        startedQueue("Q1", "QT1", QueueTableProperties.create().payloadType(PayloadType.TEXT), QueueProperties.create());
        QueueSession s = session();
        MessageId id = s.enqueue("Q1", Message.of("hello"));
        s.commit();
        Message m = s.dequeue("Q1", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
        s.commit();
        assertThat(m.id()).isEqualTo(id);
        assertThat(m.text()).isEqualTo("hello");
    }
}
