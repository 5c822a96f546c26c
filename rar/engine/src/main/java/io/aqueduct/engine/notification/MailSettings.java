package io.aqueduct.engine.notification;

/**
 * Where mailto: notifications are sent: the SMTP server ({@code host}, {@code port}), the sender
 * address ({@code from}), the login ({@code user} / {@code password}, none when user is null) and whether
 * the connection is upgraded with STARTTLS (required when true). {@code host} null: no mail server is
 * configured, and a mailto: notification fails (counted, retried) until one is.
 */
public record MailSettings(String host, int port, String from, String user, String password, boolean startTls) {
    public static final MailSettings NONE = new MailSettings(null, 25, null, null, null, false);

    @Override
    public String toString() {
        return "MailSettings[" + host + ":" + port + ", from " + from + (user == null ? "" : ", user " + user)
                + (startTls ? ", STARTTLS" : "") + "]"; // never the password
    }
}
