package io.aqueduct.jms.client;

import jakarta.jms.JMSSecurityException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who may connect: {@code createConnection(user, password)} is checked here, and the user it
 * names works as the AQ user of the connection's sessions (sender id, enqueue / dequeue user).
 * {@code createConnection()} uses the default identity without a password, as JMS allows.
 */
public final class Users {
    private final Map<String, String> passwords; // null: anyone, password not checked
    private final String defaultUser;

    private Users(Map<String, String> passwords, String defaultUser) {
        this.passwords = passwords;
        this.defaultUser = defaultUser;
    }

    /**
     * No authentication: any user name is accepted (the password is ignored) and becomes the AQ
     * user; {@code defaultUser} (null: the store's default user) serves {@code createConnection()}.
     */
    public static Users anyone(String defaultUser) {
        return new Users(null, blankToNull(defaultUser));
    }

    /**
     * These users with their passwords; an unknown user or a wrong password is refused with
     * JMSSecurityException. {@code defaultUser} (null: the store's default user) serves
     * {@code createConnection()} and must be one of them when given.
     */
    public static Users of(Map<String, String> passwords, String defaultUser) {
        java.util.Objects.requireNonNull(passwords, "passwords");
        Map<String, String> copy = Map.copyOf(passwords);
        String d = blankToNull(defaultUser);
        if (d != null && !copy.containsKey(d)) {
            throw new IllegalArgumentException("The default user '" + d + "' is not one of the configured users "
                    + copy.keySet() + ".");
        }
        return new Users(copy, d);
    }

    /** The user {@code createConnection()} works as (null: the store's default). */
    public String defaultUser() {
        return defaultUser;
    }

    /** Checks a {@code createConnection(user, password)}; returns the AQ user to work as. */
    public String authenticate(String user, String password) throws JMSSecurityException {
        if (passwords == null) {
            return blankToNull(user) == null ? defaultUser : user;
        }
        if (user == null) {
            // JMS: a null user name means the default identity, as createConnection() does
            if (password != null) {
                throw new JMSSecurityException("A password was given without a user name.");
            }
            return defaultUser;
        }
        String expected = passwords.get(user);
        // compare in constant time; an unknown user and a wrong password read the same to the caller
        byte[] given = (password == null ? "" : password).getBytes(StandardCharsets.UTF_8);
        byte[] known = (expected == null ? "\u0000unknown" : expected).getBytes(StandardCharsets.UTF_8);
        if (expected == null || !MessageDigest.isEqual(given, known)) {
            throw new JMSSecurityException("User '" + user + "' is unknown or the password is wrong.", "JMSSecurity");
        }
        return user;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
