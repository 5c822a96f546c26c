package io.aqueduct.engine.security;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.engine.store.Dialect;
import io.aqueduct.engine.store.OwnTransactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AQ agents (DBMS_AQADM.CREATE_AQ_AGENT, ENABLE_DB_ACCESS): names Internet users work under, with
 * their HTTP and mail access and the database users each may act as. Kept in the store only: they
 * are read when an HTTP or mail user is mapped, never on the enqueue / dequeue path.
 */
public final class AqAgents {
    private final OwnTransactions own;

    public AqAgents(OwnTransactions own) {
        this.own = own;
    }

    /** CREATE_AQ_AGENT; 24089 when the name exists. */
    public synchronized void create(String agent, boolean http, boolean smtp) {
        String name = UserNames.check(agent, "agent");
        own.readThenInsert(conn -> {
            if (find(conn, name) != null) {
                throw new AqException(AqError.AGENT_EXISTS, "AQ agent " + name + " already exists.");
            }
            try (PreparedStatement ps = conn.prepareStatement(sql("security.agent.insert"))) {
                ps.setString(1, name);
                ps.setInt(2, http ? 1 : 0);
                ps.setInt(3, smtp ? 1 : 0);
                ps.executeUpdate();
            }
        });
    }

    /** ALTER_AQ_AGENT: null leaves a flag unchanged; 24088 unknown. */
    public synchronized void alter(String agent, Boolean http, Boolean smtp) {
        String name = UserNames.check(agent, "agent");
        own.readThenInsert(conn -> {
            boolean[] now = existing(conn, name);
            try (PreparedStatement ps = conn.prepareStatement(sql("security.agent.update"))) {
                ps.setInt(1, (http != null ? http : now[0]) ? 1 : 0);
                ps.setInt(2, (smtp != null ? smtp : now[1]) ? 1 : 0);
                ps.setString(3, name);
                ps.executeUpdate();
            }
        });
    }

    /** DROP_AQ_AGENT with its database user mappings; 24088 unknown. */
    public synchronized void drop(String agent) {
        String name = UserNames.check(agent, "agent");
        own.readThenInsert(conn -> {
            existing(conn, name);
            try (PreparedStatement ps = conn.prepareStatement(sql("security.agentDbUser.deleteAll"))) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = conn.prepareStatement(sql("security.agent.delete"))) {
                ps.setString(1, name);
                ps.executeUpdate();
            }
        });
    }

    /** ENABLE_DB_ACCESS: the agent may act as {@code dbUser} (again: nothing changes); 24088 unknown agent. */
    public synchronized void enableDbAccess(String agent, String dbUser) {
        String name = UserNames.check(agent, "agent");
        String user = UserNames.check(dbUser, "database user");
        own.readThenInsert(conn -> {
            existing(conn, name);
            if (!mapped(conn, name, user)) {
                try (PreparedStatement ps = conn.prepareStatement(sql("security.agentDbUser.insert"))) {
                    ps.setString(1, name);
                    ps.setString(2, user);
                    ps.executeUpdate();
                }
            }
        });
    }

    /** DISABLE_DB_ACCESS; 24088 unknown agent, 24093 not mapped to that user. */
    public synchronized void disableDbAccess(String agent, String dbUser) {
        String name = UserNames.check(agent, "agent");
        String user = UserNames.check(dbUser, "database user");
        own.readThenInsert(conn -> {
            existing(conn, name);
            try (PreparedStatement ps = conn.prepareStatement(sql("security.agentDbUser.delete"))) {
                ps.setString(1, name);
                ps.setString(2, user);
                if (ps.executeUpdate() == 0) {
                    throw new AqException(AqError.AGENT_NOT_MAPPED, "AQ agent " + name + " may not act as database user "
                            + user + ": there is no such mapping to disable.");
                }
            }
        });
    }

    /** Every agent with its database users, by name (AQ$INTERNET_USERS). */
    public List<AqAgentInfo> list() {
        Map<String, boolean[]> agents = new LinkedHashMap<>();
        Map<String, List<String>> users = new LinkedHashMap<>();
        own.run(c -> {
            c.jdbc(conn -> {
                try (PreparedStatement ps = conn.prepareStatement(sql("security.agent.all")); ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        agents.put(rs.getString(1), new boolean[] {rs.getInt(2) == 1, rs.getInt(3) == 1});
                    }
                }
                try (PreparedStatement ps = conn.prepareStatement(sql("security.agentDbUser.all"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        users.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                    }
                }
            });
            return null;
        });
        List<AqAgentInfo> out = new ArrayList<>();
        agents.forEach((name, flags) -> out.add(new AqAgentInfo(name, flags[0], flags[1], users.getOrDefault(name, List.of()))));
        return out;
    }


    private String sql(String name) {
        Dialect d = own.dialect();
        return d.sql(name);
    }

    /** The agent's HTTP and mail flags; null when there is no such agent. */
    private boolean[] find(Connection conn, String name) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql("security.agent.find"))) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new boolean[] {rs.getInt(1) == 1, rs.getInt(2) == 1} : null;
            }
        }
    }

    private boolean[] existing(Connection conn, String name) throws SQLException {
        boolean[] flags = find(conn, name);
        if (flags == null) {
            throw new AqException(AqError.AGENT_NOT_FOUND, "AQ agent " + name + " does not exist: create it with createAqAgent.");
        }
        return flags;
    }

    private boolean mapped(Connection conn, String agent, String user) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql("security.agentDbUser.find"))) {
            ps.setString(1, agent);
            ps.setString(2, user);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
