package io.aqueduct.api;

/** What DBMS_AQADM.CREATE_QUEUE_TABLE takes. */
public final class QueueTableProperties {
    private PayloadType payloadType = PayloadType.RAW;
    private String objectType;
    private SortOrder sortOrder = SortOrder.ENQ_TIME;
    private boolean multipleConsumers;
    private MessageGrouping messageGrouping = MessageGrouping.NONE;
    private String comment;

    public static QueueTableProperties create() {
        return new QueueTableProperties();
    }

    /** RAW, TEXT, JSON or XML payloads. */
    public QueueTableProperties payloadType(PayloadType payloadType) {
        if (payloadType == PayloadType.OBJECT) {
            throw new AqException(AqError.INVALID_VALUE, "An OBJECT queue table needs its type: use objectType(className).");
        }
        this.payloadType = payloadType;
        this.objectType = null;
        return this;
    }

    /** Java-object payloads of this class (a fully qualified, serializable class name). */
    public QueueTableProperties objectType(String className) {
        this.payloadType = PayloadType.OBJECT;
        this.objectType = className;
        return this;
    }

    public QueueTableProperties sortOrder(SortOrder sortOrder) {
        this.sortOrder = sortOrder == null ? SortOrder.ENQ_TIME : sortOrder;
        return this;
    }

    public QueueTableProperties multipleConsumers(boolean multipleConsumers) {
        this.multipleConsumers = multipleConsumers;
        return this;
    }

    public QueueTableProperties messageGrouping(MessageGrouping messageGrouping) {
        this.messageGrouping = messageGrouping == null ? MessageGrouping.NONE : messageGrouping;
        return this;
    }

    public QueueTableProperties comment(String comment) {
        this.comment = comment;
        return this;
    }

    public PayloadType payloadType() {
        return payloadType;
    }

    public String objectType() {
        return objectType;
    }

    public SortOrder sortOrder() {
        return sortOrder;
    }

    public boolean multipleConsumers() {
        return multipleConsumers;
    }

    public MessageGrouping messageGrouping() {
        return messageGrouping;
    }

    public String comment() {
        return comment;
    }
}
