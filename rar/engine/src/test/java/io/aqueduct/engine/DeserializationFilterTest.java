package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.deser.Envelope;
import io.aqueduct.engine.deser.Note;
import io.aqueduct.engine.gadget.Gadget;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OBJECT payloads are read back through a deserialization filter: the queue table's type, its
 * package and the JDK's value classes are allowed; a class from elsewhere (a gadget hidden in a
 * field) is refused before its code runs, unless the engine's filter allows it.
 */
class DeserializationFilterTest extends EngineFixture {

    private void envelopes() {
        admin.createQueueTable("QT", QueueTableProperties.create().objectType(Envelope.class.getName()));
        admin.createQueue("Q", "QT", QueueProperties.create());
        admin.startQueue("Q", true, true);
    }

    @Test
    void the_object_type_its_package_and_jdk_values_are_read_back() {
        envelopes();
        QueueSession s = session();
        List<Object> values = new ArrayList<>(List.of(new Note("hello"), 42, java.time.Instant.EPOCH, new java.math.BigDecimal("1.5")));
        s.enqueue("Q", Message.of(new Envelope("mixed", (java.io.Serializable) values)));
        s.commit();
        Envelope back = (Envelope) s.dequeue("Q", NO_WAIT).payload();
        assertThat(back.label()).isEqualTo("mixed");
        assertThat(back.attachment()).isEqualTo(values);
    }

    @Test
    void a_class_from_another_package_is_refused_before_its_code_runs_and_the_message_stays() throws Exception {
        envelopes();
        QueueSession s = session();
        s.enqueue("Q", Message.of(new Envelope("gadget", new Gadget())));
        s.commit();
        int ranBefore = Gadget.RAN.get();

        assertThatThrownBy(() -> s.dequeue("Q", NO_WAIT)).isInstanceOfSatisfying(AqException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(AqError.PAYLOAD_TYPE_MISMATCH);
            assertThat(e.getMessage()).contains("deserialization filter", Envelope.class.getName());
        });
        s.rollback();
        assertThat(Gadget.RAN.get()).as("the gadget's readObject never ran").isEqualTo(ranBefore);
        assertThat(viewCount("QT")).as("the message is still there for an administrator").isEqualTo(1);
    }

    @Test
    void the_engines_filter_allows_what_an_application_needs() {
        try (AqueductEngine open = AqueductEngine.builder().derbyInMemory(databaseName + "_filtered").clock(clock)
                .deserializationFilter("io.aqueduct.engine.gadget.*").start(); QueueSession s = open.openSession()) {
            open.admin().createQueueTable("QT", QueueTableProperties.create().objectType(Envelope.class.getName()));
            open.admin().createQueue("Q", "QT", QueueProperties.create());
            open.admin().startQueue("Q", true, true);
            s.enqueue("Q", Message.of(new Envelope("allowed", new Gadget())));
            s.commit();
            assertThat(((Envelope) s.dequeue("Q", NO_WAIT).payload()).attachment()).isInstanceOf(Gadget.class);
            s.commit();
        }
    }

    @Test
    void a_malformed_filter_is_refused_when_the_engine_is_built() {
        assertThatThrownBy(() -> AqueductEngine.builder().deserializationFilter("maxdepth=abc"))
                .isInstanceOfSatisfying(AqException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE);
                    assertThat(e.getMessage()).contains("Invalid deserialization filter");
                });
    }
}
