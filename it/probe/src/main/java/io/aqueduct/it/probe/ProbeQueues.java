package io.aqueduct.it.probe;

/**
 * The queues of the probe MDBs. The tests create them through the adapter's queueDefinitions
 * (the system property aqueduct.queueDefinitions of the embedded server), e.g.
 * {@code table IT.IT_QTAB payload=TEXT; queue IT.FLAKY_Q table=IT.IT_QTAB max_retries=2 retry_delay=2; ...}.
 */
public final class ProbeQueues {
    public static final String RA = "aqueduct-booksonline#aqueduct-rar";
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

    private ProbeQueues() {
    }
}
