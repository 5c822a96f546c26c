package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.resource.spi.ResourceAdapterInternalException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an administrator reads in server.log when the adapter starts: which store it opened (new or
 * existing, what it holds), what the queue definitions created; and the refusal of a second adapter
 * on a Derby store directory the first one has open (the EAR's adapter and a standalone RAR in one
 * server both default to {@code <domain>/aqueduct/store}), naming the property to set.
 */
class AdapterStartTest {
    private static final String DEFINITIONS = """
            table OE.ORDERS_QTAB payload=JSON sort=priority,enq_time;
            queue OE.BOOKED_ORDERS table=OE.ORDERS_QTAB max_retries=4;
            queue OE.ORDERS_FAILED table=OE.ORDERS_QTAB type=exception
            """;

    @TempDir
    Path dir;
    private final List<String> info = new CopyOnWriteArrayList<>();
    private final Logger adapterLog = Logger.getLogger(AqResourceAdapter.class.getName());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().equals(Level.INFO)) {
                info.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        adapterLog.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        adapterLog.removeHandler(handler);
    }

    @Test
    void the_log_names_the_store_opened_and_what_the_definitions_created() throws Exception {
        Path store = dir.resolve("store");
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, DEFINITIONS)) {
            assertThat(ra.adapter.engine().admin().queues()).hasSize(3);
        }
        assertThat(info).startsWith(
                "Aqueduct opened the store (Derby) in " + store + " (new): 0 queue table(s), 0 queue(s)",
                "Aqueduct applied 3 queue definition(s): 1 queue table(s) and 3 queue(s) created now"
                        + ", the others existed",
                "Aqueduct started on the store (Derby) in " + store);

        info.clear();
        try (RunningAdapter again = RunningAdapter.onDerby(dir, DEFINITIONS)) {
            assertThat(again.adapter.engine().admin().queues()).hasSize(3);
        }
        assertThat(info).startsWith(
                "Aqueduct opened the store (Derby) in " + store + " (existing): 1 queue table(s), 3 queue(s)",
                "Aqueduct applied 3 queue definition(s): 0 queue table(s) and 0 queue(s) created now, the others existed");
    }

    @Test
    void without_definitions_the_log_says_so() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, "")) {
            assertThat(ra.adapter.engine().admin().queues()).isEmpty();
        }
        assertThat(info).contains("Aqueduct has no queue definitions (the queueDefinitions property and the system property"
                + " aqueduct.queueDefinitions are empty): it creates no queues");
    }

    @Test
    void the_default_store_directory_is_in_the_instance_root_unless_payara_micro_deletes_it_at_stop() {
        assertThat(AqResourceAdapter.defaultStorePath("/opt/payara6/glassfish/domains/domain1", "/home/aq"))
                .as("a Payara Server domain").isEqualTo(Path.of("/opt/payara6/glassfish/domains/domain1/aqueduct/store"));
        assertThat(AqResourceAdapter.defaultStorePath("/var/lib/micro-root", "/home/aq"))
                .as("Payara Micro --rootdir /var/lib/micro-root").isEqualTo(Path.of("/var/lib/micro-root/aqueduct/store"));
        assertThat(AqResourceAdapter.defaultStorePath("/tmp/payaramicro-rt3056639174823581945tmp", "/home/aq"))
                .as("Payara Micro without --rootdir").isEqualTo(Path.of("/home/aq/.aqueduct/store"));
        assertThat(AqResourceAdapter.defaultStorePath(null, "/home/aq"))
                .as("outside Payara").isEqualTo(Path.of("/home/aq/.aqueduct/store"));
    }

    @Test
    void a_second_adapter_on_the_same_derby_directory_is_refused_naming_the_property_and_the_first_keeps_working()
            throws Exception {
        try (RunningAdapter first = RunningAdapter.onDerby(dir, DEFINITIONS)) {
            assertThatThrownBy(() -> RunningAdapter.onDerby(dir, DEFINITIONS))
                    .isInstanceOf(ResourceAdapterInternalException.class)
                    .hasMessageContaining("is already open by another Aqueduct engine")
                    .hasMessageContaining("storeDirectory config property");
            assertThat(first.enqueue("OE.BOOKED_ORDERS", List.of("{\"order\": 1}"))).hasSize(1);
        }
        try (RunningAdapter own = RunningAdapter.onDerby(dir.resolve("second"), DEFINITIONS)) {
            assertThat(own.adapter.engine().admin().queues()).as("a directory of its own: it starts").hasSize(3);
        }
    }
}
