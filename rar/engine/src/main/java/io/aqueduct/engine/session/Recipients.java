package io.aqueduct.engine.session;

import io.aqueduct.engine.store.ConsumerStateEntity;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.engine.expression.MessageSnapshot;
import io.aqueduct.engine.expression.MessageView;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.Subscriber;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who receives a message of a multi-consumer queue: its recipient list when one is given (the
 * recipients need not be subscribers), else every subscriber whose rule is true for the message at
 * enqueue time. Rules are evaluated in memory, on one view of the message (its payload parsed once).
 */
final class Recipients {
    private Recipients() {
    }

    /** The consumers of {@code m}; null on a single-consumer queue. Refuses what cannot be delivered. */
    static List<Subscriber> of(QueueRuntime q, Message m, Instant now) {
        QueueMeta meta = q.meta();
        MessageProperties p = m.properties();
        if (!meta.table().multipleConsumers()) {
            if (p.recipients() != null) {
                throw new AqException(AqError.NOT_MULTI_CONSUMER, "Queue " + meta.qualifiedName()
                        + " is a single-consumer queue: a recipient list is for multi-consumer queues.");
            }
            return null;
        }
        if (p.recipients() != null) {
            if (p.recipients().isEmpty()) {
                throw new AqException(AqError.NO_RECIPIENTS, "The recipient list is empty: name at least one agent, or"
                        + " give none to send to the subscribers of " + meta.qualifiedName() + ".");
            }
            List<Subscriber> out = new ArrayList<>();
            Set<String> keys = new HashSet<>();
            for (Agent a : p.recipients()) {
                if (a == null) {
                    throw new AqException(AqError.INVALID_VALUE, "The recipient list holds a null agent.");
                }
                if (a.address() != null && a.protocol() == 0) {
                    io.aqueduct.engine.queue.RemoteAddress.parse(a.address()); // propagation must be able to serve it: 44003
                }
                Subscriber s = Subscriber.of(a, null);
                if (!keys.add(s.key())) {
                    throw new AqException(AqError.DUPLICATE_RECIPIENTS, "Agent " + describe(a)
                            + " appears more than once in the recipient list.");
                }
                out.add(s);
            }
            return out;
        }
        List<Subscriber> out = new ArrayList<>();
        MessageView view = null;
        for (Subscriber s : q.subscribers()) {
            if (s.rule() == null) {
                out.add(s);
                continue;
            }
            if (view == null) {
                view = view(meta, m, now);
            }
            if (s.rule().test(view)) {
                out.add(s);
            }
        }
        if (out.isEmpty()) {
            throw new AqException(AqError.NO_RECIPIENTS, "No recipients for the message in " + meta.qualifiedName()
                    + ": " + (q.subscribers().isEmpty() ? "the queue has no subscribers" : "no subscriber's rule is true for it")
                    + " and no recipient list was given.");
        }
        return out;
    }

    static MessageView view(QueueMeta meta, Message m, Instant now) {
        MessageProperties p = m.properties();
        return MessageSnapshot.builder().priority(p.priority()).correlation(p.correlation()).enqueueTime(now).sysdate(now)
                .delay(p.delay()).expiration(p.expiration()).retryCount(0)
                .senderName(p.sender() == null ? null : p.sender().name()).userProperties(p.userProperties())
                .payload(meta.table().payloadType(), m.payload()).build();
    }

    static String describe(Agent a) {
        return "(" + a.name() + ", " + a.address() + ", " + a.protocol() + ")";
    }

    /** The row of one consumer's part of a new message: READY for it. */
    static ConsumerStateEntity pendingPart(String msgid, long queueId, Subscriber consumer) {
        ConsumerStateEntity c = new ConsumerStateEntity();
        c.id = ConsumerStateEntity.id(msgid, consumer.key());
        c.msgid = msgid;
        c.queueId = queueId;
        c.consumer = consumer.key();
        c.name = consumer.agent().name();
        c.address = consumer.agent().address();
        c.protocol = consumer.agent().protocol();
        io.aqueduct.engine.queue.RemoteAddress remote = io.aqueduct.engine.queue.RemoteAddress.of(consumer.agent());
        c.destination = remote == null ? null : remote.destination();
        c.state = ConsumerStates.READY;
        return c;
    }
}
