package io.aqueduct.samples.booksonline;

/** The names BooksOnLine uses: JNDI resources and queues (see server-config/ for how they are created). */
public final class BooksOnLine {
    /** The application's Aqueduct connector resource (META-INF/glassfish-resources.xml of the EAR). */
    public static final String QUEUE_SESSIONS = "java:app/aqueduct/QueueSessions";
    /** The application's JDBC resource holding the business rows (orders, shipments). */
    public static final String BOOKS_DB = "java:app/jdbc/BooksOnLine";
    /**
     * Booked orders, sorted by priority then enqueue time: a multi-consumer queue whose subscriber
     * SHIPPING is remote, at {@link #SHIPPING_ORDERS}; a propagation schedule moves its messages
     * there. Created, with the subscriber and the schedule, by the adapter's queueDefinitions.
     */
    public static final String BOOKED_ORDERS = "OE.OE_BOOKEDORDERS_MQUE";
    /** The shipping site's queue of booked orders (propagated from {@link #BOOKED_ORDERS}), which the Shipping MDB consumes. */
    public static final String SHIPPING_ORDERS = "SHIP.SHIP_BOOKEDORDERS_QUE";
    /**
     * The application's Jakarta Messaging connection factory: a connector resource of the Aqueduct
     * adapter's {@code jakarta.jms.ConnectionFactory} connection definition (XATransaction), so that
     * what an EJB sends or receives through it belongs to its container transaction.
     */
    public static final String JMS_CONNECTION_FACTORY = "java:app/jms/BooksOnLineConnectionFactory";
    /** The billing requests, as a JMS Queue (an admin object of the adapter, property name = {@link #BILLING}). */
    public static final String BILLING_REQUESTS = "java:app/jms/BillingRequests";
    /**
     * Customer billing's queue of billing requests, which the Billing MDB consumes: a single-consumer AQ
     * queue of a RAW queue table sorted by priority then enqueue time (what JMS expects). Created by the
     * adapter's queueDefinitions.
     */
    public static final String BILLING = "CB.CB_BILLING_QUE";
    /** The booked-order notifications, as a JMS Topic (an admin object of the adapter, property name = {@link #NOTIFICATIONS}). */
    public static final String BOOKED_ORDER_NOTIFICATIONS = "java:app/jms/BookedOrderNotifications";
    /**
     * Customer service's topic of booked orders: a multi-consumer AQ queue of a RAW queue table; the
     * CustomerService MDB has a durable subscription to it. Created by the adapter's queueDefinitions.
     */
    public static final String NOTIFICATIONS = "CS.CS_BOOKEDORDERS_TOPIC";
    /** The client id of the CustomerService MDB's durable subscription. */
    public static final String CLIENT_ID = "booksonline";
    /**
     * The resource adapter of the MDBs: {@code <earName>#<rarName>} for the RAR inside the BooksOnLine EAR.
     * Deployed differently (standalone RAR, Payara Micro), override it in glassfish-ejb-jar.xml.
     */
    public static final String RESOURCE_ADAPTER = "aqueduct-booksonline#aqueduct-rar";

    /** Shipping services, their AQ priorities (1 is dequeued first) and what customer billing charges for them. */
    public enum ShippingPriority {
        FEDEX(1, "15.00"), AIR(2, "9.50"), GROUND(3, "4.25");

        private final int priority;
        private final String charge;

        ShippingPriority(int priority, String charge) {
            this.priority = priority;
            this.charge = charge;
        }

        public int priority() {
            return priority;
        }

        /** The shipping charge billed for an order, in the store's currency. */
        public java.math.BigDecimal charge() {
            return new java.math.BigDecimal(charge);
        }
    }

    private BooksOnLine() {
    }
}
