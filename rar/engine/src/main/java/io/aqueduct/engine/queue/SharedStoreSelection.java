package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.store.ConsumerStates;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.MessageEntity;
import io.aqueduct.engine.store.MessageRows;
import io.aqueduct.engine.store.Statements;
import io.aqueduct.engine.store.StoreConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The dequeue selection of a store that several nodes share: the database, not a ready index in
 * one JVM's memory, knows what is available and who holds what. Candidates are read in dequeue
 * order, a page at a time, and filtered as the ready index filters them (correlation and
 * condition are evaluated in Java, as everywhere); the chosen one is claimed with the dialect's
 * lock-or-skip ({@code FOR UPDATE SKIP LOCKED}), so a message another transaction of any node
 * holds is passed by, never waited for, and never handed out twice.
 */
final class SharedStoreSelection implements DequeueSelection {
    private static final int PAGE = 32;
    /**
     * A take's page holds its array and this many more: enough to pass by what a few competing
     * consumers hold without another page, and a page of 32 for one message cost twice a page of 4.
     */
    private static final int TAKE_SLACK = 3;
    /** The most candidates one page (and so one claim) of a take reads: an IN list stays far below any limit. */
    private static final int TAKE_PAGE_MAX = 500;
    /** The longest a waiter goes without looking at the table again. */
    static final long RECHECK_MS = 1000;

    private final Dialect dialect;
    /** Wakes this node's waiters on the queue. */
    private final Runnable wake;
    /** Tells the other nodes that the queue changed (after the change committed). */
    private final Runnable publish;

    SharedStoreSelection(Dialect dialect, Runnable wake, Runnable publish) {
        this.dialect = dialect;
        this.wake = wake;
        this.publish = publish;
    }

    /**
     * The values of an entry's dequeue-order keys, as {@link ReadyEntry#order} compares them and in the
     * order of the statements {@code selection.candidates.after.<SORT_ORDER>} / {@code .order.<SORT_ORDER>}.
     */
    private static long[] orderValues(QueueMeta meta, ReadyEntry e) {
        return switch (meta.table().sortOrder()) {
            case ENQ_TIME -> new long[] {e.orderMs, e.groupSeq, e.seq};
            case PRIORITY_ENQ_TIME -> new long[] {e.priority, e.orderMs, e.groupSeq, e.seq};
            case ENQ_TIME_PRIORITY -> new long[] {e.orderMs, e.priority, e.groupSeq, e.seq};
        };
    }

    /**
     * Binds {@code selection.candidates.from.<SORT_ORDER>} (unless the database ranges on row comparisons)
     * and {@code .after.<SORT_ORDER>} from parameter {@code i} on; returns the next one.
     */
    private static int bindAfter(PreparedStatement ps, int i, QueueMeta meta, ReadyEntry after, boolean rowComparisonRanges)
            throws SQLException {
        long[] keys = orderValues(meta, after);
        if (!rowComparisonRanges) {
            ps.setLong(i++, keys[0]);
            if (meta.table().sortOrder() != io.aqueduct.api.SortOrder.ENQ_TIME) {
                ps.setLong(i++, keys[0]);
                ps.setLong(i++, keys[1]);
            }
        }
        for (long v : keys) {
            ps.setLong(i++, v);
        }
        return i;
    }

    /** A failed read inside the walk's iteration, carried out of it. */
    private static final class ReadFailed extends RuntimeException {
        ReadFailed(SQLException cause) {
            super(cause);
        }
    }

    @Override
    public QueueRuntime.Pick pick(QueueMeta meta, QueueRuntime.Request r) {
        StoreConnection sc = r.connection();
        QueueRuntime.Pick[] pick = new QueueRuntime.Pick[1];
        MessageEntity[] claimed = new MessageEntity[1];
        sc.jdbc(c -> {
            try {
                pick[0] = r.msgid() != null ? pickById(c, meta, r, claimed) : CandidateWalk.walk(meta, r, candidates(c, meta, r, claimed));
            } catch (ReadFailed e) {
                throw (SQLException) e.getCause();
            }
        });
        if (pick[0] instanceof QueueRuntime.Found found && claimed[0] != null && claimed[0].msgid.trim().equals(found.entry().msgid)) {
            return new QueueRuntime.Found(found.entry(), claimed[0]); // read by its claim: no second read
        }
        return pick[0];
    }

