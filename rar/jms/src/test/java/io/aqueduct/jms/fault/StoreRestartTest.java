package io.aqueduct.jms.fault;

import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.engine.PrivateServers;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The JMS provider across a database restart: sessions carry on without being recreated, a
 * listener resumes by itself, nothing committed is lost. A PostgreSQL server of the test's own.
 */
class StoreRestartTest {
    private PrivateServers.Postgres server;
    private AqueductEngine engine;
    private Connection connection;

    @BeforeEach
    void start() throws Exception {
        Assumptions.assumeTrue(PrivateServers.postgresInstalled(), "PostgreSQL is not installed here");
        server = PrivateServers.postgres();
        engine = AqueductEngine.builder().jdbc(server.jdbcUrl(), server.user(), server.password()).start();
        engine.admin().createQueueTable("ORDERS_T", QueueTableProperties.create().payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        engine.admin().createQueue("ORDERS", "ORDERS_T", QueueProperties.create());
        engine.admin().startQueue("ORDERS", true, true);
        connection = new AqueductConnectionFactory(engine).createConnection();
        connection.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aListenerResumesAfterTheDatabaseRestartsAndNothingCommittedIsLost() throws Exception {
        Queue orders = connection.createSession().createQueue("ORDERS");
        Set<String> received = ConcurrentHashMap.newKeySet();
        List<JMSException> reported = new CopyOnWriteArrayList<>();
        connection.setExceptionListener(reported::add);
        connection.createSession().createConsumer(orders).setMessageListener(m -> {
            try {
                received.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        Session producerSession = connection.createSession();
        MessageProducer producer = producerSession.createProducer(orders);
        producer.send(producerSession.createTextMessage("before"));
        await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("before"));

        server.stop();
        assertThatThrownBy(() -> producer.send(producerSession.createTextMessage("during")))
                .isInstanceOf(JMSException.class);
        server.start();

        // the same producer and session work again, and the listener picks up by itself
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> {
                    producer.send(producerSession.createTextMessage("after"));
                    return true;
                });
        await().atMost(Duration.ofSeconds(60)).until(() -> received.contains("after"));
        assertThat(received).doesNotContain("during");
        assertThat(reported).isNotEmpty(); // the outage was told to the ExceptionListener
    }

    @Test
    void aSynchronousConsumerFailsDuringTheOutageAndReceivesAfterIt() throws Exception {
        Session session = connection.createSession(Session.SESSION_TRANSACTED);
        Queue orders = session.createQueue("ORDERS");
        session.createProducer(orders).send(session.createTextMessage("kept"));
        session.commit();
        MessageConsumer consumer = session.createConsumer(orders);

        server.stop();
        assertThatThrownBy(() -> consumer.receive(1_000)).isInstanceOf(JMSException.class);
        server.start();

        TextMessage m = await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> (TextMessage) consumer.receive(1_000), java.util.Objects::nonNull);
        assertThat(m.getText()).isEqualTo("kept");
        session.commit();
        assertThat(consumer.receive(500)).isNull();
    }
}
