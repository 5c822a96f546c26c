package io.aqueduct.http;

import io.aqueduct.api.Agent;

/**
 * Who a request works as: the container's authenticated user {@code name}, the AQ agent enabled for HTTP of the same
 * name (upper-case, as AQ keeps it) and the one database user the agent is mapped to, whose privileges the request's
 * queue session has.
 */
public record HttpUser(String name, String agent, String dbUser) {

    /** The sender of a message the request sends without one: the agent. */
    public Agent sender() {
        return new Agent(agent, null, 0);
    }
}
