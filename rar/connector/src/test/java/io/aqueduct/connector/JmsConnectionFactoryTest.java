package io.aqueduct.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.connector.jms.AdministeredQueue;
import io.aqueduct.connector.jms.AdministeredTopic;
import io.aqueduct.connector.jms.JmsManagedConnectionFactory;
import io.aqueduct.connector.outbound.AqManagedConnection;
import io.aqueduct.connector.outbound.AqManagedConnectionFactory;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TopicConnectionFactory;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.security.PasswordCredential;
import java.nio.file.Path;
import java.util.Set;
import javax.security.auth.Subject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's JMS connection factory as the container builds it from its managed connection
 * factory: its three interfaces, the Users / UserName properties, the admin objects as
 * destinations, the container's sign-on, pool matching, and a LocalTransaction pool's transaction.
 */
class JmsConnectionFactoryTest {
    static final String DEFINITIONS = "table JC_QTAB payload=RAW sort=priority,enq_time; queue JC_Q table=JC_QTAB;"
            + " table JC_MQTAB payload=RAW sort=priority,enq_time multiple_consumers=true; queue JC_T table=JC_MQTAB;"
            + " subscriber JC_T name=AUDIT";

    @TempDir
    Path store;
    private RunningAdapter ra;
    private JmsManagedConnectionFactory mcf;

    @BeforeEach
    void start() throws ResourceException {
        ra = RunningAdapter.onDerby(store, DEFINITIONS);
        mcf = new JmsManagedConnectionFactory();
        mcf.setResourceAdapter(ra.adapter);
    }

    @AfterEach
    void stop() {
        ra.close();
    }

    @Test
    void one_factory_is_a_connection_factory_a_queue_and_a_topic_connection_factory_and_sends_to_admin_objects()
            throws Exception {
        Object cf = mcf.createConnectionFactory();
        assertThat(cf).isInstanceOf(ConnectionFactory.class).isInstanceOf(QueueConnectionFactory.class)
                .isInstanceOf(TopicConnectionFactory.class);
        AdministeredQueue queue = new AdministeredQueue();
        queue.setName("JC_Q");
        AdministeredTopic topic = new AdministeredTopic();
        topic.setName("JC_T");
        try (JMSContext ctx = ((ConnectionFactory) cf).createContext()) {
            ctx.createProducer().send(queue, "to the queue").send(topic, "to the topic");
        }
        assertThat(receive("JC_Q")).isEqualTo("to the queue");
        assertThat(auditCopy()).as("the AQ subscriber's copy of the published message").contains("to the topic");

        AdministeredQueue unnamed = new AdministeredQueue();
        try (JMSContext ctx = ((ConnectionFactory) cf).createContext()) {
            assertThatThrownBy(() -> ctx.createProducer().send(unnamed, "x"))
                    .hasCauseInstanceOf(InvalidDestinationException.class).hasMessageContaining("property name");
        }
    }

    @Test
    void declared_users_must_sign_on_with_their_password_and_a_malformed_users_property_is_refused_naming_it()
            throws Exception {
        mcf.setUsers("clerk=secret;auditor=s3=cret");
        ConnectionFactory cf = (ConnectionFactory) mcf.createConnectionFactory();
        cf.createConnection("clerk", "secret").close();
        cf.createConnection("auditor", "s3=cret").close();
        assertThatThrownBy(() -> cf.createConnection("clerk", "wrong")).isInstanceOf(JMSSecurityException.class);
        assertThatThrownBy(() -> cf.createConnection("mallory", "secret")).isInstanceOf(JMSSecurityException.class);

        mcf.setUsers("clerk");
        assertThatThrownBy(mcf::createConnectionFactory).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("Users");
        mcf.setUsers("clerk=secret");
        mcf.setUserName("clerk");
        mcf.setPassword("nope");
        assertThatThrownBy(mcf::createConnectionFactory).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("UserName 'clerk'");
        mcf.setPassword("secret");
        ((ConnectionFactory) mcf.createConnectionFactory()).createConnection().close();
    }

