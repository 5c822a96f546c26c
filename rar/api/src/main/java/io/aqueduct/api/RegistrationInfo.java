package io.aqueduct.api;

import java.time.Instant;
import java.util.Set;

/**
 * A registration as the store has it ({@link QueueAdmin#registrations()}, the view AQ$REGISTRATIONS):
 * what was registered, when it ends by its timeout (null: never), the notifications delivered and the
 * failed delivery attempts so far, how many wait to be delivered (the RELIABLE ones in the store), and
 * the last failure's text and time, and the user that registered it ({@code user}: the session's user,
 * as given; null for a session opened without one).
 */
public record RegistrationInfo(String queue, String consumer, String notifyUrl, byte[] context, Set<NotificationQos> qos,
        long timeoutSeconds, Instant registeredAt, Instant expiresAt, long delivered, long failed, long pending,
        String lastError, Instant lastErrorAt, String user) {
}
