package io.aqueduct.api;

/** The AQ error numbers Aqueduct reports, named after the condition. */
public final class AqError {
    private AqError() {
    }

    /** A failure of the store itself (a statement the database refused, I/O); the cause says more. */
    public static final int STORE_FAILURE = 0;
    /**
     * The store cannot be reached: its database is down or the connection broke (ORA-03113,
     * "end-of-file on communication channel"). Nothing of the call was kept; the session's
     * uncommitted work is rolled back. The same session works again once the store is back.
     */
    public static final int STORE_UNAVAILABLE = 3113;
    /**
     * The connection broke while a commit was under way and the store could not be asked whether it
     * committed (ORA-25405, "transaction status unknown"). The engine finds out by itself once the
     * store is back (the messages' rows tell it) and counts a failed attempt only if it rolled back.
     */
    public static final int COMMIT_OUTCOME_UNKNOWN = 25405;
    /** Queue table already exists. */
    public static final int QUEUE_TABLE_EXISTS = 24001;
    /** Queue table does not exist. */
    public static final int QUEUE_TABLE_NOT_FOUND = 24002;
    /** Queue already exists. */
    public static final int QUEUE_EXISTS = 24006;
    /** Queue does not exist (administrative interface). */
    public static final int QUEUE_NOT_FOUND = 24010;
    /** A queue must be stopped before it is dropped. */
    public static final int QUEUE_NOT_STOPPED = 24011;
    /** A queue table still holds queues and force was not given. */
    public static final int QUEUE_TABLE_HAS_QUEUES = 24012;
    /** An exception queue cannot be enabled for enqueue. */
    public static final int EXCEPTION_QUEUE_ENQUEUE = 24017;
    /** An identifier is too long. */
    public static final int NAME_TOO_LONG = 24019;
    /** No subscribers and no recipients for a message of a multi-consumer queue. */
    public static final int NO_RECIPIENTS = 24033;
    /** The agent is already a subscriber of the queue. */
    public static final int SUBSCRIBER_EXISTS = 24034;
    /** The agent is not a subscriber of the queue. */
    public static final int NOT_A_SUBSCRIBER = 24035;
    /** Subscribers and recipients belong to multi-consumer queues only. */
    public static final int NOT_MULTI_CONSUMER = 24039;
    /** A queue has at most 1024 subscribers. */
    public static final int TOO_MANY_SUBSCRIBERS = 24067;
    /** The same agent appears twice in a recipient list. */
    public static final int DUPLICATE_RECIPIENTS = 25232;
    /** A queue is busy (outstanding transactions) and the caller asked not to wait. */
    public static final int QUEUE_BUSY = 24203;
    /** A queue is not enabled for enqueue. */
    public static final int ENQUEUE_DISABLED = 25207;
    /** A negative delay. */
    public static final int INVALID_DELAY = 25203;
    /** A negative expiration other than NEVER. */
    public static final int INVALID_EXPIRATION = 25209;
    /** A value that must be non-negative is negative (max_retries, retry_delay, retention, wait, ...). */
    public static final int INVALID_VALUE = 24097;
    /** The queue does not exist (operational interface). */
    public static final int QUEUE_DOES_NOT_EXIST = 25205;
    /** The payload does not match the queue table's payload type. */
    public static final int PAYLOAD_TYPE_MISMATCH = 25215;
    /** A queue is not enabled for dequeue. */
    public static final int DEQUEUE_DISABLED = 25226;
    /** No message (NO_WAIT, end of fetch) or the wait timed out. */
    public static final int NO_MESSAGE = 25228;
    /** A consumer name is required for a multi-consumer queue. */
    public static final int CONSUMER_NAME_REQUIRED = 25231;
    /** All messages of the current transaction group have been fetched. */
    public static final int END_OF_GROUP = 25235;
    /** Correlation changed between dequeue calls without FIRST_MESSAGE. */
    public static final int CORRELATION_CHANGED = 25241;
    /** LISTEN timed out. */
    public static final int LISTEN_TIMEOUT = 25254;
    /** No message with the given message id in the queue. */
    public static final int MESSAGE_NOT_FOUND = 25263;
    /** A dequeue condition, subscriber rule or selector has errors (the message gives the position). */
    public static final int INVALID_EXPRESSION = 25448;
    /** A transformation of that name already exists (ORA-24184). */
    public static final int TRANSFORMATION_EXISTS = 24184;
    /** No transformation of that name (ORA-24185). */
    public static final int TRANSFORMATION_NOT_FOUND = 24185;
    /**
     * A payload, queue or transformation of the wrong type for a transformation: the payload is not
     * of its source type, or its types do not fit the queue (ORA-24186).
     */
    public static final int TRANSFORMATION_WRONG_TYPE = 24186;
    /**
     * A transformation failed on a message: its function threw, or its result is not of the target
     * type (ORA-25229, "error on transformation of message"); the cause says more.
     */
    public static final int TRANSFORMATION_FAILED = 25229;
    /** A propagation schedule for this queue and destination already exists (ORA-24041). */
    public static final int SCHEDULE_EXISTS = 24041;
    /** No propagation schedule for this queue and destination (ORA-24042). */
    public static final int SCHEDULE_NOT_FOUND = 24042;
    /** The propagation schedule is already enabled (ORA-24064). */
    public static final int SCHEDULE_ALREADY_ENABLED = 24064;
    /** The propagation schedule is already disabled (ORA-24065). */
    public static final int SCHEDULE_ALREADY_DISABLED = 24065;
    /** A database link of that name already exists (ORA-02011). */
    public static final int DATABASE_LINK_EXISTS = 2011;
    /** No database link of that name (ORA-02019, "connection description for remote database not found"). */
    public static final int DATABASE_LINK_NOT_FOUND = 2019;
    /** The store a database link names cannot be reached or opened (ORA-12541-like: the link is valid, its store is not there). */
    public static final int DATABASE_LINK_UNREACHABLE = 12541;
    /**
     * The credentials of a database link were refused by the Aqueduct servlet it reaches over HTTP (ORA-01017,
     * "invalid username/password; logon denied"): the link's user is not a user of that server's realm.
     */
    public static final int LOGON_DENIED = 1017;
    /** A name is not a valid identifier. */
    public static final int INVALID_NAME = 44003;
    /**
     * The JVM ran out of heap during the call (ORA-04030, "out of process memory"): the work of the
     * session's transaction is rolled back (an XA branch is doomed); the session stays usable.
     */
    public static final int OUT_OF_MEMORY = 4030;
    /** UNREGISTER of a registration that does not exist (ORA-24950, "unregister failed, registration not found"). */
    public static final int REGISTRATION_NOT_FOUND = 24950;
    /** A registration's notification address is not one Aqueduct delivers to (ORA-24915-like: http://, https://, mailto:, java:). */
    public static final int INVALID_NOTIFICATION_ADDRESS = 24915;
    /**
     * A buffered operation on a queue that cannot hold buffered messages (ORA-25292, "Buffer operations
     * are not supported on the queue"): a queue table with transactional grouping. Nothing was done.
     */
    public static final int BUFFERED_NOT_SUPPORTED = 25292;
    /**
     * A buffered enqueue found the engine's buffered-message memory full for longer than its wait
     * (ORA-25307, "Enqueue rate too high, flow control enabled"): nothing was enqueued; dequeue, or
     * try again later.
     */
    public static final int FLOW_CONTROL = 25307;
    /** The session is closed or in a state that forbids the call. */
    public static final int SESSION_STATE = 25400;
    /**
     * The session's user lacks the privilege the operation needs (ORA-01031, "insufficient
     * privileges"): nothing was done. The message names the privilege to grant.
     */
    public static final int INSUFFICIENT_PRIVILEGES = 1031;
    /** A queue privilege to revoke was not granted to that grantee (ORA-01927, "cannot REVOKE privileges you did not grant"). */
    public static final int PRIVILEGE_NOT_GRANTED = 1927;
    /** A system privilege to revoke was not granted to that grantee (ORA-01952, "system privileges not granted to"). */
    public static final int SYSTEM_PRIVILEGE_NOT_GRANTED = 1952;
    /** No AQ agent of that name (ORA-24088, "AQ Agent does not exist"). */
    public static final int AGENT_NOT_FOUND = 24088;
    /** An AQ agent of that name exists already (ORA-24089, "AQ Agent already exists"). */
    public static final int AGENT_EXISTS = 24089;
    /** The agent is not mapped to that database user (ORA-24093, "AQ agent not granted privileges of database user"). */
    public static final int AGENT_NOT_MAPPED = 24093;
}
