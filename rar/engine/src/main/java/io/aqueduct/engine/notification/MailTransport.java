package io.aqueduct.engine.notification;

import io.aqueduct.api.AqNotification;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.util.Properties;

/**
 * mailto: notifications through Jakarta Mail (SMTP): the AQXmlNotification envelope as the body of a
 * {@code text/xml} message, subject "AQ notification: &lt;queue&gt;".
 */
final class MailTransport {
    private final MailSettings settings;

    MailTransport(MailSettings settings) {
        this.settings = settings;
    }

    void send(String url, AqNotification n) throws IOException {
        if (settings.host() == null) {
            throw new IOException("No SMTP server is configured for mailto: notifications (set the mail host).");
        }
        Properties p = new Properties();
        p.setProperty("mail.smtp.host", settings.host());
        p.setProperty("mail.smtp.port", String.valueOf(settings.port()));
        p.setProperty("mail.smtp.connectiontimeout", String.valueOf(Transports.CONNECT_TIMEOUT.toMillis()));
        p.setProperty("mail.smtp.timeout", String.valueOf(Transports.REQUEST_TIMEOUT.toMillis()));
        p.setProperty("mail.smtp.writetimeout", String.valueOf(Transports.REQUEST_TIMEOUT.toMillis()));
        if (settings.startTls()) {
            p.setProperty("mail.smtp.starttls.enable", "true");
            p.setProperty("mail.smtp.starttls.required", "true");
        }
        if (settings.user() != null) {
            p.setProperty("mail.smtp.auth", "true");
        }
        // the engine's own class loader finds the provider (in a container the application's loader may not)
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(MailTransport.class.getClassLoader());
        try {
            Session session = Session.getInstance(p);
            MimeMessage m = new MimeMessage(session);
            if (settings.from() != null) {
                m.setFrom(new InternetAddress(settings.from(), true));
            } else {
                m.setFrom();
            }
            m.setRecipient(Message.RecipientType.TO, new InternetAddress(Registrations.mailAddress(url), true));
            m.setSubject("AQ notification: " + n.queue() + (n.consumer() == null ? "" : ":" + n.consumer()), "UTF-8");
            m.setText(Envelopes.xml(n), "UTF-8", "xml");
            if (settings.user() != null) {
                Transport.send(m, settings.user(), settings.password());
            } else {
                Transport.send(m);
            }
        } catch (MessagingException e) {
            throw new IOException("Mail to " + url + " failed: " + e.getMessage(), e);
        } finally {
            t.setContextClassLoader(before);
        }
    }
}