    private QueueRuntime.Pick pickById(Connection c, QueueMeta meta, QueueRuntime.Request r, MessageEntity[] claimed)
            throws SQLException {
        List<ReadyEntry> rows = page(c, meta, r, null, null, null, r.msgid(), PAGE);
        if (rows.isEmpty()) {
            return new QueueRuntime.Nothing();
        }
        ReadyEntry e = rows.get(0);
        if (r.mode() == DequeueMode.BROWSE || claim(c, meta, r, e, claimed)) {
            return new QueueRuntime.Found(e);
        }
        return new QueueRuntime.Held();
    }

    /** The table's available messages in dequeue order, read a page at a time as the walk goes. */
    private CandidateWalk.Candidates candidates(Connection c, QueueMeta meta, QueueRuntime.Request r, MessageEntity[] claimed) {
        return new CandidateWalk.Candidates() {
            @Override
            public Iterable<ReadyEntry> after(ReadyEntry position, Long onlyGroup, Long notGroup) {
                return () -> new Iterator<>() {
                    private ReadyEntry last = position;
                    private Iterator<ReadyEntry> page = Collections.emptyIterator();
                    private boolean more = true;

                    @Override
                    public boolean hasNext() {
                        if (!page.hasNext() && more) {
                            List<ReadyEntry> next;
                            try {
                                next = page(c, meta, r, last, onlyGroup, notGroup, null, PAGE);
                            } catch (SQLException e) {
                                throw new ReadFailed(e);
                            }
                            more = next.size() == PAGE;
                            page = next.iterator();
                        }
                        return page.hasNext();
                    }

                    @Override
                    public ReadyEntry next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        last = page.next();
                        return last;
                    }
                };
            }

            @Override
            public boolean available(ReadyEntry e) {
                return true; // the claim's lock-or-skip decides
            }

            @Override
            public boolean take(ReadyEntry e) {
                try {
                    return claim(c, meta, r, e, claimed);
                } catch (SQLException ex) {
                    throw new ReadFailed(ex);
                }
            }
        };
    }

    /** The look is a claim on {@code probe} that is rolled back at once: a message another node holds does not count. */
    @Override
    public boolean hasAvailable(QueueMeta meta, String consumer, Predicate<String> correlation, long now,
            Supplier<StoreConnection> probe) {
        StoreConnection c = probe.get();
        try {
            return pick(meta, new QueueRuntime.Request(new Object(), consumer, DequeueMode.LOCKED, Navigation.FIRST_MESSAGE,
                    null, null, correlation, null, now, c)) instanceof QueueRuntime.Found;
        } finally {
            c.rollback();
        }
    }

    /** The time manager's batch locked the row in the database: that is its claim. */
    @Override
    public List<ReadyEntry> claimForTimeManager(ReadyEntry row, Object timeManager) {
        return List.of(row);
    }

    @Override
    public void addAll(List<ReadyEntry> entries) {
        wake.run();
        publish.run();
    }

    @Override
    public void remove(String msgid, String consumer) {
        // the table is the truth: nothing is indexed here
    }

    @Override
    public List<ReadyEntry> dropLane(String consumer) {
        wake.run();
        return List.of();
    }

    @Override
    public void resynchronize(List<ReadyEntry> inTable) {
        wake.run();
        publish.run();
    }

    @Override
    public void release(ReadyEntry e, Object claimant) {
        wake.run(); // the database lock went with the transaction
        publish.run();
    }

    @Override
    public void transfer(ReadyEntry e, Object from, Object to) {
        // the database holds the row until the retry accounting's transaction ends
    }

    @Override
    public void transactionEnded(Object claimant) {
        // a group's lock ended with the transaction
    }

    @Override
    public void clear() {
        // nothing held in memory
    }

    @Override
    public int indexedCount() {
        return 0;
    }

    @Override
    public long recheckWithin(long millis) {
        return Math.min(millis, RECHECK_MS);
    }

    /** Can plain REMOVE dequeues take here ({@link Dialect#takes()})? */
    boolean takes() {
        return dialect.takes();
    }

    /**
     * The take ({@code selection.take}): locks up to {@code max} messages at the head of the queue
     * (after {@code after}), passing by those another transaction holds or whose attempt is on
     * record, consumes them and returns their rows in dequeue order, as a hand-written SKIP LOCKED
     * queue does: in one statement where {@link Dialect#takesInOneStatement()}, else by key.
     */
    List<QueueRuntime.Taken> take(QueueMeta meta, StoreConnection sc, ReadyEntry after, long now, int max,
            TakeCursor cursor) {
        if (!dialect.takesInOneStatement()) {
            return takeByKeys(meta, sc, after, now, max, cursor);
        }
        String sortOrder = meta.table().sortOrder().name();
        boolean ready = meta.availableState() == MessageState.READY.code();
        List<String> parts = new ArrayList<>();
        parts.add(dialect.sql("selection.candidates.where"));
        if (ready) {
            parts.add(dialect.sql("selection.candidates.notExpired"));
        }
        parts.add(dialect.sql("selection.candidates.notOnRecordForTake"));
        if (after != null) {
            if (!dialect.rowComparisonRanges()) {
                parts.add(dialect.sql("selection.candidates.from." + sortOrder));
            }
            parts.add(dialect.sql("selection.candidates.after." + sortOrder));
        }
        parts.add(dialect.sql("selection.candidates.order." + sortOrder, max));
        String sql = dialect.sql("selection.take").replace("{candidates}", String.join(" ", parts));
        List<QueueRuntime.Taken> out = new ArrayList<>();
        sc.jdbc(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                ps.setLong(i++, meta.id());
                ps.setInt(i++, meta.availableState());
                if (ready) {
                    ps.setLong(i++, now);
                }
                ps.setString(i++, "/");
                if (after != null) {
                    i = bindAfter(ps, i, meta, after, dialect.rowComparisonRanges());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(taken(rs));
                    }
                }
            }
        });
        Comparator<ReadyEntry> order = ReadyEntry.order(meta.table().sortOrder());
        out.sort((a, b) -> order.compare(a.entry(), b.entry())); // RETURNING keeps no order
        return out;
    }

    /**
     * The take where a locking scan would lock more than it returns (InnoDB): the head read without
     * locks (a page of {@code max} and a few more), then its first {@code max} candidates claimed and
     * consumed in one statement that does not wait ({@link #consumeAtOnce}) or, when another transaction
     * holds one of them, claimed by key in one statement ({@code selection.claimMessages}: each row locked
     * only if no other transaction holds it and its attempt is not on record) and consumed by key in one
     * batch; as many of the next ones as other transactions held, then the next page, until the array is
     * full or the queue ends. Two round trips for a whole array, as the raw SKIP LOCKED queue's select and delete;
     * a single message is claimed and consumed in one statement where the dialect can ({@link #consumeOne}),
     * and the rest of its page kept in the session's {@code cursor} for its next take (one round trip
     * then, where a read of the head and the statement took two).
     */
    private List<QueueRuntime.Taken> takeByKeys(QueueMeta meta, StoreConnection sc, ReadyEntry after, long now, int max,
            TakeCursor cursor) {
        QueueRuntime.Request r = new QueueRuntime.Request(null, null, DequeueMode.REMOVE, Navigation.NEXT_MESSAGE, after,
                null, null, null, now, sc);
        int pageSize = Math.min(max, TAKE_PAGE_MAX) + TAKE_SLACK; // a huge array goes page by page
        List<QueueRuntime.Taken> out = new ArrayList<>();
        sc.jdbc(c -> {
            boolean single = max == 1 && dialect.consumesOneWithoutWaiting(c);
            if (single && cursor.continues(after)) {
                while (out.isEmpty() && !cursor.ahead.isEmpty()) {
                    ReadyEntry e = cursor.ahead.poll();
                    // still in this queue and READY, or the statement finds nothing; expired since: the time manager's
                    if (e.expiresAt > now) {
                        consumeOne(c, meta, e, out);
                    }
                }
                if (!out.isEmpty()) {
                    cursor.after = out.get(0).entry();
                    return;
                }
            }
            cursor.reset();
            ReadyEntry from = after;
            while (out.size() < max) {
                List<ReadyEntry> page = page(c, meta, r, from, null, null, null, pageSize);
                for (int i = 0; i < page.size() && out.size() < max;) {
                    if (max - out.size() == 1 && dialect.consumesOneWithoutWaiting(c)) {
                        consumeOne(c, meta, page.get(i), out); // one round trip where a claim and a delete took two
                        i++;
                        if (single && !out.isEmpty()) {
                            cursor.after = out.get(0).entry();
                            cursor.ahead.addAll(page.subList(i, page.size()));
                        }
                        continue;
                    }
                    int n = Math.min(max - out.size(), page.size() - i); // what others hold, the next ones make up for
                    List<ReadyEntry> candidates = page.subList(i, i + n);
                    if (!dialect.consumesOneWithoutWaiting(c) || !consumeAtOnce(c, meta, candidates, out)) {
                        claimAndConsume(c, meta, candidates, out);
                    }
                    i += n;
                }
                if (page.size() < pageSize) {
                    break; // the end of the queue
                }
                from = page.get(page.size() - 1);
            }
        });
        Comparator<ReadyEntry> order = ReadyEntry.order(meta.table().sortOrder());
        out.sort((a, b) -> order.compare(a.entry(), b.entry())); // the claim returns them in key order
        return out;
    }

    /**
     * Claims and consumes one candidate in one statement ({@code selection.consumeOne}): nothing when its
     * attempt is on record or it is gone, and nothing, at once, when another transaction holds it.
     */
    private void consumeOne(Connection c, QueueMeta meta, ReadyEntry candidate, List<QueueRuntime.Taken> out)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("selection.consumeOne"))) {
            ps.setString(1, candidate.msgid);
            ps.setInt(2, meta.availableState());
            ps.setString(3, "/");
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    out.add(taken(rs));
                }
            }
        } catch (SQLException e) {
            if (!dialect.heldByAnother(e)) {
                throw e;
            }
        }
    }

    /**
     * Claims and consumes candidates in one statement ({@code selection.consumeAtOnce}), as {@link #consumeOne}
     * does one: those gone or on record are left out. False, with nothing done, when another transaction
     * holds one of them (or a row the server read on the way: it may scan a small table): the statement fails
     * at once, undoes itself alone, and the claim by key (which passes held rows by) takes over.
     */
    private boolean consumeAtOnce(Connection c, QueueMeta meta, List<ReadyEntry> candidates, List<QueueRuntime.Taken> out)
            throws SQLException {
        List<QueueRuntime.Taken> taken;
        try {
            taken = byKeys(c, "selection.consumeAtOnce", meta, candidates);
        } catch (SQLException e) {
            if (dialect.heldByAnother(e)) {
                return false;
            }
            throw e;
        }
        out.addAll(taken);
        return true;
    }

    /** Runs a statement on candidates by key (msgid..., the queue's available state, ledger suffix) for their rows. */
    private List<QueueRuntime.Taken> byKeys(Connection c, String statement, QueueMeta meta, List<ReadyEntry> candidates)
            throws SQLException {
        List<QueueRuntime.Taken> rows = new ArrayList<>(candidates.size());
        try (PreparedStatement ps = c.prepareStatement(Statements.ids(dialect.sql(statement), candidates.size()))) {
            int i = 1;
            for (ReadyEntry e : candidates) {
                ps.setString(i++, e.msgid);
            }
            ps.setInt(i++, meta.availableState());
            ps.setString(i++, "/");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(taken(rs));
                }
            }
        }
        return rows;
    }

    private void claimAndConsume(Connection c, QueueMeta meta, List<ReadyEntry> candidates, List<QueueRuntime.Taken> out)
            throws SQLException {
        List<QueueRuntime.Taken> claimed = byKeys(c, "selection.claimMessages", meta, candidates);
        if (claimed.isEmpty()) {
            return;
        }
        // one delete by key per message, in one batch: a DELETE ... IN (...) may scan (a small table) and
        // wait for the rows other transactions hold, as InnoDB locks what a delete reads. By key it
        // deletes only rows this transaction locked a moment ago and waits for nobody: what can fail
        // half-way is the connection, and the transaction goes with it
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("selection.consumeClaimed"))) {
            for (QueueRuntime.Taken t : claimed) {
                ps.setString(1, t.entry().msgid);
                ps.addBatch();
            }
            int n = 0;
            for (int count : ps.executeBatch()) {
                n += count == java.sql.Statement.SUCCESS_NO_INFO ? 1 : count;
            }
            if (n != claimed.size()) {
                // locked by this transaction a moment ago: nothing else can have removed them
                throw new SQLException("Consumed " + n + " of the " + claimed.size() + " messages this transaction claimed");
            }
        }
        out.addAll(claimed);
    }

    private static QueueRuntime.Taken taken(ResultSet rs) throws SQLException {
        MessageEntity m = MessageRows.read(rs);
        boolean expires = m.timeManagerInfo != null && m.state == MessageState.READY.code();
        ReadyEntry e = new ReadyEntry(m.msgid.trim(), m.priority, m.orderMs, m.groupSeq, m.seq, m.correlation,
                expires ? m.timeManagerInfo : Long.MAX_VALUE);
        return new QueueRuntime.Taken(e, m);
    }

    /**
     * Up to a page of available messages after {@code after} in dequeue order (or the one asked for
     * by id), read without locks. The claim that follows is a statement of its own, by key: its
     * snapshot is taken the moment it locks, so the attempt ledger it checks is current (a long
     * locking scan could see a ledger older than a rollback it meets).
     */
    private List<ReadyEntry> page(Connection c, QueueMeta meta, QueueRuntime.Request r, ReadyEntry after,
            Long onlyGroup, Long notGroup, String msgid, int limit) throws SQLException {
        String sortOrder = meta.table().sortOrder().name();
        boolean consumerPart = r.consumer() != null;
        List<String> sql = new ArrayList<>();
        sql.add(dialect.sql("selection.candidates.select"));
        if (consumerPart) {
            sql.add(dialect.sql("selection.candidates.joinConsumer"));
        }
        sql.add(dialect.sql("selection.candidates.joinLedger"));
        sql.add(dialect.sql("selection.candidates.where"));
        if (meta.availableState() == MessageState.READY.code()) {
            sql.add(dialect.sql("selection.candidates.notExpired")); // expired: the time manager's
        }
        if (consumerPart) {
            sql.add(dialect.sql("selection.candidates.consumerPending"));
        }
        if (msgid != null) {
            sql.add(dialect.sql("selection.candidates.byId"));
        }
        sql.add(dialect.sql("selection.candidates.notOnRecord"));
        if (after != null) {
            if (!dialect.rowComparisonRanges()) {
                sql.add(dialect.sql("selection.candidates.from." + sortOrder));
            }
            sql.add(dialect.sql("selection.candidates.after." + sortOrder));
        }
        if (onlyGroup != null) {
            sql.add(dialect.sql("selection.candidates.inGroup"));
        } else if (notGroup != null) {
            sql.add(dialect.sql("selection.candidates.notInGroup"));
        }
        sql.add(dialect.sql("selection.candidates.order." + sortOrder, limit));
        try (PreparedStatement ps = c.prepareStatement(String.join(" ", sql))) {
            int i = 1;
            if (consumerPart) {
                ps.setString(i++, "/" + r.consumer());
            }
            ps.setString(i++, "/" + (r.consumer() == null ? "" : r.consumer()));
            ps.setLong(i++, meta.id());
            ps.setInt(i++, meta.availableState());
            if (meta.availableState() == MessageState.READY.code()) {
                ps.setLong(i++, r.now());
            }
            if (consumerPart) {
                ps.setInt(i++, ConsumerStates.READY);
            }
            if (msgid != null) {
                ps.setString(i++, msgid);
            }
            if (after != null) {
                i = bindAfter(ps, i, meta, after, dialect.rowComparisonRanges());
            }
            if (onlyGroup != null || notGroup != null) {
                ps.setLong(i++, onlyGroup != null ? onlyGroup : notGroup);
            }
            List<ReadyEntry> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long tm = rs.getLong(8);
                    boolean expires = !rs.wasNull() && rs.getInt(7) == MessageState.READY.code();
                    out.add(new ReadyEntry(rs.getString(1).trim(), rs.getInt(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getString(6), expires ? tm : Long.MAX_VALUE, r.consumer()));
                }
            }
            return out;
        }
    }

    /**
     * Locks the message (a consumer's part of it) for this transaction unless another holds it. On
     * a transactionally grouped queue the whole group is taken: one transaction consumes a group.
     */
    private boolean claim(Connection c, QueueMeta meta, QueueRuntime.Request r, ReadyEntry e, MessageEntity[] claimed)
            throws SQLException {
        boolean group = meta.table().transactionalGrouping();
        String sql;
        if (r.consumer() == null) {
            sql = dialect.sql(group ? "selection.claimGroup" : "selection.claimMessage");
        } else {
            sql = dialect.sql(group ? "selection.claimConsumerGroup" : "selection.claimConsumerPart");
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (r.consumer() == null && group) {
                ps.setLong(1, meta.id());
                ps.setLong(2, e.groupSeq);
            } else if (r.consumer() == null) {
                ps.setString(1, e.msgid);
                ps.setInt(2, meta.availableState());
                ps.setString(3, e.msgid + "/");
            } else if (group) {
                ps.setLong(1, meta.id());
                ps.setString(2, r.consumer());
                ps.setLong(3, meta.id());
                ps.setLong(4, e.groupSeq);
            } else {
                ps.setString(1, e.msgid + "/" + r.consumer());
                ps.setInt(2, ConsumerStates.READY);
                ps.setString(3, e.msgid + "/" + r.consumer());
            }
            try (ResultSet rs = ps.executeQuery()) {
                int msgidColumn = r.consumer() == null ? 1 : 2;
                while (rs.next()) {
                    if (rs.getString(msgidColumn).trim().equals(e.msgid)) {
                        if (r.consumer() == null && !group) {
                            // selection.claimMessage reads the whole row (message.find's columns)
                            claimed[0] = MessageRows.read(rs);
                            claimed[0].queueId = rs.getLong(24);
                        }
                        return true;
                    }
                }
                return false;
            }
        }
    }
}
