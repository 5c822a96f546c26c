package io.aqueduct.engine.queue;

import io.aqueduct.engine.store.StoreConnection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * How a queue finds and claims the message a dequeue gets, and learns what became available: the
 * one seam between a queue and its selection strategy. A store of one JVM keeps a ready index in
 * memory ({@link ReadyIndex}); a store several nodes share selects in the database
 * ({@link SharedStoreSelection}). Navigation and transaction grouping are the same for both
 * ({@link CandidateWalk}); the strategies differ in where candidates come from and how one is held.
 */
interface DequeueSelection {

    /** Finds the message a dequeue should get and, unless it only browses, claims it. */
    QueueRuntime.Pick pick(QueueMeta meta, QueueRuntime.Request r);

    /**
     * Is there a message a new transaction of {@code consumer} could dequeue now? {@code probe}
     * gives a connection outside the caller's transaction where a look needs one.
     */
    boolean hasAvailable(QueueMeta meta, String consumer, Predicate<String> correlation, long now,
            Supplier<StoreConnection> probe);

    /**
     * Claims every consumer's part of a message the time manager's batch read ({@code row}) for its
     * expiry; null when a dequeuer holds one of them; empty when there is nothing to claim (a
     * single-consumer message not committed yet, or only remote consumers have it pending).
     */
    List<ReadyEntry> claimForTimeManager(ReadyEntry row, Object timeManager);

    /** Messages became available together (a dequeuer sees all of them or none). */
    void addAll(List<ReadyEntry> entries);

    /** One consumer's part of a message is gone for good (removal committed, moved, purged). */
    void remove(String msgid, String consumer);

    /** A consumer is gone (subscriber removed); returns what it had pending. */
    List<ReadyEntry> dropLane(String consumer);

    /** Brings the selection in line with the table after work the engine did not see. */
    void resynchronize(List<ReadyEntry> inTable);

    /** The holder's transaction ended without consuming the message: it is available again. */
    void release(ReadyEntry e, Object claimant);

    /** Hands a held message to another holder (a rolled-back dequeue to its retry accounting). */
    void transfer(ReadyEntry e, Object from, Object to);

    /** The transaction ended: the groups it was consuming are free for others. */
    void transactionEnded(Object claimant);

    /** The queue was dropped. */
    void clear();

    /** Entries held in memory (committed, dequeueable now or held). */
    int indexedCount();

    /**
     * The longest a waiter may sleep before it looks again, given how long it would like to: a
     * change on another node reaches no waiter here without a look (a node that died released its
     * locks without a word).
     */
    long recheckWithin(long millis);
}
