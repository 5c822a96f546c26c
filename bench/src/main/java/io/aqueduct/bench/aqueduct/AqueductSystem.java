package io.aqueduct.bench.aqueduct;

import io.aqueduct.api.AqError;
import io.aqueduct.api.AqException;
import io.aqueduct.api.DequeueOptions;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueAdmin;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueSession;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.SortOrder;
import io.aqueduct.bench.BenchStore;
import io.aqueduct.bench.QueueSystem;
import io.aqueduct.engine.AqueductEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Aqueduct through its public API, on a durable embedded Derby in the scenario's directory or on
 * a shared store (PostgreSQL, MariaDB), emptied first, queue names in schema BENCH. One
 * {@link QueueSession} per producer / consumer. Compiled only when the engine is present (profile
 * {@code aqueduct-engine} of bench/pom.xml); the harness loads it by name.
 */
public final class AqueductSystem implements QueueSystem {
    static final String QUEUE_TABLE = "BENCH_QT";
    static final String QUEUE = "BENCH_Q";

    /** The memory a buffered run may fill: a phase enqueues up to bench.maxMessages (200,000) 1 KiB messages. */
    private static final long BUFFERED_BYTES = 512L * 1024 * 1024;

    private AqueductEngine engine;
    /** Buffered messages (delivery mode BUFFERED: in memory, no transaction) instead of persistent ones. */
    private final boolean buffered;

    public AqueductSystem() {
        this(false);
    }

    public AqueductSystem(boolean buffered) {
        this.buffered = buffered;
    }

    @Override
    public String name() {
        return buffered ? "aqueduct-buffered" : "aqueduct";
    }

    @Override
    public void open(BenchStore store, Path dir) throws Exception {
        if (store.shared()) {
            SharedStores.empty(store);
        }
        // Derby: dir/db, as the raw-jdbc side (Derby creates the database directory itself)
        engine = SharedStores.engine(store, dir, buffered ? BUFFERED_BYTES : AqueductEngine.Builder.DEFAULT_MAX_BUFFERED_BYTES);
        QueueAdmin admin = engine.admin();
        admin.createQueueTable(QUEUE_TABLE, QueueTableProperties.create()
                .payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.PRIORITY_ENQ_TIME));
        admin.createQueue(QUEUE, QUEUE_TABLE, QueueProperties.create());
        admin.startQueue(QUEUE, true, true);
    }

    @Override
    public Producer producer() {
        return new AqProducer(engine.openSession(), buffered);
    }

    @Override
    public Consumer consumer() {
        return new AqConsumer(engine.openSession(), buffered);
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }

    private static void rollbackQuietly(QueueSession s) {
        try {
            s.rollback();
        } catch (RuntimeException ignored) {
            // the original failure is what matters
        }
    }

    private static final class AqProducer implements Producer {
        private final QueueSession s;
        private final EnqueueOptions options;
        private final boolean buffered;

        AqProducer(QueueSession s, boolean buffered) {
            this.s = s;
            this.buffered = buffered;
            this.options = buffered ? EnqueueOptions.create().deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED)
                    .visibility(io.aqueduct.api.Visibility.IMMEDIATE) : EnqueueOptions.create();
        }

        @Override
        public void enqueueCommit(byte[] payload) {
            try {
                s.enqueue(QUEUE, options, Message.of(payload));
                s.commit();
            } catch (RuntimeException e) {
                rollbackQuietly(s);
                throw e;
            }
        }

        @Override
        public void enqueueBatchCommit(List<byte[]> payloads) {
            if (buffered) {
                // AQ has no array enqueue of buffered messages: one call each (only the warm-up does this)
                for (byte[] p : payloads) {
                    enqueueCommit(p);
                }
                return;
            }
            List<Message> messages = new ArrayList<>(payloads.size());
            for (byte[] p : payloads) {
                messages.add(Message.of(p));
            }
            try {
                s.enqueueArray(QUEUE, options, messages);
                s.commit();
            } catch (RuntimeException e) {
                rollbackQuietly(s);
                throw e;
            }
        }

        @Override
        public void close() {
            s.close();
        }
    }

    private static final class AqConsumer implements Consumer {
        private final QueueSession s;
        private final DequeueOptions noWait;
        private final DequeueOptions shortWait;
        private final boolean buffered;

        AqConsumer(QueueSession s, boolean buffered) {
            this.s = s;
            this.buffered = buffered;
            DequeueOptions base = buffered ? DequeueOptions.create().deliveryMode(io.aqueduct.api.DeliveryMode.BUFFERED)
                    .visibility(io.aqueduct.api.Visibility.IMMEDIATE) : DequeueOptions.create();
            this.noWait = base.copy().waitSeconds(DequeueOptions.NO_WAIT);
            this.shortWait = base.copy().waitSeconds(1);
        }

        private byte[] one(DequeueOptions options) {
            Message m;
            try {
                m = s.dequeue(QUEUE, options);
            } catch (AqException e) {
                if (e.errorCode() == AqError.NO_MESSAGE) {
                    return null;
                }
                rollbackQuietly(s);
                throw e;
            } catch (RuntimeException e) {
                rollbackQuietly(s);
                throw e;
            }
            try {
                s.commit();
            } catch (RuntimeException e) {
                rollbackQuietly(s);
                throw e;
            }
            return (byte[]) m.payload();
        }

        @Override
        public byte[] dequeueCommit() {
            return one(noWait);
        }

        @Override
        public byte[] dequeueWaitCommit() {
            return one(shortWait);
        }

        @Override
        public List<byte[]> dequeueBatchCommit(int max) {
            if (buffered) {
                // AQ dequeues buffered messages one at a time: one call each (only the warm-up does this)
                List<byte[]> out = new ArrayList<>();
                for (byte[] b; out.size() < max && (b = dequeueCommit()) != null;) {
                    out.add(b);
                }
                return out;
            }
            List<Message> got;
            try {
                got = s.dequeueArray(QUEUE, noWait, max);
                if (!got.isEmpty()) {
                    s.commit();
                }
            } catch (RuntimeException e) {
                rollbackQuietly(s);
                throw e;
            }
            List<byte[]> payloads = new ArrayList<>(got.size());
            for (Message m : got) {
                payloads.add((byte[]) m.payload());
            }
            return payloads;
        }

        @Override
        public void close() {
            s.close();
        }
    }
}
