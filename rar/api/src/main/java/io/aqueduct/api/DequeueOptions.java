package io.aqueduct.api;

/**
 * AQ's dequeue options. Defaults: REMOVE, NEXT_MESSAGE (the first call in a session starts at the
 * head of the queue), wait FOREVER, ON_COMMIT, no msgid, no correlation, PERSISTENT messages only.
 */
public final class DequeueOptions {
    /** Wait: block until a message is available. */
    public static final long FOREVER = -1;
    /** Wait: return at once (25228 if nothing is available). */
    public static final long NO_WAIT = 0;

    private String consumerName;
    private DequeueMode mode = DequeueMode.REMOVE;
    private Navigation navigation = Navigation.NEXT_MESSAGE;
    private Visibility visibility = Visibility.ON_COMMIT;
    private long waitSeconds = FOREVER;
    private MessageId messageId;
    private String correlation;
    private String condition;
    private String selector;
    private String transformation;
    private DeliveryMode deliveryMode = DeliveryMode.PERSISTENT;

    public static DequeueOptions create() {
        return new DequeueOptions();
    }

    /** The consumer dequeuing; required on multi-consumer queues, null on single-consumer queues. */
    public DequeueOptions consumerName(String consumerName) {
        this.consumerName = consumerName;
        return this;
    }

    public DequeueOptions mode(DequeueMode mode) {
        this.mode = mode == null ? DequeueMode.REMOVE : mode;
        return this;
    }

    public DequeueOptions navigation(Navigation navigation) {
        this.navigation = navigation == null ? Navigation.NEXT_MESSAGE : navigation;
        return this;
    }

    public DequeueOptions visibility(Visibility visibility) {
        this.visibility = visibility == null ? Visibility.ON_COMMIT : visibility;
        return this;
    }

    /** Seconds to wait for a message: {@link #FOREVER}, {@link #NO_WAIT} or a number of seconds. */
    public DequeueOptions waitSeconds(long waitSeconds) {
        this.waitSeconds = waitSeconds;
        return this;
    }

    /** Dequeue exactly this message. */
    public DequeueOptions messageId(MessageId messageId) {
        this.messageId = messageId;
        return this;
    }

    /** Dequeue only messages with this correlation; {@code %} and {@code _} are wildcards as in LIKE. */
    public DequeueOptions correlation(String correlation) {
        this.correlation = correlation;
        return this;
    }

    /**
     * Dequeue only a message for which this condition is true: a SQL-WHERE-like expression on
     * message properties ({@code priority}, {@code corrid}, ...) and payload attributes
     * ({@code tab.user_data.orderregion = 'WESTERN'}). Malformed: 25448.
     */
    public DequeueOptions condition(String condition) {
        this.condition = condition;
        return this;
    }

    public String condition() {
        return condition;
    }

    /**
     * Dequeue only a message this Jakarta Messaging message selector selects (the JMS 3.1 syntax:
     * properties by their exact name, the header fields JMSMessageID, JMSCorrelationID, JMSPriority,
     * JMSTimestamp, JMSDeliveryMode and JMSType; see docs/jms.md). Null or blank: every message.
     * With a condition as well, both must hold. Malformed: 25448, before anything happens.
     */
    public DequeueOptions selector(String selector) {
        this.selector = selector;
        return this;
    }

    public String selector() {
        return selector;
    }

    /**
     * A transformation ({@code [schema.]name}) applied to the dequeued payload; its source type
     * must be the queue table's payload type (or, for a subscriber with a transformation, that
     * transformation's target type: the subscriber's transformation applies first). Unknown:
     * 24185; wrong source type: 24186; a failing transformation: 25229 (nothing is dequeued).
     */
    public DequeueOptions transformation(String transformation) {
        this.transformation = transformation;
        return this;
    }

    public String transformation() {
        return transformation;
    }

    /**
     * Which messages a dequeue takes: PERSISTENT ones (the default, as in AQ), BUFFERED ones (kept in
     * this engine's memory; needs {@link Visibility#IMMEDIATE} and is refused in LOCKED mode) or
     * PERSISTENT_OR_BUFFERED (the first of either in the queue's order; a buffered one is removed at once,
     * outside the transaction). See docs/buffered.md.
     */
    public DequeueOptions deliveryMode(DeliveryMode deliveryMode) {
        this.deliveryMode = deliveryMode == null ? DeliveryMode.PERSISTENT : deliveryMode;
        return this;
    }

    public DeliveryMode deliveryMode() {
        return deliveryMode;
    }

    public String consumerName() {
        return consumerName;
    }

    public DequeueMode mode() {
        return mode;
    }

    public Navigation navigation() {
        return navigation;
    }

    public Visibility visibility() {
        return visibility;
    }

    public long waitSeconds() {
        return waitSeconds;
    }

    public MessageId messageId() {
        return messageId;
    }

    public String correlation() {
        return correlation;
    }

    public DequeueOptions copy() {
        DequeueOptions c = new DequeueOptions();
        c.consumerName = consumerName;
        c.mode = mode;
        c.navigation = navigation;
        c.visibility = visibility;
        c.waitSeconds = waitSeconds;
        c.messageId = messageId;
        c.correlation = correlation;
        c.condition = condition;
        c.selector = selector;
        c.transformation = transformation;
        c.deliveryMode = deliveryMode;
        return c;
    }
}
