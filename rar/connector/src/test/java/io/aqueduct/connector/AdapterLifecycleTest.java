package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.Message;
import io.aqueduct.connector.inbound.AqActivationSpec;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's life as the container drives it: what it refuses before it is started, that a
 * stop and a second stop are harmless, and where its Derby store may be.
 */
class AdapterLifecycleTest {
    @TempDir
    Path dir;

    @Test
    void before_start_an_activation_is_refused_saying_the_adapter_is_not_started() throws ResourceException {
        AqResourceAdapter adapter = new AqResourceAdapter();
        AqActivationSpec spec = new AqActivationSpec();
        spec.setQueueName("ANY_Q");
        spec.setResourceAdapter(adapter);
        assertThatThrownBy(() -> adapter.endpointActivation(new TransactedEndpoints(m -> { }), spec))
                .isInstanceOf(ResourceException.class).hasMessageContaining("not started");
        assertThat(adapter.getXAResources(new ActivationSpec[0])).isEmpty();
        assertThat(adapter.getXAResources(null)).isEmpty();
        adapter.stop(); // a container may stop an adapter whose start failed
    }

    @Test
    void a_stopped_adapter_can_be_stopped_again_and_a_new_one_starts_on_the_same_store() throws Exception {
        RunningAdapter first = RunningAdapter.onDerby(dir, "table LC_QTAB payload=TEXT; queue LC_Q table=LC_QTAB");
        first.enqueue("LC_Q", List.of("kept"));
        first.close();
        first.adapter.stop();
        assertThatThrownBy(() -> first.adapter.engine()).isInstanceOf(ResourceException.class).hasMessageContaining("not started");

        try (RunningAdapter second = RunningAdapter.onDerby(dir, "table LC_QTAB payload=TEXT; queue LC_Q table=LC_QTAB")) {
            assertThat(second.browse("LC_Q")).extracting(Message::text).containsExactly("kept");
        }
    }

    @Test
    void the_store_directory_may_be_an_empty_directory_made_for_it() throws Exception {
        Path store = Files.createDirectories(dir.resolve("made-by-the-administrator"));
        RunningAdapter ra = RunningAdapter.onDerbyDirectory(store, "table LC_QTAB payload=TEXT; queue LC_Q table=LC_QTAB");
        try {
            ra.enqueue("LC_Q", List.of("stored"));
            assertThat(ra.browse("LC_Q")).extracting(Message::text).containsExactly("stored");
        } finally {
            ra.close();
        }
    }
}
