package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.store.Dialects;
import io.aqueduct.engine.time.ManualClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM dies with a prepared branch that took a message and enqueued a delayed one. The next engine
 * starts beside it at once; the branch's messages stay out of sight and the time manager does the
 * other due work, until the transaction manager commits or rolls the branch back through any session.
 */
class InDoubtBranchTest {
    private static final DequeueOptions NO_WAIT = DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT);

    @TempDir
    Path dir;
    private String store;
    private Process node;
    /** Starts at the real time: the dead node wrote its delays and heartbeats by the system clock. */
    private final ManualClock clock = new ManualClock(java.time.Instant.now());
    private AqueductEngine engine;

    private AqueductEngine open() {
        AqueductEngine.Builder b = AqueductEngine.builder().user("TM").clock(clock);
        if (TestStore.CURRENT.shared()) {
            b.dialect(Dialects.forJdbc(TestStore.CURRENT.settings())).defaultSchema("APP");
        } else {
            b.derbyDirectory(Path.of(store.substring("derby:".length())));
        }
        return b.start();
    }

    @BeforeEach
    void leaveABranchInDoubt() throws Exception {
        TestStore.CURRENT.assumeConfigured();
        if (TestStore.CURRENT.shared()) {
            TestStore.CURRENT.emptyStore();
            store = "shared";
        } else {
            store = "derby:" + dir.resolve("store");
        }
        try (AqueductEngine e = CrashRecoveryTest.engine(store); QueueSession s = e.openSession()) {
            e.admin().createQueueTable("QT", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            for (String q : List.of("SRC", "LATER", "OTHER")) {
                e.admin().createQueue(q, "QT", QueueProperties.create());
                e.admin().startQueue(q, true, true);
            }
            s.enqueue("SRC", Message.of("taken by the branch"));
            s.commit();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        System.getProperties().stringPropertyNames().stream().filter(n -> n.startsWith("aqueduct.test."))
                .forEach(n -> command.add("-D" + n + "=" + System.getProperty(n)));
        command.addAll(List.of(TwoPhaseNode.class.getName(), store, dir.resolve("unused.log").toString(), "hold"));
        node = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> said = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    said.add(line);
                }
            } catch (java.io.IOException e) {
                // killed
            }
        });
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(90)).until(() -> said.contains("PREPARED taken by the branch"));
        node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        engine = open();
    }

    @AfterEach
    void close() throws Exception {
        if (node != null && node.isAlive()) {
            node.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        if (engine != null) {
            try (EngineSession s = engine.openSession("TM")) {
                for (Xid x : inDoubt(s)) {
                    s.xaResource().rollback(x); // leave the shared store clean for the next test
                }
            }
            engine.close();
        }
    }

    private static List<Xid> inDoubt(EngineSession s) throws Exception {
        Xid[] xids = s.xaResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
        List<Xid> out = new ArrayList<>();
        for (Xid x : xids == null ? new Xid[0] : xids) {
            if (x.getFormatId() == TwoPhaseNode.FORMAT_ID) {
                out.add(x);
            }
        }
        return out;
    }

    /** While the branch is in doubt: its messages are invisible and other due work goes on. */
    private void whileInDoubt() {
        try (QueueSession s = engine.openSession()) {
            s.enqueue("OTHER", Message.of("due while the branch is in doubt", MessageProperties.create().delay(1)));
            s.commit();
            clock.advance(Duration.ofSeconds(30)); // the branch's delayed message is due too: it must not stall the rest
            await().atMost(Duration.ofSeconds(20)).ignoreException(AqException.class).untilAsserted(() -> {
                assertThat(s.dequeue("OTHER", NO_WAIT).text()).isEqualTo("due while the branch is in doubt");
                s.commit();
            });
            assertThatThrownBy(() -> s.dequeue("SRC", NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE));
            assertThatThrownBy(() -> s.dequeue("LATER", NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE));
            s.rollback();
        }
    }

    @Test
    void committing_the_recovered_branch_consumes_what_it_took_and_delivers_what_it_enqueued() throws Exception {
        whileInDoubt();
        if (!TestStore.CURRENT.shared()) { // Derby knows the branch's messages from its journal at start
            assertThat(engine.inDoubtMessages()).as("the messages the branch holds").hasSize(2);
        }
        try (EngineSession tm = engine.openSession("TM")) {
            List<Xid> xids = inDoubt(tm);
            assertThat(xids).hasSize(1);
            tm.xaResource().commit(xids.get(0), false);
            assertThat(inDoubt(tm)).isEmpty();
        }
        assertThat(engine.inDoubtMessages()).as("nothing held once the branch is committed").isEmpty();
        clock.advance(Duration.ofSeconds(10));
        try (QueueSession s = engine.openSession()) {
            await().atMost(Duration.ofSeconds(20)).ignoreException(AqException.class).untilAsserted(() -> {
                assertThat(s.dequeue("LATER", NO_WAIT).text()).isEqualTo("from the branch");
                s.commit();
            });
            assertThatThrownBy(() -> s.dequeue("SRC", NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE));
        }
    }

    @Test
    void rolling_the_recovered_branch_back_returns_what_it_took_with_the_attempt_counted() throws Exception {
        whileInDoubt();
        try (EngineSession tm = engine.openSession("TM")) {
            List<Xid> xids = inDoubt(tm);
            assertThat(xids).hasSize(1);
            tm.xaResource().rollback(xids.get(0));
            assertThat(inDoubt(tm)).isEmpty();
        }
        clock.advance(Duration.ofSeconds(10)); // a shared store counts the dead node's attempt once its heartbeat is old
        try (QueueSession s = engine.openSession()) {
            await().atMost(Duration.ofSeconds(30)).ignoreException(AqException.class).untilAsserted(() -> {
                clock.advance(Duration.ofSeconds(1));
                Message m = s.dequeue("SRC", NO_WAIT);
                try {
                    assertThat(m.text()).isEqualTo("taken by the branch");
                    assertThat(m.properties().attempts()).isEqualTo(1);
                } finally {
                    s.rollback();
                }
            });
            assertThatThrownBy(() -> s.dequeue("LATER", NO_WAIT)).isInstanceOfSatisfying(AqException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(AqError.NO_MESSAGE));
        }
    }
}
