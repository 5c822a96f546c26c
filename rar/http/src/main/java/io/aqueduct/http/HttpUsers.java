package io.aqueduct.http;

import io.aqueduct.api.AqAgentInfo;
import io.aqueduct.api.AqError;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Maps the container's authenticated user to the AQ agent of the same name (compared upper-cased, as AQ's unquoted
 * names are) and that agent to the database user its requests work as, as AQ's servlet does (CREATE_AQ_AGENT with
 * enable_http, ENABLE_DB_ACCESS). The agents are read from the catalog ({@code aqAgents()}) and remembered for a
 * configured while, so a request costs no store read; a change of an agent takes effect within that time.
 *
 * <p>Refused with 403 (a SOAP fault with the AQ number on the XML servlet): a user that is no agent (24088), an agent
 * not enabled for HTTP (1031), an agent mapped to no database user or to several (24093): the HTTP access works as
 * exactly one, and choosing among several would be a guess.
 */
public final class HttpUsers {
    private final Supplier<List<AqAgentInfo>> agents;
    private final Duration remembered;
    private final Clock clock;
    private Map<String, AqAgentInfo> byName;
    private Instant readAt;

    /** {@code agents} reads the catalog's agents (an administrative session's {@code aqAgents()}). */
    public HttpUsers(Supplier<List<AqAgentInfo>> agents, Duration remembered, Clock clock) {
        this.agents = agents;
        this.remembered = remembered;
        this.clock = clock;
    }

    /** The request's user; the container refused the request (401) before this when there is none. */
    public HttpUser of(HttpServletRequest request) {
        var principal = request.getUserPrincipal();
        if (principal == null || principal.getName() == null || principal.getName().isBlank()) {
            throw new HttpAccessException(401, AqError.INVALID_VALUE,
                    "This request has no authenticated user: log in (HTTP BASIC) as a user with the role aqueduct-http.");
        }
        return resolve(principal.getName());
    }

    /** {@code name}'s agent and database user, or the 403 that says what an administrator does about it. */
    public HttpUser resolve(String name) {
        String agentName = name.strip().toUpperCase(Locale.ROOT);
        AqAgentInfo agent = agents().get(agentName);
        if (agent == null) {
            throw new HttpAccessException(403, AqError.AGENT_NOT_FOUND, "The user " + name + " is no AQ agent: an administrator"
                    + " creates the agent " + agentName + " enabled for HTTP (DBMS_AQADM.CREATE_AQ_AGENT with enable_http;"
                    + " QueueAdmin.createAqAgent(\"" + agentName + "\", true, false)) and maps it to the database user whose"
                    + " privileges it uses (enableDbAccess).");
        }
        if (!agent.httpEnabled()) {
            throw new HttpAccessException(403, AqError.INSUFFICIENT_PRIVILEGES, "The AQ agent " + agentName + " is not enabled"
                    + " for HTTP: an administrator enables it (DBMS_AQADM.ALTER_AQ_AGENT with enable_http;"
                    + " QueueAdmin.alterAqAgent(\"" + agentName + "\", true, null)).");
        }
        if (agent.dbUsers().size() != 1) {
            throw new HttpAccessException(403, AqError.AGENT_NOT_MAPPED, "The AQ agent " + agentName + " is mapped to "
                    + (agent.dbUsers().isEmpty() ? "no database user" : "the database users " + String.join(", ", agent.dbUsers()))
                    + ": over HTTP it works as exactly one; an administrator "
                    + (agent.dbUsers().isEmpty() ? "maps it to one (DBMS_AQADM.ENABLE_DB_ACCESS; QueueAdmin.enableDbAccess(\""
                            + agentName + "\", user))."
                            : "removes the others (DBMS_AQADM.DISABLE_DB_ACCESS; QueueAdmin.disableDbAccess)."));
        }
        return new HttpUser(name, agentName, agent.dbUsers().get(0));
    }

    /** The agents by name, read again when older than the configured time (one reader; the others wait for it). */
    private synchronized Map<String, AqAgentInfo> agents() {
        Instant now = clock.instant();
        if (byName == null || !now.isBefore(readAt.plus(remembered))) {
            Map<String, AqAgentInfo> read = new HashMap<>();
            for (AqAgentInfo a : agents.get()) {
                read.put(a.name().toUpperCase(Locale.ROOT), a);
            }
            byName = read;
            readAt = now;
        }
        return byName;
    }
}
