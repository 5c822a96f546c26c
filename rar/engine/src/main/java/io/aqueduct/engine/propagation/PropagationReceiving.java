package io.aqueduct.engine.propagation;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.Agent;
import io.aqueduct.api.QueuePrivilege;
import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.session.PropagationReceiver;
import io.aqueduct.engine.time.AqClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The destination's side of propagation over HTTP: what the Aqueduct servlet hands over from a
 * source engine, run as the servlet's user — the AQ agent's database user. That user needs ENQUEUE
 * on every destination queue (a refusal fails the batch, as a stopped queue does: the source backs
 * off until it is granted). Its receipts are its own: ids and sources are kept under a prefix
 * derived from the user, so no user can see, remove or pose as another's receipts. A request that
 * Aqueduct's propagation would not send — recipients with addresses (they would make this store's
 * own propagation forward the message where the user may not enqueue), a message id that is not
 * one, too many queues — is refused whole (24097).
 */
public final class PropagationReceiving implements PropagationReceiver {
    /** What AQ_PROPAGATION_RECEIPT holds: ids and sources of at most 200 characters. */
    private static final int MAX_NAME = 200;
    /** The distinct destination queues one request may name (a batch is 100 parts). */
    static final int MAX_QUEUES = 1000;
    private static final Pattern MSGID = Pattern.compile("[0-9A-Fa-f]{32}");

    private final AqClock clock;

    public PropagationReceiving(AqClock clock) {
        this.clock = clock;
    }

    @Override
    public byte[] receive(EngineSession session, byte[] body) {
        PropagationWire.Request request = PropagationWire.request(body);
        String prefix = prefix(session.user());
        switch (request.operation()) {
            case PropagationWire.DELIVER, PropagationWire.DELIVER_BUFFERED -> {
                return PropagationWire.delivered(deliver(session, prefix, request));
            }
            case PropagationWire.FORGET, PropagationWire.FORGET_BUFFERED -> {
                List<String> ids = new ArrayList<>(request.receiptIds().size());
                for (String id : request.receiptIds()) {
                    ids.add(prefix + checked(id, prefix));
                }
                if (request.operation() == PropagationWire.FORGET) {
                    PropagationInbox.forget(session, ids);
                } else {
                    session.bufferedMessages().forgetReceipts(ids);
                }
                return PropagationWire.done();
            }
            default -> {
                String after = request.after().isEmpty() ? prefix : prefix + checked(request.after(), prefix);
                List<LinkSession.Receipt> receipts = PropagationInbox.receipts(session, prefix + checked(request.source(), prefix),
                        after, request.max());
                return PropagationWire.receiptList(receipts.stream()
                        .map(r -> new LinkSession.Receipt(r.id().substring(prefix.length()), r.createdMs())).toList());
            }
        }
    }

    private List<LinkSession.Arrived> deliver(EngineSession session, String prefix, PropagationWire.Request request) {
        boolean buffered = request.operation() == PropagationWire.DELIVER_BUFFERED;
        String source = prefix + checked(request.source(), prefix);
        List<LinkSession.Arrival> arrivals = request.arrivals();
        // each queue looked up once (a name that is not there refreshes the catalog once), its privilege checked first
        Map<String, AqException> queues = new HashMap<>();
        for (LinkSession.Arrival a : arrivals) {
            checked(a.receiptId(), prefix);
            if (!MSGID.matcher(a.message().originalMsgid()).matches()) {
                throw invalid("an original message id that is not one (32 hexadecimal digits)");
            }
            List<Agent> recipients = a.message().message().properties().recipients();
            if (recipients != null && recipients.stream().anyMatch(r -> r.address() != null || r.protocol() != 0)) {
                throw invalid("recipients with an address (propagation names only the consumers of the destination queue)");
            }
            String key = a.queue().strip().toUpperCase(Locale.ROOT);
            if (!queues.containsKey(key)) {
                if (queues.size() >= MAX_QUEUES) {
                    throw invalid("more than " + MAX_QUEUES + " destination queues");
                }
                queues.put(key, mayEnqueue(session, a.queue()));
            }
        }
        LinkSession.Arrived[] out = new LinkSession.Arrived[arrivals.size()];
        List<LinkSession.Arrival> known = new ArrayList<>(arrivals.size());
        List<Integer> positions = new ArrayList<>(arrivals.size());
        for (int i = 0; i < arrivals.size(); i++) {
            LinkSession.Arrival a = arrivals.get(i);
            AqException missing = queues.get(a.queue().strip().toUpperCase(Locale.ROOT));
            if (missing != null) {
                out[i] = new LinkSession.Arrived(false, missing);
            } else {
                known.add(a.withReceipt(prefix + a.receiptId()));
                positions.add(i);
            }
        }
        if (!known.isEmpty()) {
            List<LinkSession.Arrived> delivered = buffered ? PropagationInbox.receiveBuffered(session, known)
                    : PropagationInbox.receive(session, clock, source, known);
            for (int k = 0; k < positions.size(); k++) {
                out[positions.get(k)] = delivered.get(k);
            }
        }
        return List.of(out);
    }

    /** 1031 when the user may not enqueue there (thrown: the batch fails); a queue that is not there: its refusal, returned. */
    private static AqException mayEnqueue(EngineSession session, String queue) {
        try {
            session.requirePrivilege(queue, QueuePrivilege.ENQUEUE);
            return null;
        } catch (AqException e) {
            if (!ScheduleRun.isApplicationError(e)) {
                throw e;
            }
            return e;
        }
    }

    /** The receipts of {@code user}: ids and sources begin with this (16 hexadecimal digits of a digest, and ':'). */
    static String prefix(String user) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(String.valueOf(user).toUpperCase(Locale.ROOT)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8) + ":";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String checked(String name, String prefix) {
        if (name == null || name.isEmpty() || prefix.length() + name.length() > MAX_NAME) {
            throw invalid("a receipt or source of " + (name == null ? 0 : name.length()) + " characters (1 to "
                    + (MAX_NAME - prefix.length()) + ")");
        }
        return name;
    }

    private static AqException invalid(String what) {
        return new AqException(AqError.INVALID_VALUE, "This propagation request has " + what + ": it was not written by"
                + " Aqueduct's propagation, and nothing of it was done.");
    }
}
