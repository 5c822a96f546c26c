package io.aqueduct.it.probe;

import io.aqueduct.api.Agent;
import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.samples.booksonline.BooksOnLine;
import io.aqueduct.samples.booksonline.OrderEntry;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.ArrayList;
import java.util.List;

/** Container-transaction work for the tests: everything here runs in a CMT transaction (REQUIRED). */
@Stateless
public class ProbeBean {
    /**
     * Looked up rather than injected: in a WAR, an injected resource of a type the container does
     * not know (a resource-env-ref) is bound twice in java:module and the deployment fails.
     */
    private AqConnectionFactory queues;

    @EJB
    private OrderEntry orderEntry;

    @Resource
    private SessionContext context;

    @jakarta.annotation.PostConstruct
    void lookUp() {
        try {
            queues = javax.naming.InitialContext.doLookup(BooksOnLine.QUEUE_SESSIONS);
        } catch (javax.naming.NamingException e) {
            throw new IllegalStateException("no " + BooksOnLine.QUEUE_SESSIONS + ": " + e, e);
        }
    }

    /** Books an order through the sample's OrderEntry EJB, in this bean's transaction; rolls it back on request. */
    public String book(String orderId, String shipping, String region, boolean rollback) {
        MessageId id = orderEntry.bookOrder(orderId, "customer of " + orderId,
                BooksOnLine.ShippingPriority.valueOf(shipping), region);
        if (rollback) {
            context.setRollbackOnly();
        }
        return id.toString();
    }

    /** Buffered messages enqueued into {@code queue} on this server since it started (AQ's V$BUFFERED_QUEUES.CNUM_MSGS). */
    public long bufferedEnqueued(String queue) {
        try (QueueSession session = queues.openSession()) {
            return session.admin().bufferedQueues().stream().filter(b -> (b.owner() + "." + b.name()).equals(queue))
                    .mapToLong(io.aqueduct.api.BufferedQueueInfo::enqueued).sum();
        }
    }

    public boolean isBooked(String orderId) {
        return orderEntry.isBooked(orderId);
    }

    public boolean isShipped(String orderId) {
        return orderEntry.isShipped(orderId);
    }

    /**
     * Enqueues the texts in one transaction (array enqueue), committed or rolled back; with
     * {@code recipients} (agent names, multi-consumer queues) each message goes to them only.
     */
    public List<String> enqueue(String queue, List<String> texts, long delay, String correlation, String exceptionQueue,
            List<String> recipients, boolean rollback) {
        List<Message> messages = new ArrayList<>(texts.size());
        for (String t : texts) {
            MessageProperties p = MessageProperties.create().delay(delay).correlation(correlation);
            if (exceptionQueue != null) {
                p.exceptionQueue(exceptionQueue);
            }
            if (recipients != null && !recipients.isEmpty()) {
                p.recipients(recipients.stream().map(Agent::named).toList());
            }
            messages.add(Message.of(t, p));
        }
        List<String> ids = new ArrayList<>(texts.size());
        try (QueueSession session = queues.openSession()) {
            for (MessageId id : session.enqueueArray(queue, EnqueueOptions.create(), messages)) {
                ids.add(id.toString());
            }
        }
        if (rollback) {
            context.setRollbackOnly();
        }
        return ids;
    }

    /** One message, in a transaction of its own (the EJB-enqueue benchmark calls this in a loop). */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void enqueueOne(String queue, String text) {
        try (QueueSession session = queues.openSession()) {
            session.enqueue(queue, Message.of(text));
        }
    }

    /** Dequeues (REMOVE, no wait) the message with this id from the queue; null when it is not there. */
    public String dequeue(String queue, String msgid) {
        try (QueueSession session = queues.openSession()) {
            DequeueOptions o = DequeueOptions.create().mode(DequeueMode.REMOVE).waitSeconds(DequeueOptions.NO_WAIT);
            if (msgid != null) {
                o.messageId(MessageId.parse(msgid));
            }
            Message m = session.dequeue(queue, o);
            return m.text() + "|attempts=" + m.properties().attempts() + "|state=" + m.properties().state();
        } catch (AqException e) {
            return null;
        }
    }
}
