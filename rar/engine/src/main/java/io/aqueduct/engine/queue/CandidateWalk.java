package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.Navigation;
import java.util.HashSet;
import java.util.Set;

/**
 * AQ's navigation and transaction grouping over a sequence of candidates in dequeue order, written
 * once for every selection strategy. FIRST_MESSAGE starts from the top, NEXT_MESSAGE goes on from
 * the session's position and, on a transactionally grouped queue, ends with "end of group" when the
 * group does; NEXT_TRANSACTION skips the rest of the current group. Expired messages, a correlation
 * or condition that does not match, and groups another transaction consumes are passed by.
 */
final class CandidateWalk {

    /** Where candidates come from, and how one is held. */
    interface Candidates {
        /**
         * Candidates after {@code position} (from the top when null) in dequeue order. {@code onlyGroup}
         * / {@code notGroup} say which transaction groups the walk wants (null: any); a source may
         * narrow its reads by them or leave the walk to pass the others by.
         */
        Iterable<ReadyEntry> after(ReadyEntry position, Long onlyGroup, Long notGroup);

        /** A cheap test before the condition: could this request take it (as far as is known without asking)? */
        boolean available(ReadyEntry e);

        /** Holds the candidate for the request (unless it browses); false when another transaction holds it. */
        boolean take(ReadyEntry e);
    }

    private CandidateWalk() {
    }

    static QueueRuntime.Pick walk(QueueMeta meta, QueueRuntime.Request r, Candidates source) {
        boolean grouping = meta.table().transactionalGrouping();
        boolean grouped = grouping && r.correlation() == null && r.condition() == null;
        ReadyEntry position = r.navigation() == Navigation.FIRST_MESSAGE ? null : r.position();
        boolean navigatingGroups = grouped && position != null;
        Long onlyGroup = navigatingGroups && r.navigation() == Navigation.NEXT_MESSAGE ? position.groupSeq : null;
        Long notGroup = navigatingGroups && r.navigation() == Navigation.NEXT_TRANSACTION ? position.groupSeq : null;
        Set<Long> heldElsewhere = new HashSet<>();
        for (ReadyEntry e : source.after(position, onlyGroup, notGroup)) {
            if (onlyGroup != null && e.groupSeq != onlyGroup) {
                return new QueueRuntime.EndOfGroup();
            }
            if ((notGroup != null && e.groupSeq == notGroup) || heldElsewhere.contains(e.groupSeq)) {
                continue;
            }
            if (e.expiresAt <= r.now()) {
                continue; // the time manager is about to move it to the exception queue
            }
            if (r.correlation() != null && (e.correlation == null || !r.correlation().test(e.correlation))) {
                continue;
            }
            if (!source.available(e) || (r.condition() != null && !r.condition().test(e))) {
                continue;
            }
            if (r.mode() == DequeueMode.BROWSE || source.take(e)) {
                return new QueueRuntime.Found(e);
            }
            if (grouping) {
                heldElsewhere.add(e.groupSeq); // another transaction consumes that group
            }
        }
        return onlyGroup != null ? new QueueRuntime.EndOfGroup() : new QueueRuntime.Nothing();
    }
}
