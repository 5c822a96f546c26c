package io.aqueduct.samples.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.Hashtable;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * BooksOnLine over plain Jakarta Messaging: order entry sends new orders to a queue (a RUSH order
 * with a higher priority), order processing receives them in priority order and, in the same
 * transaction, publishes each booked order to a topic, where shipping and billing each have a
 * durable subscription. Only {@code jakarta.jms} and {@code javax.naming}: the provider and its
 * store are configured in {@code jndi.properties}.
 *
 * <p>Argument: the store directory (overrides {@code aqueduct.store.directory} of jndi.properties).
 */
public final class BooksOnLineJms {
    private static final long WAIT_MS = 5_000;

    private BooksOnLineJms() {
    }

    public static void main(String[] args) throws NamingException, JMSException {
        Hashtable<String, Object> environment = new Hashtable<>(); // jndi.properties supplies the rest
        if (args.length > 0) {
            environment.put("aqueduct.store.directory", args[0]);
        }
        Context jndi = new InitialContext(environment);
        try {
            run((ConnectionFactory) jndi.lookup("ConnectionFactory"), (Queue) jndi.lookup("NewOrders"),
                    (Topic) jndi.lookup("BookedOrders"));
        } finally {
            jndi.close(); // after the connection: the last context closes the store
        }
    }

    private static void run(ConnectionFactory factory, Queue newOrders, Topic bookedOrders) throws JMSException {
        try (Connection connection = factory.createConnection()) {
            Session subscribers = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            // durable subscriptions exist from their creation on: create them before anything is published
            MessageConsumer shipping = subscribers.createDurableConsumer(bookedOrders, "shipping");
            MessageConsumer billing = subscribers.createDurableConsumer(bookedOrders, "billing");
            connection.start();

            // order entry: one message per order, each sent on its own (AUTO_ACKNOWLEDGE, not transacted)
            Session orderEntry = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer entry = orderEntry.createProducer(newOrders);
            String[][] orders = {{"1", "NORMAL", "Leaves of Grass"}, {"2", "RUSH", "Moby-Dick"}, {"3", "NORMAL", "Walden"}};
            for (String[] o : orders) {
                TextMessage m = orderEntry.createTextMessage("order " + o[0] + ": " + o[2]);
                m.setIntProperty("orderno", Integer.parseInt(o[0]));
                m.setStringProperty("priority", o[1]);
                int priority = o[1].equals("RUSH") ? 8 : 4;
                entry.send(m, DeliveryMode.PERSISTENT, priority, 0);
                System.out.println("order entry: sent " + m.getText() + " (" + o[1] + ", JMS priority " + priority + ")");
            }

            // order processing: receive a new order and publish it as booked, one transaction each
            Session processing = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer incoming = processing.createConsumer(newOrders);
            MessageProducer booked = processing.createProducer(bookedOrders);
            for (int i = 0; i < orders.length; i++) {
                TextMessage order = (TextMessage) incoming.receive(WAIT_MS);
                if (order == null) {
                    throw new IllegalStateException("order processing: no order arrived within " + WAIT_MS + " ms");
                }
                TextMessage event = processing.createTextMessage("booked " + order.getText());
                event.setIntProperty("orderno", order.getIntProperty("orderno"));
                booked.send(event);
                processing.commit(); // the order leaves the queue and the event is published, together
                System.out.println("order processing: booked " + order.getText() + " (" + order.getStringProperty("priority") + ")");
            }

            for (MessageConsumer subscriber : new MessageConsumer[] {shipping, billing}) {
                String who = subscriber == shipping ? "shipping" : "billing";
                for (int i = 0; i < orders.length; i++) {
                    Message m = subscriber.receive(WAIT_MS);
                    if (m == null) {
                        throw new IllegalStateException(who + ": no booked order arrived within " + WAIT_MS + " ms");
                    }
                    System.out.println(who + ": received " + ((TextMessage) m).getText());
                }
            }
            System.out.println("done: " + orders.length + " orders booked, shipped and billed");
        }
    }
}
