package io.aqueduct.jms.client;

import io.aqueduct.api.MessageGrouping;
import io.aqueduct.api.PayloadType;
import io.aqueduct.api.QueueProperties;
import io.aqueduct.api.QueueTableProperties;
import io.aqueduct.api.QueueType;
import io.aqueduct.api.SortOrder;
import io.aqueduct.engine.time.ManualClock;
import io.aqueduct.jms.destination.AqueductQueue;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Reference 002, "Creating Applications Using JMS": the BooksOnLine order-entry flows written as
 * JMS code against Aqueduct's provider — the three receive modes (get_new_order), navigation over
 * transaction groups (get_new_orders), locked browsing with receiveNoData
 * (process_international_orders), retries with a retry delay and exception queues (default and per
 * message, JMS_OracleExcpQ), JMS_OracleDelay, and order processing by MessageListener. The engine
 * runs on a manual clock: delays and retry delays pass when the test says so.
 */
class BooksOnLineJmsTest {
    /** A book order line of BooksOnLine: an order is one or more of these, one per message. */
    record BolOrder(int orderNo, String customer, String country, String book) implements Serializable {
    }

    private final ManualClock clock = new ManualClock(Instant.now());
    private JmsStore store;
    private QueueConnection connection;
    private QueueSession session;

    @BeforeEach
    void open() throws Exception {
        store = JmsStore.open(clock);
        connection = store.factory().createQueueConnection();
        connection.start();
        session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @AfterEach
    void close() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (store != null) {
            store.close();
        }
    }

    /** A started single-consumer RAW queue in a queue table {@code name_T} of its own. */
    private Queue newOrdersQueue(String name, MessageGrouping grouping, QueueProperties properties) throws Exception {
        store.admin().createQueueTable(name + "_T", QueueTableProperties.create().payloadType(PayloadType.RAW)
                .sortOrder(SortOrder.ENQ_TIME).messageGrouping(grouping));
        store.admin().createQueue(name, name + "_T", properties);
        store.admin().startQueue(name, true, true);
        return new AqueductQueue(name);
    }

    /** The queue table's default exception queue AQ$_name_T_E, started for dequeue (as AQ requires). */
    private Queue defaultExceptionQueue(String name) throws Exception {
        String e = "AQ$_" + name + "_T_E";
        store.admin().startQueue(e, false, true);
        return new AqueductQueue(e);
    }

    private void send(Queue queue, BolOrder... orders) throws JMSException {
        QueueSender sender = session.createSender(queue);
        for (BolOrder o : orders) {
            sender.send(session.createObjectMessage(o));
        }
        sender.close();
    }

    private static BolOrder order(Message m) throws JMSException {
        assertThat(m).isInstanceOf(ObjectMessage.class);
        return (BolOrder) ((ObjectMessage) m).getObject();
    }

    // ------------------------------------------------------------------ get_new_order: receive, receive(timeout), receiveNoWait

