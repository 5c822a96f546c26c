package io.aqueduct.samples.booksonline;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * BooksOnLine's customer billing, a Jakarta Messaging MDB: each billing request the OrderEntry EJB
 * sent (a MapMessage on the JMS Queue {@link BooksOnLine#BILLING}) is received and billed (a BILLINGS
 * row) in one container transaction. A failure (a RuntimeException, or setRollbackOnly) rolls both
 * back and counts a failed AQ attempt: the message comes back after the queue's retry delay with
 * JMSRedelivered set, and goes to the exception queue after max_retries.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = BooksOnLine.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = BooksOnLine.BILLING),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
})
public class Billing implements MessageListener {
    private static final Logger LOG = Logger.getLogger(Billing.class.getName());

    @Resource(lookup = BooksOnLine.BOOKS_DB)
    private DataSource books;

    @Override
    public void onMessage(Message message) {
        String orderId;
        String customer;
        BigDecimal amount;
        String line;
        try {
            MapMessage request = (MapMessage) message;
            orderId = request.getString("orderId");
            customer = request.getString("customer");
            amount = new BigDecimal(request.getString("amount"));
            int delivery = request.getIntProperty("JMSXDeliveryCount");
            try (Connection c = books.getConnection();
                    PreparedStatement ps = c.prepareStatement("INSERT INTO BILLINGS (ORDER_ID, CUSTOMER, AMOUNT, JMS_MESSAGE_ID,"
                            + " DELIVERY_COUNT, BILLED_AT) VALUES (?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, orderId);
                ps.setString(2, customer);
                ps.setBigDecimal(3, amount);
                ps.setString(4, request.getJMSMessageID());
                ps.setInt(5, delivery);
                ps.setTimestamp(6, Timestamp.from(Instant.now()));
                ps.executeUpdate();
            }
            line = "MDB Billing received JMS MapMessage " + request.getJMSMessageID() + " from queue " + BooksOnLine.BILLING
                    + " (region " + request.getStringProperty("region") + ", delivery " + delivery + "): billed " + customer
                    + " " + amount.toPlainString() + " for order " + orderId + " (" + request.getString("shipping") + " shipping)";
        } catch (JMSException | SQLException e) {
            // a RuntimeException rolls the container transaction back: a failed AQ attempt, retried after the retry delay
            throw new IllegalStateException("A billing request could not be billed: " + e.getMessage(), e);
        }
        if (Boolean.getBoolean(SampleTour.PROPERTY)) {
            SampleTour.say(line);
        } else {
            LOG.fine(line);
        }
    }
}
