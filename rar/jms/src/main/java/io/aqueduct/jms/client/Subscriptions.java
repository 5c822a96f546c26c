package io.aqueduct.jms.client;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueInfo;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SubscriberInfo;
import io.aqueduct.jms.destination.AqueductTopic;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

/**
 * Topic subscriptions as AQ subscribers of the topic's multi-consumer queue. The subscriber's rule
 * is the JMS selector (AQ rule syntax SELECTOR), with noLocal as one more clause on the sending
 * connection (non-durable) or client id (durable), so the engine queues for a subscription only
 * what it will deliver.
 *
 * <p>Subscriber names: {@code JMS_N} + random (a non-durable consumer, removed when it closes),
 * {@code JMS_D} / {@code JMS_S} / {@code JMS_H} + a hash of client id and subscription name
 * (durable, shared durable, shared non-durable). Which subscriptions are active (have consumers)
 * is known per JVM.
 */
final class Subscriptions {
    // active consumers per subscription, per store: "QUEUE/SUBSCRIBER" -> state
    private static final Map<AqConnectionFactory, Map<String, Active>> ACTIVE = new WeakHashMap<>();

    private Subscriptions() {
    }

    /** What a topic consumer needs from its subscription. */
    interface Subscription {
        String consumerName();

        boolean noLocal();

        /** The consumer closed: a non-durable subscription ends with its last consumer. */
        void consumerClosed();
    }

    private static final class Active {
        final String queue;
        final String rule;
        int consumers;

        Active(String queue, String rule) {
            this.queue = queue;
            this.rule = rule;
        }
    }

    // ------------------------------------------------------------------ non-durable

    static Subscription nonDurable(AqueductSession session, AqueductTopic topic, String selector, boolean noLocal)
            throws JMSException {
        String name = "JMS_N" + AqueductConnection.randomName(25);
        String rule = rule(selector, noLocal ? clause(MessageMapping.CONNECTION_ID, session.connection.connectionId) : null);
        QueueAdmin admin = session.connection.adminSession();
        add(admin, topic, name, rule, selector);
        return new Subscription() {
            @Override
            public String consumerName() {
                return name;
            }

            @Override
            public boolean noLocal() {
                return noLocal;
            }

            @Override
            public void consumerClosed() {
                removeQuietly(session, topic.queueName(), name);
            }
        };
    }

    // ------------------------------------------------------------------ durable (shared or not)

    static Subscription durable(AqueductSession session, AqueductTopic topic, String subscription, String selector,
            boolean noLocal, boolean shared) throws JMSException {
        checkName(subscription);
        String clientId = session.connection.clientIdOrNull();
        if (!shared && clientId == null) {
            throw new jakarta.jms.IllegalStateException("An unshared durable subscription needs the connection's client id:"
                    + " set one (Connection.setClientID or a connection factory with a client id) first.");
        }
        String name = (shared ? "JMS_S" : "JMS_D") + hash(clientId, subscription);
        String rule = rule(selector, noLocal && clientId != null ? clause(MessageMapping.CLIENT_ID, clientId) : null);
        String key = key(topic.queueName(), name);
        QueueAdmin admin = session.connection.adminSession();
        synchronized (ACTIVE) {
            Map<String, Active> active = active(session);
            Active a = activeOn(active, name);
            if (a != null && !shared) {
                throw new jakarta.jms.IllegalStateException("Durable subscription '" + subscription + "' of client '" + clientId
                        + "' already has a consumer; an unshared subscription has one at a time.");
            }
            if (a != null && (!a.queue.equalsIgnoreCase(topic.queueName()) || !Objects.equals(a.rule, rule))) {
                throw new JMSException("Shared durable subscription '" + subscription + "' has consumers on "
                        + a.queue + (Objects.equals(a.rule, rule) ? "" : " with another selector")
                        + "; close them before using it with another topic or selector.");
            }
            if (a == null) {
                // the subscription may exist in the store: keep it when it is the same, else replace it (JMS 6.11.1)
                String[] existing = find(admin, name);
                if (existing != null && (!existing[0].equalsIgnoreCase(qualified(admin, topic.queueName()))
                        || !Objects.equals(existing[1], rule))) {
                    remove(admin, existing[0], name);
                    existing = null;
                }
                if (existing == null) {
                    add(admin, topic, name, rule, selector);
                }
                a = new Active(topic.queueName(), rule);
                active.put(key, a);
            }
            a.consumers++;
        }
        return counted(session, topic, name, key, noLocal, false);
    }

    static Subscription sharedNonDurable(AqueductSession session, AqueductTopic topic, String subscription, String selector)
            throws JMSException {
        checkName(subscription);
        String clientId = session.connection.clientIdOrNull();
        String name = "JMS_H" + hash(clientId, subscription);
        String rule = rule(selector, null);
        String key = key(topic.queueName(), name);
        QueueAdmin admin = session.connection.adminSession();
        synchronized (ACTIVE) {
            Map<String, Active> active = active(session);
            Active a = activeOn(active, name);
            if (a != null && (!a.queue.equalsIgnoreCase(topic.queueName()) || !Objects.equals(a.rule, rule))) {
                throw new JMSException("Shared subscription '" + subscription + "' has consumers on " + a.queue
                        + (Objects.equals(a.rule, rule) ? "" : " with another selector") + ".");
            }
            if (a == null) {
                String[] leftover = find(admin, name); // left by a JVM that stopped with consumers open
                if (leftover != null) {
                    remove(admin, leftover[0], name);
                }
                add(admin, topic, name, rule, selector);
                a = new Active(topic.queueName(), rule);
                active.put(key, a);
            }
            a.consumers++;
        }
        return counted(session, topic, name, key, false, true);
    }

