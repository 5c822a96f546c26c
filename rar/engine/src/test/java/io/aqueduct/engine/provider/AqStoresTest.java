package io.aqueduct.engine.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStore;
import io.aqueduct.api.AqStores;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a store from properties through the api alone: {@link AqStores} finds the engine by
 * ServiceLoader. Derby only (outside the package the shared-store executions run again).
 */
class AqStoresTest {
    @TempDir
    Path dir;

    @Test
    void every_property_reaches_the_engine_and_the_derby_store_is_durable() throws Exception {
        Path store = dir.resolve("store");
        Map<String, String> p = Map.of(AqStores.STORE_DIRECTORY, store.toString(), AqStores.USER, "CLERK",
                AqStores.SCHEMA, "OE", AqStores.MAX_PAYLOAD_BYTES, "100", AqStores.TIME_MANAGER, "false",
                "java.naming.factory.initial", "not ours: ignored");
        try (AqStore s = AqStores.open(p)) {
            assertThat(s).isInstanceOf(AqueductEngine.class);
            AqueductEngine engine = (AqueductEngine) s;
            assertThat(engine.defaultSchema()).isEqualTo("OE");
            assertThat(engine.timeManager().isRunning()).isFalse();
            s.admin().createQueueTable("orders_qtab", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            s.admin().createQueue("orders", "orders_qtab", QueueProperties.create());
            s.admin().startQueue("orders", true, true);
            assertThat(s.admin().queue("OE.orders").owner()).isEqualTo("OE");
            try (QueueSession session = s.openSession()) {
                session.enqueue("orders", Message.of("order 1"));
                session.commit();
                AqException tooBig = expectError(AqError.INVALID_VALUE, () -> session.enqueue("orders", Message.of("x".repeat(101))));
                assertThat(tooBig.getMessage()).contains("100");
                session.rollback();
            }
            try (Connection c = DriverManager.getConnection("jdbc:derby:" + store.toAbsolutePath());
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT ENQ_USER_ID FROM \"OE\".\"AQ$ORDERS_QTAB\"")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("CLERK");
            }
        }
        assertThat(store.resolve("service.properties")).exists();
        try (AqStore again = AqStores.open(Map.of(AqStores.STORE_DIRECTORY, store.toString()));
             QueueSession session = again.openSession()) {
            Message m = session.dequeue("OE.orders", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT));
            session.commit();
            assertThat(m.text()).isEqualTo("order 1");
        }
    }

    @Test
    void the_buffered_message_limit_and_wait_reach_the_engine() {
        try (AqStore s = AqStores.open(Map.of(AqStores.STORE_MEMORY, "buffered_limits", AqStores.MAX_BUFFERED_BYTES, "1000",
                AqStores.BUFFERED_ENQUEUE_WAIT_MILLIS, "0"))) {
            s.admin().createQueueTable("ticks_qtab", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            s.admin().createQueue("ticks", "ticks_qtab", QueueProperties.create());
            s.admin().startQueue("ticks", true, true);
            io.aqueduct.api.EnqueueOptions buffered = io.aqueduct.api.EnqueueOptions.create()
                    .deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED).visibility(io.aqueduct.api.Visibility.IMMEDIATE);
            try (QueueSession session = s.openSession()) {
                session.enqueue("ticks", buffered, Message.of("x".repeat(600))); // 600 + 256 counted: most of the 1000
                AqException full = expectError(AqError.FLOW_CONTROL, () -> session.enqueue("ticks", buffered, Message.of("y")));
                assertThat(full.getMessage()).contains("1000 bytes", "within 0 ms");
            }
        }
    }

    @Test
    void a_jdbc_url_with_login_and_an_in_memory_store_open_too() {
        Map<String, String> jdbc = Map.of(AqStores.STORE_URL, "jdbc:derby:memory:aqstores_url;create=true",
                AqStores.STORE_USER, "app", AqStores.STORE_PASSWORD, "");
        try (AqStore s = AqStores.open(jdbc)) {
            s.admin().createQueueTable("t", QueueTableProperties.create());
            assertThat(s.admin().queueTables()).extracting(t -> t.name()).contains("T");
        }
        try (AqStore s = AqStores.open(Map.of(AqStores.STORE_MEMORY, "aqstores_mem", AqStores.TIME_MANAGER, "TRUE"))) {
            assertThat(((AqueductEngine) s).timeManager().isRunning()).isTrue();
            assertThat(s.admin().queueTables()).isEmpty();
        }
    }

    @Test
    void bad_properties_are_refused_by_name_before_anything_is_opened() {
        Path store = dir.resolve("never");
        String d = store.toString();
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, "aqueduct.store.dir", "x", "aqueduct.usr", "y"),
                "Unknown store properties aqueduct.store.dir, aqueduct.usr", String.join(", ", AqStores.PROPERTIES));
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.STORE_URL, "jdbc:derby:memory:x;create=true"),
                "Choose one store", AqStores.STORE_DIRECTORY, AqStores.STORE_URL);
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.STORE_USER, "app"), AqStores.STORE_URL);
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, " "), AqStores.STORE_DIRECTORY, "is empty");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAX_PAYLOAD_BYTES, "64MiB"), AqStores.MAX_PAYLOAD_BYTES, "'64MiB'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAX_PAYLOAD_BYTES, "0"), AqStores.MAX_PAYLOAD_BYTES);
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAX_BUFFERED_BYTES, "0"), AqStores.MAX_BUFFERED_BYTES, "'0'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.BUFFERED_ENQUEUE_WAIT_MILLIS, "-1"),
                AqStores.BUFFERED_ENQUEUE_WAIT_MILLIS, "'-1'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.TIME_MANAGER, "yes"), AqStores.TIME_MANAGER, "'yes'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAIL_HOST, "smtp.example.com", AqStores.MAIL_PORT, "0"),
                AqStores.MAIL_PORT, "'0'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAIL_FROM, "aq@example.com"), AqStores.MAIL_HOST);
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAIL_HOST, "smtp.example.com", AqStores.MAIL_STARTTLS, "yes"),
                AqStores.MAIL_STARTTLS, "'yes'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.MAIL_HOST, "smtp.example.com", AqStores.MAIL_FROM, "a, b"),
                AqStores.MAIL_FROM, "not one address");
        AqException schema = expectError(AqError.INVALID_NAME,
                () -> AqStores.open(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.SCHEMA, "not a schema")));
        assertThat(schema.getMessage()).contains(AqStores.SCHEMA, "'not a schema'");
        assertRefused(Map.of(AqStores.STORE_DIRECTORY, d, AqStores.DESERIALIZATION_FILTER, "maxdepth=deep"),
                AqStores.DESERIALIZATION_FILTER);
        Map<String, String> withNull = new HashMap<>(Map.of(AqStores.STORE_DIRECTORY, d));
        withNull.put(AqStores.USER, null);
        assertRefused(withNull, AqStores.USER, "null");
        assertThat(store).doesNotExist();
    }

    @Test
    void without_the_engine_on_the_class_path_the_error_says_to_add_it() throws Exception {
        // the api's classes alone, in a loader that cannot see the engine (nor its service file)
        URL api = AqStores.class.getProtectionDomain().getCodeSource().getLocation();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader apiOnly = new URLClassLoader(new URL[] {api}, ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(apiOnly);
            Class<?> stores = apiOnly.loadClass(AqStores.class.getName());
            assertThat(stores).isNotSameAs(AqStores.class);
            assertThatThrownBy(() -> {
                try {
                    stores.getMethod("open", Map.class).invoke(null, Map.of(AqStores.STORE_MEMORY, "never_opened"));
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }).hasMessageContaining("No Aqueduct store provider is on the class path")
                    .hasMessageContaining("io.aqueduct:aqueduct-engine")
                    .extracting(e -> e.getClass().getName()).isEqualTo(AqException.class.getName());
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    private static void assertRefused(Map<String, String> properties, String... parts) {
        AqException e = expectError(AqError.INVALID_VALUE, () -> AqStores.open(properties));
        for (String part : parts) {
            assertThat(e.getMessage()).contains(part);
        }
    }

    private static AqException expectError(int code, Runnable call) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call::run);
        assertThat(t).isInstanceOf(AqException.class);
        AqException e = (AqException) t;
        assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code);
        return e;
    }
}
