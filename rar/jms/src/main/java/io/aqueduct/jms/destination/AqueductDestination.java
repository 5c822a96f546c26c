package io.aqueduct.jms.destination;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;

import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A JMS destination naming an AQ queue, {@code [schema.]name}: a {@link AqueductQueue} a
 * single-consumer queue (or an exception queue), an {@link AqueductTopic} a multi-consumer queue.
 * Two destinations are equal when they are of the same kind and name the same queue (AQ names are
 * case-insensitive).
 */
public abstract sealed class AqueductDestination implements Destination, Serializable
        permits AqueductQueue, AqueductTopic {
    private static final long serialVersionUID = 1L;
    // AQ's naming rule (QueueAdmin): letters, digits, _ $ #, starting with a letter; a queue at most
    // 24 bytes, a schema at most 30; a name looked up up to 30, as the default exception queue
    // AQ$_<table>_E of a table of 19 to 24 characters is
    private static final Pattern PART = Pattern.compile("[A-Za-z][A-Za-z0-9_$#]*");

    private final String name;

    AqueductDestination(String name) throws InvalidDestinationException {
        this.name = checkName(name);
    }

    /** The AQ queue's name as the application gave it. */
    public final String queueName() {
        return name;
    }

    /** The name upper-cased, as the catalog stores it; the key for equality. */
    public final String canonicalName() {
        return name.toUpperCase(Locale.ROOT);
    }

    /** Checks an AQ queue name {@code [schema.]name}; returns it trimmed. */
    public static String checkName(String name) throws InvalidDestinationException {
        if (name == null || name.isBlank()) {
            throw new InvalidDestinationException("A destination needs the name of an AQ queue ([schema.]name); got "
                    + (name == null ? "null" : "'" + name + "'") + ".");
        }
        String n = name.trim();
        int dot = n.indexOf('.');
        String schema = dot < 0 ? null : n.substring(0, dot);
        String queue = dot < 0 ? n : n.substring(dot + 1);
        if ((schema != null && !PART.matcher(schema).matches()) || !PART.matcher(queue).matches()) {
            throw new InvalidDestinationException("'" + name + "' is not an AQ queue name: use [schema.]name with letters,"
                    + " digits, _ $ # and a letter first.");
        }
        if (queue.length() > 30 || (schema != null && schema.length() > 30)) {
            throw new InvalidDestinationException("'" + name + "' is too long: an AQ queue name has at most 30 characters"
                    + " (24 for a queue created by name, 30 for a default exception queue AQ$_<table>_E), a schema 30.");
        }
        return n;
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof AqueductDestination d && d.getClass() == getClass() && d.canonicalName().equals(canonicalName());
    }

    @Override
    public final int hashCode() {
        return canonicalName().hashCode() * 31 + getClass().getSimpleName().hashCode();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
