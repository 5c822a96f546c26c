package io.aqueduct.it.payara;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import io.aqueduct.api.QueueSession;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Per message, in the container's XA transaction: the dequeue from queue A (the delivery session's
 * branch), a row in the Derby table (the JDBC pool's branch) and an enqueue to queue B (an outbound
 * queue session's branch). Payara commits the three with two-phase commit.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = Crash.RA),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = Crash.QUEUE_A),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "6")
})
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class CrashMdb implements AqMessageListener {
    @Override
    public void onMessage(Message message) {
        String key = message.text();
        try (Connection c = rows().getConnection();
             PreparedStatement insert = c.prepareStatement("INSERT INTO " + Crash.TABLE + " (K, ATTEMPTS) VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setInt(2, message.properties().attempts());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("insert of " + key + " failed: " + e, e);
        }
        try (QueueSession session = CrashLoad.queues().openSession()) {
            session.enqueue(Crash.QUEUE_B, Message.of(key));
        }
    }

    static DataSource rows() {
        try {
            return InitialContext.doLookup(Crash.ROWS);
        } catch (NamingException e) {
            throw new IllegalStateException("no " + Crash.ROWS + ": " + e, e);
        }
    }
}
