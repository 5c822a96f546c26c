package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.api.AqError;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The heap running out in the middle of a call is AQ's 4030: the transaction is rolled back, the session goes on. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutOfMemoryTest extends EngineFixture {

    /** A payload whose serialization runs out of memory, as a huge one would. */
    static final class Huge implements Serializable {
        private void writeObject(ObjectOutputStream out) throws IOException {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void running_out_of_memory_in_an_enqueue_rolls_the_transaction_back_and_leaves_the_session_usable() {
        startedQueue("Q", "QT", QueueTableProperties.create().objectType(Serializable.class.getName()), QueueProperties.create());
        QueueSession s = session();
        s.enqueue("Q", Message.of("before"));

        expectError(AqError.OUT_OF_MEMORY, () -> s.enqueue("Q", Message.of(new Huge())));

        s.enqueue("Q", Message.of("after"));
        s.commit();
        assertThat(s.dequeue("Q", NO_WAIT).payload()).as("the message enqueued before, rolled back with its transaction")
                .isEqualTo("after");
        s.commit();
        assertNoMessage(s, "Q");
    }
}
