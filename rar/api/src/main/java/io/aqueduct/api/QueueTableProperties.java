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

    /** The longest object type name the catalog keeps (OBJECT_TYPE column). */
    public static final int MAX_OBJECT_TYPE_CHARS = 256;

    /** RAW, TEXT, JSON or XML payloads; null means the default, RAW. */
    public QueueTableProperties payloadType(PayloadType payloadType) {
        if (payloadType == PayloadType.OBJECT) {
            throw new AqException(AqError.INVALID_VALUE, "An OBJECT queue table needs its type: use objectType(className).");
        }
        this.payloadType = payloadType == null ? PayloadType.RAW : payloadType;
        this.objectType = null;
        return this;
    }

    /**
     * Java-object payloads of this class (a fully qualified, serializable class name, at most
     * {@value #MAX_OBJECT_TYPE_CHARS} characters: 24097 otherwise).
     */
    public QueueTableProperties objectType(String className) {
        if (className != null && className.length() > MAX_OBJECT_TYPE_CHARS) {
            throw new AqException(AqError.INVALID_VALUE, "An object type name has at most " + MAX_OBJECT_TYPE_CHARS
                    + " characters; got " + className.length() + ".");
        }
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

    /** A comment (at most 2000 bytes in UTF-8, checked at creation); NUL or half a surrogate pair: 24097. */
    public QueueTableProperties comment(String comment) {
        StorableText.check(comment, "A queue table comment");
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
