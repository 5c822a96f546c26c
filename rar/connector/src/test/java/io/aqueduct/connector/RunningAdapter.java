package io.aqueduct.connector;

import static org.awaitility.Awaitility.await;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueMode;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.Navigation;
import io.aqueduct.api.QueueSession;
import io.aqueduct.connector.inbound.AqActivationSpec;
import jakarta.resource.ResourceException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The resource adapter started by a faked container (a WorkManager on plain threads), with the
 * container's side of MDB activation; {@link #close()} undeploys: deactivates, stops the adapter,
 * releases the container's threads.
 */
final class RunningAdapter implements AutoCloseable {
    final ThreadWorkManager workManager = new ThreadWorkManager();
    final AqResourceAdapter adapter = new AqResourceAdapter();
    private final List<Activation> activations = new ArrayList<>();
    private boolean stopped;

    record Activation(TransactedEndpoints endpoints, jakarta.resource.spi.ActivationSpec spec) {
    }

    private RunningAdapter() {
    }

    /**
     * On an embedded Derby store in {@code parent}/store (Derby creates that directory itself: it
     * refuses to create a database in a directory that exists, even an empty one).
     */
    static RunningAdapter onDerby(Path parent, String queueDefinitions) throws ResourceException {
        return onDerbyDirectory(parent.resolve("store"), queueDefinitions);
    }

    /** On an embedded Derby store whose storeDirectory is exactly {@code directory}. */
    static RunningAdapter onDerbyDirectory(Path directory, String queueDefinitions) throws ResourceException {
        RunningAdapter a = new RunningAdapter();
        a.adapter.setStoreDirectory(directory.toString());
        return a.start(queueDefinitions);
    }

    /** On a shared store (PostgreSQL / MariaDB). */
    static RunningAdapter onStore(String url, String user, String password, String queueDefinitions) throws ResourceException {
        RunningAdapter a = new RunningAdapter();
        a.adapter.setStoreUrl(url);
        a.adapter.setStoreUser(user);
        a.adapter.setStorePassword(password);
        return a.start(queueDefinitions);
    }

    private RunningAdapter start(String queueDefinitions) throws ResourceException {
        adapter.setQueueDefinitions(queueDefinitions);
        adapter.setUser("CONNECTOR_TEST");
        try {
            adapter.start(new FakeBootstrapContext(workManager));
        } catch (ResourceException | RuntimeException e) {
            workManager.close();
            throw e;
        }
        return this;
    }

    /** An MDB on {@code queue} with {@code maxSessions} sessions, as the container activates it. */
    TransactedEndpoints activate(String queue, int maxSessions, TransactedEndpoints.Bean bean) throws ResourceException {
        return activate(queue, maxSessions, new TransactedEndpoints(bean));
    }

    /** The container's activation of {@code endpoints} on {@code queue}. */
    TransactedEndpoints activate(String queue, int maxSessions, TransactedEndpoints endpoints) throws ResourceException {
        return activate(spec(queue, maxSessions), endpoints);
    }

    /** The container's activation of {@code endpoints} with {@code spec} (from {@link #spec}, adjusted). */
    TransactedEndpoints activate(AqActivationSpec spec, TransactedEndpoints endpoints) throws ResourceException {
        adapter.endpointActivation(endpoints, spec);
        activations.add(new Activation(endpoints, spec));
        return endpoints;
    }

    /** The container's activation of a MessageListener MDB ({@code endpoints} made with a JmsBean) with {@code spec}. */
    TransactedEndpoints activate(io.aqueduct.connector.jms.JmsActivationSpec spec, TransactedEndpoints endpoints)
            throws ResourceException {
        spec.setResourceAdapter(adapter);
        adapter.endpointActivation(endpoints, spec);
        activations.add(new Activation(endpoints, spec));
        return endpoints;
    }

    AqActivationSpec spec(String queue, int maxSessions) throws ResourceException {
        AqActivationSpec spec = new AqActivationSpec();
        spec.setQueueName(queue);
        spec.setMaxSessions(maxSessions);
        spec.setResourceAdapter(adapter);
        return spec;
    }

    void deactivate(TransactedEndpoints endpoints) {
        for (Activation a : List.copyOf(activations)) {
            if (a.endpoints() == endpoints) {
                adapter.endpointDeactivation(a.endpoints(), a.spec());
                activations.remove(a);
            }
        }
    }

