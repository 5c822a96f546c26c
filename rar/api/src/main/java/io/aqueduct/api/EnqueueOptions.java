package io.aqueduct.api;

/** AQ's enqueue options. */
public final class EnqueueOptions {
    private Visibility visibility = Visibility.ON_COMMIT;
    private String transformation;
    private DeliveryMode deliveryMode = DeliveryMode.PERSISTENT;

    public static EnqueueOptions create() {
        return new EnqueueOptions();
    }

    public EnqueueOptions visibility(Visibility visibility) {
        this.visibility = visibility == null ? Visibility.ON_COMMIT : visibility;
        return this;
    }

    public Visibility visibility() {
        return visibility;
    }

    /**
     * A transformation ({@code [schema.]name}) applied to each payload before it is enqueued: the
     * payload must be of the transformation's source type, and its target type must be the queue
     * table's payload type. Unknown: 24185; wrong source type: 24186; a failing transformation: 25229.
     */
    public EnqueueOptions transformation(String transformation) {
        this.transformation = transformation;
        return this;
    }

    public String transformation() {
        return transformation;
    }

    /**
     * PERSISTENT (the default: the message is written to the store) or BUFFERED (kept in this engine's
     * memory, lost when the JVM stops; needs {@link Visibility#IMMEDIATE}; see docs/buffered.md).
     * PERSISTENT_OR_BUFFERED is a dequeue option: an enqueue with it is refused with 24097.
     */
    public EnqueueOptions deliveryMode(DeliveryMode deliveryMode) {
        this.deliveryMode = deliveryMode == null ? DeliveryMode.PERSISTENT : deliveryMode;
        return this;
    }

    public DeliveryMode deliveryMode() {
        return deliveryMode;
    }
}
