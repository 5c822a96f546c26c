package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.QueueSystem;
import io.aqueduct.engine.AqueductEngine;
import io.aqueduct.jms.client.AqueductConnectionFactory;
import io.aqueduct.jms.destination.AqueductQueue;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Aqueduct through Jakarta Messaging (the classic API of {@code rar/jms}) on the same stores and
 * the same queue as {@link AqueductSystem}: a RAW single-consumer queue, PERSISTENT BytesMessages
 * carrying the harness's payload. One connection; each producer / consumer has its own session.
 * One message per commit: a non-transacted AUTO_ACKNOWLEDGE session (each send and each receive
 * is its own transaction), or with {@code transactedEach} a transacted session committed after
 * every message; batches: a transacted session, one commit per batch.
 */
public final class JmsSystem implements QueueSystem {
    private final boolean transactedEach;
    private AqueductEngine engine;
    private Connection connection;
    private Queue queue;

    public JmsSystem(boolean transactedEach) {
        this.transactedEach = transactedEach;
    }

    @Override
    public String name() {
        return "aqueduct-jms";
    }

    @Override
    public void open(BenchStore store, Path dir) throws Exception {
        if (store.shared()) {
            SharedStores.empty(store);
        }
        engine = SharedStores.engine(store, dir);
        QueueAdmin admin = engine.admin();
        // as AqueductSystem's queue, and what the JNDI context creates for a declared JMS queue
        admin.createQueueTable(AqueductSystem.QUEUE_TABLE, QueueTableProperties.create()
                .payloadType(PayloadType.RAW).sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue(AqueductSystem.QUEUE, AqueductSystem.QUEUE_TABLE, QueueProperties.create());
        admin.startQueue(AqueductSystem.QUEUE, true, true);
        queue = new AqueductQueue(AqueductSystem.QUEUE);
        connection = new AqueductConnectionFactory(engine).createConnection();
        connection.start();
    }

    @Override
    public Producer producer() {
        return new JmsProducer();
    }

    @Override
    public Consumer consumer() {
        return new JmsConsumer();
    }

    @Override
    public void close() throws JMSException {
        try {
            if (connection != null) {
                connection.close();
            }
        } finally {
            connection = null;
            if (engine != null) {
                engine.close();
                engine = null;
            }
        }
    }

    private Session session(boolean transacted) throws JMSException {
        return connection.createSession(transacted, transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
    }

    private static void rollbackQuietly(Session s) {
        try {
            s.rollback();
        } catch (JMSException | RuntimeException ignored) {
            // the original failure is what matters
        }
    }

    private static byte[] body(Message m) throws JMSException {
        BytesMessage b = (BytesMessage) m;
        byte[] payload = new byte[(int) b.getBodyLength()];
        b.readBytes(payload);
        return payload;
    }

    /** A session for single messages and one for batches, each made at its first use. */
    private final class JmsProducer implements Producer {
        private Session single;
        private MessageProducer singleProducer;
        private Session batch;
        private MessageProducer batchProducer;

        @Override
        public void enqueueCommit(byte[] payload) throws JMSException {
            if (single == null) {
                single = session(transactedEach);
                singleProducer = single.createProducer(queue);
            }
            try {
                BytesMessage m = single.createBytesMessage();
                m.writeBytes(payload);
                singleProducer.send(m);
                if (transactedEach) {
                    single.commit();
                }
            } catch (JMSException | RuntimeException e) {
                if (transactedEach) {
                    rollbackQuietly(single);
                }
                throw e;
            }
        }

        @Override
        public void enqueueBatchCommit(List<byte[]> payloads) throws JMSException {
            if (batch == null) {
                batch = session(true);
                batchProducer = batch.createProducer(queue);
            }
            try {
                for (byte[] p : payloads) {
                    BytesMessage m = batch.createBytesMessage();
                    m.writeBytes(p);
                    batchProducer.send(m);
                }
                batch.commit();
            } catch (JMSException | RuntimeException e) {
                rollbackQuietly(batch);
                throw e;
            }
        }

        @Override
        public void close() throws JMSException {
            if (single != null) {
                single.close();
            }
            if (batch != null) {
                batch.close();
            }
        }
    }

    private final class JmsConsumer implements Consumer {
        private Session single;
        private MessageConsumer singleConsumer;
        private Session batch;
        private MessageConsumer batchConsumer;

        private byte[] one(long waitMillis) throws JMSException {
            if (single == null) {
                single = session(transactedEach);
                singleConsumer = single.createConsumer(queue);
            }
            try {
                Message m = waitMillis == 0 ? singleConsumer.receiveNoWait() : singleConsumer.receive(waitMillis);
                if (m == null) {
                    return null;
                }
                byte[] payload = body(m);
                if (transactedEach) {
                    single.commit();
                }
                return payload;
            } catch (JMSException | RuntimeException e) {
                if (transactedEach) {
                    rollbackQuietly(single);
                }
                throw e;
            }
        }

        @Override
        public byte[] dequeueCommit() throws JMSException {
            return one(0);
        }

        @Override
        public byte[] dequeueWaitCommit() throws JMSException {
            return one(1000);
        }

        @Override
        public List<byte[]> dequeueBatchCommit(int max) throws JMSException {
            if (batch == null) {
                batch = session(true);
                batchConsumer = batch.createConsumer(queue);
            }
            List<byte[]> got = new ArrayList<>(max);
            try {
                for (Message m; got.size() < max && (m = batchConsumer.receiveNoWait()) != null;) {
                    got.add(body(m));
                }
                if (!got.isEmpty()) {
                    batch.commit();
                }
            } catch (JMSException | RuntimeException e) {
                rollbackQuietly(batch);
                throw e;
            }
            return got;
        }

        @Override
        public void close() throws JMSException {
            if (single != null) {
                single.close();
            }
            if (batch != null) {
                batch.close();
            }
        }
    }
}
