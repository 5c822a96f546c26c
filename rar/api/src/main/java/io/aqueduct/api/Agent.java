package io.aqueduct.api;

import java.io.Serializable;

/**
 * AQ$_AGENT: a producer or consumer of messages. Name up to 30 bytes, address up to 1024 bytes
 * (a queue, for a remote consumer), protocol a number (0 = the default protocol).
 */
public record Agent(String name, String address, int protocol) implements Serializable {
    public Agent {
        if (name == null && address == null) {
            throw new AqException(AqError.INVALID_VALUE, "An agent needs a name or an address.");
        }
        StorableText.check(name, "An agent's name");
        StorableText.check(address, "An agent's address");
        if (name != null && name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 30) {
            throw new AqException(AqError.NAME_TOO_LONG, "Agent name '" + name + "' is longer than 30 bytes.");
        }
        if (address != null && address.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 1024) {
            throw new AqException(AqError.NAME_TOO_LONG, "Agent address is longer than 1024 bytes.");
        }
        if (protocol < 0) {
            throw new AqException(AqError.INVALID_VALUE, "Agent protocol must be 0 or more; got " + protocol + ".");
        }
    }

    public static Agent named(String name) {
        return new Agent(name, null, 0);
    }
}
