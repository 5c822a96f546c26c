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
     * The resource adapter of the MDBs: {@code <earName>#<rarName>} for the RAR inside the BooksOnLine EAR.
     * Deployed differently (standalone RAR, Payara Micro), override it in glassfish-ejb-jar.xml.
     */
    public static final String RESOURCE_ADAPTER = "aqueduct-booksonline#aqueduct-rar";

    /** Shipping services and their AQ priorities (1 is dequeued first). */
    public enum ShippingPriority {
        FEDEX(1), AIR(2), GROUND(3);

        private final int priority;

        ShippingPriority(int priority) {
            this.priority = priority;
        }

        public int priority() {
            return priority;
        }
    }

    private BooksOnLine() {
    }
}
