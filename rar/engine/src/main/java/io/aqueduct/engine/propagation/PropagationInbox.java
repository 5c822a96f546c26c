package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqException;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.PropagatedMessage;
import io.aqueduct.engine.store.PropagationReceiptEntity;
import io.aqueduct.engine.time.AqClock;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The receiving end of propagation from another store: enqueues what arrives into this store's
 * queues with a receipt per message (AQ_PROPAGATION_RECEIPT), in the session's transaction — the
 * caller commits. The same whether the source reached this store directly or over HTTP.
 */
final class PropagationInbox {
    private static final int IN_LIST = 500;

    private PropagationInbox() {
    }

    /**
     * Delivers the arrivals whose receipt is not there yet. What a destination queue refuses (it does
     * not exist, a message does not suit it) comes back as refused; what blocks the way (the queue is
     * stopped for enqueue, the store fails) is thrown. {@code source} null: the source is this store,
     * in the same transaction, and no receipts are kept.
     */
    static List<LinkSession.Arrived> receive(EngineSession session, AqClock clock, String source,
            List<LinkSession.Arrival> arrivals) {
        List<String> ids = arrivals.stream().map(LinkSession.Arrival::receiptId).toList();
        Set<String> present = source == null ? Set.of() : session.inTransaction(em -> present(em, ids));
        LinkSession.Arrived[] out = new LinkSession.Arrived[arrivals.size()];
        Map<String, List<Integer>> byQueue = new LinkedHashMap<>();
        for (int i = 0; i < arrivals.size(); i++) {
            if (source != null && present.contains(arrivals.get(i).receiptId())) {
                out[i] = LinkSession.Arrived.PRESENT; // delivered by a batch whose source commit was lost
            } else {
                byQueue.computeIfAbsent(arrivals.get(i).queue().toUpperCase(Locale.ROOT), k -> new ArrayList<>()).add(i);
            }
        }
        for (List<Integer> positions : byQueue.values()) {
            String queue = arrivals.get(positions.get(0)).queue();
            QueueMeta destination = destination(session, queue);
            List<PropagatedMessage> batch = new ArrayList<>(positions.size());
            for (int i : positions) {
                PropagatedMessage pm = arrivals.get(i).message();
                if ((destination == null || !destination.table().multipleConsumers())
                        && pm.message().properties().recipients() != null) {
                    // a single-consumer destination has no consumers to name: the message is simply enqueued
                    MessageProperties p = pm.message().properties().copy().recipients(null);
                    pm = new PropagatedMessage(Message.of(pm.message().payload(), p), pm.originalMsgid(), pm.startsGroup());
                }
                batch.add(pm);
            }
            List<PropagatedMessage.Delivery> results = session.enqueuePropagated(queue, batch);
            List<PropagationReceiptEntity> written = new ArrayList<>();
            for (int k = 0; k < positions.size(); k++) {
                int i = positions.get(k);
                PropagatedMessage.Delivery d = results.get(k);
                if (!d.delivered()) {
                    out[i] = new LinkSession.Arrived(false, d.refused());
                    continue;
                }
                out[i] = LinkSession.Arrived.DELIVERED;
                if (source == null) {
                    continue;
                }
                PropagationReceiptEntity r = new PropagationReceiptEntity();
                r.id = arrivals.get(i).receiptId();
                r.queueId = destination == null ? 0 : destination.id();
                r.source = source;
                r.createdMs = clock.millis();
                written.add(r);
            }
            if (!written.isEmpty()) {
                session.inTransaction(em -> {
                    written.forEach(em::persist);
                    return null;
                });
            }
        }
        return List.of(out);
    }

    /**
     * Delivers buffered arrivals into this engine's memory, BUFFERED, one by one in their order, each
     * with a receipt in memory (not in the store: it would outlive the message it stands for), so that a
     * source that did not get the answer and sends again finds them delivered. What a queue refuses for
     * good comes back as refused; what blocks the way (25207, a full buffered memory: 25307) is thrown —
     * the arrivals before it are delivered and have their receipts.
     */
    static List<LinkSession.Arrived> receiveBuffered(EngineSession session, List<LinkSession.Arrival> arrivals) {
        io.aqueduct.engine.buffered.BufferedMessages memory = session.bufferedMessages();
        List<LinkSession.Arrived> out = new ArrayList<>(arrivals.size());
        for (LinkSession.Arrival a : arrivals) {
            if (memory.hasReceipt(a.receiptId())) {
                out.add(LinkSession.Arrived.PRESENT); // delivered by a try whose answer was lost
                continue;
            }
            PropagatedMessage.Delivery d = session.enqueuePropagatedBuffered(a.queue(), a.message());
            if (d.delivered()) {
                memory.receipt(a.receiptId());
                out.add(LinkSession.Arrived.DELIVERED);
            } else {
                out.add(new LinkSession.Arrived(false, d.refused()));
            }
        }
        return out;
    }

    /** The destination queue, or null when it is not there (enqueuePropagated reports that for each message). */
    private static QueueMeta destination(EngineSession session, String queue) {
        try {
            return session.queueMeta(queue);
        } catch (AqException e) {
            if (!ScheduleRun.isApplicationError(e)) {
                throw e;
            }
            return null;
        }
    }

    private static Set<String> present(EntityManager em, List<String> ids) {
        Set<String> found = new HashSet<>();
        for (int i = 0; i < ids.size(); i += IN_LIST) {
            found.addAll(em.createQuery("SELECT r.id FROM PropagationReceiptEntity r WHERE r.id IN :ids", String.class)
                    .setParameter("ids", ids.subList(i, Math.min(ids.size(), i + IN_LIST))).getResultList());
        }
        return found;
    }

    /** Removes these receipts. */
    static void forget(EngineSession session, List<String> receiptIds) {
        session.inTransaction(em -> {
            for (int i = 0; i < receiptIds.size(); i += IN_LIST) {
                em.createQuery("DELETE FROM PropagationReceiptEntity r WHERE r.id IN :ids")
                        .setParameter("ids", receiptIds.subList(i, Math.min(receiptIds.size(), i + IN_LIST))).executeUpdate();
            }
            return null;
        });
    }

    /** Up to {@code max} receipts {@code source} left, in id order after {@code after}. */
    static List<LinkSession.Receipt> receipts(EngineSession session, String source, String after, int max) {
        return session.inTransaction(em -> em.createQuery("SELECT r FROM PropagationReceiptEntity r WHERE r.source = :s"
                + " AND r.id > :after ORDER BY r.id", PropagationReceiptEntity.class)
                .setParameter("s", source).setParameter("after", after).setMaxResults(max).getResultList().stream()
                .map(r -> new LinkSession.Receipt(r.id, r.createdMs)).toList());
    }
}
