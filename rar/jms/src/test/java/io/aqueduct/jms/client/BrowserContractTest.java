package io.aqueduct.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.NoSuchElementException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** jakarta.jms.QueueBrowser. */
class BrowserContractTest {
    private JmsStore store;
    private Queue queue;
    private Connection connection;
    private Session session;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("Q");
        connection = store.factory().createConnection();
        connection.start();
        session = connection.createSession();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
        store.close();
    }

    private void send(String... texts) throws JMSException {
        MessageProducer p = session.createProducer(queue);
        for (String t : texts) {
            TextMessage m = session.createTextMessage(t);
            m.setStringProperty("text", t);
            p.send(m);
        }
    }

    private static List<String> texts(Enumeration<?> e) throws JMSException {
        List<String> out = new ArrayList<>();
        while (e.hasMoreElements()) {
            out.add(((TextMessage) e.nextElement()).getText());
        }
        return out;
    }

    @Test
    void everyMethodButCloseThrowsIllegalStateExceptionAfterClose() throws Exception {
        QueueBrowser browser = session.createBrowser(queue, "a = 1");
        browser.close();
        Refusals.of()
                .call("getEnumeration", browser::getEnumeration)
                .call("getQueue", browser::getQueue)
                .call("getMessageSelector", browser::getMessageSelector)
                .allThrow(IllegalStateException.class);
        assertThatCode(browser::close).as("close again").doesNotThrowAnyException();
    }

    @Test
    void browsingAQueueWhoseTableGroupsByTransactionShowsEveryGroupInTurn() throws Exception {
        store.admin().createQueueTable("G_T", io.aqueduct.api.QueueTableProperties.create()
                .payloadType(io.aqueduct.api.PayloadType.RAW).messageGrouping(io.aqueduct.api.MessageGrouping.TRANSACTIONAL));
        store.admin().createQueue("G", "G_T", io.aqueduct.api.QueueProperties.create());
        store.admin().startQueue("G", true, true);
        Queue grouped = session.createQueue("G");
        Session transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = transacted.createProducer(grouped);
        for (String group : List.of("a", "b")) {
            for (int i = 1; i <= 3; i++) {
                p.send(transacted.createTextMessage(group + i));
            }
            transacted.commit(); // one transaction: one group
        }

        assertThat(texts(session.createBrowser(grouped).getEnumeration())).containsExactly("a1", "a2", "a3", "b1", "b2", "b3");
        assertThat(texts(session.createBrowser(grouped).getEnumeration())).as("nothing removed").hasSize(6);
    }

    @Test
    void browsingShowsTheMessagesInOrderWithoutRemovingThem() throws Exception {
        send("1", "2", "3");
        QueueBrowser browser = session.createBrowser(queue);
        assertThat(texts(browser.getEnumeration())).containsExactly("1", "2", "3");
        assertThat(texts(browser.getEnumeration())).as("a second enumeration starts again").containsExactly("1", "2", "3");
        assertThat(((TextMessage) session.createConsumer(queue).receive(5_000)).getText()).isEqualTo("1");
    }

    @Test
    void aSelectorBrowsesOnlyMatchingMessages() throws Exception {
        send("1", "2", "3");
        QueueBrowser browser = session.createBrowser(queue, "text <> '2'");
        assertThat(browser.getMessageSelector()).isEqualTo("text <> '2'");
        assertThat(browser.getQueue()).isEqualTo(queue);
        assertThat(texts(browser.getEnumeration())).containsExactly("1", "3");
    }

    @Test
    void theSelectorIsNullWhenNoneOrEmptyWasGiven() throws Exception {
        assertThat(session.createBrowser(queue).getMessageSelector()).isNull();
        assertThat(session.createBrowser(queue, "").getMessageSelector()).isNull();
    }

    @Test
    void anEmptyQueueHasAnEmptyEnumeration() throws Exception {
        Enumeration<?> e = session.createBrowser(queue).getEnumeration();
        assertThat(e.hasMoreElements()).isFalse();
        assertThatThrownBy(e::nextElement).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void browsedMessagesCarryTheirHeaders() throws Exception {
        TextMessage sent = session.createTextMessage("m");
        session.createProducer(queue).send(sent);
        Message browsed = (Message) session.createBrowser(queue).getEnumeration().nextElement();
        assertThat(browsed.getJMSMessageID()).isEqualTo(sent.getJMSMessageID());
        assertThat(browsed.getJMSDestination()).isEqualTo(queue);
    }

    @Test
    void anInvalidQueueOrSelectorIsRefused() throws Exception {
        assertThatThrownBy(() -> session.createBrowser(null)).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> session.createBrowser(session.createQueue("NOT_THERE"))).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> session.createBrowser(queue, "text = = 1")).isInstanceOf(InvalidSelectorException.class);
    }

    @Test
    void anotherProvidersQueueIsBrowsedByItsName() throws Exception {
        send("1");
        Queue foreign = () -> "Q";
        assertThat(texts(session.createBrowser(foreign).getEnumeration())).containsExactly("1");
    }
}
