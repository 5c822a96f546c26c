package io.aqueduct.engine.propagation;

import io.aqueduct.engine.session.EngineSession;
import io.aqueduct.engine.time.AqClock;
import java.util.List;

/** Propagation's session on another store this JVM reaches directly (a JDBC URL or a Derby directory). */
public final class StoreLinkSession implements LinkSession {
    private final EngineSession session;
    private final AqClock clock;

    public StoreLinkSession(EngineSession session, AqClock clock) {
        this.session = session;
        this.clock = clock;
    }

    @Override
    public List<Arrived> deliver(String source, List<Arrival> arrivals) {
        return committed(() -> PropagationInbox.receive(session, clock, source, arrivals));
    }

    @Override
    public List<Arrived> deliverBuffered(List<Arrival> arrivals) {
        return committed(() -> PropagationInbox.receiveBuffered(session, arrivals)); // the lookups' transaction ends
    }

    @Override
    public void forgetBuffered(List<String> receiptIds) {
        session.bufferedMessages().forgetReceipts(receiptIds);
    }

    @Override
    public void forget(List<String> receiptIds) {
        committed(() -> {
            PropagationInbox.forget(session, receiptIds);
            return null;
        });
    }

    @Override
    public List<Receipt> receipts(String source, String after, int max) {
        return committed(() -> PropagationInbox.receipts(session, source, after, max));
    }

    private <T> T committed(java.util.function.Supplier<T> work) {
        try {
            T t = work.get();
            session.commit();
            return t;
        } catch (RuntimeException e) {
            try {
                if (!session.isClosed()) {
                    session.rollback();
                }
            } catch (RuntimeException r) {
                e.addSuppressed(r);
            }
            throw e;
        }
    }

    @Override
    public boolean isClosed() {
        return session.isClosed();
    }

    @Override
    public void close() {
        session.close();
    }
}
