package io.aqueduct.jms.jndi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.AqStore;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableInfo;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import io.aqueduct.jms.client.AqueductXAConnectionFactory;
import io.aqueduct.jms.destination.AqueductQueue;
import io.aqueduct.jms.destination.AqueductTopic;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.OperationNotSupportedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The JNDI context over a durable Derby store in a temporary directory. */
class JndiContextTest {
    @TempDir
    Path dir;
    private final List<Context> opened = new ArrayList<>();

    @AfterEach
    void closeContexts() throws NamingException {
        for (Context c : opened) {
            c.close();
        }
        assertThat(SharedStores.openStores()).as("every store closed with its last context").isZero();
    }

    private Path store() {
        return dir.resolve("store");
    }

    private Hashtable<String, Object> environment(String... keyValues) {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, AqueductInitialContextFactory.class.getName());
        env.put("aqueduct.store.directory", store().toString());
        env.put("aqueduct.schema", "OE");
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    private Context context(String... keyValues) throws NamingException {
        Context c = new InitialContext(environment(keyValues));
        opened.add(c);
        return c;
    }

    private static AqStore storeOf(Context c) throws NamingException {
        for (NamingEnumeration<Binding> e = c.listBindings(""); e.hasMore(); ) {
            if (e.next().getObject() instanceof AqueductConnectionFactory f) {
                return (AqStore) f.sessions();
            }
        }
        throw new AssertionError("no connection factory bound");
    }

    @Test
    void without_declarations_it_binds_the_default_factories_and_resolves_dynamic_destinations() throws Exception {
        Context c = context();
        assertThat(c.lookup("ConnectionFactory")).isExactlyInstanceOf(AqueductConnectionFactory.class);
        assertThat(c.lookup("XAConnectionFactory")).isExactlyInstanceOf(AqueductXAConnectionFactory.class);
        Object q = c.lookup("dynamicQueues/OE.new_orders");
        assertThat(q).isInstanceOf(Queue.class);
        assertThat(((Queue) q).getQueueName()).isEqualTo("OE.new_orders");
        Object t = c.lookup(new CompositeName("dynamicTopics/shipping"));
        assertThat(t).isInstanceOf(Topic.class);
        assertThat(((Topic) t).getTopicName()).isEqualTo("shipping");
        Context same = (Context) c.lookup("");
        assertThat(same.lookup("ConnectionFactory")).isSameAs(c.lookup("ConnectionFactory"));

        List<String> listed = new ArrayList<>();
        for (NamingEnumeration<NameClassPair> e = c.list(""); e.hasMore(); ) {
            NameClassPair p = e.next();
            listed.add(p.getName() + "=" + p.getClassName());
        }
        assertThat(listed).containsExactly("ConnectionFactory=" + AqueductConnectionFactory.class.getName(),
                "XAConnectionFactory=" + AqueductXAConnectionFactory.class.getName());
        assertThatThrownBy(() -> c.lookup("dynamicQueues/1bad name")).isInstanceOf(NamingException.class)
                .hasMessageContaining("1bad name");
    }

