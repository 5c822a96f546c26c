package io.aqueduct.samples.booksonline;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.SubscriberInfo;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * How many messages wait in BooksOnLine's queues, counted by browsing them (the API has no depth query): a
 * browse sees the messages ready for dequeue (not those delayed or waiting for a retry), at most
 * {@value #MAX} per queue and consumer. A multi-consumer queue is counted per subscriber.
 */
@Stateless
public class QueueDepths {
    /** The most messages browsed per queue and consumer: a page needs a number, not a scan of a huge queue. */
    public static final int MAX = 1000;

    /** The queues, in the order an order travels through them. */
    private static final List<String> QUEUES = List.of(BooksOnLine.BOOKED_ORDERS, BooksOnLine.SHIPPING_ORDERS,
            BooksOnLine.BILLING, BooksOnLine.NOTIFICATIONS);

    /**
     * A queue's (or one subscriber's) ready messages; {@code capped}: there are at least {@code ready}, the
     * browse stopped at {@value #MAX}.
     */
    public record Depth(String queue, String subscriber, int ready, boolean capped) implements Serializable {
    }

    @Resource(lookup = BooksOnLine.QUEUE_SESSIONS)
    private AqConnectionFactory queues;

    /** Outside any transaction: browsing takes no locks and changes nothing. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Depth> depths() {
        List<Depth> depths = new ArrayList<>();
        try (QueueSession session = queues.openSession()) {
            for (String queue : QUEUES) {
                List<SubscriberInfo> subscribers = session.admin().subscribers(queue);
                if (subscribers.isEmpty()) {
                    depths.add(count(session, queue, null));
                } else {
                    for (SubscriberInfo s : subscribers) {
                        depths.add(count(session, queue, s.agent().name()));
                    }
                }
            }
        }
        return depths;
    }

    private static Depth count(QueueSession session, String queue, String subscriber) {
        DequeueOptions browse = DequeueOptions.create().mode(DequeueMode.BROWSE).waitSeconds(DequeueOptions.NO_WAIT);
        if (subscriber != null) {
            browse.consumerName(subscriber);
        }
        int ready = session.dequeueArray(queue, browse, MAX).size();
        return new Depth(queue, subscriber, ready, ready >= MAX);
    }
}
