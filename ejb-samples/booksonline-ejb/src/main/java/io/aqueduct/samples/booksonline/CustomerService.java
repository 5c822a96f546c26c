package io.aqueduct.samples.booksonline;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * BooksOnLine's customer service, a Jakarta Messaging MDB with a durable subscription to the
 * booked-orders topic {@link BooksOnLine#NOTIFICATIONS} (an AQ subscriber of the multi-consumer
 * queue: notifications published while the application is stopped wait for it). Each notification
 * is recorded (a NOTIFICATIONS row, the "e-mail" sent to the customer) in the container transaction
 * that receives it.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = BooksOnLine.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = BooksOnLine.NOTIFICATIONS),
        @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
        @ActivationConfigProperty(propertyName = "clientId", propertyValue = BooksOnLine.CLIENT_ID),
        @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "BOOKED_ORDER")
})
public class CustomerService implements MessageListener {
    private static final Logger LOG = Logger.getLogger(CustomerService.class.getName());

    @Resource(lookup = BooksOnLine.BOOKS_DB)
    private DataSource books;

    @Override
    public void onMessage(Message message) {
        String line;
        try {
            TextMessage notification = (TextMessage) message;
            String orderId = notification.getStringProperty("orderId");
            String customer = notification.getStringProperty("customer");
            try (Connection c = books.getConnection();
                    PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO NOTIFICATIONS (ORDER_ID, CUSTOMER, TEXT, NOTIFIED_AT) VALUES (?, ?, ?, ?)")) {
                ps.setString(1, orderId);
                ps.setString(2, customer);
                ps.setString(3, notification.getText());
                ps.setTimestamp(4, Timestamp.from(Instant.now()));
                ps.executeUpdate();
            }
            line = "MDB CustomerService received JMS TextMessage " + notification.getJMSMessageID() + " from topic "
                    + BooksOnLine.NOTIFICATIONS + " (durable subscription BOOKED_ORDER, region "
                    + notification.getStringProperty("region") + "): notified " + customer + ": \"" + notification.getText() + "\"";
        } catch (JMSException | SQLException e) {
            throw new IllegalStateException("A notification could not be recorded: " + e.getMessage(), e);
        }
        if (Boolean.getBoolean(SampleTour.PROPERTY)) {
            SampleTour.say(line);
        } else {
            LOG.fine(line);
        }
    }
}
