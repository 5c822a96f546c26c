package io.aqueduct.it.payara;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** The producer: one container transaction per batch of keys, enqueued to queue A and nothing else. */
@Stateless
public class CrashLoad {

    /** Enqueues keys {@code prefix-from} .. {@code prefix-(from+count-1)} to queue A in one transaction of its own. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void enqueueBatch(String prefix, int from, int count) {
        List<Message> messages = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            messages.add(Message.of(key(prefix, i)));
        }
        try (QueueSession session = queues().openSession()) {
            session.enqueueArray(Crash.QUEUE_A, EnqueueOptions.create(), messages);
        }
    }

    public static String key(String prefix, int i) {
        return prefix + "-" + i;
    }

    static AqConnectionFactory queues() {
        try {
            return InitialContext.doLookup(Crash.QUEUE_SESSIONS);
        } catch (NamingException e) {
            throw new IllegalStateException("no " + Crash.QUEUE_SESSIONS + ": " + e, e);
        }
    }
}