    private static Subscription counted(AqueductSession session, AqueductTopic topic, String name, String key,
            boolean noLocal, boolean endsWithLastConsumer) {
        return new Subscription() {
            @Override
            public String consumerName() {
                return name;
            }

            @Override
            public boolean noLocal() {
                return noLocal;
            }

            @Override
            public void consumerClosed() {
                boolean last;
                synchronized (ACTIVE) {
                    Map<String, Active> active = active(session);
                    Active a = active.get(key);
                    last = a != null && --a.consumers == 0;
                    if (last) {
                        active.remove(key);
                    }
                }
                if (last && endsWithLastConsumer) {
                    removeQuietly(session, topic.queueName(), name);
                }
            }
        };
    }

    /** Session.unsubscribe: the durable subscription of this client id and name, shared or not. */
    static void unsubscribe(AqueductSession session, String subscription) throws JMSException {
        checkName(subscription);
        String clientId = session.connection.clientIdOrNull();
        QueueAdmin admin = session.connection.adminSession();
        boolean removed = false;
        for (String name : new String[] {"JMS_D" + hash(clientId, subscription), "JMS_S" + hash(clientId, subscription)}) {
            synchronized (ACTIVE) {
                if (activeOn(active(session), name) != null) {
                    throw new jakarta.jms.IllegalStateException("Durable subscription '" + subscription
                            + "' has an open consumer; close it before unsubscribing.");
                }
                String[] existing = find(admin, name);
                if (existing != null) {
                    remove(admin, existing[0], name);
                    removed = true;
                }
            }
        }
        if (!removed) {
            throw new InvalidDestinationException("There is no durable subscription '" + subscription + "'"
                    + (clientId == null ? " without a client id" : " of client '" + clientId + "'") + ".");
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void add(QueueAdmin admin, AqueductTopic topic, String name, String rule, String selector)
            throws JMSException {
        try {
            // the narrow operation: a user that may receive from the topic may subscribe (no MANAGE_ANY)
            admin.addJmsSubscriber(topic.queueName(), name, rule);
        } catch (AqException e) {
            throw JmsErrors.ofSelector(e, selector);
        }
    }

    private static void remove(QueueAdmin admin, String queue, String name) throws JMSException {
        try {
            admin.removeJmsSubscriber(queue, name);
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    private static void removeQuietly(AqueductSession session, String queue, String name) {
        try {
            remove(session.connection.adminSession(), queue, name);
        } catch (JMSException | RuntimeException e) {
            java.util.logging.Logger.getLogger(Subscriptions.class.getName()).log(java.util.logging.Level.WARNING,
                    "Could not remove subscriber " + name + " of " + queue + "; remove it with QueueAdmin.removeSubscriber", e);
        }
    }

    /** {queue (owner.name), rule} of the subscriber named {@code name} on any topic, or null. */
    private static String[] find(QueueAdmin admin, String name) throws JMSException {
        try {
            for (QueueInfo q : admin.queues()) {
                if (q.queueType() != QueueType.NORMAL || !admin.queueTable(q.owner() + "." + q.queueTable()).multipleConsumers()) {
                    continue;
                }
                String qualified = q.owner() + "." + q.name();
                for (SubscriberInfo s : admin.subscribers(qualified)) {
                    if (name.equalsIgnoreCase(s.agent().name())) {
                        return new String[] {qualified, s.rule()};
                    }
                }
            }
            return null;
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    private static String qualified(QueueAdmin admin, String queue) throws JMSException {
        try {
            QueueInfo q = admin.queue(queue);
            return q.owner() + "." + q.name();
        } catch (AqException e) {
            throw JmsErrors.of(e);
        }
    }

    private static Map<String, Active> active(AqueductSession session) {
        return ACTIVE.computeIfAbsent(session.connection.factory.sessions, k -> new HashMap<>());
    }

    private static Active activeOn(Map<String, Active> active, String name) {
        for (Map.Entry<String, Active> e : active.entrySet()) {
            if (e.getKey().endsWith("/" + name)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static String key(String queue, String name) {
        return AqueductConnection.upper(queue) + "/" + name;
    }

    static String rule(String selector, String noLocalClause) {
        String s = selector == null || selector.isBlank() ? null : selector;
        if (noLocalClause == null) {
            return s;
        }
        return s == null ? noLocalClause : "(" + s + ") AND " + noLocalClause;
    }

    private static String clause(String property, String value) {
        return "(" + property + " IS NULL OR " + property + " <> '" + value.replace("'", "''") + "')";
    }

    private static void checkName(String subscription) throws JMSException {
        if (subscription == null || subscription.isEmpty()) {
            throw new JMSException("A subscription needs a name (not null or empty).");
        }
    }

    /** 25 base-32 characters of SHA-256(client id, name): with the 5-character prefix, AQ's 30-byte agent name. */
    static String hash(String clientId, String subscription) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((clientId == null ? "" : clientId).getBytes(StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update(subscription.getBytes(StandardCharsets.UTF_8));
            byte[] h = d.digest();
            String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
            StringBuilder b = new StringBuilder(25);
            long bits = 0;
            int have = 0;
            for (int i = 0; b.length() < 25; ) {
                if (have < 5) {
                    bits = (bits << 8) | (h[i++] & 0xff);
                    have += 8;
                }
                b.append(alphabet.charAt((int) ((bits >> (have - 5)) & 31)));
                have -= 5;
            }
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
