package io.aqueduct.engine.queue;

import io.aqueduct.api.MessageState;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.Statements;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Fills the queues' ready indexes from the table: at start, after an XA branch recovered after a
 * restart ended, and for the messages of one such branch. What can be dequeued is what the table
 * says: READY messages (each local consumer's pending part on a multi-consumer queue) and EXPIRED
 * ones in exception queues. Messages an in-doubt branch holds stay out.
 */
public final class ReadyIndexLoader {
    private final OwnTransactions own;
    private final Catalog catalog;
    private final Set<String> inDoubt;
    private final Consumer<String> nobodyPending;

    /**
     * {@code inDoubt}: a live view of the messages in-doubt branches hold; {@code nobodyPending}
     * hears of a multi-consumer message no consumer has pending any more (to be completed).
     */
    public ReadyIndexLoader(OwnTransactions own, Catalog catalog, Set<String> inDoubt, Consumer<String> nobodyPending) {
        this.own = own;
        this.catalog = catalog;
        this.inDoubt = inDoubt;
        this.nobodyPending = nobodyPending;
    }

    /**
     * At start: fills every queue's index; returns the highest message sequence in the store. On
     * Derby the table is read without locks (rows an in-doubt branch holds would block the read;
     * they are known from the journal and left out); nobody else works yet.
     */
    public long loadAtStart() {
        return own.run(c -> c.work(em -> {
            available(em, null, true).forEach(this::addTo);
            // dirty on Derby: an in-doubt branch's rows count too (their numbers are taken), and no lock is waited for
            Object max = em.createNativeQuery(own.dialect().sql("readyIndex.maxSequence")).getSingleResult();
            return max == null ? 0L : ((Number) max).longValue();
        }));
    }

    /** The messages of a branch that ended: what is now available of them enters the indexes. */
    public void reload(List<String> msgids) {
        own.run(c -> c.work(em -> available(em, msgids, false))).forEach(this::addTo);
    }

    /** Re-reads every queue's index from the table (after XA recovery ended a branch of an earlier JVM). */
    public void resynchronize() {
        Map<Long, List<ReadyEntry>> byQueue = own.run(c -> c.work(em -> available(em, null, false)));
        for (QueueRuntime q : catalog.queues()) {
            q.resynchronize(byQueue.getOrDefault(q.meta().id(), List.of()));
        }
    }

    private void addTo(Long queueId, List<ReadyEntry> entries) {
        QueueRuntime q = catalog.queue(queueId);
        if (q != null) {
            q.addAll(entries);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<Long, List<ReadyEntry>> available(EntityManager em, List<String> only, boolean atStart) {
        Map<Long, List<ReadyEntry>> out = new HashMap<>();
        Map<String, ReadyEntry> multi = new HashMap<>();
        if (only != null && only.isEmpty()) {
            return out;
        }
        Dialect dialect = own.dialect();
        Query messages;
        Query consumerParts;
        if (only != null) {
            messages = em.createNativeQuery(Statements.ids(dialect.sql("readyIndex.messagesOf"), only.size()));
            consumerParts = em.createNativeQuery(Statements.ids(dialect.sql("readyIndex.pendingPartsOf"), only.size()));
        } else if (atStart) {
            messages = em.createNativeQuery(dialect.sql("readyIndex.messagesAtStart"));
            consumerParts = em.createNativeQuery(dialect.sql("readyIndex.pendingPartsAtStart"));
        } else {
            messages = em.createNativeQuery(dialect.sql("readyIndex.messages"));
            consumerParts = em.createNativeQuery(dialect.sql("readyIndex.pendingParts"));
        }
        // READY, and EXPIRED in exception queues; the consumer parts still pending
        messages.setParameter(1, MessageState.READY.code()).setParameter(2, MessageState.EXPIRED.code());
        consumerParts.setParameter(1, ConsumerStates.READY).setParameter(2, ConsumerStates.WAITING);
        for (int i = 0; only != null && i < only.size(); i++) {
            messages.setParameter(i + 3, only.get(i));
            consumerParts.setParameter(i + 3, only.get(i));
        }
        for (Object[] row : (List<Object[]>) messages.getResultList()) {
            QueueRuntime q = catalog.queue(ReadyEntries.queueId(row));
            if (q == null || inDoubt.contains(ReadyEntries.msgid(row))) {
                continue;
            }
            if (q.meta().table().multipleConsumers() && !q.meta().isException()) {
                multi.put(ReadyEntries.msgid(row), ReadyEntries.entry(row));
            } else {
                out.computeIfAbsent(q.meta().id(), k -> new ArrayList<>()).add(ReadyEntries.entry(row));
            }
        }
        if (!multi.isEmpty()) {
            Set<String> pending = new HashSet<>();
            for (Object[] part : (List<Object[]>) consumerParts.getResultList()) {
                String msgid = ((String) part[0]).trim();
                ReadyEntry message = multi.get(msgid);
                if (message == null) {
                    continue;
                }
                pending.add(msgid);
                // WAITING parts come back through the time manager; remote ones through propagation
                if (part[3] == null && ((Number) part[4]).intValue() == ConsumerStates.READY) {
                    out.computeIfAbsent(((Number) part[2]).longValue(), k -> new ArrayList<>())
                            .add(message.forConsumer(((String) part[1]).trim(), message.expiresAt));
                }
            }
            for (String msgid : multi.keySet()) {
                if (!pending.contains(msgid)) {
                    nobodyPending.accept(msgid);
                }
            }
        }
        return out;
    }
}
