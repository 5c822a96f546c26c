package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.PropagationSchedule;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.engine.AqueductEngine;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Propagation declared in the adapter's configuration: remote subscribers (address, transformation),
 * transformations, database links ({@code queueDefinitions} or the confidential {@code databaseLinks})
 * and schedules. Created once and logged; on a restart left alone when unchanged, altered (and
 * logged) when their definition changed; malformed ones refused before anything is created, with
 * a message that names the definition and never shows a password.
 */
class PropagationDefinitionsTest {
    /** A source multi-consumer queue whose remote subscriber is a queue of the same store, and its schedule. */
    private static final String IN_STORE = """
            table OE.ORDERS_MC_QTAB payload=TEXT multiple_consumers=true;
            queue OE.BOOKED_ORDERS table=OE.ORDERS_MC_QTAB;
            table WS.SHIP_QTAB payload=TEXT;
            queue WS.SHIPPING table=WS.SHIP_QTAB;
            subscriber OE.BOOKED_ORDERS name=WEST address=WS.SHIPPING;
            schedule OE.BOOKED_ORDERS latency=0
            """;

    @TempDir
    Path dir;
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Logger definitionsLog = Logger.getLogger(QueueDefinitions.class.getName());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            logged.add(r);
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
        definitionsLog.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        definitionsLog.removeHandler(handler);
    }

    // ------------------------------------------------------------------ parsing

    @Test
    void every_kind_parses() {
        QueueDefinitions d = QueueDefinitions.parse("""
                transformation OE.TO_SHIP from=JSON to=JSON attribute.orderNo="source.user_data.orderno";
                transformation OE.BY_CLASS from=JSON to=TEXT function=com.example.ToText;
                subscriber OE.Q name=WS address=WS.SHIPPING@SHIPPING transformation=OE.TO_SHIP protocol=0;
                link SHIPPING url=jdbc:postgresql://shiphost/aq user=aq password="a ""quoted"" secret";
                schedule OE.Q destination=SHIPPING start=2030-01-01T06:00:00Z duration=3600 next_time="SYSDATE + 1/24" latency=5;
                schedule OE.Q
                """);
        assertThat(d.size()).isEqualTo(6);
        assertThat(QueueDefinitions.parseLinks("link A url=/var/aq/a; link B url=jdbc:derby:/var/aq/b").size()).isEqualTo(2);
        assertThat(QueueDefinitions.parseLinks(null).size()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            link SHIPPING user=aq                                     | a link needs url=
            link SHIPPING url=""                                      | a link needs url=
            link SHIPPING url=jdbc:x colour=blue                      | unknown setting 'colour' (known: password, url, user)
            schedule OE.Q start=tomorrow                              | start=tomorrow is not an ISO-8601 instant
            schedule OE.Q duration=0                                  | duration is a number of seconds, 1 or more
            schedule OE.Q latency=-1                                  | latency=-1 is not a whole number of 0 or more
            schedule OE.Q latency=soon                                | latency=soon is not a whole number
            schedule OE.Q next_time="SYSDATE + 1/24"                  | next_time needs a duration
            schedule OE.Q latency=0 latency=1                         | 'latency' is given twice
            schedule OE.Q destination=SHIPPING window=60              | unknown setting 'window'
            schedule                                                  | 'schedule <queue> destination=<link> ...'
            subscriber OE.Q name=A protocol=x                         | protocol=x is not a whole number
            transformation OE.T from=JSON                             | a transformation needs from=<type> and to=<type>
            transformation OE.T from=JSON to=JSON                     | either function=<Transformer class> or attribute.<name>=<expression>
            transformation OE.T from=JSON to=JSON function=X attribute.a=1 | not both
            transformation OE.T from=JSON to=JSON attribute.=1        | names no attribute
            """)
    void a_malformed_definition_is_refused_naming_it_and_what_is_wrong(String definition, String reason) {
        assertThatThrownBy(() -> QueueDefinitions.parse("table OE.FINE_QTAB payload=TEXT; " + definition))
                .isInstanceOfSatisfying(AqException.class, e -> assertThat(e.errorCode()).isEqualTo(AqError.INVALID_VALUE))
                .hasMessageContaining("Invalid queue definition '" + definition.trim() + "'")
                .hasMessageContaining(reason);
    }

    @Test
    void database_links_hold_link_definitions_only() {
        assertThatThrownBy(() -> QueueDefinitions.parseLinks("link A url=/aq/a; queue OE.Q table=OE.T"))
                .isInstanceOf(AqException.class)
                .hasMessageContaining("Invalid database link definition 'queue OE.Q table=OE.T'")
                .hasMessageContaining("unknown kind 'queue' (use link)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            link L url=jdbc:x user=u password=s3cret colour=blue      | unknown setting 'colour'
            link L password=s3cret                                    | a link needs url=
            link L url=jdbc:x password="s3cret and more" user         | 'user' is not key=value
            link L url=jdbc:x password=s3c""ret                       | quote the whole value: '***'
            link L url=jdbc:x Password="s3cret                        | a double quote is not closed
            """)
    void a_password_never_shows_in_a_message(String definition, String reason) {
        assertThatThrownBy(() -> QueueDefinitions.parseLinks(definition))
                .isInstanceOf(AqException.class)
                .hasMessageContaining(reason)
                .hasMessageContaining("assword=***")
                .hasMessageNotContaining("s3c");
    }

    // ------------------------------------------------------------------ applied by the adapter

    @Test
    void a_declared_schedule_propagates_from_the_start_and_each_created_object_is_logged_once() throws Exception {
        MessageId sent;
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE)) {
            assertThat(ra.workManager.running()).as("the engine's loops on Derby: time manager, propagation, notifications").isEqualTo(3);
            QueueAdmin admin = ra.adapter.engine().admin();
            assertThat(admin.subscribers("OE.BOOKED_ORDERS")).singleElement()
                    .satisfies(s -> assertThat(s.agent().address()).isEqualTo("WS.SHIPPING"));
            PropagationSchedule schedule = admin.propagationSchedule("OE.BOOKED_ORDERS", null);
            assertThat(schedule.latencySeconds()).isZero();
            assertThat(schedule.windowSeconds()).isNull();

            sent = ra.enqueue("OE.BOOKED_ORDERS", List.of("order 1")).get(0);
            try (QueueSession s = ra.adapter.engine().openSession()) {
                Message m = s.dequeue("WS.SHIPPING", DequeueOptions.create().waitSeconds(20));
                assertThat(m.text()).isEqualTo("order 1");
                assertThat(m.properties().originalMessageId()).isEqualTo(sent);
                s.commit();
            }
        }
        assertThat(messages(Level.INFO)).containsExactly(
                "Aqueduct created queue table OE.ORDERS_MC_QTAB (table OE.ORDERS_MC_QTAB payload=TEXT multiple_consumers=true)",
                "Aqueduct created queue OE.BOOKED_ORDERS (queue OE.BOOKED_ORDERS table=OE.ORDERS_MC_QTAB)",
                "Aqueduct created queue table WS.SHIP_QTAB (table WS.SHIP_QTAB payload=TEXT)",
                "Aqueduct created queue WS.SHIPPING (queue WS.SHIPPING table=WS.SHIP_QTAB)",
                "Aqueduct added subscriber WEST at WS.SHIPPING to queue OE.BOOKED_ORDERS (subscriber OE.BOOKED_ORDERS name=WEST"
                        + " address=WS.SHIPPING)",
                "Aqueduct scheduled propagation from queue OE.BOOKED_ORDERS to this store's queues (schedule OE.BOOKED_ORDERS"
                        + " latency=0)");

        logged.clear();
        try (RunningAdapter again = RunningAdapter.onDerby(dir, IN_STORE)) {
            PropagationSchedule schedule = again.adapter.engine().admin().propagationSchedule("OE.BOOKED_ORDERS", null);
            assertThat(schedule.totalNumber()).as("the same schedule, with its statistics").isEqualTo(1);
        }
        assertThat(logged).as("nothing created or altered the second time").isEmpty();
    }

    @Test
    void a_schedule_whose_definition_changed_is_altered_with_a_log_line() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE)) {
            ra.enqueue("OE.BOOKED_ORDERS", List.of("order 1"));
        }
        logged.clear();
        String changed = IN_STORE.replace("schedule OE.BOOKED_ORDERS latency=0",
                "schedule OE.BOOKED_ORDERS latency=30 duration=600 next_time=\"SYSDATE + 1/24\" start=2030-01-01T00:00:00Z");
        try (RunningAdapter again = RunningAdapter.onDerby(dir, changed)) {
            PropagationSchedule s = again.adapter.engine().admin().propagationSchedule("OE.BOOKED_ORDERS", null);
            assertThat(s.latencySeconds()).isEqualTo(30);
            assertThat(s.windowSeconds()).isEqualTo(600);
            assertThat(s.nextTime()).isEqualTo("SYSDATE + 1/24");
            assertThat(s.startTime()).as("start applies when a schedule is created").isBefore(Instant.parse("2030-01-01T00:00:00Z"));
            assertThat(s.failures()).as("a batch in progress when the adapter stopped is no failure").isZero();
        }
        assertThat(messages(Level.INFO)).satisfiesExactly(
                m -> assertThat(m).startsWith("Aqueduct altered the propagation schedule from queue OE.BOOKED_ORDERS to this"
                        + " store's queues to its definition (schedule OE.BOOKED_ORDERS latency=30 duration=600")
                        .endsWith("it had duration=null next_time=none latency=0"),
                m -> assertThat(m).contains("keeps its start").contains("applies when a schedule is created"));
    }

    @Test
    void a_disabled_schedule_is_left_disabled_with_a_warning() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE)) {
            ra.adapter.engine().admin().disablePropagationSchedule("OE.BOOKED_ORDERS", null);
        }
        logged.clear();
        try (RunningAdapter again = RunningAdapter.onDerby(dir, IN_STORE)) {
            assertThat(again.adapter.engine().admin().propagationSchedule("OE.BOOKED_ORDERS", null).disabled()).isTrue();
        }
        assertThat(messages(Level.WARNING)).singleElement().asString()
                .contains("OE.BOOKED_ORDERS to this store's queues is disabled").contains("enablePropagationSchedule");
    }

    /**
     * A link to a Derby store that this JVM does not have open: propagation opens an engine on it,
     * whose loops are two more Works. The link comes from the confidential databaseLinks property;
     * altered on the next start (another store), the same schedule delivers there.
     */
    @Test
    void a_schedule_through_a_declared_link_delivers_to_the_other_store_and_an_altered_link_to_its_new_one() throws Exception {
        Path shipping = dir.resolve("shipping");
        Path shipping2 = dir.resolve("shipping2");
        shippingStore(shipping);
        shippingStore(shipping2);
        String definitions = """
                table OE.ORDERS_MC_QTAB payload=TEXT multiple_consumers=true;
                queue OE.BOOKED_ORDERS table=OE.ORDERS_MC_QTAB;
                subscriber OE.BOOKED_ORDERS name=OVERSEAS address=TS.SHIPPING@SHIPPING;
                schedule OE.BOOKED_ORDERS destination=shipping latency=0
                """;
        try (RunningAdapter ra = start(dir, "link SHIPPING url=" + shipping + " password=s3cret", definitions)) {
            assertThat(ra.adapter.engine().admin().databaseLinks()).singleElement()
                    .satisfies(l -> assertThat(l.url()).isEqualTo(shipping.toString()));
            ra.enqueue("OE.BOOKED_ORDERS", List.of("to the first"));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() ->
                    ra.adapter.engine().admin().propagationSchedule("OE.BOOKED_ORDERS", "SHIPPING").totalNumber() == 1);
            assertThat(ra.workManager.running()).as("three loops here, three for the linked Derby store").isEqualTo(6);
        }
        assertThat(String.join("\n", messages(Level.INFO))).contains(
                "Aqueduct created database link SHIPPING (link SHIPPING url=" + shipping + " password=***)").doesNotContain("s3cret");

        logged.clear();
        try (RunningAdapter ra = start(dir, "link SHIPPING url=" + shipping2 + " password=s3cret", definitions)) {
            ra.enqueue("OE.BOOKED_ORDERS", List.of("to the second"));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() ->
                    ra.adapter.engine().admin().propagationSchedule("OE.BOOKED_ORDERS", "SHIPPING").totalNumber() == 2);
        }
        assertThat(messages(Level.INFO)).singleElement().asString().startsWith("Aqueduct altered database link SHIPPING"
                + " to its definition (link SHIPPING url=" + shipping2 + " password=***)");
        assertThat(texts(shipping)).containsExactly("to the first");
        assertThat(texts(shipping2)).containsExactly("to the second");
    }

    @Test
    void a_declared_transformation_serves_a_remote_subscriber_and_is_altered_when_its_definition_changes() throws Exception {
        String definitions = """
                table OE.ORDERS_MC_QTAB payload=JSON multiple_consumers=true;
                queue OE.BOOKED_ORDERS table=OE.ORDERS_MC_QTAB;
                table WS.SHIP_QTAB payload=JSON;
                queue WS.SHIPPING table=WS.SHIP_QTAB;
                transformation OE.TO_SHIP from=JSON to=JSON attribute.orderNo="source.user_data.orderno";
                subscriber OE.BOOKED_ORDERS name=WEST address=WS.SHIPPING transformation=OE.TO_SHIP;
                schedule OE.BOOKED_ORDERS latency=0
                """;
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, definitions)) {
            assertThat(ra.adapter.engine().admin().subscribers("OE.BOOKED_ORDERS")).extracting(SubscriberInfo::transformation)
                    .containsExactly("OE.TO_SHIP");
            ra.enqueue("OE.BOOKED_ORDERS", List.of("{\"orderno\": 7, \"customer\": \"x\"}"));
            try (QueueSession s = ra.adapter.engine().openSession()) {
                assertThat(s.dequeue("WS.SHIPPING", DequeueOptions.create().waitSeconds(20)).text().replace(" ", ""))
                        .isEqualTo("{\"orderNo\":7}");
                s.commit();
            }
        }
        logged.clear();
        String altered = definitions.replace("attribute.orderNo=\"source.user_data.orderno\"",
                "attribute.order=\"source.user_data.orderno\" attribute.who=\"source.user_data.customer\"");
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, altered)) {
            assertThat(ra.adapter.engine().admin().transformations()).singleElement()
                    .satisfies(t -> assertThat(t.attributes()).isEqualTo(Map.of("order", "source.user_data.orderno",
                            "who", "source.user_data.customer")));
        }
        assertThat(messages(Level.INFO)).singleElement().asString().startsWith("Aqueduct altered transformation OE.TO_SHIP");

        assertThatThrownBy(() -> RunningAdapter.onDerby(dir, altered.replace("to=JSON", "to=TEXT")))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("Queue definition 'transformation OE.TO_SHIP' failed")
                .hasMessageContaining("its types cannot be altered");
    }

    @Test
    void a_subscriber_whose_rule_changed_is_left_as_it_is_with_a_log_line() throws Exception {
        RunningAdapter.onDerby(dir, IN_STORE).close();
        logged.clear();
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE.replace("address=WS.SHIPPING",
                "address=WS.SHIPPING rule=\"priority < 3\""))) {
            assertThat(ra.adapter.engine().admin().subscribers("OE.BOOKED_ORDERS")).extracting(SubscriberInfo::rule)
                    .containsOnlyNulls();
        }
        assertThat(messages(Level.INFO)).singleElement().asString().contains("exists with rule none")
                .contains("left as it is (alterSubscriber changes it)");
    }

    /**
     * Nodes of a shared store apply the same definitions as they start: a link or schedule another
     * node creates between this node's look and its create is taken as existing (compared, not an error).
     */
    @Test
    void a_link_or_schedule_created_meanwhile_by_another_node_counts_as_existing() throws Exception {
        String definitions = "link SHIPPING url=" + dir.resolve("elsewhere") + "; schedule OE.BOOKED_ORDERS latency=0";
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE)) {
            QueueAdmin real = ra.adapter.engine().admin();
            real.createDatabaseLink("SHIPPING", dir.resolve("elsewhere").toString(), null, null);
            // the first look sees neither (the other node has not committed yet), the create then meets them
            java.util.Set<String> looked = new java.util.HashSet<>();
            QueueAdmin late = (QueueAdmin) java.lang.reflect.Proxy.newProxyInstance(QueueAdmin.class.getClassLoader(),
                    new Class<?>[] {QueueAdmin.class}, (proxy, method, args) -> {
                        if (method.getName().equals("databaseLinks") && looked.add("links")) {
                            return List.of();
                        }
                        if (method.getName().equals("propagationSchedule") && looked.add("schedule")) {
                            throw new AqException(AqError.SCHEDULE_NOT_FOUND, "not yet");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            logged.clear();
            QueueDefinitions.parse(definitions).apply(late);
            assertThat(looked).containsExactlyInAnyOrder("links", "schedule");
            assertThat(real.propagationSchedules()).hasSize(1);
            assertThat(logged).as("nothing created nor altered by this node").isEmpty();
        }
    }

    /**
     * Servers of a deployment group starting together apply the same definitions: a queue table, queue or
     * subscriber another node creates between this node's look and its create (the engine says "already
     * exists": 24001, 24006, 24034) counts as existing, and the adapter starts.
     */
    @Test
    void a_table_queue_or_subscriber_created_meanwhile_by_another_node_counts_as_existing() throws Exception {
        try (RunningAdapter ra = RunningAdapter.onDerby(dir, IN_STORE)) {
            QueueAdmin real = ra.adapter.engine().admin();
            java.util.Set<String> looked = new java.util.HashSet<>();
            QueueAdmin late = (QueueAdmin) java.lang.reflect.Proxy.newProxyInstance(QueueAdmin.class.getClassLoader(),
                    new Class<?>[] {QueueAdmin.class}, (proxy, method, args) -> {
                        String key = method.getName() + (args == null || args.length == 0 ? "" : " " + args[0]);
                        if (method.getName().equals("queueTable") && looked.add(key)) {
                            throw new AqException(AqError.QUEUE_TABLE_NOT_FOUND, "not yet");
                        }
                        if (method.getName().equals("queue") && looked.add(key)) {
                            throw new AqException(AqError.QUEUE_NOT_FOUND, "not yet");
                        }
                        if (method.getName().equals("subscribers") && looked.add(key)) {
                            return List.of();
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            logged.clear();
            QueueDefinitions.parse(IN_STORE).apply(late);
            assertThat(looked).contains("queueTable OE.ORDERS_MC_QTAB", "queue OE.BOOKED_ORDERS",
                    "subscribers OE.BOOKED_ORDERS");
            assertThat(real.subscribers("OE.BOOKED_ORDERS")).hasSize(1);
            assertThat(logged).as("nothing created nor altered by this node").isEmpty();
        }
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            schedule WS.SHIPPING latency=0                           | Queue definition 'schedule WS.SHIPPING' failed: | single-consumer
            schedule OE.BOOKED_ORDERS destination=NOWHERE            | Queue definition 'schedule OE.BOOKED_ORDERS' failed: | no database link NOWHERE
            schedule OE.NO_SUCH_Q                                    | Queue definition 'schedule OE.NO_SUCH_Q' failed: | does not exist
            schedule OE.BOOKED_ORDERS duration=60 next_time="SYSDATE - 1" | Queue definition 'schedule OE.BOOKED_ORDERS' failed: | later than the window's start
            subscriber OE.BOOKED_ORDERS name=X address=WS.SHIPPING transformation=OE.NONE | Queue definition 'subscriber OE.BOOKED_ORDERS' failed: | AQ-24185
            transformation OE.T from=JSON to=JSON attribute.a="source +" | Queue definition 'transformation OE.T' failed: | AQ-25448
            """)
    void a_definition_the_store_refuses_stops_the_adapter_naming_it(String definition, String named, String why) {
        assertThatThrownBy(() -> RunningAdapter.onDerby(dir, IN_STORE.replace("latency=0", "latency=0;") + definition))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining(named)
                .hasMessageContaining(why);
    }

    private static RunningAdapter start(Path dir, String links, String definitions) throws Exception {
        String previous = System.setProperty("aqueduct.databaseLinks", links);
        try {
            return RunningAdapter.onDerby(dir, definitions);
        } finally {
            if (previous == null) {
                System.clearProperty("aqueduct.databaseLinks");
            } else {
                System.setProperty("aqueduct.databaseLinks", previous);
            }
        }
    }

    private static void shippingStore(Path directory) {
        try (AqueductEngine e = AqueductEngine.builder().derbyDirectory(directory).timeManager(false).start()) {
            e.admin().createQueueTable("TS.SHIP_QTAB", QueueTableProperties.create().payloadType(PayloadType.TEXT));
            e.admin().createQueue("TS.SHIPPING", "TS.SHIP_QTAB", QueueProperties.create());
            e.admin().startQueue("TS.SHIPPING", true, true);
        }
    }

    private static List<String> texts(Path directory) {
        try (AqueductEngine e = AqueductEngine.builder().derbyDirectory(directory).timeManager(false).start();
                QueueSession s = e.openSession()) {
            List<String> out = new java.util.ArrayList<>();
            while (true) {
                try {
                    out.add(s.dequeue("TS.SHIPPING", DequeueOptions.create().waitSeconds(DequeueOptions.NO_WAIT)).text());
                } catch (AqException x) {
                    if (x.errorCode() == AqError.NO_MESSAGE) {
                        s.commit();
                        return out;
                    }
                    throw x;
                }
            }
        }
    }

    private List<String> messages(Level level) {
        return logged.stream().filter(r -> r.getLevel().equals(level)).map(LogRecord::getMessage).toList();
    }
}
