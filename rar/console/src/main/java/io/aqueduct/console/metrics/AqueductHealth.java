package io.aqueduct.console.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import javax.management.ObjectName;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health over the engine's and the adapter's MBeans (docs/metrics.md). Liveness: the engine's time
 * manager and propagation loops and every MDB activation's delivery workers are in their loops (a restart is the cure
 * when not). Readiness: also the store answers a probe and no loop or worker is backing off after a failure (they
 * resume by themselves once the cause is gone). No engine MBean in this JVM (the adapter not started): down.
 */
public final class AqueductHealth {
    private AqueductHealth() {
    }

    static HealthCheckResponse check(String name, boolean readiness) {
        AqueductBeans beans = new AqueductBeans();
        HealthCheckResponseBuilder r = HealthCheckResponse.named(name);
        boolean up = true;
        var engines = beans.query(AqueductBeans.ENGINES);
        r.withData("engines", engines.size());
        if (engines.isEmpty()) {
            up = false;
        }
        for (ObjectName e : engines) {
            String node = AqueductBeans.key(e, "node");
            boolean timeManager = beans.flag(e, "TimeManagerAlive");
            boolean propagation = beans.flag(e, "PropagationAlive");
            r.withData(node + ".timeManagerAlive", timeManager).withData(node + ".propagationAlive", propagation);
            up &= timeManager && propagation;
            if (readiness) {
                boolean store = beans.flag(e, "StoreReachable");
                boolean failing = beans.flag(e, "TimeManagerFailing") || beans.flag(e, "PropagationFailing");
                r.withData(node + ".storeReachable", store).withData(node + ".loopsFailing", failing);
                up &= store && !failing;
            }
        }
        for (ObjectName a : beans.query(AqueductBeans.ACTIVATIONS)) {
            String key = "activation." + AqueductBeans.key(a, "id") + "." + AqueductBeans.key(a, "queue");
            double running = beans.number(a, "WorkersRunning");
            double sessions = beans.number(a, "Sessions");
            r.withData(key + ".workersRunning", (long) running).withData(key + ".sessions", (long) sessions);
            up &= running == sessions;
            if (readiness) {
                double failing = beans.number(a, "WorkersFailing");
                r.withData(key + ".workersFailing", (long) failing);
                up &= failing == 0;
            }
        }
        return r.status(up).build();
    }

    /** The loops live. */
    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        @Override
        public HealthCheckResponse call() {
            return check("aqueduct-live", false);
        }
    }

    /** The store answers and nothing is backing off. */
    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        @Override
        public HealthCheckResponse call() {
            return check("aqueduct-ready", true);
        }
    }
}
