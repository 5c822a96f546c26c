package io.aqueduct.it.probe;

import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Not MDBs here (no annotation): the durable-subscription test deploys them in a WAR of their own
 * (JmsContainerIT's topic WAR, with an ejb-jar.xml giving each its activation config on the topic
 * IT.JMS_T: one Durable subscription, one NonDurable), undeploys it, publishes, and deploys it
 * again. Each records under its key in that WAR's Recorder, read through its {@link RecorderServlet}.
 */
public final class TopicMdbs {
    public static final String DURABLE = "topic/durable";
    public static final String NON_DURABLE = "topic/nondurable";

    private TopicMdbs() {
    }

    public static class Durable implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.jmsDelivered(DURABLE, message);
        }
    }

    public static class NonDurable implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.jmsDelivered(NON_DURABLE, message);
        }
    }
}
