package io.aqueduct.it.payara.group;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.EnqueueOptions;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** Enqueues keys in container transactions: the queue session is an XA branch that PostgreSQL prepares. */
@Stateless
public class GroupLoad {

    /** Keys {@code prefix-from} .. {@code prefix-(from+count-1)}, in one transaction of their own. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void enqueueBatch(String prefix, int from, int count) {
        List<Message> messages = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            messages.add(Message.of((prefix + "-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        try (QueueSession session = queues().openSession()) {
            session.enqueueArray(Group.QUEUE, EnqueueOptions.create(), messages);
        }
    }

    private static AqConnectionFactory queues() {
        try {
            return InitialContext.doLookup(Group.QUEUE_SESSIONS);
        } catch (NamingException e) {
            throw new IllegalStateException("no " + Group.QUEUE_SESSIONS + ": " + e, e);
        }
    }
}
