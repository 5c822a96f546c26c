package io.aqueduct.console.metrics;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The engine's and the adapter's MBeans in this JVM's platform MBean server, by the names docs/metrics.md documents:
 * the console uses the Aqueduct API only, and JMX is how the engine publishes what it counts.
 */
final class AqueductBeans {
    static final String QUEUES = "io.aqueduct:type=Queue,*";
    static final String ACTIVATIONS = "io.aqueduct:type=Activation,*";
    static final String SCHEDULES = "io.aqueduct:type=PropagationSchedule,*";
    static final String ENGINES = "io.aqueduct:type=Engine,*";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    Set<ObjectName> query(String pattern) {
        try {
            return server.queryNames(new ObjectName(pattern), null);
        } catch (JMException e) {
            throw new IllegalArgumentException(pattern, e);
        }
    }

    /** A number attribute (a boolean as 1 or 0); NaN when the bean is gone or cannot answer now. */
    double number(ObjectName name, String attribute) {
        try {
            Object value = server.getAttribute(name, attribute);
            if (value instanceof Boolean b) {
                return b ? 1 : 0;
            }
            return value instanceof Number n ? n.doubleValue() : Double.NaN;
        } catch (JMException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** A boolean attribute; false when the bean is gone or cannot answer. */
    boolean flag(ObjectName name, String attribute) {
        try {
            return Boolean.TRUE.equals(server.getAttribute(name, attribute));
        } catch (JMException | RuntimeException e) {
            return false;
        }
    }

    /** A key property of a name, unquoted. */
    static String key(ObjectName name, String key) {
        String raw = name.getKeyProperty(key);
        if (raw == null) {
            return "";
        }
        return raw.startsWith("\"") ? ObjectName.unquote(raw) : raw;
    }
}
