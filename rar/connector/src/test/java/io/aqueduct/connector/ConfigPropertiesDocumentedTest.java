package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.aqueduct.connector.inbound.AqActivationSpec;
import io.aqueduct.connector.jms.AdministeredQueue;
import io.aqueduct.connector.jms.AdministeredTopic;
import io.aqueduct.connector.jms.JmsActivationSpec;
import io.aqueduct.connector.jms.JmsManagedConnectionFactory;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import jakarta.resource.spi.ConfigProperty;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Every property an administrator can set on the adapter, its connection pools, admin objects and
 * MDB activation configs carries a description in the adapter's descriptor, and is listed in
 * server-config/README.md's property table (Payara's console shows neither description nor
 * unset properties, so that table is where an administrator finds them).
 */
class ConfigPropertiesDocumentedTest {
    private static final List<Class<?>> CONFIGURED = List.of(AqResourceAdapter.class, AqManagedConnectionFactory.class,
            JmsManagedConnectionFactory.class, AdministeredQueue.class, AdministeredTopic.class, AqActivationSpec.class,
            io.aqueduct.connector.inbound.AqNotificationActivationSpec.class, JmsActivationSpec.class);

    @Test
    void every_config_property_has_a_description_and_a_row_in_the_server_config_readme() throws Exception {
        String readme = Files.readString(Path.of("../../server-config/README.md"));
        String table = readme.substring(readme.indexOf("## Configuration properties"));
        List<String> undocumented = new ArrayList<>();
        int properties = 0;
        for (Class<?> type : CONFIGURED) {
            for (Field f : type.getDeclaredFields()) {
                ConfigProperty p = f.getAnnotation(ConfigProperty.class);
                if (p == null) {
                    continue;
                }
                properties++;
                assertThat(p.description()).as(type.getSimpleName() + "." + f.getName() + "'s description")
                        .isNotEmpty().allSatisfy(d -> assertThat(d).isNotBlank());
                String name = f.getName();
                String capitalized = name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
                if (!table.contains("| `" + name + "`") && !table.contains("| `" + capitalized + "`")) {
                    undocumented.add(type.getSimpleName() + "." + name);
                }
            }
        }
        assertThat(properties).as("config properties found").isGreaterThan(30);
        assertThat(undocumented).as("properties missing from server-config/README.md's table").isEmpty();
    }
}
