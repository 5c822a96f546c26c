package io.aqueduct.engine.session;

import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.store.OwnTransactions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import javax.transaction.xa.Xid;

/**
 * Derby after a crash: reads what the attempt journal says the transactions of the earlier JVM
 * held. A branch the database still has in doubt is registered by its Xid (a transaction manager's
 * commit or rollback through any session applies the engine's side) and its messages stay out of
 * the indexes; every other transaction is over (Derby rolled it back at boot, or it committed
 * before the journal was cleared): its REMOVE attempts are counted now, as failed if the message is
 * still there to retry. Runs at start, before the ready indexes are filled.
 */
public final class JournalRecovery {
    private static final Logger LOG = Logger.getLogger(JournalRecovery.class.getName());

    private JournalRecovery() {
    }

    public static void recover(AttemptJournal journal, OwnTransactions own, Catalog catalog, Branches branches,
            RetryAccounting retries) {
        if (journal == null || journal.leftBehind().isEmpty()) {
            return;
        }
        Set<XidKey> inDoubt = new HashSet<>();
        for (Xid x : own.preparedBranches()) {
            inDoubt.add(XidKey.of(x));
        }
        Map<Long, List<AttemptJournal.Entry>> byTransaction = new LinkedHashMap<>();
        for (AttemptJournal.Entry e : journal.leftBehind()) {
            byTransaction.computeIfAbsent(e.tx(), k -> new ArrayList<>()).add(e);
        }
        List<AttemptJournal.Entry> toCount = new ArrayList<>();
        List<Integer> settled = new ArrayList<>();
        int recovered = 0;
        for (List<AttemptJournal.Entry> records : byTransaction.values()) {
            XidKey xid = records.stream().filter(r -> r.xid() != null).map(AttemptJournal.Entry::xid).findFirst().orElse(null);
            if (xid != null && inDoubt.contains(xid)) {
                branches.recovered(xid, SessionTransaction.recovered(catalog, records));
                recovered++;
            } else {
                records.stream().filter(r -> r.kind() == AttemptJournal.ATTEMPT).forEach(toCount::add);
                records.forEach(r -> settled.add(r.slot()));
            }
        }
        retries.countAttemptsAtStart(toCount);
        journal.free(settled);
        if (!toCount.isEmpty()) {
            LOG.info("Aqueduct counted " + toCount.size() + " dequeue attempt(s) that a stopped JVM left unfinished.");
        }
        if (recovered > 0) {
            LOG.warning("Aqueduct found " + recovered + " XA branch(es) in doubt holding " + branches.inDoubtMessages().size()
                    + " message(s); they stay invisible until the transaction manager recovers them (XAResource.recover,"
                    + " then commit or rollback through any Aqueduct session).");
        }
    }
}