    /** Enqueues the texts into {@code queue} in one local transaction of a session of the adapter's engine. */
    List<MessageId> enqueue(String queue, List<String> texts) throws ResourceException {
        List<MessageId> ids = new ArrayList<>();
        try (QueueSession s = adapter.engine().openSession()) {
            for (String t : texts) {
                ids.add(s.enqueue(queue, Message.of(t)));
            }
            s.commit();
        }
        return ids;
    }

    /**
     * As {@link #enqueue}, but as an application that meets the store away: false when the store
     * was unavailable (AQ 3113; nothing was enqueued, try again), any other failure is thrown.
     */
    boolean tryEnqueue(String queue, List<String> texts) throws ResourceException {
        try {
            enqueue(queue, texts);
            return true;
        } catch (AqException e) {
            if (e.errorCode() == AqError.STORE_UNAVAILABLE) {
                return false;
            }
            throw e;
        }
    }

    /** What {@code queue} holds now, in dequeue order, browsed. */
    List<Message> browse(String queue) throws ResourceException {
        List<Message> out = new ArrayList<>();
        try (QueueSession s = adapter.engine().openSession()) {
            DequeueOptions first = DequeueOptions.create().mode(DequeueMode.BROWSE).navigation(Navigation.FIRST_MESSAGE)
                    .waitSeconds(DequeueOptions.NO_WAIT);
            DequeueOptions next = first.copy().navigation(Navigation.NEXT_MESSAGE);
            for (DequeueOptions o = first;; o = next) {
                try {
                    out.add(s.dequeue(queue, o));
                } catch (AqException e) {
                    if (e.errorCode() == AqError.NO_MESSAGE) {
                        return out;
                    }
                    throw e;
                }
            }
        }
    }

    /**
     * Waits until {@code mdb} has committed {@code n} deliveries; if that does not happen in time,
     * fails with what the container saw and where the adapter's threads are.
     */
    void awaitCommitted(TransactedEndpoints mdb, int n, Duration atMost) {
        try {
            await().atMost(atMost).until(() -> mdb.committed().size() >= n);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(mdb.committed().size() + " of " + n + " deliveries committed within " + atMost
                    + "\n" + diagnostics(mdb), e);
        }
    }

    /**
     * Waits until every one of {@code texts} was delivered in a transaction that committed or
     * whose outcome the container could not know (see {@link TransactedEndpoints#settled()}); if
     * that does not happen in time, fails with what the container saw and where the adapter's threads are.
     */
    void awaitSettled(TransactedEndpoints mdb, java.util.Collection<String> texts, Duration atMost) {
        try {
            await().atMost(atMost).until(() -> mdb.settled().stream().map(TransactedEndpoints.Delivery::text)
                    .collect(java.util.stream.Collectors.toSet()).containsAll(texts));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(mdb.settled().size() + " deliveries settled, " + texts.size() + " expected, within "
                    + atMost + "\n" + diagnostics(mdb), e);
        }
    }

    /** What the container saw, what the queues hold, and the stacks of the adapter's threads. */
    String diagnostics(TransactedEndpoints mdb) {
        StringBuilder sb = new StringBuilder();
        sb.append("deliveries: ").append(mdb.deliveries().stream()
                .map(Object::toString).toList()).append('\n');
        sb.append("container errors: ").append(mdb.containerErrors()).append('\n');
        sb.append("endpoints created ").append(mdb.endpointsCreated()).append(", released ").append(mdb.endpointsReleased()).append('\n');
        sb.append("work failures: ").append(workManager.failures()).append('\n');
        for (Activation a : activations) {
            if (!(a.spec() instanceof AqActivationSpec spec)) {
                continue;
            }
            try {
                sb.append("queue ").append(spec.getQueueName()).append(" holds ")
                        .append(browse(spec.getQueueName()).stream().map(m -> m.text() + "/" + m.properties().attempts()
                                + "/" + m.properties().state()).toList()).append('\n');
            } catch (RuntimeException | ResourceException x) {
                sb.append("queue ").append(spec.getQueueName()).append(" cannot be browsed: ").append(x).append('\n');
            }
        }
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if (t.getName().startsWith("test-work-")) {
                sb.append("\"").append(t.getName()).append("\" ").append(t.getState()).append('\n');
                for (StackTraceElement f : stack) {
                    sb.append("    at ").append(f).append('\n');
                }
            }
        });
        return sb.toString();
    }

    /** Stops the adapter (deactivating first, as the container does) and releases the container's threads. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            for (Activation a : List.copyOf(activations)) {
                adapter.endpointDeactivation(a.endpoints(), a.spec());
            }
            activations.clear();
            adapter.stop();
        } finally {
            workManager.close();
        }
    }
}
