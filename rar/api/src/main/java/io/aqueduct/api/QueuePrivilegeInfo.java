package io.aqueduct.api;

/**
 * A grant on one queue, as the QUEUE_PRIVILEGES view shows it: what {@code grantee} (a user or
 * {@code PUBLIC}) was given on {@code owner.queue} by {@code grantor}.
 *
 * @param enqueueGrantable whether the grantee may grant ENQUEUE on to others (the grant option)
 * @param dequeueGrantable whether the grantee may grant DEQUEUE on to others
 */
public record QueuePrivilegeInfo(String grantee, String owner, String queue, String grantor, boolean enqueue,
        boolean dequeue, boolean enqueueGrantable, boolean dequeueGrantable) {
}
