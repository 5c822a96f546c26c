package io.aqueduct.samples.booksonline;

import io.aqueduct.api.AqConnectionFactory;
import io.aqueduct.api.Message;
import io.aqueduct.api.MessageId;
import io.aqueduct.api.MessageProperties;
import io.aqueduct.api.QueueSession;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * BooksOnLine's order entry: booking an order writes the order row (JDBC resource) and enqueues
 * the booked order for shipping (Aqueduct connector resource) in one container transaction, so
 * both happen or neither does. The message's priority is the shipping service's (FedEx first),
 * its correlation the shipping region, so that a shipping site can consume its region only.
 *
 * <p>In the same transaction it speaks Jakarta Messaging through the adapter's JMS connection
 * factory: a billing request (a MapMessage) to customer billing's queue, which the Billing MDB
 * consumes, and a notification (a TextMessage) to customer service's topic, which the
 * CustomerService MDB subscribes to. A rolled-back booking sends neither.
 */
@Stateless
public class OrderEntry {
    @Resource(lookup = BooksOnLine.QUEUE_SESSIONS)
    private AqConnectionFactory queues;

    @Resource(lookup = BooksOnLine.BOOKS_DB)
    private DataSource books;

    /**
     * The adapter's JMS connection factory. A JMSContext created from it in a container transaction
     * is part of that transaction (its sends happen at commit, or never). Created here rather than
     * injected ({@code @Inject @JMSConnectionFactory}, which works on Payara Server): embedded Payara
     * 6.2024.8, where the sample runs, makes the injected JMSContext a {@code @TransactionScoped} bean in
     * a transaction, which fails in some deployments of this EAR with a NullPointerException in
     * TransactionScopedCDIEventHelperImpl (trxScopeInitializedEvent).
     */
    @Resource(lookup = BooksOnLine.JMS_CONNECTION_FACTORY)
    private ConnectionFactory jmsConnections;

    @Resource(lookup = BooksOnLine.BILLING_REQUESTS)
    private Queue billingRequests;

    @Resource(lookup = BooksOnLine.BOOKED_ORDER_NOTIFICATIONS)
    private Topic notifications;

