package io.aqueduct.engine;

import io.aqueduct.engine.propagation.Propagator;
import io.aqueduct.engine.store.StoreProbe;
import io.aqueduct.engine.time.TimeManager;
import java.lang.management.ManagementFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.ObjectName;

/** Registers the engine's {@link EngineMXBean} while the engine is open; a failure to register is logged, never thrown. */
final class EngineMBean implements EngineMXBean {
    private static final Logger LOG = Logger.getLogger(EngineMBean.class.getName());
    /** How long the store probe waits for an answer. */
    static final int PROBE_TIMEOUT_SECONDS = 2;

    private final String store;
    private final String node;
    private final StoreProbe probe;
    private final TimeManager timeManager;
    private final Propagator propagator;
    private ObjectName registered;

    EngineMBean(String store, String node, StoreProbe probe, TimeManager timeManager, Propagator propagator) {
        this.store = QueueMBeans.storeName(store);
        this.node = node;
        this.probe = probe;
        this.timeManager = timeManager;
        this.propagator = propagator;
    }

    static ObjectName name(String store, String node) throws JMException {
        return new ObjectName("io.aqueduct:type=Engine,store=" + ObjectName.quote(QueueMBeans.storeName(store)) + ",node=" + node);
    }

    synchronized void register() {
        try {
            ObjectName name = name(store, node);
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, name);
            registered = name;
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "Aqueduct: the engine's MBean is not registered", e);
        }
    }

    synchronized void close() {
        if (registered != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
            } catch (JMException | RuntimeException e) {
                LOG.log(Level.FINE, "Aqueduct: unregistering " + registered, e);
            }
            registered = null;
        }
    }

    @Override
    public String getStore() {
        return store;
    }

    @Override
    public String getNode() {
        return node;
    }

    @Override
    public boolean isStoreReachable() {
        return probe.reachable(PROBE_TIMEOUT_SECONDS);
    }

    @Override
    public boolean isTimeManagerAlive() {
        return timeManager.loopAlive();
    }

    @Override
    public boolean isTimeManagerFailing() {
        return timeManager.loopFailing();
    }

    @Override
    public boolean isPropagationAlive() {
        return propagator.loopAlive();
    }

    @Override
    public boolean isPropagationFailing() {
        return propagator.loopFailing();
    }
}
