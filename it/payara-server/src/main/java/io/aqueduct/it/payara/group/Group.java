package io.aqueduct.it.payara.group;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Names the group application shares with the test, and what this instance received. Each instance
 * of the deployment group has its own JVM, so these lists are that instance's own.
 */
public final class Group {
    /** The adapter deployed standalone by server-config/shared-store.asadmin. */
    public static final String RA = "aqueduct-rar";
    /** The group's connector resource of shared-store.asadmin (XA). */
    public static final String QUEUE_SESSIONS = "aqueduct/QueueSessions";
    /** A RAW single-consumer queue of server-config/queue-definitions.txt (the sample's billing queue). */
    public static final String QUEUE = "CB.CB_BILLING_QUE";

    /** The prefix of an acknowledgement message. */
    static final String ACK = "ack ";

    /** Every key this instance's MDB was given, in order, duplicates kept (a duplicate is a failure to see). */
    static final ConcurrentLinkedQueue<String> RECEIVED = new ConcurrentLinkedQueue<>();
    /** Every acknowledgement ("ack &lt;key&gt; &lt;instance that received the key&gt;") this instance's MDB was given. */
    static final ConcurrentLinkedQueue<String> ACKS = new ConcurrentLinkedQueue<>();
    /** Each firing of the persistent timer on this instance. */
    static final ConcurrentLinkedQueue<String> TICKS = new ConcurrentLinkedQueue<>();

    static String instance() {
        return System.getProperty("com.sun.aas.instanceName", "?");
    }

    static List<String> received() {
        return List.copyOf(RECEIVED);
    }

    private Group() {
    }
}