    @Test
    void a_missing_name_is_reported_with_what_is_bound() throws Exception {
        Context c = context("connectionFactory.jms/cf", "", "queue.orders", "OE.orders", "topic.events", "OE.events");
        NameNotFoundException e = (NameNotFoundException) catchThrowable(() -> c.lookup("ConnectionFactory"));
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("'ConnectionFactory' is not bound", "jms/cf", "orders", "events",
                "dynamicQueues/<AQ queue>", "dynamicTopics/<AQ queue>");
        assertThat(c.lookup("jms/cf")).isExactlyInstanceOf(AqueductConnectionFactory.class);
        assertThatThrownBy(() -> c.list("orders")).isInstanceOf(javax.naming.NotContextException.class);
        assertThatThrownBy(() -> c.list("nothing")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void declared_factories_carry_their_options() throws Exception {
        Context c = context("connectionFactory.orders", "clientId=order-entry; user=CLERK",
                "xaConnectionFactory.xa", "clientId = shipping", "aqueduct.jms.defaultUser", "APP");
        AqueductConnectionFactory orders = (AqueductConnectionFactory) c.lookup("orders");
        assertThat(orders.configuredClientId()).isEqualTo("order-entry");
        assertThat(orders.users().defaultUser()).isEqualTo("CLERK");
        AqueductXAConnectionFactory xa = (AqueductXAConnectionFactory) c.lookup("xa");
        assertThat(xa.configuredClientId()).isEqualTo("shipping");
        assertThat(xa.users().defaultUser()).isEqualTo("APP");
        assertThatThrownBy(() -> c.lookup("XAConnectionFactory")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void the_context_is_read_only() throws Exception {
        Context c = context();
        Object cf = c.lookup("ConnectionFactory");
        List<Executable> writes = List.of(() -> c.bind("x", cf), () -> c.bind(new CompositeName("x"), cf),
                () -> c.rebind("ConnectionFactory", cf), () -> c.rebind(new CompositeName("x"), cf),
                () -> c.unbind("ConnectionFactory"), () -> c.unbind(new CompositeName("x")),
                () -> c.rename("ConnectionFactory", "y"), () -> c.rename(new CompositeName("x"), new CompositeName("y")),
                () -> c.createSubcontext("sub"), () -> c.createSubcontext(new CompositeName("sub")),
                () -> c.destroySubcontext("sub"), () -> c.destroySubcontext(new CompositeName("sub")));
        for (Executable w : writes) {
            assertThat(catchThrowable(w::execute)).isInstanceOf(OperationNotSupportedException.class)
                    .hasMessageContaining("read-only");
        }
        assertThat(c.lookup("ConnectionFactory")).isSameAs(cf);
    }

    @Test
    void a_declared_destination_is_created_at_its_first_lookup_and_carries_messages() throws Exception {
        Context c = context("queue.orders", "OE.new_orders", "queue.orders.create", "true", "queue.orders.maxRetries", "3",
                "queue.orders.retryDelay", "10", "queue.orders.retention", "60", "queue.orders.sortOrder", "ENQ_TIME",
                "topic.shipped", "shipped_orders", "topic.shipped.create", "true", "topic.shipped.queueTable", "OE.ship_qt");
        AqStore store = storeOf(c);
        assertThat(((AqException) catchThrowable(() -> store.admin().queue("OE.new_orders"))).errorCode())
                .as("nothing is created before the first lookup").isEqualTo(AqError.QUEUE_NOT_FOUND);

        Queue orders = (Queue) c.lookup("orders");
        assertThat(orders).isEqualTo(new AqueductQueue("OE.new_orders"));
        QueueInfo q = store.admin().queue("OE.new_orders");
        assertThat(q.queueTable()).isEqualTo("NEW_ORDERS_QT");
        assertThat(q.maxRetries()).isEqualTo(3);
        assertThat(q.retryDelaySeconds()).isEqualTo(10);
        assertThat(q.retentionSeconds()).isEqualTo(60);
        assertThat(q.enqueueEnabled()).isTrue();
        assertThat(q.dequeueEnabled()).isTrue();
        QueueTableInfo qt = store.admin().queueTable("OE.NEW_ORDERS_QT");
        assertThat(qt.payloadType()).isEqualTo(PayloadType.RAW);
        assertThat(qt.multipleConsumers()).isFalse();
        assertThat(qt.sortOrder()).isEqualTo(SortOrder.ENQ_TIME);

        Topic shipped = (Topic) c.lookup("shipped");
        assertThat(shipped).isEqualTo(new AqueductTopic("shipped_orders"));
        QueueTableInfo st = store.admin().queueTable("OE.SHIP_QT");
        assertThat(st.multipleConsumers()).isTrue();
        assertThat(st.sortOrder()).isEqualTo(SortOrder.PRIORITY_ENQ_TIME);
        assertThat(store.admin().queue("OE.shipped_orders").maxRetries()).isEqualTo(QueueProperties.DEFAULT_MAX_RETRIES);
        assertThat(c.lookup("orders")).isSameAs(orders);

        ConnectionFactory cf = (ConnectionFactory) c.lookup("ConnectionFactory");
        try (Connection connection = cf.createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(orders).send(session.createTextMessage("order 1"));
            MessageConsumer consumer = session.createConsumer(orders);
            Message m = consumer.receive(5_000);
            assertThat(m).isInstanceOf(TextMessage.class);
            assertThat(((TextMessage) m).getText()).isEqualTo("order 1");
        }
    }

    @Test
    void an_existing_queue_is_used_as_it_is_but_must_be_of_the_declared_kind() throws Exception {
        // a 24-character queue name is fine while nothing has to be derived from it
        Context c = context("queue.orders", "OE.orders", "queue.orders.create", "true", "queue.orders.maxRetries", "3",
                "topic.wrong", "OE.orders", "topic.wrong.create", "true", "queue.long", "a_queue_name_of_24_chars");
        AqStore store = storeOf(c);
        store.admin().createQueueTable("OE.mine", QueueTableProperties.create().payloadType(PayloadType.RAW));
        store.admin().createQueue("OE.orders", "OE.mine", QueueProperties.create().maxRetries(7));
        c.lookup("orders");
        QueueInfo q = store.admin().queue("OE.orders");
        assertThat(q.maxRetries()).isEqualTo(7);
        assertThat(q.queueTable()).isEqualTo("MINE");
        assertThat(q.enqueueEnabled()).as("not started: used as it is").isFalse();

        assertThatThrownBy(() -> c.lookup("wrong")).isInstanceOf(NamingException.class)
                .hasMessageContaining("topic.wrong is a topic").hasMessageContaining("single-consumer");
        assertThat(store.admin().queueTables()).extracting(QueueTableInfo::name).containsExactly("MINE");
        assertThat(((Queue) c.lookup("long")).getQueueName()).isEqualTo("a_queue_name_of_24_chars");
    }

    @Test
    void bad_configuration_is_refused_naming_the_property_and_opens_nothing() {
        assertRefused(new String[] {"aqueduct.jms.defaultUsr", "x"}, "aqueduct.jms.defaultUsr", "aqueduct.jms.defaultUser");
        assertRefused(new String[] {"aqueduct.store.dir", "x"}, "aqueduct.store.dir", "aqueduct.store.directory, ");
        assertRefused(new String[] {"aqueduct.store.url", "jdbc:derby:memory:x"}, "Choose one store");
        assertRefused(new String[] {"queue.orders", "orders", "queue.orders.maxRetries", "3"},
                "maxRetries of queue.orders", "queue.orders.create = true");
        assertRefused(new String[] {"queue.orders.create", "true"}, "queue.orders.create belongs to queue.orders");
        assertRefused(new String[] {"queue.orders", "orders", "queue.orders.maxretries", "3"},
                "queue.orders.maxretries", "create, queueTable, sortOrder, maxRetries, retryDelay, retention");
        assertRefused(new String[] {"queue.orders", "orders", "queue.orders.create", "yes"}, "queue.orders.create", "'yes'");
        assertRefused(new String[] {"queue.orders", "orders", "queue.orders.create", "true", "queue.orders.maxRetries", "-1"},
                "queue.orders.maxRetries", "'-1'");
        assertRefused(new String[] {"queue.orders", "orders", "queue.orders.create", "true", "queue.orders.sortOrder", "LIFO"},
                "queue.orders.sortOrder", "'LIFO'");
        assertRefused(new String[] {"queue.orders", "a_queue_name_of_24_chars", "queue.orders.create", "true"},
                "queue.orders.queueTable", "24");
        assertRefused(new String[] {"queue.orders", "1orders"}, "queue.orders", "'1orders'");
        assertRefused(new String[] {"queue.x", "a", "topic.x", "b"}, "'x' is declared twice");
        assertRefused(new String[] {"queue.dynamicQueues/x", "a"}, "dynamicQueues/");
        assertRefused(new String[] {"connectionFactory.cf", "clientID=x"}, "'clientID=x'", "clientId, user");
        assertRefused(new String[] {"connectionFactory.cf", "", "xaConnectionFactory.cf", ""}, "'cf' is declared twice");
        assertRefused(new String[] {"connectionFactory.orders", "", "queue.orders", "orders"}, "'orders' is declared twice");
        assertRefused(new String[] {"user.alice", "secret"}, "user.alice", "user.<name>.password");
        assertRefused(new String[] {"user.alice.password", "secret", "aqueduct.jms.defaultUser", "bob"}, "'bob'",
                "aqueduct.jms.defaultUser");
        Hashtable<String, Object> env = environment();
        env.put("queue.orders", 42);
        assertThat(catchThrowable(() -> new InitialContext(env))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("queue.orders must be a string");
        assertThat(store()).as("no store opened for a bad configuration").doesNotExist();
    }

    private void assertRefused(String[] keyValues, String... parts) {
        Throwable t = catchThrowable(() -> opened.add(new InitialContext(environment(keyValues))));
        assertThat(t).as(String.join(" ", keyValues)).isInstanceOf(ConfigurationException.class);
        assertThat(t.getMessage()).contains(parts);
    }

    @Test
    void declared_users_are_checked_at_create_connection() throws Exception {
        Context c = context("user.alice.password", "secret", "user.bob.password", "pw2", "aqueduct.jms.defaultUser", "alice");
        ConnectionFactory cf = (ConnectionFactory) c.lookup("ConnectionFactory");
        assertThatThrownBy(() -> cf.createConnection("alice", "wrong")).isInstanceOf(JMSSecurityException.class);
        assertThatThrownBy(() -> cf.createConnection("mallory", "secret")).isInstanceOf(JMSSecurityException.class);
        try (Connection ok = cf.createConnection("bob", "pw2"); Connection byDefault = cf.createConnection()) {
            assertThat(ok).isNotNull();
            assertThat(byDefault).isNotNull();
        }
        assertThat(((AqueductConnectionFactory) cf).users().defaultUser()).isEqualTo("alice");

        Context open = context("aqueduct.store.directory", dir.resolve("other").toString());
        ConnectionFactory anyone = (ConnectionFactory) open.lookup("ConnectionFactory");
        try (Connection any = anyone.createConnection("whoever", "whatever")) {
            assertThat(any).isNotNull();
        }
    }

    @Test
    void contexts_of_one_store_share_it_and_the_last_one_closes_it() throws Exception {
        Context first = context("queue.orders", "orders", "queue.orders.create", "true");
        Context second = context("connectionFactory.other", "");
        AqStore store = storeOf(first);
        assertThat(storeOf(second)).isSameAs(store);
        first.lookup("orders"); // creates OE.ORDERS, used below through the second context
        Context elsewhere = context("aqueduct.store.directory", dir.resolve("elsewhere").toString());
        assertThat(storeOf(elsewhere)).isNotSameAs(store);
        assertThat(SharedStores.openStores()).isEqualTo(2);
        elsewhere.close();
        assertThat(SharedStores.openStores()).isEqualTo(1);

        // the Derby store is open: a second engine on its directory is refused
        assertThat(catchThrowable(() -> AqueductEngine.builder().derbyDirectory(store()).start().close()))
                .isInstanceOf(AqException.class);

        Context firstItself = (Context) first.lookup(""); // InitialContext forgets its context on close: ask ours
        first.close();
        firstItself.close(); // twice: still one release
        assertThatThrownBy(() -> firstItself.lookup("orders")).isInstanceOf(NamingException.class)
                .hasMessageContaining("closed");
        assertThat(SharedStores.openStores()).isEqualTo(1);
        Queue orders = (Queue) ((Context) second.lookup("")).lookup("dynamicQueues/orders");
        ConnectionFactory cf = (ConnectionFactory) second.lookup("other");
        try (Connection connection = cf.createConnection()) {
            connection.start();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            session.createProducer(orders).send(session.createTextMessage("still open"));
            session.commit();
        }

        second.close();
        assertThat(SharedStores.openStores()).isZero();
        try (AqueductEngine engine = AqueductEngine.builder().derbyDirectory(store()).start()) {
            assertThat(engine.admin().queue("OE.orders").name()).isEqualTo("ORDERS");
        }
    }
}
