package io.aqueduct.it.probe;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/**
 * Jakarta Messaging MDBs (jakarta.jms.MessageListener) on the adapter's JMS activation spec. Each
 * records what it receives under {@code jms:<AQ queue>} (the probe's deliveries?queue=...).
 */
public final class JmsMdbs {
    private JmsMdbs() {
    }

    static String key(String queue) {
        return "jms:" + queue;
    }

    /** The JMS queue declared with @JMSDestinationDefinition, found by its JNDI name (destinationLookup). */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = ProbeQueues.JMS_QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
    })
    public static class Received implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.jmsDelivered(key(ProbeQueues.JMS_Q), message);
        }
    }

    /** Throws on the first N attempts of a message whose text is "fail=N" ("fail=always": every attempt). */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_FLAKY),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "acknowledgeMode", propertyValue = "Auto-acknowledge"),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
    })
    public static class Flaky implements MessageListener {
        @Override
        public void onMessage(Message message) {
            int attempt = attempt(message);
            if (FlakyMdb.failsOn(text(message), attempt)) {
                throw new IllegalStateException("probe failure on attempt " + attempt);
            }
            Recorder.jmsDelivered(key(ProbeQueues.JMS_FLAKY), message);
        }
    }

    /** Marks the delivery transaction rollback-only (no exception) on the first N attempts of "fail=N". */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_ROLLBACK_ONLY),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
    })
    public static class RollbackOnly implements MessageListener {
        @Resource
        private MessageDrivenContext context;

        @Override
        public void onMessage(Message message) {
            int attempt = attempt(message);
            if (FlakyMdb.failsOn(text(message), attempt)) {
                context.setRollbackOnly();
                return;
            }
            Recorder.jmsDelivered(key(ProbeQueues.JMS_ROLLBACK_ONLY), message);
        }
    }

    /** Takes only red messages ({@link ProbeQueues#RED}): the others stay in the queue for other consumers. */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_SELECTED),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = ProbeQueues.RED)
    })
    public static class Selective implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.jmsDelivered(key(ProbeQueues.JMS_SELECTED), message);
        }
    }

    /** Four sessions draining one queue: counts every delivery of every message. */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_DRAIN),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "4")
    })
    public static class Drain implements MessageListener {
        @Override
        public void onMessage(Message message) {
            String key = key(ProbeQueues.JMS_DRAIN);
            Recorder.enter(key);
            try {
                Recorder.delivered(key, id(message));
                try {
                    Thread.sleep(2); // a little work, so that deliveries overlap
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } finally {
                Recorder.leave(key);
            }
        }
    }

    /** The benchmark's JMS consumers: one session and four. They only count. */
    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_BENCH1),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "1")
    })
    public static class BenchOne implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(key(ProbeQueues.JMS_BENCH1), id(message));
        }
    }

    @MessageDriven(activationConfig = {
            @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = ProbeQueues.RA),
            @ActivationConfigProperty(propertyName = "destination", propertyValue = ProbeQueues.JMS_BENCH4),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "4")
    })
    public static class BenchFour implements MessageListener {
        @Override
        public void onMessage(Message message) {
            Recorder.delivered(key(ProbeQueues.JMS_BENCH4), id(message));
        }
    }

    static int attempt(Message m) {
        try {
            return Recorder.jmsAttempt(m.getJMSMessageID(), m.getIntProperty("JMSXDeliveryCount"), m.getJMSRedelivered());
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    static String id(Message m) {
        try {
            return m.getJMSMessageID();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    static String text(Message m) {
        try {
            return m instanceof TextMessage t ? t.getText() : null;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
