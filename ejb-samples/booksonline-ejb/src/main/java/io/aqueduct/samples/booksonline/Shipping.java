package io.aqueduct.samples.booksonline;

import io.aqueduct.api.AqMessageListener;
import io.aqueduct.api.Message;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * BooksOnLine's shipping site: each booked order, propagated from the order entry's queue to the
 * shipping queue, is dequeued and shipped (a SHIPMENTS row) in one XA transaction. A failure rolls
 * both back and counts a failed attempt; the shipping queue's retry delay and max_retries decide
 * when it is tried again and when it goes to the exception queue.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "resourceAdapter", propertyValue = BooksOnLine.RESOURCE_ADAPTER),
        @ActivationConfigProperty(propertyName = "queueName", propertyValue = BooksOnLine.SHIPPING_ORDERS),
        @ActivationConfigProperty(propertyName = "maxSessions", propertyValue = "2")
})
public class Shipping implements AqMessageListener {
    private static final Logger LOG = Logger.getLogger(Shipping.class.getName());

    @Resource(lookup = BooksOnLine.BOOKS_DB)
    private DataSource books;

    @Override
    public void onMessage(Message message) {
        String orderId;
        String shipping;
        try (JsonReader reader = Json.createReader(new StringReader(message.text()))) {
            JsonObject order = reader.readObject();
            orderId = order.getString("orderId");
            shipping = order.getString("shipping");
        }
        try (Connection c = books.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO SHIPMENTS (ORDER_ID, SHIPPING, ATTEMPT, SHIPPED_AT) VALUES (?, ?, ?, ?)")) {
            ps.setString(1, orderId);
            ps.setString(2, shipping);
            ps.setInt(3, message.properties().attempts() + 1);
            ps.setTimestamp(4, Timestamp.from(Instant.now()));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Order " + orderId + " could not be shipped: " + e.getMessage(), e);
        }
        var original = message.properties().originalMessageId();
        String shipped = "MDB Shipping received message " + message.id() + " from " + BooksOnLine.SHIPPING_ORDERS
                + (original == null ? "" : " (propagated from message " + original + " of " + BooksOnLine.BOOKED_ORDERS + ")")
                + ": shipped order " + orderId + " (" + shipping + ", priority " + message.properties().priority()
                + ", region " + message.properties().correlation() + ", attempt " + (message.properties().attempts() + 1) + ")";
        if (Boolean.getBoolean(SampleTour.PROPERTY)) {
            SampleTour.say(shipped);
        } else {
            LOG.fine(shipped);
        }
    }
}
