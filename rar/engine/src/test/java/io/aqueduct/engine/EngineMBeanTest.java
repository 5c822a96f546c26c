package io.aqueduct.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.aqueduct.engine.store.Dialect;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The engine's health as JMX shows it: whether its store answers and whether its supervised loops live,
 * through an outage of the store and after it.
 */
class EngineMBeanTest extends EngineFixture {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final BreakingStore breaking = new BreakingStore();

    @Override
    protected Dialect store(Dialect dialect) {
        return breaking.wrap(dialect);
    }

    private ObjectName engineBean() throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName("io.aqueduct:type=Engine,*"), null);
        assertThat(names).hasSize(1); // the engines of earlier tests have closed
        return names.iterator().next();
    }

    private boolean attribute(ObjectName name, String attribute) throws Exception {
        return (Boolean) server.getAttribute(name, attribute);
    }

    @Test
    void the_engine_says_its_store_answers_and_its_loops_run_through_an_outage_of_the_store() throws Exception {
        ObjectName name = engineBean();
        assertThat(name.getKeyProperty("node")).isEqualTo(engine.propagator().nodeName());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(attribute(name, "TimeManagerAlive")).isTrue();
            assertThat(attribute(name, "PropagationAlive")).isTrue();
        });
        assertThat(attribute(name, "StoreReachable")).isTrue();
        assertThat(attribute(name, "TimeManagerFailing")).isFalse();

        breaking.serverDown(true);
        assertThat(attribute(name, "StoreReachable")).isFalse();
        engine.timeManager().wake(); // its next round meets the outage
        await().atMost(Duration.ofSeconds(10)).until(() -> attribute(name, "TimeManagerFailing"));
        assertThat(attribute(name, "TimeManagerAlive")).as("a failing loop lives on").isTrue();

        breaking.serverDown(false);
        assertThat(attribute(name, "StoreReachable")).isTrue();
        engine.timeManager().wake();
        await().atMost(Duration.ofSeconds(10)).until(() -> !attribute(name, "TimeManagerFailing"));

        engine.close();
        assertThat(server.queryNames(new ObjectName("io.aqueduct:type=Engine,*"), null)).isEmpty();
    }
}
