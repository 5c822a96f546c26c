package io.aqueduct.jms.client;

import io.aqueduct.api.SubscriberInfo;
import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicSubscriptionTest {
    private JmsStore store;
    private Topic news;
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        news = store.topic("NEWS");
        connection = store.factory().createConnection();
        connection.setClientID("reader");
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private void publish(Connection via, String text, String region) throws Exception {
        try (Session s = via.createSession()) {
            TextMessage m = s.createTextMessage(text);
            m.setStringProperty("region", region);
            s.createProducer(news).send(m);
        }
    }

    private static String text(Message m) throws Exception {
        return m == null ? null : ((TextMessage) m).getText();
    }

    @Test
    void everySubscriberGetsItsOwnCopy() throws Exception {
        Session s = connection.createSession();
        MessageConsumer one = s.createConsumer(news);
        MessageConsumer two = s.createConsumer(news);
        publish(connection, "hello", "EAST");
        assertThat(text(one.receive(5_000))).isEqualTo("hello");
        assertThat(text(two.receive(5_000))).isEqualTo("hello");
    }

    @Test
    void aNonDurableSubscriptionEndsWithItsConsumer() throws Exception {
        Session s = connection.createSession();
        MessageConsumer c = s.createConsumer(news, "region = 'WEST'");
        assertThat(store.admin().subscribers("NEWS")).hasSize(1);
        c.close();
        assertThat(store.admin().subscribers("NEWS")).isEmpty();
        publish(connection, "nobody listens", "WEST");
        assertThat(s.createConsumer(news).receive(200)).isNull();
    }

    @Test
    void aSubscriberSelectorIsItsRuleSoOnlyMatchingMessagesAreQueuedForIt() throws Exception {
        Session s = connection.createSession();
        MessageConsumer west = s.createConsumer(news, "region = 'WEST'");
        SubscriberInfo info = store.admin().subscribers("NEWS").get(0);
        assertThat(info.rule()).isEqualTo("region = 'WEST'");
        publish(connection, "east news", "EAST");
        publish(connection, "west news", "WEST");
        assertThat(text(west.receive(5_000))).isEqualTo("west news");
        assertThat(west.receive(200)).isNull();
    }

    @Test
    void noLocalConsumersDoNotGetTheirOwnConnectionsMessages() throws Exception {
        Session s = connection.createSession();
        MessageConsumer notMine = s.createConsumer(news, null, true);
        publish(connection, "mine", "EAST");
        try (Connection other = store.factory().createConnection()) {
            publish(other, "theirs", "EAST");
        }
        assertThat(text(notMine.receive(5_000))).isEqualTo("theirs");
        assertThat(notMine.receive(200)).isNull();
    }

    @Test
    void aDurableSubscriptionKeepsMessagesWhileItsConsumerIsAway() throws Exception {
        Session s = connection.createSession();
        s.createDurableConsumer(news, "daily").close();
        publish(connection, "while away", "EAST");
        MessageConsumer back = s.createDurableConsumer(news, "daily");
        assertThat(text(back.receive(5_000))).isEqualTo("while away");
        back.close();
        s.unsubscribe("daily");
        assertThat(store.admin().subscribers("NEWS")).isEmpty();
    }

    @Test
    void aDurableSubscriptionSurvivesTheConnection() throws Exception {
        Session s = connection.createSession();
        s.createDurableSubscriber(news, "daily", "region = 'WEST'", false).close();
        connection.close();
        try (Connection publisher = store.factory().createConnection()) {
            publish(publisher, "west", "WEST");
            publish(publisher, "east", "EAST");
        }
        connection = store.factory().createConnection();
        connection.setClientID("reader");
        connection.start();
        MessageConsumer again = connection.createSession().createDurableSubscriber(news, "daily", "region = 'WEST'", false);
        assertThat(text(again.receive(5_000))).isEqualTo("west");
        assertThat(again.receive(200)).isNull();
    }

    @Test
    void changingTheSelectorOfADurableSubscriptionStartsItAfresh() throws Exception {
        Session s = connection.createSession();
        s.createDurableConsumer(news, "daily").close();
        publish(connection, "old", "EAST");
        MessageConsumer changed = s.createDurableConsumer(news, "daily", "region = 'WEST'", false);
        assertThat(changed.receive(200)).isNull();
        assertThat(store.admin().subscribers("NEWS")).extracting(SubscriberInfo::rule).containsExactly("region = 'WEST'");
    }

    @Test
    void anUnsharedDurableSubscriptionHasOneConsumerAtATime() throws Exception {
        Session s = connection.createSession();
        s.createDurableConsumer(news, "daily");
        assertThatThrownBy(() -> s.createDurableConsumer(news, "daily")).isInstanceOf(jakarta.jms.IllegalStateException.class);
        assertThatThrownBy(() -> s.unsubscribe("daily")).isInstanceOf(jakarta.jms.IllegalStateException.class);
    }

    @Test
    void unsubscribingAnUnknownSubscriptionIsAnInvalidDestination() throws Exception {
        assertThatThrownBy(() -> connection.createSession().unsubscribe("never"))
                .isInstanceOf(InvalidDestinationException.class);
    }

    @Test
    void anUnsharedDurableSubscriptionNeedsAClientId() throws Exception {
        try (Connection anonymous = store.factory().createConnection()) {
            assertThatThrownBy(() -> anonymous.createSession().createDurableConsumer(news, "daily"))
                    .isInstanceOf(jakarta.jms.IllegalStateException.class);
        }
    }

    @Test
    void sharedSubscriptionsSplitTheMessagesBetweenTheirConsumers() throws Exception {
        Session a = connection.createSession();
        Session b = connection.createSession();
        MessageConsumer first = a.createSharedConsumer(news, "workers");
        MessageConsumer second = b.createSharedConsumer(news, "workers");
        assertThat(store.admin().subscribers("NEWS")).hasSize(1);
        publish(connection, "one", "EAST");
        publish(connection, "two", "EAST");
        Message m1 = first.receive(5_000);
        Message m2 = second.receive(5_000);
        assertThat(java.util.stream.Stream.of(text(m1), text(m2))).containsExactlyInAnyOrder("one", "two");
        first.close();
        assertThat(store.admin().subscribers("NEWS")).hasSize(1);
        second.close();
        assertThat(store.admin().subscribers("NEWS")).isEmpty();
    }

    @Test
    void aSharedDurableSubscriptionOutlivesItsConsumers() throws Exception {
        Session s = connection.createSession();
        s.createSharedDurableConsumer(news, "archive").close();
        publish(connection, "kept", "EAST");
        assertThat(text(s.createSharedDurableConsumer(news, "archive").receive(5_000))).isEqualTo("kept");
    }

    @Test
    void aMalformedSelectorIsRefusedAndNoSubscriberIsLeft() throws Exception {
        Session s = connection.createSession();
        assertThatThrownBy(() -> s.createConsumer(news, "region = = 'x'")).isInstanceOf(InvalidSelectorException.class);
        assertThatThrownBy(() -> s.createDurableConsumer(news, "bad", "region LIKE", false))
                .isInstanceOf(InvalidSelectorException.class);
        assertThat(store.admin().subscribers("NEWS")).isEmpty();
    }

    @Test
    void aTopicNamingASingleConsumerQueueIsRefused() throws Exception {
        store.queue("PLAIN");
        Session s = connection.createSession();
        assertThatThrownBy(() -> s.createConsumer(s.createTopic("PLAIN"))).isInstanceOf(InvalidDestinationException.class);
        assertThatThrownBy(() -> s.createConsumer(s.createQueue("NEWS"))).isInstanceOf(InvalidDestinationException.class);
    }
}
