package io.aqueduct.engine.admin;

import io.aqueduct.api.Agent;
import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.RuleSyntax;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.queue.QueueTableMeta;
import io.aqueduct.engine.queue.Subscriber;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.QueueEntity;
import io.aqueduct.engine.store.QueueTableEntity;
import io.aqueduct.engine.store.SubscriberEntity;
import io.aqueduct.engine.transform.TransformationCatalog;
import io.aqueduct.engine.transform.Transformations;
import jakarta.persistence.EntityManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the catalog (queue tables, queues, subscribers, transformations) from the store into memory:
 * whole at start, and again on a shared store when another node changed it. Queues keep their
 * waiters across a re-read; a queue gone from the table is marked dropped.
 */
public final class CatalogLoader {
    private final OwnTransactions own;
    private final Catalog catalog;
    private final TransformationCatalog transformations;

    public CatalogLoader(OwnTransactions own, Catalog catalog, TransformationCatalog transformations) {
        this.own = own;
        this.catalog = catalog;
        this.transformations = transformations;
    }

    /** Reads everything into an empty catalog. */
    public void load() {
        readTransformations();
        own.run(c -> c.work(em -> {
            for (QueueTableEntity t : tables(em)) {
                catalog.putTable(tableMeta(t));
            }
            Map<Long, List<Subscriber>> subscribers = subscribers(em);
            for (QueueEntity q : queues(em)) {
                catalog.putQueue(queueMeta(q)).subscribers(subscribers.getOrDefault(q.id, List.of()));
            }
            return null;
        }));
    }

    /** Reads everything again over what is in memory (another node changed the catalog). */
    public void refresh() {
        readTransformations();
        own.run(c -> c.work(em -> {
            Set<Long> tableIds = new HashSet<>();
            for (QueueTableEntity t : tables(em)) {
                catalog.putTable(tableMeta(t));
                tableIds.add(t.id);
            }
            for (QueueTableMeta t : List.copyOf(catalog.tables())) {
                if (!tableIds.contains(t.id())) {
                    catalog.removeTable(t.qualifiedName());
                }
            }
            Map<Long, List<Subscriber>> subscribers = subscribers(em);
            Set<Long> queueIds = new HashSet<>();
            for (QueueEntity q : queues(em)) {
                QueueRuntime r = catalog.putQueue(queueMeta(q));
                r.subscribers(subscribers.getOrDefault(q.id, List.of()));
                queueIds.add(q.id);
            }
            for (QueueRuntime r : List.copyOf(catalog.queues())) {
                if (!queueIds.contains(r.meta().id())) {
                    catalog.removeQueue(r);
                }
            }
            return null;
        }));
    }

    private void readTransformations() {
        own.run(c -> {
            c.jdbc(conn -> Transformations.loadAll(conn, own.dialect()).forEach(transformations::put));
            return null;
        });
    }

    private static List<QueueTableEntity> tables(EntityManager em) {
        return em.createQuery("SELECT t FROM QueueTableEntity t", QueueTableEntity.class).getResultList();
    }

    private static List<QueueEntity> queues(EntityManager em) {
        return em.createQuery("SELECT q FROM QueueEntity q", QueueEntity.class).getResultList();
    }

    private static Map<Long, List<Subscriber>> subscribers(EntityManager em) {
        Map<Long, List<Subscriber>> out = new HashMap<>();
        for (SubscriberEntity sub : em.createQuery("SELECT s FROM SubscriberEntity s ORDER BY s.id", SubscriberEntity.class)
                .getResultList()) {
            RuleSyntax syntax = ruleSyntax(sub);
            out.computeIfAbsent(sub.queueId, k -> new ArrayList<>()).add(Subscriber.of(
                    new Agent(sub.name, sub.address, sub.protocol), Subscriber.compileRule(sub.rule, syntax),
                    sub.transformation, syntax));
        }
        return out;
    }

    /** The stored syntax of a subscriber's rule; rows from before schema 3 hold CONDITION (the column's default). */
    private static RuleSyntax ruleSyntax(SubscriberEntity sub) {
        if (sub.ruleSyntax == null) {
            return RuleSyntax.CONDITION;
        }
        try {
            return RuleSyntax.valueOf(sub.ruleSyntax.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Subscriber " + sub.consumer + " of queue " + sub.queueId
                    + " has the unknown rule syntax '" + sub.ruleSyntax + "' in AQ_SUBSCRIBER.RULE_SYNTAX", e);
        }
    }

    static QueueTableMeta tableMeta(QueueTableEntity t) {
        return new QueueTableMeta(t.id, t.owner, t.name, PayloadType.valueOf(t.payloadType), t.objectType,
                SortOrder.fromSortList(t.sortOrder), t.multipleConsumers == 1, MessageGrouping.valueOf(t.messageGrouping),
                t.comment);
    }

    QueueMeta queueMeta(QueueEntity q) {
        QueueTableMeta table = catalog.tables().stream().filter(t -> t.id() == q.queueTableId).findFirst()
                .orElseThrow(() -> new IllegalStateException("Queue " + q.name + " has no queue table " + q.queueTableId));
        return new QueueMeta(q.id, q.owner, q.name, table, QueueType.valueOf(q.queueType), q.maxRetries, q.retryDelay,
                q.retention, q.enqueueEnabled == 1, q.dequeueEnabled == 1, q.comment);
    }
}
