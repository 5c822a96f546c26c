package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqNotification;
import io.aqueduct.api.NotificationQos;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.Registration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RELIABLE notification outlives a killed JVM: it is a row of the enqueue's transaction, and the
 * next engine on the store delivers it once its listener is bound. Derby directory or the shared store.
 */
class NotificationsCrashTest {
    static final String Q = "CRASH_NTFN_Q";

    @TempDir
    Path dir;
    private Process node;

    @AfterEach
    void killNode() throws InterruptedException {
        if (node != null && node.isAlive()) {
            node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_reliable_notification_written_before_a_kill_is_delivered_once_by_the_next_engine() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        String store;
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
            store = "shared";
        } else {
            store = "derby:" + dir.resolve("store");
        }
        try (AqueductEngine engine = CrashRecoveryTest.engine(store); QueueSession s = engine.openSession()) {
            engine.admin().createQueueTable("CRASH_NTFN_QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            engine.admin().createQueue(Q, "CRASH_NTFN_QT", QueueProperties.create());
            engine.admin().startQueue(Q, true, true);
            s.register(Registration.forQueue(Q).notifyUrl("java:audit").qos(NotificationQos.RELIABLE));
        }

        Path marker = dir.resolve("enqueued");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.add(NotificationNode.class.getName());
        command.addAll(List.of(store, marker.toString()));
        node = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        await("the node enqueued").atMost(Duration.ofSeconds(90)).until(() -> Files.exists(marker) || !node.isAlive());
        assertThat(node.isAlive()).as("the node runs until it is killed").isTrue();
        String id = Files.readString(marker);
        node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

        try (AqueductEngine engine = CrashRecoveryTest.engine(store)) {
            assertThat(engine.admin().registrations()).singleElement().satisfies(r -> assertThat(r.pending()).isEqualTo(1));
            List<AqNotification> received = new CopyOnWriteArrayList<>();
            engine.bindNotificationListener("audit", received::add);

            await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 1);
            assertThat(received.get(0).messageId().toString()).isEqualTo(id);
            await().atMost(Duration.ofSeconds(5)).until(() -> engine.admin().registrations().get(0).pending() == 0);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> received.size() == 1);
            assertThat(engine.admin().registrations().get(0).delivered()).isEqualTo(1);
        }
    }
}
