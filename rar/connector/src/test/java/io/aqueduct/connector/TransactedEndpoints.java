package io.aqueduct.connector;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A message-driven bean with container-managed transactions, as the container presents it to the
 * resource adapter: {@code createEndpoint(xa)} keeps the XAResource, {@code beforeDelivery} starts
 * a branch of a new transaction on it, {@code afterDelivery} ends the branch and commits it (one
 * phase) or rolls it back when the bean threw or asked for it ({@link #setRollbackOnly()}, the
 * MessageDrivenContext's). Every delivery is recorded with its outcome.
 */
final class TransactedEndpoints implements MessageEndpointFactory {
    /** The test's bean. */
    interface Bean {
        void onMessage(Message m) throws Exception;
    }

    /** The test's bean when it implements jakarta.jms.MessageListener. */
    interface JmsBean {
        void onMessage(jakarta.jms.Message m) throws Exception;
    }

    enum Outcome {
        COMMITTED, ROLLED_BACK,
        /** The commit failed in a way that leaves the outcome unknown to the transaction manager (XA_HEURHAZ, XAER_RMFAIL). */
        OUTCOME_UNKNOWN
    }

    /**
     * One message handed to the bean, and what became of its transaction: its outcome and the
     * XAException's error code when completing it failed (0: it did not).
     */
    record Delivery(MessageId id, String text, int attempts, Outcome outcome, int xaError, String thread, long atNanos) {
        @Override
        public String toString() {
            return text + "/" + attempts + "/" + outcome + (xaError == 0 ? "" : "/XA" + xaError);
        }
    }

    private static final ThreadLocal<Handler> CURRENT = new ThreadLocal<>();

    private final Bean bean;
    private final JmsBean jmsBean;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final List<Throwable> containerErrors = new CopyOnWriteArrayList<>();
    private final AtomicInteger endpoints = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();

    /** Whether the bean's deliveries are transacted (container-managed, REQUIRED) or not (bean-managed). */
    private final boolean transacted;

    TransactedEndpoints(Bean bean) {
        this(bean, true);
    }

    /**
     * {@code transacted = false}: a bean-managed (or NOT_SUPPORTED) MDB; the adapter gets no
     * transaction from the container and delivers in its session's own, with no before / afterDelivery.
     */
    TransactedEndpoints(Bean bean, boolean transacted) {
        this.bean = bean;
        this.jmsBean = null;
        this.transacted = transacted;
    }

    private TransactedEndpoints(JmsBean bean, boolean transacted) {
        this.bean = null;
        this.jmsBean = bean;
        this.transacted = transacted;
    }

    /** A MessageListener MDB (container-managed when {@code transacted}). */
    static TransactedEndpoints jms(JmsBean bean, boolean transacted) {
        return new TransactedEndpoints(bean, transacted);
    }

    /** What a delivery record says of a message: the AQ one, or the JMS one (id from JMSMessageID, attempts from JMSXDeliveryCount). */
    private record Seen(MessageId id, String text, int attempts) {
        static Seen of(Object m) {
            if (m instanceof Message aq) {
                return new Seen(aq.id(), textOf(aq), aq.properties().attempts());
            }
            try {
                jakarta.jms.Message j = (jakarta.jms.Message) m;
                String text = j instanceof jakarta.jms.TextMessage t ? t.getText() : j.getBody(Object.class) + "";
                return new Seen(MessageId.parse(j.getJMSMessageID().substring(3)), text,
                        j.getIntProperty("JMSXDeliveryCount") - 1);
            } catch (jakarta.jms.JMSException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private void callBean(Object m) throws Exception {
        if (m instanceof Message aq) {
            bean.onMessage(aq);
        } else {
            jmsBean.onMessage((jakarta.jms.Message) m);
        }
    }

    /** From inside the bean: the delivery's transaction is to roll back (MessageDrivenContext.setRollbackOnly). */
    static void setRollbackOnly() {
        Handler h = CURRENT.get();
        if (h == null) {
            throw new IllegalStateException("not in a delivery");
        }
        h.rollbackOnly = true;
    }

    /** Every delivery so far, in the order their transactions ended. */
    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** The deliveries whose transaction committed. */
    List<Delivery> committed() {
        return deliveries.stream().filter(d -> d.outcome() == Outcome.COMMITTED).toList();
    }

    /**
     * The deliveries whose transaction committed, or whose commit failed with an outcome the
     * container cannot know (the message is then consumed or back in the queue; the queue tells).
     */
    List<Delivery> settled() {
        return deliveries.stream().filter(d -> d.outcome() != Outcome.ROLLED_BACK).toList();
    }

    /** How many times each text was committed. */
    Map<String, Long> committedCounts() {
        return committed().stream().collect(Collectors.groupingBy(Delivery::text, Collectors.counting()));
    }

    /** Texts committed more than once: each one a duplicate delivery. */
    long duplicates() {
        return committedCounts().values().stream().mapToLong(n -> n - 1).sum();
    }

    /** The deliveries of one text, in order. */
    List<Delivery> deliveriesOf(String text) {
        return deliveries.stream().filter(d -> text.equals(d.text())).toList();
    }

    /** Errors the container itself saw (a transaction it could not begin or end). */
    List<Throwable> containerErrors() {
        return List.copyOf(containerErrors);
    }

    int endpointsCreated() {
        return endpoints.get();
    }

    int endpointsReleased() {
        return released.get();
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
        return createEndpoint(xaResource, 0);
    }

    @Override
    public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
        if (transacted && xaResource == null) {
            throw new IllegalStateException("a transacted delivery needs the adapter's XAResource");
        }
        endpoints.incrementAndGet();
        return (MessageEndpoint) Proxy.newProxyInstance(TransactedEndpoints.class.getClassLoader(),
                new Class<?>[] {MessageEndpoint.class, jmsBean != null ? jakarta.jms.MessageListener.class : AqMessageListener.class},
                new Handler(xaResource));
    }

    @Override
    public boolean isDeliveryTransacted(Method method) {
        return transacted;
    }

    @Override
    public String getActivationName() {
        return "TestMdb";
    }

    @Override
    public Class<?> getEndpointClass() {
        return TestMdb.class;
    }

    /** The bean class the container would name. */
    static final class TestMdb {
        private TestMdb() {
        }
    }

    /** One endpoint instance: the container's side of one delivery at a time. */
    private final class Handler implements InvocationHandler {
        private final XAResource xa;
        private Xid xid;
        private Object message;
        private boolean rollbackOnly;
        private boolean isReleased;

        Handler(XAResource xa) {
            this.xa = xa;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "beforeDelivery" -> {
                    beforeDelivery();
                    return null;
                }
                case "afterDelivery" -> {
                    afterDelivery();
                    return null;
                }
                case "onMessage" -> {
                    onMessage(args[0]);
                    return null;
                }
                case "release" -> {
                    if (xid != null) {
                        containerErrors.add(new IllegalStateException("released in the middle of a delivery"));
                    }
                    if (!isReleased) {
                        isReleased = true;
                        released.incrementAndGet();
                    }
                    return null;
                }
                case "toString" -> {
                    return "TestMdb endpoint on " + xa;
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                default -> throw new UnsupportedOperationException(method.toString());
            }
        }

        private void beforeDelivery() throws ResourceException {
            check(transacted, "beforeDelivery on a delivery that is not transacted");
            check(!isReleased, "beforeDelivery on a released endpoint");
            check(xid == null, "beforeDelivery while a delivery is in progress");
            Xid x = TestXid.next();
            try {
                xa.start(x, XAResource.TMNOFLAGS);
            } catch (XAException e) {
                // the container could not enlist the adapter's resource: no transaction, no delivery
                throw new ResourceException("the container could not start the delivery transaction: " + describe(e), e);
            }
            xid = x;
            message = null;
            rollbackOnly = false;
        }

        private void onMessage(Object m) throws Throwable {
            if (!transacted) {
                onMessageWithoutTransaction(m);
                return;
            }
            check(xid != null, "onMessage outside beforeDelivery / afterDelivery");
            check(message == null, "a second onMessage in one delivery");
            message = m;
            CURRENT.set(this);
            try {
                callBean(m);
            } catch (RuntimeException e) {
                rollbackOnly = true; // a system exception: the container marks the transaction rollback-only
                throw e;
            } catch (Exception e) {
                rollbackOnly = true;
                throw new RuntimeException("the bean failed (EJBException)", e); // what the container would throw
            } finally {
                CURRENT.remove();
            }
        }

        /** Not transacted: the outcome is the adapter's (it commits its session, or rolls back when the bean threw). */
        private void onMessageWithoutTransaction(Object m) {
            Outcome outcome = Outcome.COMMITTED;
            try {
                callBean(m);
            } catch (RuntimeException e) {
                outcome = Outcome.ROLLED_BACK;
                throw e;
            } catch (Exception e) {
                outcome = Outcome.ROLLED_BACK;
                throw new RuntimeException("the bean failed (EJBException)", e);
            } finally {
                Seen seen = Seen.of(m);
                deliveries.add(new Delivery(seen.id(), seen.text(), seen.attempts(), outcome, 0,
                        Thread.currentThread().getName(), System.nanoTime()));
            }
        }

        private void afterDelivery() throws ResourceException {
            check(xid != null, "afterDelivery without beforeDelivery");
            Xid x = xid;
            Object m = message;
            xid = null;
            message = null;
            Outcome outcome;
            XAException failure = null;
            try {
                xa.end(x, XAResource.TMSUCCESS);
            } catch (XAException e) {
                failure = e; // the branch could not end: the transaction manager rolls it back
            }
            if (failure != null || rollbackOnly) {
                outcome = Outcome.ROLLED_BACK;
                try {
                    xa.rollback(x);
                } catch (XAException e) {
                    // rolled back already, or unknown to the resource (its connection went: the database rolled it back)
                    failure = failure != null ? failure : isRollback(e) || e.errorCode == XAException.XAER_NOTA ? null : e;
                }
            } else {
                try {
                    xa.commit(x, true);
                    outcome = Outcome.COMMITTED;
                } catch (XAException e) {
                    failure = e;
                    outcome = isRollback(e) || e.errorCode == XAException.XA_HEURRB ? Outcome.ROLLED_BACK
                            : e.errorCode == XAException.XA_HEURCOM ? Outcome.COMMITTED
                            : Outcome.OUTCOME_UNKNOWN; // XA_HEURHAZ, XA_HEURMIX, XAER_RMFAIL: the transaction manager cannot tell
                }
            }
            if (m != null) {
                Seen seen = Seen.of(m);
                deliveries.add(new Delivery(seen.id(), seen.text(), seen.attempts(), outcome,
                        failure == null ? 0 : failure.errorCode, Thread.currentThread().getName(), System.nanoTime()));
            }
            if (failure != null) {
                throw new ResourceException("the container could not complete the delivery transaction: " + describe(failure), failure);
            }
        }

        private void check(boolean condition, String what) {
            if (!condition) {
                IllegalStateException e = new IllegalStateException("the adapter broke the endpoint contract: " + what);
                containerErrors.add(e);
                throw e;
            }
        }
    }

    private static boolean isRollback(XAException e) {
        return e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND;
    }

    private static String textOf(Message m) {
        Object p = m.payload();
        return p instanceof String s ? s : String.valueOf(p);
    }

    private static String describe(XAException e) {
        return "XAException " + e.errorCode + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
}
