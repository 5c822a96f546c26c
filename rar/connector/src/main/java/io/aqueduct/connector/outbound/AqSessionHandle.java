package io.aqueduct.connector.outbound;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueSession;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an application holds: a handle on a pooled queue session. Closing it returns the session
 * to the pool; a handle whose connection was cleaned up refuses further use.
 */
public final class AqSessionHandle implements QueueSession {
    private volatile AqManagedConnection owner;
    private volatile boolean closed;

    AqSessionHandle(AqManagedConnection owner) {
        this.owner = owner;
    }

    AqManagedConnection owner() {
        return owner;
    }

    void associate(AqManagedConnection mc) {
        this.owner = mc;
    }

    void invalidate() {
        closed = true;
    }

    private <T> T call(Supplier<T> work) {
        if (closed) {
            throw new AqException(AqError.SESSION_STATE, "This queue session handle is closed.");
        }
        AqManagedConnection mc = owner;
        try {
            return work.get();
        } catch (RuntimeException e) {
            mc.failed(e, this);
            throw e;
        }
    }

    @Override
    public MessageId enqueue(String queue, EnqueueOptions options, Message message) {
        return call(() -> owner.session().enqueue(queue, options, message));
    }

    @Override
    public List<MessageId> enqueueArray(String queue, EnqueueOptions options, List<Message> messages) {
        return call(() -> owner.session().enqueueArray(queue, options, messages));
    }

    @Override
    public Message dequeue(String queue, DequeueOptions options) {
        return call(() -> owner.session().dequeue(queue, options));
    }

    @Override
    public List<Message> dequeueArray(String queue, DequeueOptions options, int max) {
        return call(() -> owner.session().dequeueArray(queue, options, max));
    }

    /** Outside a container transaction (a non-transactional bean, say): commits the session's own work. */
    @Override
    public void commit() {
        call(() -> {
            owner.session().commit();
            return null;
        });
    }

    @Override
    public void rollback() {
        call(() -> {
            owner.session().rollback();
            return null;
        });
    }

    @Override
    public io.aqueduct.api.Agent listen(List<io.aqueduct.api.Agent> agents, long waitSeconds,
            io.aqueduct.api.DeliveryMode deliveryMode) {
        return call(() -> owner.session().listen(agents, waitSeconds, deliveryMode));
    }

    @Override
    public boolean awaitAvailable(String queue, String consumerName, String correlation, long waitMillis,
            java.util.function.BooleanSupplier cancelled) {
        return call(() -> owner.session().awaitAvailable(queue, consumerName, correlation, waitMillis, cancelled));
    }

    @Override
    public boolean awaitAvailable(String queue, String consumerName, String correlation,
            io.aqueduct.api.DeliveryMode deliveryMode, long waitMillis, java.util.function.BooleanSupplier cancelled) {
        return call(() -> owner.session().awaitAvailable(queue, consumerName, correlation, deliveryMode, waitMillis,
                cancelled));
    }

    @Override
    public long queueVersion(String queue) {
        return call(() -> owner.session().queueVersion(queue));
    }

    @Override
    public void awaitQueueChange(String queue, long seen, long millis) {
        call(() -> {
            owner.session().awaitQueueChange(queue, seen, millis);
            return null;
        });
    }

    @Override
    public void wakeWaiters(String queue) {
        call(() -> {
            owner.session().wakeWaiters(queue);
            return null;
        });
    }

    /** The managed connection's XAResource: the one the container enlists in its transactions. */
    @Override
    public javax.transaction.xa.XAResource xaResource() {
        return call(() -> owner.getXAResource());
    }

    /** Also true in a container-managed local transaction: its work is then the container's to commit, as in XA. */
    @Override
    public boolean inGlobalTransaction() {
        return call(() -> owner.inContainerTransaction());
    }

    @Override
    public void register(List<io.aqueduct.api.Registration> registrations) {
        call(() -> {
            owner.session().register(registrations);
            return null;
        });
    }

    @Override
    public byte[] receivePropagation(byte[] request) {
        return call(() -> owner.session().receivePropagation(request));
    }

    @Override
    public void unregister(List<io.aqueduct.api.Registration> registrations) {
        call(() -> {
            owner.session().unregister(registrations);
            return null;
        });
    }

    @Override
    public QueueAdmin admin() {
        return call(() -> owner.session().admin());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        owner.handleClosed(this);
    }
}