    @Test
    void the_sender_is_the_signed_on_user_the_configured_user_or_the_adapters() throws Exception {
        mcf.setUserName("ORDER_ENTRY");
        // users other than the adapter's work with the AQ privileges granted to them
        for (String user : java.util.List.of("CLERK", "ORDER_ENTRY")) {
            ra.adapter.engine().admin().grantQueuePrivilege(io.aqueduct.api.QueuePrivilege.ENQUEUE, "JC_Q", user, false);
        }
        ConnectionFactory cf = (ConnectionFactory) mcf.createConnectionFactory();
        try (Connection c = cf.createConnection("clerk", "ignored without Users")) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("JC_Q")).send(s.createTextMessage("by the clerk"));
        }
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("JC_Q")).send(s.createTextMessage("by the resource's user"));
        }
        assertThat(senders()).containsExactly("clerk", "ORDER_ENTRY");

        Subject signedOn = new Subject();
        PasswordCredential credential = new PasswordCredential("SHIPPING", "pw".toCharArray());
        credential.setManagedConnectionFactory(mcf);
        signedOn.getPrivateCredentials().add(credential);
        AqManagedConnection mc = (AqManagedConnection) mcf.createManagedConnection(signedOn, null);
        try {
            assertThat(mc.user()).as("res-auth Container: the container's sign-on").isEqualTo("SHIPPING");
            assertThat(mcf.matchManagedConnections(Set.of(mc), signedOn, null)).isSameAs(mc);
            assertThat(mcf.matchManagedConnections(Set.of(mc), null, null)).as("another user").isNull();
            AqManagedConnectionFactory aq = new AqManagedConnectionFactory();
            aq.setResourceAdapter(ra.adapter);
            assertThat(aq.matchManagedConnections(Set.of(mc), signedOn, null)).as("the native factory's pool").isNull();
        } finally {
            mc.destroy();
        }
    }

    @Test
    void in_a_local_transaction_pool_a_send_waits_for_the_containers_commit() throws Exception {
        LocalPool pool = new LocalPool();
        ConnectionFactory cf = (ConnectionFactory) mcf.createConnectionFactory(pool);
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThat(s.getTransacted()).isTrue();
            s.createProducer(s.createQueue("JC_Q")).send(s.createTextMessage("local"));
        }
        assertThat(receive("JC_Q")).as("before the container commits").isNull();
        pool.transaction.commit();
        assertThat(receive("JC_Q")).isEqualTo("local");
        pool.mc.destroy();
    }

    /** A pool with LocalTransaction support: it begins a local transaction on the connection it hands out. */
    private final class LocalPool implements ConnectionManager {
        private static final long serialVersionUID = 1L;
        AqManagedConnection mc;
        LocalTransaction transaction;

        @Override
        public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info) throws ResourceException {
            if (mc == null) {
                mc = (AqManagedConnection) factory.createManagedConnection(null, info);
                transaction = mc.getLocalTransaction();
                transaction.begin();
            }
            return mc.getConnection(null, info);
        }
    }

    private String receive(String queue) throws Exception {
        try (Connection c = new AqueductConnectionFactory(ra.adapter.engine()).createConnection()) {
            c.start();
            Session s = c.createSession();
            Message m = s.createConsumer(s.createQueue(queue)).receive(1_000);
            return m == null ? null : ((TextMessage) m).getText();
        }
    }

    /** The topic's AQ subscriber AUDIT's copy, its RAW payload (the provider's encoding) read as Latin-1. */
    private String auditCopy() throws Exception {
        try (io.aqueduct.api.QueueSession aq = ra.adapter.engine().openSession()) {
            io.aqueduct.api.Message got = aq.dequeue("JC_T", io.aqueduct.api.DequeueOptions.create().consumerName("AUDIT")
                    .waitSeconds(1));
            aq.commit();
            return new String((byte[]) got.payload(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    private java.util.List<String> senders() throws Exception {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (Connection c = new AqueductConnectionFactory(ra.adapter.engine()).createConnection()) {
            c.start();
            Session s = c.createSession();
            for (Message m; (m = s.createConsumer(s.createQueue("JC_Q")).receive(500)) != null; ) {
                out.add(m.getStringProperty("JMSXUserID"));
            }
        }
        return out;
    }
}
