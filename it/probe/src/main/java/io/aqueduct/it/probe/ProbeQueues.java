package io.aqueduct.it.probe;

/**
 * The queues of the probe MDBs. The tests create them through the adapter's queueDefinitions
 * (the system property aqueduct.queueDefinitions of the embedded server), e.g.
 * {@code table IT.IT_QTAB payload=TEXT; queue IT.FLAKY_Q table=IT.IT_QTAB max_retries=2 retry_delay=2; ...}.
 */
public final class ProbeQueues {
    public static final String RA = "aqueduct-booksonline#aqueduct-rar";
    /**
     * The same adapter as resource definitions (@JMSConnectionFactoryDefinition, @JMSDestinationDefinition,
     * ...) must name it: an adapter embedded in the application is "#rarName" there; Payara puts the
     * application's name in front itself and refuses "app#rar" (AS-DEPLOYMENT-00020, "Application
     * validation fails ... for jndi-name []").
     */
    public static final String RA_OF_THIS_APPLICATION = "#aqueduct-rar";
    public static final String FLAKY = "IT.FLAKY_Q";
    public static final String ROLLBACK_ONLY = "IT.RBONLY_Q";
    public static final String EXCEPTIONS = "IT.IT_EXCEPTIONS";
    public static final String DRAIN = "IT.DRAIN_Q";
    public static final String DELAY = "IT.DELAY_Q";
    public static final String BENCH1 = "IT.BENCH1_Q";
    public static final String BENCH4 = "IT.BENCH4_Q";
    /**
     * A multi-consumer queue (table IT.IT_MC_QTAB, multiple_consumers=true) with two subscribers,
     * added by the adapter's queue definitions: WEST_SHIPPING (rule: corrid WESTERN or
     * INTERNATIONAL) and EAST_SHIPPING (rule: corrid EASTERN or INTERNATIONAL); one MDB consumes as each.
     */
    public static final String SHIP = "IT.SHIP_Q";
    public static final String WEST = "WEST_SHIPPING";
    public static final String EAST = "EAST_SHIPPING";
    /** Subscribed to WESTERN and INTERNATIONAL; its MDB's dequeue condition takes INTERNATIONAL only. */
    public static final String OVERSEAS = "OVERSEAS_SHIPPING";
    /**
     * Propagation (the adapter's queue definitions): the multi-consumer IT.PROP_SRC (table
     * IT.IT_MC_QTAB) has one subscriber, FORWARD, a remote one whose address is IT.PROP_DST, and a
     * schedule with latency 0; {@link PropagatedMdb} consumes IT.PROP_DST (table IT.IT_QTAB).
     */
    public static final String PROPAGATION_SOURCE = "IT.PROP_SRC";
    public static final String PROPAGATED = "IT.PROP_DST";

    /** No consumer: the EJB-enqueue benchmark's target. */
    public static final String SINK = "IT.SINK_Q";

    // ------------------------------------------------------------------ Jakarta Messaging (RAW queue tables)

    /**
     * The probe's JMS resources, application-scoped, declared with {@code @JMSConnectionFactoryDefinition} /
     * {@code @JMSDestinationDefinition} on {@link ProbeJmsBean}.
     */
    public static final String JMS_CF = "java:app/jms/ItConnectionFactory";
    /** The JMS queue on {@link #JMS_Q}, looked up by {@link JmsMdbs.Received} (destinationLookup). */
    public static final String JMS_QUEUE = "java:app/jms/ItQueue";
    /** The JMS topic on {@link #JMS_T}. */
    public static final String JMS_TOPIC = "java:app/jms/ItTopic";
    /** The user of {@link #JMS_CF} (its UserName): the JMSXUserID of what it sends. */
    public static final String JMS_USER = "PROBE";
    /** The client id of {@link #JMS_CF}'s connections. */
    public static final String JMS_CLIENT_ID = "it-probe-client";

    /** Single-consumer queues of table IT.IT_JMS_QTAB (payload RAW, sort priority,enq_time). */
    public static final String JMS_Q = "IT.JMS_Q";
    public static final String JMS_FLAKY = "IT.JMS_FLAKY_Q";
    public static final String JMS_ROLLBACK_ONLY = "IT.JMS_RBONLY_Q";
    public static final String JMS_SELECTED = "IT.JMS_SEL_Q";
    public static final String JMS_DRAIN = "IT.JMS_DRAIN_Q";
    public static final String JMS_EXCEPTIONS = "IT.JMS_EXCEPTIONS";
    public static final String JMS_BENCH1 = "IT.JMS_BENCH1_Q";
    public static final String JMS_BENCH4 = "IT.JMS_BENCH4_Q";
    public static final String JMS_SINK = "IT.JMS_SINK_Q";
    /** A multi-consumer queue of table IT.IT_JMS_MQTAB: a JMS topic. */
    public static final String JMS_T = "IT.JMS_T";
    /** What {@link JmsMdbs.Selective} selects: messages whose color property is red. */
    public static final String RED = "color = 'red'";

    private ProbeQueues() {
    }
}
