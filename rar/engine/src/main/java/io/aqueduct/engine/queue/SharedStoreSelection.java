package io.aqueduct.engine.queue;

import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.MessageState;
import io.aqueduct.api.Navigation;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.StoreConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The dequeue selection of a store that several nodes share: the database, not a ready index in
 * one JVM's memory, knows what is available and who holds what. Candidates are read in dequeue
 * order, a page at a time, and filtered as the ready index filters them (correlation and
 * condition are evaluated in Java, as everywhere); the chosen one is claimed with the dialect's
 * lock-or-skip ({@code FOR UPDATE SKIP LOCKED}), so a message another transaction of any node
 * holds is passed by, never waited for, and never handed out twice.
 */
final class SharedStoreSelection {
    private static final int PAGE = 32;
    private static final String COLUMNS = "M.MSGID, M.PRIORITY, M.ORDER_MS, M.GROUP_SEQ, M.SEQ, M.CORRID, M.STATE,"
            + " M.TIME_MANAGER_INFO";

    private final Dialect dialect;

    SharedStoreSelection(Dialect dialect) {
        this.dialect = dialect;
    }

    /** The keys of the dequeue order, as {@link ReadyEntry#order} compares them. */
    private static String[] orderKeys(QueueMeta meta) {
        return switch (meta.table().sortOrder()) {
            case ENQ_TIME -> new String[] {"M.ORDER_MS", "M.GROUP_SEQ", "M.SEQ"};
            case PRIORITY_ENQ_TIME -> new String[] {"M.PRIORITY", "M.ORDER_MS", "M.GROUP_SEQ", "M.SEQ"};
            case ENQ_TIME_PRIORITY -> new String[] {"M.ORDER_MS", "M.PRIORITY", "M.GROUP_SEQ", "M.SEQ"};
        };
    }

    private static long[] orderValues(QueueMeta meta, ReadyEntry e) {
        return switch (meta.table().sortOrder()) {
            case ENQ_TIME -> new long[] {e.orderMs, e.groupSeq, e.seq};
            case PRIORITY_ENQ_TIME -> new long[] {e.priority, e.orderMs, e.groupSeq, e.seq};
            case ENQ_TIME_PRIORITY -> new long[] {e.orderMs, e.priority, e.groupSeq, e.seq};
        };
    }

    QueueRuntime.Pick pick(QueueMeta meta, QueueRuntime.Request r) {
        StoreConnection sc = r.connection();
        QueueRuntime.Pick[] pick = new QueueRuntime.Pick[1];
        sc.jdbc(c -> pick[0] = pick(c, meta, r));
        return pick[0];
    }

