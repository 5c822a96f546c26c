package io.aqueduct.jms.client;

import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicRequestor;
import jakarta.jms.TopicSession;
import jakarta.jms.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** jakarta.jms.QueueRequestor and TopicRequestor over Aqueduct sessions: temporary destinations for the reply. */
class RequestorTest {
    private JmsStore store;
    private Connection replier;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        replier = store.factory().createConnection();
    }

    @AfterEach
    void close() throws Exception {
        replier.close();
        store.close();
    }

    /** Answers each request on {@code from} with "re: " + its text, to its JMSReplyTo, with its message id as correlation. */
    private void replyOn(jakarta.jms.Destination from) throws Exception {
        Session s = replier.createSession();
        MessageProducer replies = s.createProducer(null);
        s.createConsumer(from).setMessageListener(request -> {
            try {
                TextMessage reply = s.createTextMessage("re: " + ((TextMessage) request).getText());
                reply.setJMSCorrelationID(request.getJMSMessageID());
                replies.send(request.getJMSReplyTo(), reply);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        replier.start();
    }

    @Test
    void aQueueRequestorGetsTheReplyOnItsTemporaryQueue() throws Exception {
        Queue requests = store.queue("REQUESTS");
        replyOn(requests);
        try (QueueConnection c = store.factory().createQueueConnection()) {
            c.start();
            QueueSession session = c.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
            QueueRequestor requestor = new QueueRequestor(session, requests);
            TextMessage request = session.createTextMessage("ping");
            Message reply = requestor.request(request);
            assertThat(((TextMessage) reply).getText()).isEqualTo("re: ping");
            assertThat(reply.getJMSCorrelationID()).isEqualTo(request.getJMSMessageID());
            assertThat(((TextMessage) requestor.request(session.createTextMessage("again"))).getText()).isEqualTo("re: again");
            requestor.close(); // closes the session and deletes the temporary queue
        }
    }

    @Test
    void aTopicRequestorGetsTheReplyOnItsTemporaryTopic() throws Exception {
        Topic requests = store.topic("REQUESTS");
        replyOn(requests);
        try (TopicConnection c = store.factory().createTopicConnection()) {
            c.start();
            TopicSession session = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            TopicRequestor requestor = new TopicRequestor(session, requests);
            Message reply = requestor.request(session.createTextMessage("ping"));
            assertThat(((TextMessage) reply).getText()).isEqualTo("re: ping");
            requestor.close();
        }
    }
}
