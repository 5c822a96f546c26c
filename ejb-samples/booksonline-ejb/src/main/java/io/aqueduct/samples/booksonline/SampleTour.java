package io.aqueduct.samples.booksonline;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.util.List;

/**
 * A guided tour of BooksOnLine for the README's run command: when the system property
 * {@value #PROPERTY} is set, it books orders in committed container transactions and one in a
 * rolled-back transaction, prints what the EJB enqueued and sent, waits until the Shipping MDB has
 * shipped the committed ones (propagated from the booked-orders queue to the shipping queue), the
 * Billing MDB has billed them and the CustomerService MDB has notified their customers (both through
 * Jakarta Messaging), prints the propagation schedule's statistics, and sets {@value #DONE} when it
 * is finished. Without the property it does nothing.
 */
@Singleton
@Startup
public class SampleTour {
    public static final String PROPERTY = "aqueduct.sample.tour";
    public static final String DONE = "aqueduct.sample.tour.done";

    @Resource
    private TimerService timers;

    @EJB
    private OrderEntry orders;

    @PostConstruct
    void schedule() {
        if (Boolean.getBoolean(PROPERTY)) {
            // not in the startup transaction: each booking has a container transaction of its own
            timers.createSingleActionTimer(500, new TimerConfig("booksonline-tour", false));
        }
    }

    @Timeout
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void run() {
        try {
            record Order(String id, String customer, BooksOnLine.ShippingPriority shipping, String region) {
            }
            // new order ids on every run (OrderIds): a second run on the same store books new orders
            List<Order> booked = List.of(new Order(OrderIds.next(), "ACME Corp.", BooksOnLine.ShippingPriority.GROUND, "WESTERN"),
                    new Order(OrderIds.next(), "Initech", BooksOnLine.ShippingPriority.FEDEX, "EASTERN"),
                    new Order(OrderIds.next(), "Globex", BooksOnLine.ShippingPriority.AIR, "INTERNATIONAL"));
            for (Order o : booked) {
                var id = orders.bookOrder(o.id(), o.customer(), o.shipping(), o.region());
                say("EJB OrderEntry committed order " + o.id() + " for " + o.customer() + " (" + o.shipping() + ", priority "
                        + o.shipping().priority() + ", region " + o.region() + "): enqueued message " + id + ", the order row, a JMS"
                        + " billing request to " + BooksOnLine.BILLING + " and a JMS notification to " + BooksOnLine.NOTIFICATIONS);
            }
            String cancelled = OrderIds.next();
            try {
                orders.bookOrderThenFail(cancelled, "Umbrella", BooksOnLine.ShippingPriority.FEDEX, "EASTERN");
            } catch (OrderRolledBack expected) {
                say("EJB OrderEntry rolled back order " + cancelled + ": its message, its order row and its JMS messages never existed");
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < deadline && !booked.stream().allMatch(
                    o -> orders.isShipped(o.id()) && orders.billing(o.id()) != null && orders.isNotified(o.id()))) {
                Thread.sleep(200); // a demo watching the MDBs from outside; the engine itself never polls
            }
            for (Order o : booked) {
                String billing = orders.billing(o.id());
                say("order " + o.id() + (orders.isShipped(o.id()) ? " shipped" : " NOT shipped within 60 s")
                        + (billing != null ? ", " + billing : ", NOT billed within 60 s")
                        + (orders.isNotified(o.id()) ? ", customer notified" : ", customer NOT notified within 60 s"));
            }
            say("order " + cancelled + " " + (orders.isBooked(cancelled) || orders.isShipped(cancelled)
                    || orders.billing(cancelled) != null || orders.isNotified(cancelled) ? "EXISTS (unexpected)" : "was never booked, shipped, billed nor notified"));
            say(orders.propagation());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            say("the tour FAILED: " + e);
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                say("  caused by " + cause);
            }
        } finally {
            System.setProperty(DONE, "true");
        }
    }

    static void say(String line) {
        System.out.println("[BooksOnLine] " + line);
    }
}
