package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.PropagationReceiver;
import io.aqueduct.engine.time.AqClock;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The destination's side of propagation over HTTP: what the Aqueduct servlet hands over from a
 * source engine, run as the servlet's user — the AQ agent's database user, who needs ENQUEUE on
 * every destination queue (a refusal fails the batch, as a stopped queue does: the source backs off
 * until it is granted) and sees and removes only receipts of queues it may enqueue to.
 */
public final class PropagationReceiving implements PropagationReceiver {
    /** What AQ_PROPAGATION_RECEIPT holds: ids and sources of at most 200 characters. */
    private static final int MAX_NAME = 200;

    private final AqClock clock;

    public PropagationReceiving(AqClock clock) {
        this.clock = clock;
    }

    @Override
    public byte[] receive(EngineSession session, byte[] body) {
        PropagationWire.Request request = PropagationWire.request(body);
        switch (request.operation()) {
            case PropagationWire.DELIVER -> {
                check(request.source());
                Set<String> checked = new HashSet<>();
                for (LinkSession.Arrival a : request.arrivals()) {
                    check(a.receiptId());
                    if (checked.add(a.queue().toUpperCase(Locale.ROOT))) {
                        mayEnqueue(session, a.queue());
                    }
                }
                return PropagationWire.delivered(PropagationInbox.receive(session, clock, request.source(), request.arrivals()));
            }
            case PropagationWire.FORGET -> {
                PropagationInbox.forget(session, request.receiptIds(), qid -> session.holds(qid, QueuePrivilege.ENQUEUE));
                return PropagationWire.done();
            }
            default -> {
                check(request.source());
                List<LinkSession.Receipt> receipts = PropagationInbox.receipts(session, request.source(), request.max(),
                        qid -> session.holds(qid, QueuePrivilege.ENQUEUE));
                return PropagationWire.receiptList(receipts);
            }
        }
    }

    /** 1031 when the user may not enqueue there; a queue that is not there is refused per message instead. */
    private static void mayEnqueue(EngineSession session, String queue) {
        try {
            session.requirePrivilege(queue, QueuePrivilege.ENQUEUE);
        } catch (AqException e) {
            if (!ScheduleRun.isApplicationError(e)) {
                throw e;
            }
        }
    }

    private static void check(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME) {
            throw new AqException(AqError.INVALID_VALUE, "A propagation request names a receipt or source of "
                    + (name == null ? 0 : name.length()) + " characters (1 to " + MAX_NAME + "): it was not written by Aqueduct.");
        }
    }
}
