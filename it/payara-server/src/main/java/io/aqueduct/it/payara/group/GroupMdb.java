package io.aqueduct.it.payara.group;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.nio.charset.StandardCharsets;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Every instance of the group runs one, on the same queue. For a key: records it and, in the same
 * container transaction, enqueues its acknowledgement "ack &lt;key&gt; &lt;instance&gt;" through the
 * group's queue sessions. The delivery's dequeue and that enqueue are two XA branches, so Payara
 * commits them with two-phase commit: PostgreSQL prepares both. An acknowledgement is only recorded.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Group.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = Group.QUEUE),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class GroupMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        String text = message.text();
        if (text.startsWith(Group.ACK)) {
            Group.ACKS.add(text);
            return;
        }
        Group.RECEIVED.add(text);
        try (QueueSession session = queues().openSession()) {
            session.enqueue(Group.QUEUE, Message.of((Group.ACK + text + " " + Group.instance()).getBytes(StandardCharsets.UTF_8)));
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
