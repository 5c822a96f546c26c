package io.aqueduct.jms.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.QueueSession;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A factory under a Jakarta EE container's rules ({@link AqueductConnectionFactory#containerManaged}),
 * the container faked: it enlists every queue session it hands out while a transaction is active
 * on the thread, as an application server enlists a pooled connection, and ends them at commit or
 * rollback. In a transaction a session's sends and receives are the transaction's; outside one a
 * session is not transacted; the platform's forbidden methods are refused.
 */
class ContainerManagedTest {
    private JmsStore store;
    private FakeContainer container;
    private AqueductConnectionFactory factory;
    private Queue queue;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open();
        queue = store.queue("BILLING");
        container = new FakeContainer(store.engine);
        factory = new AqueductConnectionFactory(container, Users.anyone(null), "booksonline").containerManaged(store.engine);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void a_send_in_a_committed_transaction_is_delivered_and_in_a_rolled_back_one_never() throws Exception {
        container.begin();
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED); // ignored in a transaction
            s.createProducer(queue).send(s.createTextMessage("billed"));
            assertThat(receiveOutside(300)).as("before the transaction commits").isNull();
        }
        container.commit();
        assertThat(textOf(receiveOutside(5_000))).isEqualTo("billed");

        container.begin();
        try (JMSContext ctx = factory.createContext()) {
            ctx.createProducer().send(queue, "never");
        }
        container.rollback();
        assertThat(receiveOutside(500)).isNull();
    }

    @Test
    void a_receive_in_a_rolled_back_transaction_comes_back_redelivered() throws Exception {
        sendOutside("to bill");
        container.begin();
        try (Connection c = factory.createConnection()) {
            c.start();
            Message m = c.createSession().createConsumer(queue).receive(5_000);
            assertThat(m.getJMSRedelivered()).isFalse();
        }
        container.rollback();

        container.begin();
        try (JMSContext ctx = factory.createContext()) {
            Message again = ctx.createConsumer(queue).receive(5_000);
            assertThat(textOf(again)).isEqualTo("to bill");
            assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            assertThat(again.getJMSRedelivered()).isTrue();
        }
        container.commit();
        assertThat(receiveOutside(300)).as("consumed by the committed transaction").isNull();
    }

    @Test
    void in_a_transaction_the_session_reports_transacted_and_refuses_commit_rollback_and_recover() throws Exception {
        container.begin();
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            assertThat(s.getTransacted()).isTrue();
            assertThat(s.getAcknowledgeMode()).isEqualTo(Session.SESSION_TRANSACTED);
            assertThatThrownBy(s::commit).isInstanceOf(TransactionInProgressException.class);
            assertThatThrownBy(s::rollback).isInstanceOf(TransactionInProgressException.class);
            assertThatThrownBy(s::recover).isInstanceOf(TransactionInProgressException.class);
            s.createProducer(queue).send(s.createTextMessage("closed before the commit"));
        }
        container.commit();
        assertThat(textOf(receiveOutside(5_000))).as("a session closed inside the transaction: its work is the transaction's")
                .isEqualTo("closed before the commit");
    }

    @Test
    void outside_a_transaction_a_session_is_not_transacted_and_a_send_is_visible_at_once() throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            assertThat(s.getTransacted()).isFalse();
            assertThat(s.getAcknowledgeMode()).isEqualTo(Session.AUTO_ACKNOWLEDGE);
            s.createProducer(queue).send(s.createTextMessage("now"));
            assertThat(textOf(receiveOutside(5_000))).isEqualTo("now");
            assertThatThrownBy(s::commit).isInstanceOf(jakarta.jms.IllegalStateException.class);
        }
    }

    @Test
    void the_methods_the_platform_forbids_are_refused() throws Exception {
        try (Connection c = factory.createConnection()) {
            assertThat(c.getClientID()).isEqualTo("booksonline");
            assertThatThrownBy(() -> c.setClientID("other")).isInstanceOf(jakarta.jms.IllegalStateException.class)
                    .hasMessageContaining("Jakarta EE");
            assertThatThrownBy(() -> c.setExceptionListener(e -> { })).isInstanceOf(jakarta.jms.IllegalStateException.class);
            assertThatThrownBy(c::stop).isInstanceOf(jakarta.jms.IllegalStateException.class);
            assertThatThrownBy(() -> c.createConnectionConsumer(queue, null, () -> null, 1))
                    .isInstanceOf(jakarta.jms.IllegalStateException.class);
            Session s = c.createSession();
            assertThatThrownBy(c::createSession).as("a second session on one connection")
                    .isInstanceOf(jakarta.jms.IllegalStateException.class).hasMessageContaining("one session");
            assertThatThrownBy(() -> s.setMessageListener(m -> { })).isInstanceOf(jakarta.jms.IllegalStateException.class);
            MessageConsumer consumer = s.createConsumer(queue);
            assertThatThrownBy(() -> consumer.setMessageListener(m -> { })).isInstanceOf(jakarta.jms.IllegalStateException.class);
            assertThatThrownBy(() -> s.createProducer(queue).send(s.createTextMessage("async"), new jakarta.jms.CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                }

                @Override
                public void onException(Message message, Exception exception) {
                }
            })).isInstanceOf(jakarta.jms.IllegalStateException.class);
            s.close();
            c.createSession().close(); // the first closed: another may be created
        }
        try (JMSContext ctx = factory.createContext()) {
            assertThatThrownBy(() -> ctx.setClientID("x")).isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(ctx::stop).isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> ctx.createConsumer(queue).setMessageListener(m -> { }))
                    .isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> ctx.createContext(JMSContext.AUTO_ACKNOWLEDGE)).as("a second session on the connection")
                    .isInstanceOf(IllegalStateRuntimeException.class);
        }
        assertThat(receiveOutside(300)).as("the refused asynchronous send sent nothing").isNull();
    }

    @Test
    void connections_of_a_factory_with_a_client_id_are_open_at_once_as_a_pool_of_requests_needs() throws Exception {
        try (Connection a = factory.createConnection(); Connection b = factory.createConnection()) {
            assertThat(a.getClientID()).isEqualTo(b.getClientID()).isEqualTo("booksonline");
        }
    }

    @Test
    void what_a_connection_needs_outside_the_transaction_does_not_join_it() throws Exception {
        container.begin();
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            s.createProducer(queue).send(s.createTextMessage("one"));
            s.createProducer(queue).send(s.createTextMessage("two"));
        }
        assertThat(container.enlisted()).as("queue sessions enlisted: the JMS session's only, not the lookups'").isEqualTo(1);
        container.commit();
    }

    private void sendOutside(String text) throws Exception {
        try (Connection c = store.factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(queue).send(s.createTextMessage(text));
        }
    }

    private Message receiveOutside(long timeout) throws Exception {
        try (Connection c = store.factory().createConnection()) {
            c.start();
            return c.createSession().createConsumer(queue).receive(timeout);
        }
    }

    private static String textOf(Message m) throws Exception {
        return m == null ? null : ((TextMessage) m).getText();
    }

    /**
     * The container's side: queue sessions from the engine, each enlisted (XA start) when handed
     * out while a transaction is active on the thread; commit / rollback end every branch of it.
     */
    static final class FakeContainer implements AqConnectionFactory {
        private static final AtomicInteger IDS = new AtomicInteger();
        private final AqConnectionFactory engine;
        private final ThreadLocal<List<Enlisted>> transaction = new ThreadLocal<>();
        private int enlisted;

        private record Enlisted(QueueSession session, XAResource xa, Xid xid) {
        }

        FakeContainer(AqConnectionFactory engine) {
            this.engine = engine;
        }

        void begin() {
            transaction.set(new ArrayList<>());
            enlisted = 0;
        }

        int enlisted() {
            return enlisted;
        }

        void commit() throws XAException {
            end(true);
        }

        void rollback() throws XAException {
            end(false);
        }

        private void end(boolean commit) throws XAException {
            for (Enlisted e : transaction.get()) {
                e.xa().end(e.xid(), XAResource.TMSUCCESS);
                if (commit) {
                    e.xa().commit(e.xid(), true);
                } else {
                    e.xa().rollback(e.xid());
                }
                e.session().close(); // back to the pool, which here closes it
            }
            transaction.remove();
        }

        @Override
        public QueueSession openSession() {
            return openSession(null);
        }

        @Override
        public QueueSession openSession(String user) {
            QueueSession s = engine.openSession(user);
            List<Enlisted> tx = transaction.get();
            if (tx != null) {
                XAResource xa = s.xaResource();
                Xid xid = xid("container-" + IDS.incrementAndGet());
                try {
                    xa.start(xid, XAResource.TMNOFLAGS);
                } catch (XAException e) {
                    throw new IllegalStateException(e);
                }
                tx.add(new Enlisted(s, xa, xid));
                enlisted++;
                // a pool keeps an enlisted connection until its transaction ends, whenever the application closes it
                return (QueueSession) java.lang.reflect.Proxy.newProxyInstance(QueueSession.class.getClassLoader(),
                        new Class<?>[] {QueueSession.class}, (proxy, method, args) -> {
                            if (method.getName().equals("close")) {
                                return null;
                            }
                            try {
                                return method.invoke(s, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
            return s;
        }

        private static Xid xid(String id) {
            byte[] gtrid = id.getBytes(StandardCharsets.UTF_8);
            return new Xid() {
                @Override
                public int getFormatId() {
                    return 4712;
                }

                @Override
                public byte[] getGlobalTransactionId() {
                    return gtrid;
                }

                @Override
                public byte[] getBranchQualifier() {
                    return new byte[] {1};
                }
            };
        }
    }
}