    @Test
    void get_new_order1_receive_waits_until_an_order_shows_up() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        QueueSession receiving = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueReceiver qrec = receiving.createReceiver(queue);
        CompletableFuture<Message> received = CompletableFuture.supplyAsync(() -> {
            try {
                return qrec.receive();
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !received.isDone());

        send(queue, new BolOrder(1, "Ana", "USA", "Dune"));

        BolOrder newOrder = order(received.get(10, TimeUnit.SECONDS));
        assertThat(newOrder.customer()).isEqualTo("Ana");
        assertThat(qrec.receiveNoWait()).isNull();
    }

    @Test
    void get_new_order2_receive_with_a_timeout_returns_an_order_arriving_within_it_and_null_after_it() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        QueueReceiver qrec = session.createReceiver(queue);

        long start = System.nanoTime();
        assertThat(qrec.receive(400)).isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));

        QueueSession other = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(200);
                other.createSender(queue).send(other.createObjectMessage(new BolOrder(2, "Bo", "UK", "Emma")));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(order(qrec.receive(60_000)).customer()).isEqualTo("Bo");
    }

    @Test
    void poll_new_order3_receiveNoWait_returns_an_order_that_is_there_and_null_when_none_is() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        QueueReceiver qrec = session.createReceiver(queue);
        assertThat(qrec.receiveNoWait()).isNull();

        send(queue, new BolOrder(3, "Cy", "USA", "Ulysses"));

        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Ulysses");
        assertThat(qrec.receiveNoWait()).isNull();
    }

    // ------------------------------------------------------------------ get_new_orders: navigation over transaction groups

    /** Each order is sent by one transacted-session commit: its books form one AQ transaction group. */
    private void sendOrdersAsGroups(Queue queue, List<List<BolOrder>> orders) throws JMSException {
        QueueSession tx = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueSender sender = tx.createSender(queue);
        for (List<BolOrder> books : orders) {
            for (BolOrder book : books) {
                sender.send(tx.createObjectMessage(book));
            }
            tx.commit();
        }
        tx.close();
    }

    private static List<List<BolOrder>> threeOrders() {
        return List.of(
                List.of(new BolOrder(1, "Ana", "USA", "Dune"), new BolOrder(1, "Ana", "USA", "Emma")),
                List.of(new BolOrder(2, "Bo", "UK", "Ulysses"), new BolOrder(2, "Bo", "UK", "Beloved"),
                        new BolOrder(2, "Bo", "UK", "Walden")),
                List.of(new BolOrder(3, "Cy", "Canada", "Hamlet")));
    }

    /**
     * The reference's get_new_orders, its loop made to stop when no order is left: FIRST_MESSAGE,
     * then NEXT_MESSAGE through an order's books; AQ error 25235 at the end of each order, on which
     * NEXT_TRANSACTION moves to the next order. Returns the books by order, as fetched.
     */
    private static List<List<BolOrder>> getNewOrders(QueueReceiver qrec) throws JMSException {
        AqueductConsumer aq = (AqueductConsumer) qrec;
        List<List<BolOrder>> orders = new ArrayList<>();
        List<BolOrder> current = new ArrayList<>();
        aq.setNavigationMode(AqueductConsumer.NAVIGATION_FIRST_MESSAGE);
        while (true) {
            try {
                Message m = qrec.receiveNoWait();
                if (m == null) {
                    break; // no more orders in the queue
                }
                current.add(order(m));
                aq.setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_MESSAGE);
            } catch (AqueductJMSException ex) {
                if (ex.getErrorNumber() != 25235) {
                    throw ex;
                }
                orders.add(current); // end of transaction group: the order is complete
                current = new ArrayList<>();
                aq.setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_TRANSACTION);
            }
        }
        if (!current.isEmpty()) {
            orders.add(current);
        }
        return orders;
    }

    @Test
    void get_new_orders_fetches_order_by_order_ending_each_transaction_group_with_25235() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.TRANSACTIONAL, QueueProperties.create());
        sendOrdersAsGroups(queue, threeOrders());

        QueueReceiver qrec = session.createReceiver(queue);

        assertThat(getNewOrders(qrec)).isEqualTo(threeOrders());
        assertThat(session.createReceiver(queue).receiveNoWait()).isNull();
    }

    @Test
    void get_new_orders_in_a_transacted_session_committing_each_order() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.TRANSACTIONAL, QueueProperties.create());
        sendOrdersAsGroups(queue, threeOrders());
        QueueSession tx = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        AqueductConsumer qrec = (AqueductConsumer) tx.createReceiver(queue);

        qrec.setNavigationMode(AqueductConsumer.NAVIGATION_FIRST_MESSAGE);
        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Dune");
        qrec.setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_MESSAGE);
        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Emma");
        assertThatThrownBy(qrec::receiveNoWait).isInstanceOfSatisfying(AqueductJMSException.class, e -> {
            assertThat(e.getErrorNumber()).isEqualTo(25235);
            assertThat(e.getErrorCode()).isEqualTo("AQ-25235");
        });
        tx.commit();

        qrec.setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_TRANSACTION);
        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Ulysses");
        // another session does not take books of the order this transaction is consuming
        QueueReceiver other = session.createReceiver(queue);
        assertThat(order(other.receiveNoWait()).orderNo()).isEqualTo(3);
        assertThat(other.receiveNoWait()).isNull();

        qrec.setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_MESSAGE);
        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Beloved");
        assertThat(order(qrec.receiveNoWait()).book()).isEqualTo("Walden");
        assertThatThrownBy(qrec::receiveNoWait).isInstanceOf(AqueductJMSException.class);
        tx.commit();
        assertThat(session.createBrowser(queue).getEnumeration().hasMoreElements()).isFalse();
    }

    @Test
    void a_blocking_receive_at_the_end_of_the_queue_goes_back_to_its_start_while_receiveNoWait_does_not() throws Exception {
        Queue queue = store.queue("OE_PRIORITY_QUE"); // priority-ordered
        QueueReceiver qrec = session.createReceiver(queue);
        ((AqueductConsumer) qrec).setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_MESSAGE);
        send(queue, new BolOrder(1, "Ana", "USA", "Dune"));
        assertThat(order(qrec.receive(5_000)).orderNo()).isEqualTo(1);

        // a rush order sorts before the consumer's position
        QueueSender sender = session.createSender(queue);
        sender.send(session.createObjectMessage(new BolOrder(2, "Bo", "UK", "Emma")), jakarta.jms.DeliveryMode.PERSISTENT, 9, 0);

        assertThat(qrec.receiveNoWait()).as("NEXT_MESSAGE without a wait stops at the end").isNull();
        assertThat(order(qrec.receive(5_000)).orderNo()).as("a blocking receive wraps to the start").isEqualTo(2);
    }

    // ------------------------------------------------------------------ process_international_orders: locked browsing, receiveNoData

    @Test
    void process_international_orders_removes_the_locked_orders_it_chose_without_reading_them_again() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        send(queue, new BolOrder(1, "Ana", "USA", "Dune"), new BolOrder(2, "Bo", "Canada", "Emma"),
                new BolOrder(3, "Cy", "Mexico", "Hamlet"), new BolOrder(4, "Di", "UK", "Walden"));
        QueueSession jmsSession = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueSession concurrent = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueReceiver concurrentReceiver = concurrent.createReceiver(queue);

        List<Integer> removed = new ArrayList<>();
        List<Integer> browsed = new ArrayList<>();
        AqueductBrowser browser = (AqueductBrowser) ((AqueductSession) jmsSession).createBrowser(queue, null, true);
        assertThat(browser.isLocked()).isTrue();
        for (Enumeration<?> messages = browser.getEnumeration(); messages.hasMoreElements(); ) {
            ObjectMessage objMessage = (ObjectMessage) messages.nextElement();
            BolOrder newOrder = (BolOrder) objMessage.getObject();
            browsed.add(newOrder.orderNo());
            if (newOrder.country().equals("Canada") || newOrder.country().equals("Mexico")) {
                String msgSel = "JMSMessageID = '" + objMessage.getJMSMessageID() + "'";
                AqueductConsumer qrec = (AqueductConsumer) jmsSession.createReceiver(queue, msgSel);
                assertThat(qrec.receiveNoData()).isTrue();
                removed.add(newOrder.orderNo());
            }
        }
        assertThat(browsed).containsExactly(1, 2, 3, 4);
        assertThat(removed).containsExactly(2, 3);

        // the browsed orders stay locked until the browsing session commits: nobody else takes them
        assertThat(concurrentReceiver.receiveNoWait()).isNull();

        jmsSession.commit();

        assertThat(order(concurrentReceiver.receive(5_000)).orderNo()).isEqualTo(1);
        assertThat(order(concurrentReceiver.receive(5_000)).orderNo()).isEqualTo(4);
        assertThat(concurrentReceiver.receiveNoWait()).isNull();
    }

    @Test
    void a_rollback_releases_the_locks_of_a_locked_browse_and_undoes_receiveNoData_without_an_attempt_for_the_browsed()
            throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        send(queue, new BolOrder(1, "Ana", "USA", "Dune"), new BolOrder(2, "Bo", "Canada", "Emma"));
        QueueSession jmsSession = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueReceiver concurrent = session.createReceiver(queue);

        Enumeration<?> messages = ((AqueductSession) jmsSession).createBrowser(queue, null, true).getEnumeration();
        List<String> ids = new ArrayList<>();
        while (messages.hasMoreElements()) {
            ids.add(((Message) messages.nextElement()).getJMSMessageID());
        }
        assertThat(ids).hasSize(2);
        AqueductConsumer qrec = (AqueductConsumer) jmsSession.createReceiver(queue, "JMSMessageID = '" + ids.get(1) + "'");
        assertThat(qrec.receiveNoData()).isTrue();
        assertThat(concurrent.receiveNoWait()).isNull();

        jmsSession.rollback();

        Message first = concurrent.receive(5_000);
        assertThat(first.getJMSMessageID()).isEqualTo(ids.get(0));
        assertThat(first.getJMSRedelivered()).isFalse(); // only browsed (locked): no attempt counted
        Message second = concurrent.receive(5_000);
        assertThat(second.getJMSMessageID()).isEqualTo(ids.get(1));
        assertThat(second.getIntProperty("JMSXDeliveryCount")).isEqualTo(2); // its removal was rolled back
    }

    @Test
    void a_locked_browser_in_another_session_cannot_lock_what_is_already_locked() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        send(queue, new BolOrder(1, "Ana", "USA", "Dune"));
        QueueSession first = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueSession second = connection.createQueueSession(true, Session.SESSION_TRANSACTED);

        assertThat(((AqueductSession) first).createBrowser(queue, null, true).getEnumeration().hasMoreElements()).isTrue();
        assertThat(((AqueductSession) second).createBrowser(queue, null, true).getEnumeration().hasMoreElements()).isFalse();
        // a plain browser still sees it: browsing takes no lock
        assertThat(second.createBrowser(queue).getEnumeration().hasMoreElements()).isTrue();

        first.commit();
        assertThat(((AqueductSession) second).createBrowser(queue, null, true).getEnumeration().hasMoreElements()).isTrue();
    }

    // ------------------------------------------------------------------ retries, retry delay, exception queues

    @Test
    void a_rolled_back_receive_is_a_failed_attempt_held_back_for_the_retry_delay_and_past_max_retries_moved_to_the_exception_queue()
            throws Exception {
        Queue queue = newOrdersQueue("WS_BOOKEDORDERS_QUE", MessageGrouping.NONE,
                QueueProperties.create().maxRetries(2).retryDelay(12 * 60 * 60));
        Queue exceptionQueue = defaultExceptionQueue("WS_BOOKEDORDERS_QUE");
        send(queue, new BolOrder(7, "Ed", "France", "Candide"));
        QueueSession tx = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueReceiver qrec = tx.createReceiver(queue);

        Message attempt1 = qrec.receive(5_000);
        String id = attempt1.getJMSMessageID();
        assertThat(attempt1.getJMSRedelivered()).isFalse();
        assertThat(attempt1.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        tx.rollback(); // insufficient inventory: the order could not be filled

        assertThat(qrec.receiveNoWait()).as("WAITING for the retry delay").isNull();
        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertThat(qrec.receive(300)).as("still WAITING a second before the retry delay ends").isNull();
        clock.advanceSeconds(1);

        Message attempt2 = qrec.receive(5_000);
        assertThat(attempt2.getJMSMessageID()).isEqualTo(id);
        assertThat(attempt2.getJMSRedelivered()).isTrue();
        assertThat(attempt2.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        tx.rollback();
        clock.advance(Duration.ofHours(12));

        Message attempt3 = qrec.receive(5_000);
        assertThat(attempt3.getIntProperty("JMSXDeliveryCount")).isEqualTo(3);
        tx.rollback(); // the third failure exceeds max_retries 2

        clock.advance(Duration.ofHours(12));
        assertThat(qrec.receive(300)).isNull();
        QueueReceiver excp = tx.createReceiver(exceptionQueue);
        Message expired = excp.receive(5_000);
        assertThat(order(expired).orderNo()).isEqualTo(7);
        assertThat(expired.getJMSMessageID()).isEqualTo(id);
        tx.commit();
        assertThat(excp.receiveNoWait()).isNull();
    }

    @Test
    void the_JMS_OracleExcpQ_property_names_the_exception_queue_of_one_message() throws Exception {
        Queue queue = newOrdersQueue("WS_BACKORDERS_QUE", MessageGrouping.NONE, QueueProperties.create().maxRetries(0));
        Queue defaultExceptionQueue = defaultExceptionQueue("WS_BACKORDERS_QUE");
        store.admin().createQueue("WS_BACK_ORDERS_EXCP_QUE", "WS_BACKORDERS_QUE_T",
                QueueProperties.create().queueType(QueueType.EXCEPTION));
        store.admin().startQueue("WS_BACK_ORDERS_EXCP_QUE", false, true);
        Queue ownExceptionQueue = new AqueductQueue("WS_BACK_ORDERS_EXCP_QUE");

        ObjectMessage withOwn = session.createObjectMessage(new BolOrder(8, "Fay", "USA", "Persuasion"));
        withOwn.setStringProperty("JMS_OracleExcpQ", "WS_BACK_ORDERS_EXCP_QUE");
        session.createSender(queue).send(withOwn);
        send(queue, new BolOrder(9, "Gus", "USA", "Middlemarch"));

        QueueSession tx = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        QueueReceiver qrec = tx.createReceiver(queue);
        assertThat(qrec.receive(5_000)).isNotNull();
        assertThat(qrec.receive(5_000)).isNotNull();
        tx.rollback(); // max_retries 0: both move to an exception queue at once

        assertThat(order(tx.createReceiver(ownExceptionQueue).receive(5_000)).orderNo()).isEqualTo(8);
        assertThat(order(tx.createReceiver(defaultExceptionQueue).receive(5_000)).orderNo()).isEqualTo(9);
        tx.commit();
        assertThat(tx.createReceiver(ownExceptionQueue).receiveNoWait()).isNull();
        assertThat(tx.createReceiver(defaultExceptionQueue).receiveNoWait()).isNull();
    }

    @Test
    void nothing_is_sent_to_an_exception_queue() throws Exception {
        newOrdersQueue("WS_BACKORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        Queue exceptionQueue = defaultExceptionQueue("WS_BACKORDERS_QUE");
        assertThatThrownBy(() -> session.createSender(exceptionQueue).send(session.createTextMessage("x")))
                .isInstanceOf(jakarta.jms.InvalidDestinationException.class);
    }

    @Test
    void JMS_OracleDelay_holds_a_message_back_for_its_seconds() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        ObjectMessage delayed = session.createObjectMessage(new BolOrder(10, "Hal", "USA", "Kim"));
        delayed.setIntProperty("JMS_OracleDelay", 30);
        session.createSender(queue).send(delayed);
        QueueReceiver qrec = session.createReceiver(queue);

        assertThat(qrec.receiveNoWait()).isNull();
        clock.advanceSeconds(29);
        assertThat(qrec.receive(300)).isNull();
        clock.advanceSeconds(1);
        assertThat(order(qrec.receive(5_000)).orderNo()).isEqualTo(10);
    }

    @Test
    void JMS_OracleDelay_overrides_the_producers_delivery_delay() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        QueueSender sender = session.createSender(queue);
        sender.setDeliveryDelay(Duration.ofHours(1).toMillis());
        ObjectMessage m = session.createObjectMessage(new BolOrder(11, "Ivy", "USA", "Kim"));
        m.setIntProperty("JMS_OracleDelay", 0);
        sender.send(m);

        assertThat(order(session.createReceiver(queue).receive(5_000)).orderNo()).isEqualTo(11);
    }

    @Test
    void a_negative_JMS_OracleDelay_is_refused() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        ObjectMessage m = session.createObjectMessage(new BolOrder(12, "Jo", "USA", "Kim"));
        m.setIntProperty("JMS_OracleDelay", -1);
        assertThatThrownBy(() -> session.createSender(queue).send(m)).isInstanceOf(jakarta.jms.MessageFormatException.class);
        assertThat(session.createReceiver(queue).receiveNoWait()).isNull();
    }

    // ------------------------------------------------------------------ message listeners

    @Test
    void an_OrderListener_processes_new_orders_as_they_arrive() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        List<BolOrder> processed = new CopyOnWriteArrayList<>();
        QueueSession listening = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueReceiver qrec = listening.createReceiver(queue);
        qrec.setMessageListener(m -> {
            try {
                processed.add(order(m));
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });

        send(queue, new BolOrder(1, "Ana", "USA", "Dune"), new BolOrder(2, "Bo", "UK", "Emma"),
                new BolOrder(3, "Cy", "Canada", "Hamlet"));

        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 3);
        assertThat(processed).extracting(BolOrder::orderNo).containsExactly(1, 2, 3);
        listening.close(); // acknowledged as each onMessage returned: nothing is delivered again
        assertThat(session.createReceiver(queue).receiveNoWait()).isNull();
    }

    @Test
    void a_message_whose_listener_throws_is_delivered_again_as_redelivered() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        List<String> deliveries = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();
        QueueSession listening = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageListener orderListener = m -> {
            try {
                deliveries.add(m.getJMSMessageID() + " redelivered=" + m.getJMSRedelivered()
                        + " count=" + m.getIntProperty("JMSXDeliveryCount"));
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("process_order failed");
            }
        };
        listening.createReceiver(queue).setMessageListener(orderListener);

        send(queue, new BolOrder(1, "Ana", "USA", "Dune"));

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 2);
        String id = deliveries.get(0).split(" ")[0];
        assertThat(deliveries).containsExactly(id + " redelivered=false count=1", id + " redelivered=true count=2");
        listening.close();
        assertThat(session.createReceiver(queue).receiveNoWait()).isNull();
    }

    @Test
    void a_listener_navigating_NEXT_MESSAGE_goes_back_to_the_start_of_the_queue_for_a_message_sorting_before_it()
            throws Exception {
        Queue queue = store.queue("OE_PRIORITY_QUE"); // priority-ordered
        List<Integer> processed = new CopyOnWriteArrayList<>();
        QueueSession listening = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueReceiver qrec = listening.createReceiver(queue);
        ((AqueductConsumer) qrec).setNavigationMode(AqueductConsumer.NAVIGATION_NEXT_MESSAGE);
        qrec.setMessageListener(m -> {
            try {
                processed.add(order(m).orderNo());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        send(queue, new BolOrder(1, "Ana", "USA", "Dune"));
        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 1);

        session.createSender(queue).send(session.createObjectMessage(new BolOrder(2, "Bo", "UK", "Emma")),
                jakarta.jms.DeliveryMode.PERSISTENT, 9, 0);

        await().atMost(Duration.ofSeconds(10)).until(() -> processed.size() == 2);
        assertThat(processed).containsExactly(1, 2);
    }

    @Test
    void a_listener_of_a_transacted_session_commits_or_rolls_back_the_receipt_itself() throws Exception {
        Queue queue = newOrdersQueue("OE_NEWORDERS_QUE", MessageGrouping.NONE, QueueProperties.create());
        QueueSession theSess = connection.createQueueSession(true, Session.SESSION_TRANSACTED);
        List<Integer> committed = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        theSess.createReceiver(queue).setMessageListener(m -> {
            try {
                BolOrder o = order(m);
                if (calls.incrementAndGet() == 1) {
                    theSess.rollback(); // could not be processed this time
                } else {
                    committed.add(o.orderNo());
                    theSess.commit();
                }
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });

        send(queue, new BolOrder(5, "Ana", "USA", "Dune"));

        await().atMost(Duration.ofSeconds(10)).until(() -> committed.size() == 1);
        assertThat(calls).hasValue(2);
        theSess.close();
        assertThat(session.createReceiver(queue).receiveNoWait()).isNull();
    }
}