    /** Books an order in the caller's transaction (or a new one). */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public MessageId bookOrder(String orderId, String customer, BooksOnLine.ShippingPriority shipping, String region) {
        MessageId id;
        try (QueueSession session = queues.openSession()) {
            // JSON-P writes the text: quotes, backslashes and control characters in the values stay data
            JsonObjectBuilder order = Json.createObjectBuilder();
            put(order, "orderId", orderId);
            put(order, "customer", customer);
            put(order, "shipping", shipping.name());
            put(order, "region", region);
            String json = order.build().toString();
            id = session.enqueue(BooksOnLine.BOOKED_ORDERS,
                    Message.of(json, MessageProperties.create().priority(shipping.priority()).correlation(region)));
        }
        try (Connection c = books.getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO BOOKED_ORDERS (ORDER_ID, CUSTOMER, SHIPPING, REGION,"
                        + " MSGID, BOOKED_AT) VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, orderId);
            ps.setString(2, customer);
            ps.setString(3, shipping.name());
            ps.setString(4, region);
            ps.setString(5, id.toString());
            ps.setTimestamp(6, Timestamp.from(Instant.now()));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Order " + orderId + " could not be booked: " + e.getMessage(), e);
        }
        // closing the context before the commit leaves its sends in the transaction
        try (JMSContext jms = jmsConnections.createContext()) {
            sendBillingRequest(jms, orderId, customer, shipping, region, id);
            notifyCustomer(jms, orderId, customer, shipping, region);
        }
        return id;
    }

    /** Customer billing: a MapMessage with the order, its region and order id also as properties (selectable). */
    private void sendBillingRequest(JMSContext jms, String orderId, String customer, BooksOnLine.ShippingPriority shipping,
            String region, MessageId id) {
        try {
            MapMessage request = jms.createMapMessage();
            request.setString("orderId", orderId);
            request.setString("customer", customer);
            request.setString("shipping", shipping.name());
            request.setString("amount", shipping.charge().toPlainString());
            request.setStringProperty("orderId", orderId);
            request.setStringProperty("region", region);
            request.setJMSCorrelationID(id.toString()); // the booked order's AQ message
            jms.createProducer().send(billingRequests, request);
        } catch (JMSException e) {
            throw new IllegalStateException("Order " + orderId + ": the billing request could not be sent: " + e.getMessage(), e);
        }
    }

    /** Customer service: a TextMessage to the booked-orders topic, with the order id and region as properties. */
    private void notifyCustomer(JMSContext jms, String orderId, String customer, BooksOnLine.ShippingPriority shipping,
            String region) {
        try {
            TextMessage notification = jms.createTextMessage("Dear " + customer + ", your order " + orderId
                    + " is booked and will be shipped by " + shipping + ".");
            notification.setStringProperty("orderId", orderId);
            notification.setStringProperty("customer", customer);
            notification.setStringProperty("region", region);
            jms.createProducer().send(notifications, notification);
        } catch (JMSException e) {
            throw new IllegalStateException("Order " + orderId + ": the notification could not be sent: " + e.getMessage(), e);
        }
    }

    /**
     * Books an order, then rolls it back on purpose: {@link OrderRolledBack} is an application exception with
     * rollback=true, so neither the message, the row nor the JMS messages exist, and the container logs nothing.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public MessageId bookOrderThenFail(String orderId, String customer, BooksOnLine.ShippingPriority shipping, String region)
            throws OrderRolledBack {
        bookOrder(orderId, customer, shipping, region);
        throw new OrderRolledBack(orderId);
    }

    /** An order as the web API shows it: its row and what the MDBs did with it (all committed). */
    public record OrderStatus(String orderId, String customer, String shipping, String region, boolean shipped,
            boolean billed, boolean notified) implements java.io.Serializable {
    }

    private static final String STATUS = "SELECT O.ORDER_ID, O.CUSTOMER, O.SHIPPING, O.REGION,"
            + " (SELECT COUNT(*) FROM SHIPMENTS S WHERE S.ORDER_ID = O.ORDER_ID),"
            + " (SELECT COUNT(*) FROM BILLINGS B WHERE B.ORDER_ID = O.ORDER_ID),"
            + " (SELECT COUNT(*) FROM NOTIFICATIONS N WHERE N.ORDER_ID = O.ORDER_ID) FROM BOOKED_ORDERS O";

    /** The newest booked orders, newest first, at most {@code max}. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public java.util.List<OrderStatus> orders(int max) {
        try (Connection c = books.getConnection();
                PreparedStatement ps = c.prepareStatement(STATUS + " ORDER BY O.BOOKED_AT DESC, O.ORDER_ID DESC")) {
            ps.setMaxRows(max);
            java.util.List<OrderStatus> list = new java.util.ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(status(rs));
                }
            }
            return list;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** One booked order, or null when there is no such (committed) order. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public OrderStatus order(String orderId) {
        try (Connection c = books.getConnection(); PreparedStatement ps = c.prepareStatement(STATUS + " WHERE O.ORDER_ID = ?")) {
            ps.setString(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? status(rs) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static OrderStatus status(ResultSet rs) throws SQLException {
        return new OrderStatus(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5) > 0,
                rs.getInt(6) > 0, rs.getInt(7) > 0);
    }

    /** Is the order booked (committed)? */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean isBooked(String orderId) {
        return exists("SELECT 1 FROM BOOKED_ORDERS WHERE ORDER_ID = ?", orderId);
    }

    /** Has the Shipping MDB shipped the order (committed)? */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean isShipped(String orderId) {
        return exists("SELECT 1 FROM SHIPMENTS WHERE ORDER_ID = ?", orderId);
    }

    /** Has the Billing MDB billed the order (committed)? The billing as a line, or null. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public String billing(String orderId) {
        try (Connection c = books.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT CUSTOMER, AMOUNT, JMS_MESSAGE_ID, DELIVERY_COUNT FROM BILLINGS WHERE ORDER_ID = ?")) {
            ps.setString(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? "billed " + rs.getString(1) + " " + rs.getBigDecimal(2).toPlainString() + " (JMS message "
                        + rs.getString(3) + ", delivery " + rs.getInt(4) + ")" : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Has the CustomerService MDB notified the customer of the order (committed)? */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public boolean isNotified(String orderId) {
        return exists("SELECT 1 FROM NOTIFICATIONS WHERE ORDER_ID = ?", orderId);
    }

    /** The propagation schedule from the booked-orders queue to the shipping queue, as DBA_QUEUE_SCHEDULES shows it. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public String propagation() {
        try (QueueSession session = queues.openSession()) {
            var s = session.admin().propagationSchedule(BooksOnLine.BOOKED_ORDERS, null);
            return "propagation schedule " + s.qualifiedQueue() + " -> " + s.destination() + ": " + s.totalNumber()
                    + " message(s), " + s.totalBytes() + " bytes propagated, latency " + s.latencySeconds() + " s, "
                    + s.failures() + " failure(s)";
        }
    }

    private boolean exists(String sql, String orderId) {
        try (Connection c = books.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static void put(JsonObjectBuilder b, String name, String value) {
        if (value == null) {
            b.addNull(name);
        } else {
            b.add(name, value);
        }
    }
}
