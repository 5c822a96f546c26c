package io.aqueduct.engine.queue;

import java.util.ArrayDeque;

/**
 * What a session's single-message take read past the message it took: the next dequeue with
 * NEXT_MESSAGE tries these first, without reading the head again. AQ's own NEXT_MESSAGE "fetches from
 * the results of the SELECT run in the FIRST_MESSAGE navigation ... so subsequent dequeues need not
 * run the entire SELECT again"; here the results are a few rows, and once they are used up (or none
 * of them can be had) the next dequeue reads after its position as before. Each candidate is still
 * checked when it is consumed (still there in the queue's available state, not expired, not on record in
 * the attempt ledger, not held by another transaction), so
 * a cursor never hands out what a fresh read would not; what it can miss is a message that became
 * available since and sorts between the position and the candidate, as a snapshot would.
 * One per dequeue position of a session; not thread-safe (a session is used by one thread at a time).
 */
public final class TakeCursor {
    /** The entry the candidates come after: they are valid only while the position is exactly it. */
    ReadyEntry after;
    final ArrayDeque<ReadyEntry> ahead = new ArrayDeque<>();

    /** Is there something to try after {@code position}? */
    boolean continues(ReadyEntry position) {
        return position != null && position == after && !ahead.isEmpty();
    }

    void reset() {
        after = null;
        ahead.clear();
    }
}
