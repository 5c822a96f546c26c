package io.aqueduct.engine.security;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.api.QueuePrivilegeInfo;
import io.aqueduct.api.SystemPrivilege;
import io.aqueduct.api.SystemPrivilegeInfo;
import io.aqueduct.engine.queue.Catalog;
import io.aqueduct.engine.queue.QualifiedName;
import io.aqueduct.engine.queue.QueueMeta;
import io.aqueduct.engine.queue.QueueRuntime;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.OwnTransactions;
import io.aqueduct.engine.store.StoreConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * AQ's queue and system privileges (DBMS_AQADM.GRANT_QUEUE_PRIVILEGE / GRANT_SYSTEM_PRIVILEGE),
 * kept in the store and, for the checks on every enqueue and dequeue, in memory: a snapshot read
 * again after each change here and, on a shared store, when another node says the catalog changed
 * or the snapshot is {@link #MAX_AGE} old.
 *
 * <p>Who may do what: an administrator (the engine's user and the configured ones) everything; a
 * user named like a queue's schema owns it; anyone else what was granted to them or to PUBLIC.
 */
public final class Privileges {
    private static final int ENQ = 1;
    private static final int DEQ = 2;
    private static final int ENQ_GRANTABLE = 4;
    private static final int DEQ_GRANTABLE = 8;

    private final OwnTransactions own;
    private final Catalog catalog;
    private final String defaultSchema;
    private final String engineUser;
    private final Set<String> administrators;
    /** Tells the other nodes of a shared store to read the grants again; null on a store of one JVM. */
    private final Runnable changed;
    private volatile Snapshot snapshot = new Snapshot(Map.of(), Map.of());
    /**
     * How old the grants in memory may be on a shared store before a check reads them again: another
     * node's change normally arrives with its catalog signal at once, and this bounds the time a lost
     * signal leaves a revoke without effect here (with or without the time manager).
     */
    public static final java.time.Duration MAX_AGE = java.time.Duration.ofSeconds(10);
    /** The engine's clock (AqClock) in milliseconds. */
    private final java.util.function.LongSupplier clock;
    /** When the snapshot was last read: the clock's millis at the start of the read. */
    private volatile long readAt;
    /** Another node changed the catalog since the start of the last read: read again. */
    private volatile boolean expired = true;

    /**
     * @param queueGrants per queue id, per grantee: the ENQ / DEQ / *_GRANTABLE bits
     * @param systemGrants per grantee, per system privilege: whether with the admin option
     */
    private record Snapshot(Map<Long, Map<String, Integer>> queueGrants, Map<String, Map<SystemPrivilege, Boolean>> systemGrants) {
        int queueBits(long qid, String user) {
            Map<String, Integer> q = queueGrants.get(qid);
            return q == null ? 0 : q.getOrDefault(user, 0) | q.getOrDefault(UserNames.PUBLIC, 0);
        }

        boolean system(String user, SystemPrivilege p) {
            return has(systemGrants.get(user), p) || has(systemGrants.get(UserNames.PUBLIC), p);
        }

        boolean adminOption(String user, SystemPrivilege p) {
            return Boolean.TRUE.equals(grants(user).get(p)) || Boolean.TRUE.equals(grants(UserNames.PUBLIC).get(p));
        }

        private Map<SystemPrivilege, Boolean> grants(String user) {
            return systemGrants.getOrDefault(user, Map.of());
        }

        private static boolean has(Map<SystemPrivilege, Boolean> grants, SystemPrivilege p) {
            return grants != null && grants.containsKey(p);
        }
    }

    public Privileges(OwnTransactions own, Catalog catalog, java.util.function.LongSupplier clock, String defaultSchema,
            String engineUser, Collection<String> administrators, Runnable changed) {
        this.own = own;
        this.clock = clock;
        this.catalog = catalog;
        this.defaultSchema = defaultSchema;
        this.engineUser = UserNames.normalize(engineUser);
        Set<String> admins = new LinkedHashSet<>();
        if (this.engineUser != null) {
            admins.add(this.engineUser);
        }
        for (String a : administrators) {
            admins.add(UserNames.normalize(a));
        }
        this.administrators = Set.copyOf(admins);
        this.changed = changed;
    }

    /** The engine's own user: the grantor of what its unrestricted administrative interface grants. */
    public String engineUser() {
        return engineUser;
    }

    /** Whether {@code user} holds every privilege implicitly (null: the engine's user). */
    public boolean isAdministrator(String user) {
        return user == null || administrators.contains(UserNames.normalize(user));
    }

    // ------------------------------------------------------------------ checks

    /** Refuses (1031) an operation on {@code queue} that needs {@code needed} (ENQUEUE or DEQUEUE) when {@code user} lacks it. */
    public void check(String user, QueueMeta queue, QueuePrivilege needed) {
        if (isAdministrator(user)) {
            return;
        }
        String u = UserNames.normalize(user);
        if (u.equals(queue.owner())) {
            return;
        }
        Snapshot s = current();
        boolean enqueue = needed == QueuePrivilege.ENQUEUE;
        if (s.system(u, enqueue ? SystemPrivilege.ENQUEUE_ANY : SystemPrivilege.DEQUEUE_ANY)) {
            return;
        }
        if ((s.queueBits(queue.id(), u) & (enqueue ? ENQ : DEQ)) != 0) {
            return;
        }
        throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + (enqueue ? "enqueue into " : "dequeue from ")
                + queue.qualifiedName() + ": grant it " + needed + " on the queue or " + needed + "_ANY.");
    }

    /**
     * Refuses (1031) naming {@code address} (a remote consumer's address: {@code [schema.]queue}, or
     * {@code [schema.]queue@link}) in a subscriber or a recipient list of a queue of {@code sourceSchema} unless
     * {@code user} could enqueue there itself: propagation delivers as the engine's user, so without
     * this check any user could reach every queue (and, through a link, every linked store). A queue
     * of this store needs ENQUEUE on it (ENQUEUE_ANY, or owning its schema: a queue created there later
     * is the user's own); a link MANAGE_ANY, as the link itself does. {@code what} says where the
     * address was given. Nothing is checked for an administrator, nor for an address propagation
     * does not serve (another protocol: never delivered).
     */
    public void checkAddress(String user, String sourceSchema, io.aqueduct.api.Agent agent, String what) {
        if (isAdministrator(user)) {
            return;
        }
        io.aqueduct.engine.queue.RemoteAddress address = io.aqueduct.engine.queue.RemoteAddress.of(agent);
        if (address == null) {
            return;
        }
        String u = UserNames.normalize(user);
        if (address.link() != null) {
            if (current().system(u, SystemPrivilege.MANAGE_ANY)) {
                return;
            }
            throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + what + " with the address "
                    + agent.address() + ": propagation through database link " + address.link()
                    + " needs MANAGE_ANY.");
        }
        // an unqualified destination is in the source queue's schema, as propagation resolves it
        String written = address.queue().indexOf('.') < 0 ? sourceSchema + "." + address.queue() : address.queue();
        QualifiedName qn = QualifiedName.forLookup(written, defaultSchema, "queue");
        if (u.equals(qn.schema()) || current().system(u, SystemPrivilege.ENQUEUE_ANY)) {
            return;
        }
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString()); // another node may have created it
        }
        if (q != null && (current().queueBits(q.meta().id(), u) & ENQ) != 0) {
            return;
        }
        throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + what + " with the address "
                + agent.address() + ": propagation would enqueue into " + qn + ", which needs ENQUEUE on that queue"
                + " or ENQUEUE_ANY.");
    }

    /** Refuses (1031) an administrative operation ({@code what}) on {@code schema}'s objects unless {@code user} owns the schema or holds MANAGE_ANY. */
    public void checkManage(String user, String schema, String what) {
        if (isAdministrator(user)) {
            return;
        }
        String u = UserNames.normalize(user);
        if (u.equals(schema) || current().system(u, SystemPrivilege.MANAGE_ANY)) {
            return;
        }
        throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + what + " in schema " + schema
                + ": grant it MANAGE_ANY, or work as the schema's owner.");
    }

    /**
     * Refuses (1031) {@code what} on queue {@code queue} (a name, read again from the store when it is not
     * known yet) when {@code user} lacks {@code needed} on it; an unknown queue passes: the operation says so.
     */
    public void checkNamed(String user, String queue, QueuePrivilege needed, String what) {
        if (isAdministrator(user)) {
            return;
        }
        QualifiedName qn = QualifiedName.forLookup(queue, defaultSchema, "queue");
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString()); // another node may have created it
        }
        if (q == null) {
            return;
        }
        try {
            check(user, q.meta(), needed);
        } catch (AqException e) {
            throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + what + " " + q.meta().qualifiedName()
                    + ": grant it " + needed + " on the queue or " + needed + "_ANY.");
        }
    }

    /** Whether {@code user} is an administrator or holds MANAGE_ANY (so sees and changes what every user made). */
    public boolean mayManageAny(String user) {
        return isAdministrator(user) || current().system(UserNames.normalize(user), SystemPrivilege.MANAGE_ANY);
    }

    /** Refuses (1031) an administrative operation on no schema (agents, database links) unless {@code user} holds MANAGE_ANY. */
    public void checkManageAny(String user, String what) {
        if (isAdministrator(user) || current().system(UserNames.normalize(user), SystemPrivilege.MANAGE_ANY)) {
            return;
        }
        throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + what + ": grant it MANAGE_ANY.");
    }

    /**
     * Refuses (1031) changing ({@code what}) something {@code owner} made, a notification registration,
     * unless {@code user} is that user, an administrator or holds MANAGE_ANY.
     */
    public void checkOwnerOrManageAny(String user, String owner, String what) {
        if (isAdministrator(user) || (owner != null && UserNames.normalize(owner).equals(UserNames.normalize(user)))) {
            return;
        }
        checkManageAny(user, what);
    }

    // ------------------------------------------------------------------ grants

    /** GRANT_QUEUE_PRIVILEGE by {@code grantor} (null: the engine's user); see {@link io.aqueduct.api.QueueAdmin}. */
    public synchronized void grantQueue(String grantor, QueuePrivilege privilege, String queue, String grantee,
            boolean grantOption) {
        require(privilege, "queue privilege");
        QueueMeta q = queue(queue);
        String g = grantee(grantee);
        String by = grantor == null ? engineUser : UserNames.normalize(grantor);
        if (!managesQueue(by, q)) {
            int bits = current().queueBits(q.id(), by);
            for (String p : names(privilege)) {
                if ((bits & (p.equals("ENQUEUE") ? ENQ_GRANTABLE : DEQ_GRANTABLE)) == 0) {
                    throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, grantor + " may not grant " + p + " on "
                            + q.qualifiedName() + ": it needs the privilege with the grant option, MANAGE_ANY or the queue's ownership.");
                }
            }
        }
        write(conn -> {
            Dialect d = own.dialect();
            for (String p : names(privilege)) {
                Boolean grantable = null;
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.find"))) {
                    ps.setLong(1, q.id());
                    ps.setString(2, g);
                    ps.setString(3, p);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            grantable = rs.getInt(2) == 1;
                        }
                    }
                }
                if (grantable == null) {
                    try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.insert"))) {
                        ps.setLong(1, q.id());
                        ps.setString(2, g);
                        ps.setString(3, p);
                        ps.setString(4, by);
                        ps.setInt(5, grantOption ? 1 : 0);
                        ps.executeUpdate();
                    }
                } else if (grantOption && !grantable) {
                    try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.update"))) {
                        ps.setInt(1, 1);
                        ps.setLong(2, q.id());
                        ps.setString(3, g);
                        ps.setString(4, p);
                        ps.executeUpdate();
                    }
                }
            }
        });
    }

    /** REVOKE_QUEUE_PRIVILEGE by {@code revoker} (null: the engine's user). */
    public synchronized void revokeQueue(String revoker, QueuePrivilege privilege, String queue, String grantee) {
        require(privilege, "queue privilege");
        QueueMeta q = queue(queue);
        String g = grantee(grantee);
        String by = revoker == null ? engineUser : UserNames.normalize(revoker);
        boolean manages = managesQueue(by, q);
        write(conn -> {
            Dialect d = own.dialect();
            List<String> present = new ArrayList<>();
            for (String p : names(privilege)) {
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.find"))) {
                    ps.setLong(1, q.id());
                    ps.setString(2, g);
                    ps.setString(3, p);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            if (!manages && !by.equals(rs.getString(1))) {
                                throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, revoker + " may not revoke " + p
                                        + " on " + q.qualifiedName() + " from " + g + ": " + rs.getString(1)
                                        + " granted it; revoking needs that, MANAGE_ANY or the queue's ownership.");
                            }
                            present.add(p);
                        }
                    }
                }
            }
            if (present.isEmpty()) {
                throw new AqException(AqError.PRIVILEGE_NOT_GRANTED, g + " holds no " + (privilege == QueuePrivilege.ALL
                        ? "ENQUEUE or DEQUEUE" : privilege.name()) + " privilege on " + q.qualifiedName() + " to revoke.");
            }
            for (String p : present) {
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.delete"))) {
                    ps.setLong(1, q.id());
                    ps.setString(2, g);
                    ps.setString(3, p);
                    ps.executeUpdate();
                }
            }
        });
    }

    /** GRANT_SYSTEM_PRIVILEGE by {@code grantor} (null: the engine's user): an administrator, or one holding it with the admin option. */
    public synchronized void grantSystem(String grantor, SystemPrivilege privilege, String grantee, boolean adminOption) {
        require(privilege, "system privilege");
        String g = grantee(grantee);
        String by = grantor == null ? engineUser : UserNames.normalize(grantor);
        checkAdminOption(grantor, by, privilege, "grant");
        write(conn -> {
            Dialect d = own.dialect();
            Boolean had = null;
            try (PreparedStatement ps = conn.prepareStatement(d.sql("security.systemPrivilege.find"))) {
                ps.setString(1, g);
                ps.setString(2, privilege.name());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        had = rs.getInt(2) == 1;
                    }
                }
            }
            if (had == null) {
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.systemPrivilege.insert"))) {
                    ps.setString(1, g);
                    ps.setString(2, privilege.name());
                    ps.setString(3, by);
                    ps.setInt(4, adminOption ? 1 : 0);
                    ps.executeUpdate();
                }
            } else if (adminOption && !had) {
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.systemPrivilege.update"))) {
                    ps.setInt(1, 1);
                    ps.setString(2, g);
                    ps.setString(3, privilege.name());
                    ps.executeUpdate();
                }
            }
        });
    }

    /** REVOKE_SYSTEM_PRIVILEGE by {@code revoker} (null: the engine's user), as granting needs; 1952 when not granted. */
    public synchronized void revokeSystem(String revoker, SystemPrivilege privilege, String grantee) {
        require(privilege, "system privilege");
        String g = grantee(grantee);
        String by = revoker == null ? engineUser : UserNames.normalize(revoker);
        checkAdminOption(revoker, by, privilege, "revoke");
        write(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(own.dialect().sql("security.systemPrivilege.delete"))) {
                ps.setString(1, g);
                ps.setString(2, privilege.name());
                if (ps.executeUpdate() == 0) {
                    throw new AqException(AqError.SYSTEM_PRIVILEGE_NOT_GRANTED, privilege + " is not granted to " + g
                            + ": there is nothing to revoke.");
                }
            }
        });
    }

    private void checkAdminOption(String user, String normalized, SystemPrivilege privilege, String verb) {
        if (isAdministrator(normalized) || current().adminOption(normalized, privilege)) {
            return;
        }
        throw new AqException(AqError.INSUFFICIENT_PRIVILEGES, user + " may not " + verb + " " + privilege
                + ": that needs an administrator, or the privilege with the admin option.");
    }

    /** Whether {@code user} (normalized) may grant and revoke anything on the queue. */
    private boolean managesQueue(String user, QueueMeta q) {
        return isAdministrator(user) || user.equals(q.owner()) || current().system(user, SystemPrivilege.MANAGE_ANY);
    }

    public List<QueuePrivilegeInfo> queuePrivileges() {
        List<QueuePrivilegeInfo> out = new ArrayList<>();
        own.run(c -> {
            c.jdbc(conn -> {
                // grantee, queue id, grantor -> bits
                Map<List<Object>, Integer> rows = new HashMap<>();
                try (PreparedStatement ps = conn.prepareStatement(own.dialect().sql("security.queuePrivilege.all"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        boolean enq = rs.getString(3).equals("ENQUEUE");
                        int bits = (enq ? ENQ : DEQ) | (rs.getInt(5) == 1 ? (enq ? ENQ_GRANTABLE : DEQ_GRANTABLE) : 0);
                        rows.merge(List.of(rs.getString(2), rs.getLong(1), rs.getString(4)), bits, (a, b) -> a | b);
                    }
                }
                rows.forEach((k, bits) -> {
                    QueueRuntime q = catalog.queue((Long) k.get(1));
                    if (q != null) {
                        out.add(new QueuePrivilegeInfo((String) k.get(0), q.meta().owner(), q.meta().name(), (String) k.get(2),
                                (bits & ENQ) != 0, (bits & DEQ) != 0, (bits & ENQ_GRANTABLE) != 0, (bits & DEQ_GRANTABLE) != 0));
                    }
                });
            });
            return null;
        });
        out.sort(Comparator.comparing(QueuePrivilegeInfo::grantee).thenComparing(QueuePrivilegeInfo::owner)
                .thenComparing(QueuePrivilegeInfo::queue).thenComparing(QueuePrivilegeInfo::grantor));
        return out;
    }

    public List<SystemPrivilegeInfo> systemPrivileges() {
        List<SystemPrivilegeInfo> out = new ArrayList<>();
        own.run(c -> {
            c.jdbc(conn -> {
                try (PreparedStatement ps = conn.prepareStatement(own.dialect().sql("security.systemPrivilege.all"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new SystemPrivilegeInfo(rs.getString(1), SystemPrivilege.valueOf(rs.getString(2).trim()),
                                rs.getInt(4) == 1));
                    }
                }
            });
            return null;
        });
        out.sort(Comparator.comparing(SystemPrivilegeInfo::grantee).thenComparing(SystemPrivilegeInfo::privilege));
        return out;
    }

    // ------------------------------------------------------------------ the snapshot

    /**
     * The grants in memory; on a shared store read again first when older than {@link #MAX_AGE} or
     * when another node said the catalog changed. A read that fails fails the check (the store is
     * needed for the call anyway): grants older than that bound are never used.
     */
    private Snapshot current() {
        if (changed != null && (expired || clock.getAsLong() - readAt >= MAX_AGE.toMillis())) {
            synchronized (this) {
                if (expired || clock.getAsLong() - readAt >= MAX_AGE.toMillis()) {
                    reload();
                }
            }
        }
        return snapshot;
    }

    /** Another node changed the catalog (its grants, perhaps): the next check reads the grants again. */
    public void expire() {
        expired = true;
    }

    /** Reads every grant into memory (at start, after a change here, and when expired: see {@link #current}). */
    public void reload() {
        long started = clock.getAsLong();
        expired = false; // before the read: a change said during it reads once more
        Map<Long, Map<String, Integer>> queues = new HashMap<>();
        Map<String, Map<SystemPrivilege, Boolean>> system = new HashMap<>();
        own.run(c -> {
            c.jdbc(conn -> {
                Dialect d = own.dialect();
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.queuePrivilege.all"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        boolean enq = rs.getString(3).trim().equals("ENQUEUE");
                        int bits = (enq ? ENQ : DEQ) | (rs.getInt(5) == 1 ? (enq ? ENQ_GRANTABLE : DEQ_GRANTABLE) : 0);
                        queues.computeIfAbsent(rs.getLong(1), k -> new HashMap<>()).merge(rs.getString(2), bits, (a, b) -> a | b);
                    }
                }
                try (PreparedStatement ps = conn.prepareStatement(d.sql("security.systemPrivilege.all"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        system.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                                .put(SystemPrivilege.valueOf(rs.getString(2).trim()), rs.getInt(4) == 1);
                    }
                }
            });
            return null;
        });
        snapshot = new Snapshot(queues, system);
        readAt = started;
    }

    /** Deletes a dropped queue's grants, in the transaction that drops it (the caller reloads after its commit). */
    public static void queueDropped(Connection conn, Dialect dialect, long qid) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(dialect.sql("security.queuePrivilege.deleteQueue"))) {
            ps.setLong(1, qid);
            ps.executeUpdate();
        }
    }

    // ------------------------------------------------------------------ helpers

    /** A change in a transaction of its own; then the snapshot is read again here and the other nodes are told. */
    private void write(StoreConnection.SqlWork work) {
        own.readThenInsert(work); // another node's grant inserted meanwhile: read again, left or given the option
        reload();
        if (changed != null) {
            changed.run();
        }
    }


    private QueueMeta queue(String queue) {
        QualifiedName qn = QualifiedName.forLookup(queue, defaultSchema, "queue");
        QueueRuntime q = catalog.queue(qn.toString());
        if (q == null && catalog.refresh()) {
            q = catalog.queue(qn.toString());
        }
        if (q == null) {
            throw new AqException(AqError.QUEUE_NOT_FOUND, "Queue " + qn + " does not exist.");
        }
        return q.meta();
    }

    private static String grantee(String grantee) {
        return UserNames.check(grantee, "grantee");
    }

    private static void require(Object privilege, String what) {
        if (privilege == null) {
            throw new AqException(AqError.INVALID_VALUE, "Give the " + what + ", not null.");
        }
    }

    private static List<String> names(QueuePrivilege p) {
        return switch (p) {
            case ENQUEUE -> List.of("ENQUEUE");
            case DEQUEUE -> List.of("DEQUEUE");
            case ALL -> List.of("ENQUEUE", "DEQUEUE");
        };
    }
}