    private QueueRuntime.Pick pick(Connection c, QueueMeta meta, QueueRuntime.Request r) throws SQLException {
        boolean browse = r.mode() == DequeueMode.BROWSE;
        if (r.msgid() != null) {
            List<ReadyEntry> rows = candidates(c, meta, r, null, null, r.msgid());
            if (rows.isEmpty()) {
                return new QueueRuntime.Nothing();
            }
            ReadyEntry e = rows.get(0);
            if (browse || claim(c, meta, r, e)) {
                return new QueueRuntime.Found(e);
            }
            return new QueueRuntime.Held();
        }
        boolean grouped = meta.table().transactionalGrouping() && r.correlation() == null && r.condition() == null;
        ReadyEntry position = r.navigation() == Navigation.FIRST_MESSAGE ? null : r.position();
        String groupFilter = null;
        if (grouped && position != null) {
            groupFilter = r.navigation() == Navigation.NEXT_MESSAGE ? " AND M.GROUP_SEQ = " + position.groupSeq
                    : r.navigation() == Navigation.NEXT_TRANSACTION ? " AND M.GROUP_SEQ <> " + position.groupSeq : null;
        }
        Set<Long> groupsHeldElsewhere = new HashSet<>();
        ReadyEntry after = position;
        while (true) {
            List<ReadyEntry> page = candidates(c, meta, r, after, groupFilter, null);
            for (ReadyEntry e : page) {
                after = e;
                if (groupsHeldElsewhere.contains(e.groupSeq)) {
                    continue;
                }
                if (r.correlation() != null && (e.correlation == null || !r.correlation().test(e.correlation))) {
                    continue;
                }
                if (r.condition() != null && !r.condition().test(e)) {
                    continue;
                }
                if (browse || claim(c, meta, r, e)) {
                    return new QueueRuntime.Found(e);
                }
                if (meta.table().transactionalGrouping()) {
                    groupsHeldElsewhere.add(e.groupSeq); // another transaction consumes that group
                }
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        if (grouped && position != null && r.navigation() == Navigation.NEXT_MESSAGE) {
            return new QueueRuntime.EndOfGroup();
        }
        return new QueueRuntime.Nothing();
    }

    /**
     * Up to a page of available messages after {@code after} in dequeue order (or the one asked for
     * by id), read without locks. The claim that follows is a statement of its own, by key: its
     * snapshot is taken the moment it locks, so the attempt ledger it checks is current (a long
     * locking scan could see a ledger older than a rollback it meets).
     */
    private List<ReadyEntry> candidates(Connection c, QueueMeta meta, QueueRuntime.Request r, ReadyEntry after,
            String groupFilter, String msgid) throws SQLException {
        String[] keys = orderKeys(meta);
        boolean consumerPart = r.consumer() != null;
        StringBuilder sql = new StringBuilder("SELECT ").append(COLUMNS).append(" FROM AQ_MESSAGE M");
        if (consumerPart) {
            // the consumer's part by primary key, message by message in dequeue order: one index probe
            // each, whatever the planner believes about the tables' sizes
            sql.append(" JOIN AQ_MESSAGE_CONSUMER C ON C.ID = CONCAT(M.MSGID, ?)");
        }
        sql.append(" WHERE M.QID = ? AND M.STATE = ?");
        if (meta.availableState() == MessageState.READY.code()) {
            sql.append(" AND (M.TIME_MANAGER_INFO IS NULL OR M.TIME_MANAGER_INFO > ?)"); // expired: the time manager's
        }
        if (consumerPart) {
            sql.append(" AND C.STATE = 0 AND C.ADDRESS IS NULL");
        }
        if (msgid != null) {
            sql.append(" AND M.MSGID = ?");
        }
        // an attempt on record whose transaction ended without consuming (a rollback, a node that died):
        // the message comes back once that attempt is counted, never before
        sql.append(" AND NOT EXISTS (SELECT 1 FROM AQ_ATTEMPT A WHERE A.ID = CONCAT(M.MSGID, ?))");
        if (after != null) {
            sql.append(" AND (").append(String.join(", ", keys)).append(") > (")
                    .append("?, ".repeat(keys.length - 1)).append("?)");
        }
        if (groupFilter != null) {
            sql.append(groupFilter);
        }
        sql.append(" ORDER BY ").append(String.join(", ", keys)).append(dialect.limit(PAGE));
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            if (consumerPart) {
                ps.setString(i++, "/" + r.consumer());
            }
            ps.setLong(i++, meta.id());
            ps.setInt(i++, meta.availableState());
            if (meta.availableState() == MessageState.READY.code()) {
                ps.setLong(i++, r.now());
            }
            if (msgid != null) {
                ps.setString(i++, msgid);
            }
            ps.setString(i++, "/" + (r.consumer() == null ? "" : r.consumer()));
            if (after != null) {
                for (long v : orderValues(meta, after)) {
                    ps.setLong(i++, v);
                }
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
    private boolean claim(Connection c, QueueMeta meta, QueueRuntime.Request r, ReadyEntry e) throws SQLException {
        String lock = dialect.lockSkipLockedSuffix();
        boolean group = meta.table().transactionalGrouping();
        String sql;
        // the claim re-checks the attempt ledger: between a rollback and the count of its attempt the
        // message is free of locks but not yet back
        String notOnRecord = " AND NOT EXISTS (SELECT 1 FROM AQ_ATTEMPT A WHERE A.ID = ?)";
        if (r.consumer() == null) {
            sql = group ? "SELECT MSGID FROM AQ_MESSAGE WHERE QID = ? AND GROUP_SEQ = ?" + lock
                    : "SELECT MSGID FROM AQ_MESSAGE WHERE MSGID = ? AND STATE = ?" + notOnRecord + lock;
        } else {
            sql = group ? "SELECT ID, MSGID FROM AQ_MESSAGE_CONSUMER WHERE QID = ? AND CONSUMER = ? AND MSGID IN"
                    + " (SELECT MSGID FROM AQ_MESSAGE WHERE QID = ? AND GROUP_SEQ = ?)" + lock
                    : "SELECT ID, MSGID FROM AQ_MESSAGE_CONSUMER WHERE ID = ? AND STATE = 0" + notOnRecord + lock;
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
                ps.setString(2, e.msgid + "/" + r.consumer());
            }
            try (ResultSet rs = ps.executeQuery()) {
                int msgidColumn = r.consumer() == null ? 1 : 2;
                while (rs.next()) {
                    if (rs.getString(msgidColumn).trim().equals(e.msgid)) {
                        return true;
                    }
                }
                return false;
            }
        }
    }
}
