package io.aqueduct.engine.session;

import io.aqueduct.api.QueueAdmin;
import io.aqueduct.engine.payload.DeserializationFilter;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.store.Ids;
import io.aqueduct.engine.store.Store;
import io.aqueduct.engine.time.AqClock;
import io.aqueduct.engine.transform.TransformationCatalog;
import java.util.function.BooleanSupplier;

/**
 * What a queue session works with, given by the engine that opens it: the store and the catalogs,
 * the clock and the ids, the limits on what an enqueue accepts, and the engine's transaction hooks.
 *
 * @param attemptJournal null on a shared store
 * @param attemptLedger null on a store of one JVM
 * @param admin the administrative interface as an administrator uses it
 * @param privileges who may enqueue, dequeue and administer what
 * @param engineClosed whether the engine has been closed (waits end then)
 * @param registrations the notification registrations (REGISTER / UNREGISTER)
 * @param notifier plans the notifications of what an enqueue makes available
 * @param propagationReceiver runs propagation that arrives from another Aqueduct over HTTP
 * @param buffered this engine's buffered messages (delivery mode BUFFERED)
 */
public record SessionContext(Store store, Catalog catalog, TransformationCatalog transformations, AqClock clock, Ids ids,
        String defaultSchema, Limits limits, TransactionCompletion completion, Branches branches,
        AttemptJournal attemptJournal, AttemptLedger attemptLedger, QueueAdmin admin, io.aqueduct.engine.security.Privileges privileges,
        BooleanSupplier engineClosed, io.aqueduct.engine.notification.Registrations registrations,
        io.aqueduct.engine.notification.Notifier notifier, PropagationReceiver propagationReceiver,
        io.aqueduct.engine.buffered.BufferedMessages buffered) {

    /**
     * What an enqueue accepts and a dequeue reads back.
     *
     * @param maxPayloadBytes the largest payload an enqueue accepts, in stored bytes
     * @param deserializationFilter what OBJECT payloads may contain when read back
     */
    public record Limits(long maxPayloadBytes, DeserializationFilter deserializationFilter) {
    }
}
