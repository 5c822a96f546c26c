package io.aqueduct.connector.outbound;

import jakarta.security.jacc.PolicyContext;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.security.auth.Subject;

/**
 * The authenticated caller the container runs the application as, read through Jakarta
 * Authorization ({@code PolicyContext.getContext("javax.security.auth.Subject.container")}, which
 * Payara and other servers answer on the calling thread): its name becomes the AQ user of the
 * sessions the adapter opens for that caller, so that AQ's privileges apply to it. None (null)
 * for an anonymous caller, outside a container, or when the server answers nothing usable.
 */
final class CallerIdentity {
    private static final Logger LOG = Logger.getLogger(CallerIdentity.class.getName());
    static final String SUBJECT_KEY = "javax.security.auth.Subject.container";
    /** The name Payara (GlassFish) gives the unauthenticated caller (its default principal). */
    static final String ANONYMOUS = "ANONYMOUS";

    private CallerIdentity() {
    }

    /** The caller's name, or null when there is no authenticated caller. */
    static String caller() {
        Subject subject;
        try {
            subject = (Subject) PolicyContext.getContext(SUBJECT_KEY);
        } catch (Exception | LinkageError e) {
            // no Jakarta Authorization here, no handler for the key, or not allowed: no caller to go by
            LOG.log(Level.FINEST, "Aqueduct could not ask the container for the caller's Subject", e);
            return null;
        }
        return nameOf(subject);
    }

    /**
     * The caller's name in a container's Subject: its {@code jakarta.security.enterprise.CallerPrincipal}
     * when it has one, else its one principal that is not a group or role (Payara adds the caller's
     * groups as principals); null when there is none, more than one candidate, or the anonymous caller.
     */
    static String nameOf(Subject subject) {
        if (subject == null) {
            return null;
        }
        List<Principal> candidates = new ArrayList<>();
        for (Principal p : subject.getPrincipals()) {
            if (p == null || p.getName() == null || p.getName().isBlank()) {
                continue;
            }
            if (isA(p.getClass(), "jakarta.security.enterprise.CallerPrincipal")) {
                return named(p.getName());
            }
            String type = p.getClass().getSimpleName();
            if (!type.contains("Group") && !type.contains("Role")) {
                candidates.add(p);
            }
        }
        return candidates.size() == 1 ? named(candidates.get(0).getName()) : null;
    }

    private static String named(String name) {
        String n = name.strip();
        return n.equalsIgnoreCase(ANONYMOUS) ? null : n;
    }

    private static boolean isA(Class<?> type, String className) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }
}
